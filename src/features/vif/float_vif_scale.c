/* Float VIF per scale (libvmaf vif.c, vif_tools.c, scalar C): run-time Gaussian filters,
 * separable float filtering (vertical, then horizontal; each output a float sum from 0 in tap
 * order), the per-pixel statistic and the 2:1 decimation. Loops run tap by tap across a row,
 * which keeps every output's own operation order. */
#include <math.h>

#include "features/vif/float_vif_scale.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

enum { VIF_LINES = 5 };

static const float valid_kernelscales[21] = {
    1.0f, 1.0f / 2.0f, 3.0f / 2.0f, 2.0f, 2.0f / 3.0f, 24.0f / 10.0f, 360.0f / 97.0f,
    4.0f / 3.0f, 3.5f / 3.0f, 3.75f / 3.0f, 4.25f / 3.0f, 5.0f / 3.0f, 3.0f, 1.0f / 2.25f,
    1.4746f, 1.54f, 1.6f, 1.06667f, 0.711111f, 0.740740f, 1.111111f,
};

int vif_float_kernelscale_valid(const float kernelscale)
{
    for (int i = 0; i < 21; i++)
        if (fabsf(kernelscale - valid_kernelscales[i]) < 1e-3)
            return 1;
    return 0;
}

static int filter_size(const int scale, const float kernelscale)
{
    const int c = (int)ceil((float)((1 << (4 - scale)) + 1) * kernelscale);
    const int odd = c % 2 == 0 ? c + 1 : c;
    return odd > 3 ? odd : 3;
}

/* The Gaussian density at x, as the reference: exponent in double, then float num / den. */
static float gaussian_pdf(const float x, const float sigma)
{
    const float num = (float)exp(-0.5 * x / sigma * x / sigma);
    const float den = (float)(1 / (sigma * sqrt(2 * M_PI)));
    return num / den;
}

void vif_float_filter_init(VifFloatFilter *f, const int scale, const float kernelscale)
{
    f->n = filter_size(scale, kernelscale);
    const float sigma = f->n / 5.0f;
    float sum = 0;
    for (int i = 0; i < f->n; i++) {
        f->tap[i] = gaussian_pdf((float)(i - (f->n - 1) / 2), sigma);
        sum += f->tap[i];
    }
    for (int i = 0; i < f->n; i++)
        f->tap[i] /= sum;
}

static size_t line_len(const int max_w, const int max_taps)
{
    return (size_t)max_w + 2 * (size_t)(max_taps / 2);
}

size_t vif_float_rows_size(const int max_w, const int max_taps)
{
    return VIF_LINES * (line_len(max_w, max_taps) + (size_t)max_w) * sizeof(float);
}

void vif_float_rows_init(VifFloatRows *rows, void *mem, const int max_w, const int max_taps)
{
    float *p = mem;
    for (int l = 0; l < VIF_LINES; l++, p += line_len(max_w, max_taps))
        rows->line[l] = p + max_taps / 2;
    for (int l = 0; l < VIF_LINES; l++, p += max_w)
        rows->out[l] = p;
}

/* The r samples beyond each end of a line of w > r, mirrored as the reference's filters. */
static void pad_line(float *line, const int w, const int r)
{
    for (int t = 1; t <= r; t++) {
        line[-t] = line[vif_mirror(-t, w)];
        line[w - 1 + t] = line[vif_mirror(w - 1 + t, w)];
    }
}

static const float *image_row(const VifFloatImage *im, const int i)
{
    return im->data + vif_mirror(i, im->h) * im->stride;
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

/* Vertical pass of row i: every output a float sum from 0, taps in order. */
static void stat_vert(float *const *line, const VifFloatImage *ref, const VifFloatImage *dis,
                      const VifFloatFilter *f, const int i)
{
    const int w = ref->w, r = f->n / 2;
    for (int l = 0; l < VIF_LINES; l++)
        for (int j = 0; j < w; j++)
            line[l][j] = 0;
    for (int k = 0; k < f->n; k++)
        stat_vert_tap(line[0], line[1], line[2], line[3], line[4], image_row(ref, i - r + k),
                      image_row(dis, i - r + k), f->tap[k], w);
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

void vif_float_scale_stat(float *num, float *den, const VifFloatImage *ref,
                          const VifFloatImage *dis, const VifFloatFilter *f,
                          const VifFloatParams *p, VifFloatRows *rows)
{
    const int w = ref->w;
    float total_num = 0.0f, total_den = 0.0f;
    for (int i = 0; i < ref->h; i++) {
        stat_vert(rows->line, ref, dis, f, i);
        for (int l = 0; l < VIF_LINES; l++) {
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
        total_num += row_num;
        total_den += row_den;
    }
    *num = total_num;
    *den = total_den;
}

/* Vertical pass of the mean filter on row i. */
static void down_vert(float *restrict line, const VifFloatImage *in, const VifFloatFilter *f,
                      const int i)
{
    const int r = f->n / 2;
    for (int j = 0; j < in->w; j++)
        line[j] = 0;
    for (int k = 0; k < f->n; k++) {
        const float *restrict x = image_row(in, i - r + k);
        const float c = f->tap[k];
        for (int j = 0; j < in->w; j++)
            line[j] += c * x[j];
    }
}

void vif_float_scale_down(VifFloatImage *out, const VifFloatImage *in, const VifFloatFilter *f,
                          VifFloatRows *rows)
{
    const int r = f->n / 2;
    float *line = rows->line[0];
    for (int i = 0; i < out->h; i++) {
        down_vert(line, in, f, 2 * i);
        pad_line(line, in->w, r);
        float *restrict dst = out->data + i * out->stride;
        for (int j = 0; j < out->w; j++) {
            float acc = 0;
            for (int k = 0; k < f->n; k++)
                acc += f->tap[k] * line[2 * j - r + k];
            dst[j] = acc;
        }
    }
}
