/*
 * The float VIF row kernels (float_vif_rows_tmpl.h, the C level is the spec) one output at a
 * time, for the CUDA twin (float_vif.cu); tests/unit/float_vif_twin_test.c checks them against
 * the C row kernels bit for bit. Each output is the reference's own sum: a float from 0, taps
 * in order, products rounded to float before the tap multiply; borders by vif_mirror (the
 * reference's padded lines read line[x] = line[vif_mirror(x, w)]).
 */
#ifndef EV_FEATURES_FLOAT_VIF_TWIN_H
#define EV_FEATURES_FLOAT_VIF_TWIN_H

#include <stddef.h>

#include "features/vif/float_vif_scale.h"

/* The vertical pass of the statistic at row i, column j of ref/dis (h rows, stride floats):
 * out[0..4] = mu1, mu2, filtered x^2, y^2, xy (stat_vert). */
EV_HD void vif_float_twin_stat_vert(const float *ref, const float *dis, const ptrdiff_t stride,
                                    const int h, const int i, const int j, const VifFloatFilter *f,
                                    float out[VIF_FLOAT_LINES])
{
    const int r = f->n / 2;
    float m1 = 0, m2 = 0, xx = 0, yy = 0, xy = 0;
    for (int k = 0; k < f->n; k++) {
        const ptrdiff_t at = (ptrdiff_t)vif_mirror(i - r + k, h) * stride + j;
        const float c = f->tap[k], x = ref[at], y = dis[at];
        m1 += c * x;
        m2 += c * y;
        xx += c * (x * x);
        yy += c * (y * y);
        xy += c * (x * y);
    }
    out[0] = m1;
    out[1] = m2;
    out[2] = xx;
    out[3] = yy;
    out[4] = xy;
}

/* The horizontal pass of one vertical line (w columns) at column j (horiz). */
EV_HD float vif_float_twin_horiz(const float *line, const int w, const int j,
                                 const VifFloatFilter *f)
{
    const int r = f->n / 2;
    float acc = 0;
    for (int k = 0; k < f->n; k++)
        acc += f->tap[k] * line[vif_mirror(j - r + k, w)];
    return acc;
}

/* The decimation's vertical pass for output row i at input column x (down_row's line). */
EV_HD float vif_float_twin_down_vert(const float *in, const ptrdiff_t stride, const int h_in,
                                     const int i, const int x, const VifFloatFilter *f)
{
    const int r = f->n / 2;
    float acc = 0;
    for (int k = 0; k < f->n; k++)
        acc += f->tap[k] * in[(ptrdiff_t)vif_mirror(2 * i - r + k, h_in) * stride + x];
    return acc;
}

/* The decimation's output at column j from its vertical line (w_in columns). */
EV_HD float vif_float_twin_down_horiz(const float *line, const int w_in, const int j,
                                      const VifFloatFilter *f)
{
    return vif_float_twin_horiz(line, w_in, 2 * j, f);
}

#endif
