/*
 * Float VIF row kernels (libvmaf vif.c, vif_tools.c, scalar C), compiled once per CPU level:
 * float_vif_rows.c (the C reference), float_vif_avx2.c, float_vif_avx512.c include this file
 * with VIF_FLOAT_ISA set, and the compiler vectorises the loops for that level. Every loop runs
 * across a row with each output's own operations in the reference's order (taps in order from
 * 0, no reassociation, no contraction: -ffp-contract=off), so every level gives the same bits;
 * the row's pixel terms are added in column order, as the reference. tests/checkasm compares.
 */
#include "features/vif/float_vif_kernels.h"

#define VFF_CAT_(a, b) a##_##b
#define VFF_CAT(a, b) VFF_CAT_(a, b)
#define VFF_FN(name) VFF_CAT(name, VIF_FLOAT_ISA)

/* The r samples beyond each end of a line of w > r, mirrored as the reference's filters. */
static void pad_line(float *line, const int w, const int r)
{
    for (int t = 1; t <= r; t++) {
        line[-t] = line[vif_mirror(-t, w)];
        line[w - 1 + t] = line[vif_mirror(w - 1 + t, w)];
    }
}

/* One tap of the vertical pass across a row: mu1, mu2 and the filtered x^2, y^2, xy
 * (products rounded to float before the tap multiply, as the reference). */
static void stat_vert_tap(float *restrict m1, float *restrict m2, float *restrict xx,
                          float *restrict yy, float *restrict xy, const float *restrict x,
                          const float *restrict y, const float c, const int w)
{
    for (int j = 0; j < w; j++) {
        m1[j] += c * x[j];
        m2[j] += c * y[j];
        xx[j] += c * (x[j] * x[j]);
        yy[j] += c * (y[j] * y[j]);
        xy[j] += c * (x[j] * y[j]);
    }
}

/* Vertical pass of one row: every output a float sum from 0, taps in order. */
static void stat_vert(float *const *line, const float *const *ref, const float *const *dis,
                      const VifFloatFilter *f, const int w)
{
    for (int l = 0; l < VIF_FLOAT_LINES; l++)
        for (int j = 0; j < w; j++)
            line[l][j] = 0;
    for (int k = 0; k < f->n; k++)
        stat_vert_tap(line[0], line[1], line[2], line[3], line[4], ref[k], dis[k], f->tap[k], w);
}

/* Horizontal pass of one padded line at every column. */
static void horiz(float *restrict out, const float *restrict line, const VifFloatFilter *f,
                  const int w)
{
    const int r = f->n / 2;
    for (int j = 0; j < w; j++)
        out[j] = 0;
    for (int k = 0; k < f->n; k++) {
        const float c = f->tap[k];
        const float *restrict src = line - r + k;
        for (int j = 0; j < w; j++)
            out[j] += c * src[j];
    }
}

void VFF_FN(vif_float_stat_row)(float *num, float *den, const float *const *ref,
                                const float *const *dis, const int w, const VifFloatFilter *f,
                                const VifFloatParams *p, const VifFloatRows *rows)
{
    stat_vert(rows->line, ref, dis, f, w);
    for (int l = 0; l < VIF_FLOAT_LINES; l++) {
        pad_line(rows->line[l], w, f->n / 2);
        horiz(rows->out[l], rows->line[l], f, w);
    }
    float row_num = 0, row_den = 0;
    for (int j = 0; j < w; j++) {
        float n, d;
        vif_float_pixel(rows->out[0][j], rows->out[1][j], rows->out[2][j], rows->out[3][j],
                        rows->out[4][j], p, &n, &d);
        row_num += n;
        row_den += d;
    }
    *num = row_num;
    *den = row_den;
}

/* One output row of the next scale: the mean filter of the input rows rows[0..n-1] (the
 * rows around 2i, mirrored), then at the even columns. */
void VFF_FN(vif_float_down_row)(float *out, const float *const *rows, const int w_in,
                                const VifFloatFilter *f, float *line)
{
    const int r = f->n / 2;
    for (int j = 0; j < w_in; j++)
        line[j] = 0;
    for (int k = 0; k < f->n; k++) {
        const float *restrict x = rows[k];
        const float c = f->tap[k];
        for (int j = 0; j < w_in; j++)
            line[j] += c * x[j];
    }
    pad_line(line, w_in, r);
    for (int j = 0; j < w_in / 2; j++) {
        float acc = 0;
        for (int k = 0; k < f->n; k++)
            acc += f->tap[k] * line[2 * j - r + k];
        out[j] = acc;
    }
}
