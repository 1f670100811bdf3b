/*
 * Motion arithmetic of libvmaf (feature/integer_motion.c, feature/motion.c,
 * feature/common/convolution.c, feature/vif_tools.c bilinear), shared by the C references
 * (motion.c, float_motion.c) and the CUDA twins.
 *
 * Integer motion ("pipelined v2"): the 5-tap Q16 blur is applied to the DIFFERENCE
 * prev - cur of two reference lumas, vertically first (rounded shift by 8 at 8 bits, by bpc
 * above), then horizontally (rounded shift by 16); the absolute values are summed per row in
 * uint32 (wrapping as the reference does) and the rows in uint64. All integer: any order.
 * Float motion: each frame (as float, offset -128) is blurred separably, vertical then
 * horizontal, each output a float sum in tap order starting from 0; the SAD of two blurred
 * frames is a float sum per row, rows added in order into a float, divided by (float)(w*h).
 */
#ifndef EV_FEATURES_MOTION_MATH_H
#define EV_FEATURES_MOTION_MATH_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hd.h"

#define MOTION_RADIUS 2 /* both 5-tap blurs: taps at offsets -2..2 */

/* Border rule of both motion blurs (idx -1 -> 1, n -> n - 2): valid for n > radius. */
EV_HD int motion_mirror(const int idx, const int n)
{
    if (idx < 0)
        return -idx;
    if (idx >= n)
        return 2 * n - idx - 2;
    return idx;
}

/* ---- integer motion ---------------------------------------------------------------------- */

/* The Q16 taps {3571, 16004, 26386, 16004, 3571} (sum 65536) applied to five values; the
 * symmetric taps are factored (exact: integers, no overflow for |v| <= 2^17). */
EV_HD int64_t motion_q16_taps(const int64_t v0, const int64_t v1, const int64_t v2,
                              const int64_t v3, const int64_t v4)
{
    return 3571 * (v0 + v4) + 16004 * (v1 + v3) + 26386 * v2;
}

/* Vertical pass: d[k] = prev - cur on rows i-2..i+2 (mirrored); rounded shift by `shift`
 * (8 for 8-bit input, bpc for 9..16). |result| <= 2^16. */
EV_HD int32_t motion_vblur_diff(const int32_t d[5], const unsigned shift)
{
    const int64_t acc = motion_q16_taps(d[0], d[1], d[2], d[3], d[4]);
    return (int32_t)((acc + ((int64_t)1 << (shift - 1))) >> shift);
}

/* The same value computed in int32, for samples within a depth of at most 15 bits: |d| <=
 * 2^15 - 1 gives |sum| <= (2^15 - 1) * 2^16 and the sum plus the rounding term stays below
 * 2^31. A sample above its depth (which the API passes on) needs the int64 form. */
EV_HD int32_t motion_vblur_diff32(const int32_t d[5], const unsigned shift)
{
    const int32_t acc = 3571 * (d[0] + d[4]) + 16004 * (d[1] + d[3]) + 26386 * d[2];
    return (acc + (1 << (shift - 1))) >> shift;
}

/* Horizontal pass on five vertical results, rounded shift by 16, then |.|: one SAD term. */
EV_HD uint32_t motion_hblur_abs(const int32_t y[5])
{
    const int64_t acc = motion_q16_taps(y[0], y[1], y[2], y[3], y[4]);
    const int32_t v = (int32_t)((acc + 32768) >> 16);
    return (uint32_t)(v < 0 ? -v : v);
}

/* motion_hblur_abs at column j of a row of w vertical results, the taps mirrored at its ends. */
EV_HD uint32_t motion_hblur_abs_mirrored(const int32_t *y, const int j, const int w)
{
    int32_t t[5];
    for (int k = 0; k < 5; k++)
        t[k] = y[motion_mirror(j - MOTION_RADIUS + k, w)];
    return motion_hblur_abs(t);
}

/* The vertical pass at row i, column c of two lumas of bpc bits (uint8_t rows for 8 bits,
 * else uint16_t) stride bytes apart, h rows: motion_sad_row_c's first step at one column, for
 * executors that visit columns one at a time (the CUDA twin; tests run it on the host). Above
 * 8 bits in int64, as the reference: exact for any uint16 sample. */
