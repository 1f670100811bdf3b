/*
 * CAMBI arithmetic of libvmaf (feature/cambi.c), shared by the C reference (cambi_frame.c)
 * and a future CUDA twin.
 *
 * Everything per sample and per window is integer: the 10-bit conversion, the anti-dithering
 * average, the zero-derivative mask and its 7x7 count, the mode filter, the decimation and the
 * sliding-window histogram counts (exact, any order). Floats appear in three places only:
 *  - the nearest-neighbour resampling positions (a float running sum, as the reference; the
 *    source index of each output row/column is computed once, on the host, in order);
 *  - the contrast value of one pixel and one contrast step: (float)(weight * p0 * p) times
 *    the table's reciprocal of p0 + p, one float rounding each; the pixel's value is the
 *    largest over the steps. libvmaf's reciprocal table is literal data: its entries are 1/n
 *    printed to 9 significant digits and read back as floats, which is not 1.0f / n for 42
 *    of its 4225 entries (n = 82, 83, 244, ...). cambi_tables_init rebuilds it the same way
 *    on the host (snprintf "%.9g" of the double 1.0 / n, then strtof: both correctly
 *    rounded in glibc); a twin uploads that table;
 *  - the spatial pooling (mean of the top-k values, a double sum: cambi_pool.c) and the
 *    weighted sum over the five scales (double, scale order).
 *
 * libm: only the visibility tables depend on it. libvmaf computes, once at init, the luminance
 * of 10-bit codes through the BT.1886 or PQ EOTF with glibc pow() (cambi_tvi.c), and keeps
 * only integers: tvi_for_diff[d] (the largest code whose step d+1 is invisible) and vlt_luma
 * (the smallest code brighter than cambi_vis_lum_threshold). The bits of every output depend on
 * pow only through those integers; tests/unit/cambi_math_test.c pins them for the default and
 * the model options (computed with glibc 2.36 pow, as the golden values were).
 */
#ifndef EV_FEATURES_CAMBI_MATH_H
#define EV_FEATURES_CAMBI_MATH_H

#include <stdint.h>

#include "base/hd.h"

#define CAMBI_NUM_SCALES 5
#define CAMBI_MASK_FILTER 7   /* the zero-derivative count window, 7x7 */
#define CAMBI_MIN_DIM 216     /* libvmaf refuses when width and height are below */
#define CAMBI_RECIP_SIZE 4226 /* libvmaf's reciprocal table: window^2 must be below */
#define CAMBI_MAX_DIFFS 32    /* 1 << max_log_contrast, max_log_contrast <= 5 */

/* Per-pixel contrast tables, the same for every frame (a twin keeps a device copy). */
typedef struct CambiTables {
    int num_diffs;                 /* 1 << max_log_contrast */
    int weight[CAMBI_MAX_DIFFS];   /* contrast weight of step d + 1 */
    int tvi[CAMBI_MAX_DIFFS];      /* the largest 10-bit code where step d + 1 counts */
    int vlt;                       /* codes + step must exceed this (0: no threshold) */
    unsigned band_lo, band_n;      /* codes band_lo .. band_lo + band_n - 1 are counted */
    float recip[CAMBI_RECIP_SIZE]; /* libvmaf's reciprocal table (cambi_recip_table) */
} CambiTables;

/* Suprathreshold contrast response: the weight of contrast step d + 1. */
EV_HD int cambi_contrast_weight(const int d)
{
    /* steps 1..32: 1, 2, 3, 4, 4, 5, 5, 6 x4, 7 x4, 8 x7, 9 x10 */
    if (d < 4)
        return d + 1;
    if (d < 7)
        return 4 + (d - 3) / 2;
    if (d < 11)
        return 6;
    if (d < 15)
        return 7;
    if (d < 22)
        return 8;
    return 9;
}

/* Weight of scale s in the final sum: 16, 8, 4, 2, 1. */
EV_HD int cambi_scale_weight(const unsigned s)
{
    return 16 >> s;
}

/* The window size for a frame of w x h: window * (w + h) / 375 / 16 (the reference's integer
 * steps, uint16 result), halved (rounding up) with the high-resolution speed-up, made odd. */
EV_HD unsigned cambi_adjust_window(const unsigned window, const unsigned w, const unsigned h,
                                   const int speedup)
{
    uint16_t ws = (uint16_t)(((window * (w + h)) / 375) >> 4);
    if (speedup)
        ws = (uint16_t)((ws + 1) >> 1);
    return ws | 1u;
}

/* ceil(log2(n)) for n >= 1; 0 for n = 0. */
EV_HD unsigned cambi_ceil_log2(const uint32_t n)
{
    unsigned shift = 0;
    for (uint32_t t = n ? n - 1 : 0; t; t >>= 1)
        shift++;
    return shift;
}

/* A pixel is in the mask when more than this many of the 7x7 zero-derivative flags around it
 * are set (a frame-size dependent count; w, h are the full-resolution frame's). */
EV_HD unsigned cambi_mask_threshold(const unsigned w, const unsigned h)
{
    const uint32_t blocks = (uint32_t)(w >> 6) * (h >> 6);
    const int t =
        (CAMBI_MASK_FILTER * CAMBI_MASK_FILTER + 3 * ((int)cambi_ceil_log2(blocks) - 11) - 1) >> 1;
    return (uint16_t)t;
}

