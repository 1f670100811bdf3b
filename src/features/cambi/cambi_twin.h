/*
 * CAMBI one output at a time: the in-place, row-sliding stages of cambi_frame.c written as pure
 * functions of their input, for the CUDA twin (cambi.cu: one output per thread) and for
 * tests/unit/cambi_twin_test.c, which runs them on the host against cambi_picture_score.
 *
 *  - anti-dithering in place in raster order reads only samples not yet replaced, so each
 *    output is a function of the loaded image (cambi_anti_dither_at);
 *  - decimation keeps even rows and columns: scale s's image is the previous scale's filtered
 *    image read with a step of 2 (CambiScaleIn), and its mask is the scale-0 mask read with a
 *    step of 2^s (no copies);
 *  - the mode filter in place takes each row's horizontal mode before the row is replaced, so
 *    output (r, c) is the vertical mode of the horizontal modes of input rows r - 1 .. r + 1
 *    (cambi_mode_filter_at); the first and last rows, and every row of a scale lower than 3,
 *    stay as they are;
 *  - the sliding-window histogram hist[code][col] at row i is the number of counted pixels of
 *    that code in rows i - pad .. i + pad and columns col - pad .. col + pad (clipped to the
 *    scale): a box count, an integer, the same in any order; cambi_c_value_of takes those
 *    counts and runs the reference's steps (cambi_step_counts, cambi_step_best) in its order.
 */
#ifndef EV_FEATURES_CAMBI_TWIN_H
#define EV_FEATURES_CAMBI_TWIN_H

#include <stddef.h>
#include <stdint.h>

#include "core/hd.h"
#include "features/cambi/cambi_math.h"

/* Anti-dithering output (i, j) of a w x h image from x00 = x(i, j), x01 = x(i, j + 1),
 * x10 = x(i + 1, j), x11 = x(i + 1, j + 1) (the ones outside the image are not read). */
EV_HD uint16_t cambi_anti_dither_at(const uint16_t x00, const uint16_t x01, const uint16_t x10,
                                    const uint16_t x11, const unsigned i, const unsigned j,
                                    const unsigned w, const unsigned h)
{
    const int right = j + 1 < w, down = i + 1 < h;
    if (right && down)
        return cambi_avg4(x00, x01, x10, x11);
    if (down)
        return cambi_avg2(x00, x10);
    if (right)
        return cambi_avg2(x00, x01);
    return x00;
}

/* A scale's input image, w x h: sample (r, c) is src[r * step * src_w + c * step]. */
typedef struct CambiScaleIn {
    const uint16_t *src;
    unsigned src_w, step, w, h;
} CambiScaleIn;

EV_HD uint16_t cambi_scale_in(const CambiScaleIn *in, const unsigned r, const unsigned c)
{
    return in->src[(size_t)r * in->step * in->src_w + (size_t)c * in->step];
}

/* The horizontal 3-mode of row r at column c (the first and last columns as they are). */
EV_HD uint16_t cambi_mode_row_at(const CambiScaleIn *in, const unsigned r, const unsigned c)
{
    if (c == 0 || c + 1 >= in->w)
        return cambi_scale_in(in, r, c);
    return cambi_mode3(cambi_scale_in(in, r, c - 1), cambi_scale_in(in, r, c),
                       cambi_scale_in(in, r, c + 1));
}

/* Output (r, c) of mode_filter. */
EV_HD uint16_t cambi_mode_filter_at(const CambiScaleIn *in, const unsigned r, const unsigned c)
{
    if (in->h < 3 || r == 0 || r + 1 >= in->h)
        return cambi_scale_in(in, r, c);
    return cambi_mode3(cambi_mode_row_at(in, r - 1, c), cambi_mode_row_at(in, r, c),
                       cambi_mode_row_at(in, r + 1, c));
}

/* The contrast value of a counted pixel of band code `code`, from the box counts of the codes
 * around it: p0 of its own, up[d] and down[d] of code + d + 1 and code - d - 1 (0 outside the
 * band), d < nd = t->num_diffs (a constant in the twin's kernels, so the loop unrolls). */
EV_HD float cambi_c_value_of(const CambiTables *t, const int nd, const unsigned code,
                             const uint32_t p0, const uint32_t *up, const uint32_t *down)
{
    const int v = (int)(code + t->band_lo);
    float best = 0.0f;
    EV_UNROLL
    for (int d = 0; d < nd; d++)
        if (cambi_step_counts(t, d, v))
            best = cambi_step_best(best, t, d, p0, up[d], down[d]);
    return best;
}

/* The pooling's gathering of one value (cambi_totals_add's test and unit, for a twin that
 * reduces them itself): 0, or a float in [0.5, 2^14) counted as units of 2^-24. */
EV_HD int cambi_value_regular(const float v)
{
    return v >= 0.5f && v < 16384.0f;
}

EV_HD uint64_t cambi_value_units(const float v)
{
    return (uint64_t)((double)v * 16777216.0);
}

#endif