EV_HD int32_t motion_vblur_at(const void *prev, const void *cur, const ptrdiff_t stride,
                              const int h, const unsigned bpc, const int i, const int c)
{
    int32_t d[5];
    for (int k = 0; k < 5; k++) {
        const ptrdiff_t row = (ptrdiff_t)motion_mirror(i - MOTION_RADIUS + k, h) * stride;
        if (bpc == 8)
            d[k] = (int32_t)((const uint8_t *)prev)[row + c] -
                   (int32_t)((const uint8_t *)cur)[row + c];
        else
            d[k] = (int32_t)((const uint16_t *)((const char *)prev + row))[c] -
                   (int32_t)((const uint16_t *)((const char *)cur + row))[c];
    }
    return bpc == 8 ? motion_vblur_diff32(d, 8) : motion_vblur_diff(d, bpc);
}

/* Per-frame score from the frame's SAD: ((double)sad / 256 / (w*h as unsigned)) * weight,
 * then MIN(score, max_val) with the reference's macro (a NaN gives max_val). */
EV_HD double motion_sad_score(const uint64_t sad, const unsigned w, const unsigned h,
                              const double fps_weight, const double max_val)
{
    const double score = (double)sad / 256. / (double)(w * h) * fps_weight;
    return score < max_val ? score : max_val;
}

/* motion3's blend: m * factor + (1 - factor) * MIN(offset, m). */
EV_HD double motion_blend(const double m, const double factor, const double offset)
{
    const double low = offset < m ? offset : m;
    return m * factor + (1 - factor) * low;
}

EV_HD double motion_clip(const double v, const double max_val)
{
    return v < max_val ? v : max_val;
}

/* ---- float motion ------------------------------------------------------------------------- */

/* libvmaf's float taps (motion_tools.h): decimal literals rounded to double, then to float. */
#define FMOTION_TAPS5                                                                              \
    {                                                                                              \
        0.054488685, 0.244201342, 0.402619947, 0.244201342, 0.054488685                            \
    }
#define FMOTION_TAPS3                                                                              \
    {                                                                                              \
        0.166378498, 0.667243004, 0.166378498                                                      \
    }
#define FMOTION_TAPS5_NO_OP                                                                        \
    {                                                                                              \
        0.0, 0.0, 1.0, 0.0, 0.0                                                                    \
    }

/* One blur output: float accumulator from +0, tap k times value k added in tap order (the
 * reference's interior and border loops do the same sum, only the indices differ). */
EV_HD float fmotion_taps(const float *taps, const int n_taps, const float *v)
{
    float acc = 0;
    for (int k = 0; k < n_taps; k++)
        acc += taps[k] * v[k];
    return acc;
}

/* One SAD term. The reference adds fabs() of the float difference (a double) to a float; the
 * double sum rounded to float equals the float sum (53 >= 2 * 24 + 2), so this is its value. */
EV_HD float fmotion_abs_diff(const float a, const float b)
{
    return fabsf(a - b);
}

/* Mean absolute difference: float total / (float)(w * h), the int product as the reference. */
EV_HD float fmotion_mean(const float total, const int w, const int h)
{
    return total / (float)(w * h);
}

/* ---- bilinear half-size copy (motion_add_scale1; vif_tools.c vif_scale_frame_bilinear) ---- */

/* The reference's float mirror into [0, last], applied to floor()/ceil() of a coordinate. */
EV_HD int fmotion_bilinear_index(const double c, const int last)
{
    const float i = (float)c, right = (float)last;
    return (int)(i < 0.0f ? -i : i > right ? 2 * right - i : i);
}

/* Source coordinate of output x: (x + 0.5) * ratio - 0.5 in double, stored as float, with
 * ratio = (float)src / dst; *lo, *hi the mirrored floor and ceil, return the weight of hi. */
EV_HD float fmotion_bilinear_coord(const int x, const int src_n, const int dst_n, int *lo, int *hi)
{
    const float ratio = (float)src_n / (float)dst_n;
    const float xx = (float)((x + 0.5) * ratio - 0.5);
    *lo = fmotion_bilinear_index(floor(xx), src_n - 1);
    *hi = fmotion_bilinear_index(ceil(xx), src_n - 1);
    return xx - (float)*lo;
}

/* One output sample from the four neighbours (a, b: upper row at lo/hi x; c, d: lower row). */
EV_HD float fmotion_bilinear(const float dx, const float dy, const float a, const float b,
                             const float c, const float d)
{
    return (1 - dy) * (1 - dx) * a + (1 - dy) * dx * b + dy * (1 - dx) * c + dy * dx * d;
}

#endif