/* 3-sample mode: a value that occurs twice, else the smallest. Symmetric in its arguments. */
EV_HD uint16_t cambi_mode3(const uint16_t a, const uint16_t b, const uint16_t c)
{
    if (a == b || a == c)
        return a;
    if (b == c)
        return b;
    const uint16_t ab = a < b ? a : b;
    return ab < c ? ab : c;
}

/* One sample of bit depth bpc (8..16) as 10 bits: shifted up, or rounded down (+2^(s-1), >> s;
 * 16-bit 65535 becomes 1024, as in the reference). */
EV_HD uint16_t cambi_to_10b(const uint32_t v, const unsigned bpc)
{
    if (bpc <= 10)
        return (uint16_t)(v << (10 - bpc));
    const unsigned s = bpc - 10;
    return (uint16_t)((v + (1u << (s - 1))) >> s);
}

/* Nearest-neighbour resampling from n_in to n_out samples: the reference walks a float
 * position from ratio / 2 - 0.5 (a double difference stored to float) in float steps of
 * ratio = (float)n_in / n_out, and takes (int)(pos + 0.5) (in double). Fills idx[0..n_out). */
EV_HD void cambi_resample_index(unsigned *idx, const unsigned n_in, const unsigned n_out)
{
    const float ratio = (float)n_in / (float)n_out;
    float pos = (float)(ratio / 2 - 0.5);
    for (unsigned k = 0; k < n_out; k++) {
        idx[k] = (unsigned)(int)(pos + 0.5);
        pos += ratio;
    }
}

/* Anti-dithering (encodes below 10 bits): the mean of a 2x2 block (or of 2 at the last row or
 * column), rounded down. */
EV_HD uint16_t cambi_avg4(const uint32_t a, const uint32_t b, const uint32_t c, const uint32_t d)
{
    return (uint16_t)((a + b + c + d) >> 2);
}

EV_HD uint16_t cambi_avg2(const uint32_t a, const uint32_t b)
{
    return (uint16_t)((a + b) >> 1);
}

/* Contrast value of one step: p0 pixels of the pixel's value and p (the larger of the counts
 * one step up and one step down) in the window. The integer product is exact (window^2 <=
 * 4225 bounds it by 9 * 4225^2 / 4 < 2^31); its float conversion and the product with the float
 * reciprocal round as in the reference. 0 when p = 0. */
EV_HD float cambi_step_value(const int weight, const uint32_t p0, const uint32_t p,
                             const float recip_of_sum)
{
    return (float)(weight * (int)p0 * (int)p) * recip_of_sum;
}

/* The mask's zero-derivative flag: a sample equal to its right and lower neighbours (at the
 * last column or row the missing neighbour is the sample itself). */
EV_HD uint32_t cambi_flat(const uint16_t v, const uint16_t right, const uint16_t below)
{
    return (uint32_t)((v == right) & (v == below));
}

/* CAMBI_NOT_COUNTED, or the band code of a sample: v - band_lo for a masked sample in the band
 * (the band has at most 1056 codes, so the two never meet). */
#define CAMBI_NOT_COUNTED 0xFFFFu

EV_HD uint16_t cambi_band_code(const uint16_t v, const unsigned masked, const unsigned band_lo,
                               const unsigned band_n)
{
    const unsigned code = (uint16_t)(v - band_lo);
    return masked && code < band_n ? (uint16_t)code : (uint16_t)CAMBI_NOT_COUNTED;
}

/* Contrast step d takes part for a pixel of 10-bit value v: below its visibility threshold
 * tvi[d], and v + num_diffs + d + 1 above vlt (the reference's test, literally). */
EV_HD int cambi_step_counts(const CambiTables *t, const int d, const int v)
{
    return v <= t->tvi[d] && v + t->num_diffs + d + 1 > t->vlt;
}

/* The pixel's value after step d: the larger of best and the step's value, from p0 (pixels of
 * its code in the window), up and down (of the codes d + 1 above and below; 0 outside the
 * band). */
EV_HD float cambi_step_best(const float best, const CambiTables *t, const int d, const uint32_t p0,
                            const uint32_t up, const uint32_t down)
{
    const uint32_t p = up > down ? up : down;
    const float val = cambi_step_value(t->weight[d], p0, p, t->recip[p0 + p]);
    return val > best ? val : best;
}

/* How many of n values the spatial pooling averages: (int)(topk * n) clipped to [1, n]. */
EV_HD int cambi_topk_count(const double topk, const int n)
{
    const int k = (int)(topk * n);
    return k < 1 ? 1 : (k > n ? n : k);
}

/* The frame score: sum over scales (in order, from 0.0) of score * weight, divided by the
 * pixels of the window (window^2). */
EV_HD double cambi_combine_scales(const double scores[CAMBI_NUM_SCALES], const unsigned window)
{
    double score = 0.0;
    for (unsigned s = 0; s < CAMBI_NUM_SCALES; s++)
        score += scores[s] * cambi_scale_weight(s);
    const unsigned odd = 2 * (window >> 1) + 1;
    return score / (uint16_t)(odd * odd);
}

#endif
