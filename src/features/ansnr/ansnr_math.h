/*
 * Anti-noise SNR arithmetic of libvmaf (feature/ansnr.c, feature/ansnr_tools.c: the 2-D
 * filters, not the 1-D option), shared by the C reference (float_ansnr.c) and the CUDA twin.
 *
 * The reference luma (float, offset -128) is filtered with a 3x3 kernel, the distorted one
 * with a 5x5 kernel; each output is a float sum of per-kernel-row float sums, in row then
 * column order, borders mirrored without repeating the edge at the start and with it at the
 * end. Signal = sum of ref_f^2, noise = sum of (ref_f - dis_f)^2: float per row, rows added
 * in order into floats.
 */
#ifndef EV_FEATURES_ANSNR_MATH_H
#define EV_FEATURES_ANSNR_MATH_H

#include <stddef.h>

#include "base/hd.h"

/* The kernels, as libvmaf writes them (double quotients rounded to float). */
#define ANSNR_REF_KERNEL                                                                           \
    {                                                                                              \
        1.0 / 16.0, 2.0 / 16.0, 1.0 / 16.0, 2.0 / 16.0, 4.0 / 16.0, 2.0 / 16.0, 1.0 / 16.0,        \
            2.0 / 16.0, 1.0 / 16.0                                                                 \
    }
#define ANSNR_DIS_KERNEL                                                                           \
    {                                                                                              \
        2.0 / 571.0, 7.0 / 571.0, 12.0 / 571.0, 7.0 / 571.0, 2.0 / 571.0, 7.0 / 571.0,             \
            31.0 / 571.0, 52.0 / 571.0, 31.0 / 571.0, 7.0 / 571.0, 12.0 / 571.0, 52.0 / 571.0,     \
            127.0 / 571.0, 52.0 / 571.0, 12.0 / 571.0, 7.0 / 571.0, 31.0 / 571.0, 52.0 / 571.0,    \
            31.0 / 571.0, 7.0 / 571.0, 2.0 / 571.0, 7.0 / 571.0, 12.0 / 571.0, 7.0 / 571.0,        \
            2.0 / 571.0                                                                            \
    }
#define ANSNR_REF_WIDTH 3
#define ANSNR_DIS_WIDTH 5

/* Border rule (idx -1 -> 1, n -> n - 1): valid for n > radius. */
EV_HD int ansnr_mirror(const int idx, const int n)
{
    if (idx < 0)
        return -idx;
    if (idx >= n)
        return 2 * n - idx - 1;
    return idx;
}

/* One filter output at (i, j) of a w x h float image (stride in floats), any position. */
EV_HD float ansnr_filter_at(const float *k, const int fw, const float *src, const ptrdiff_t stride,
                            const int w, const int h, const int i, const int j)
{
    float acc = 0;
    for (int fi = 0; fi < fw; fi++) {
        const float *row = src + ansnr_mirror(i - fw / 2 + fi, h) * stride;
        float inner = 0;
        for (int fj = 0; fj < fw; fj++)
            inner += k[fi * fw + fj] * row[ansnr_mirror(j - fw / 2 + fj, w)];
        acc += inner;
    }
    return acc;
}

/* The same output where the whole window is inside: center points at (i, j). */
EV_HD float ansnr_filter_inside(const float *k, const int fw, const float *center,
                                const ptrdiff_t stride)
{
    const float *top = center - (fw / 2) * stride - fw / 2;
    float acc = 0;
    for (int fi = 0; fi < fw; fi++) {
        float inner = 0;
        for (int fj = 0; fj < fw; fj++)
            inner += k[fi * fw + fj] * top[fi * stride + fj];
        acc += inner;
    }
    return acc;
}

/* Per-sample terms of the signal and noise sums. */
EV_HD float ansnr_signal_term(const float r)
{
    return r * r;
}

EV_HD float ansnr_noise_term(const float r, const float d)
{
    return (r - d) * (r - d);
}

#endif
