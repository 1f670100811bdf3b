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
#include <string.h>

#include "base/hd.h"
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

/* ---- the contrast values of a tile (cambi.cu's c_kernel, one block per tile) -------------------
 *
 * A tile is `threads` output columns from j0 and rows i0 .. i_end - 1 of one scale. Its
 * windows read the region of rows i0 - pad .. i_end - 1 + pad and columns j0 - pad ..
 * j0 + threads - 1 + pad (clipped to the scale). The counts of the codes held (cap codes from
 * base) sit in v[(code - base) * span + x]: for region column x (x = 0 at j0 - pad), the
 * pixels of that code in the rows of the current window (a vertical count, at most 65: a
 * byte); a pixel's window count of a code is the sum of its row over 2 pad + 1 columns. Thread
 * t keeps columns t, t + threads, ... (no two threads write one byte). The phases (range,
 * slide, query) are separated by barriers in the kernel; within one, the threads are
 * independent, so a loop over t is the same computation (tests/unit/cambi_twin_test.c). A
 * region whose counted codes lo .. hi span more than cap is done in passes: pass q holds
 * codes from lo + q (cap - 2 nd), and a pixel is done in the first pass that holds every code
 * it reads. */
typedef struct CambiTile {
    const uint16_t *codes; /* the scale's band codes, w x h */
    float *c;              /* its contrast values */
    int w, h;
    int j0, i0, i_end, threads;
    int pad, span, cap; /* window radius; v's row length (a multiple of 16); codes held */
} CambiTile;

typedef struct CambiTileSums {
    uint64_t units;
    uint32_t nonzero, irregular;
} CambiTileSums;

/* v's row length for `threads` columns and a window radius pad: the region's columns, and
 * room for the last word cambi_row_sum reads, in 16-byte units. */
EV_HD int cambi_tile_span(const int threads, const int pad)
{
    return (threads + 2 * pad + 4 + 15) & ~15;
}

/* The codes v holds in `bytes` of memory: at most the band, at least 2 nd + 1 (one pixel's). */
EV_HD int cambi_tile_cap(const int bytes, const int span, const unsigned band_n, const int nd)
{
    int cap = bytes / span;
    cap = cap < (int)band_n ? cap : (int)band_n;
    return cap > 2 * nd + 1 ? cap : 2 * nd + 1;
}

EV_HD int cambi_tile_row_lo(const CambiTile *b)
{
    return b->i0 - b->pad > 0 ? b->i0 - b->pad : 0;
}

EV_HD int cambi_tile_row_hi(const CambiTile *b)
{
    return b->i_end + b->pad < b->h ? b->i_end + b->pad : b->h;
}

/* Thread t's part of the range of counted codes in the region (*lo > *hi: none). */
EV_HD void cambi_tile_code_range(const CambiTile *b, const int t, unsigned *lo, unsigned *hi)
{
    for (int r = cambi_tile_row_lo(b); r < cambi_tile_row_hi(b); r++)
        for (int x = t; x < b->span; x += b->threads) {
            const int g = b->j0 - b->pad + x;
            if (g < 0 || g >= b->w)
                continue;
            const unsigned code = b->codes[(size_t)r * b->w + g];
            if (code != CAMBI_NOT_COUNTED) {
                *lo = code < *lo ? code : *lo;
                *hi = code > *hi ? code : *hi;
            }
        }
}

EV_HD int cambi_tile_step(const int cap, const int nd)
{
    return cap - 2 * nd; /* cap > 2 nd */
}

EV_HD int cambi_tile_passes(const unsigned lo, const unsigned hi, const int cap, const int nd)
{
    const int range = (int)(hi - lo) + 1, step = cambi_tile_step(cap, nd);
    return range <= cap ? 1 : 1 + (range - cap + step - 1) / step;
}

/* The pass of a pixel of band code `code` (lo <= code <= hi): the first whose codes
 * base .. base + cap - 1 hold need_lo .. need_hi, the codes it reads that can be present
 * ([code - nd, code + nd] within [lo, hi]). The passes holding them are those with
 * base <= need_lo and base + cap - 1 >= need_hi, an interval that is not empty: the last
 * pass with base <= need_lo has base > need_lo - step, so base + cap - 1 >= need_lo + 2 nd. */
EV_HD int cambi_tile_pass_of(const unsigned code, const unsigned lo, const unsigned hi,
                             const int cap, const int nd)
{
    const int need_hi = (int)code + nd < (int)hi ? (int)code + nd : (int)hi;
    const int over = need_hi - (int)lo - cap + 1, step = cambi_tile_step(cap, nd);
    return over <= 0 ? 0 : (over + step - 1) / step;
}

/* Row r enters (delta 1) or leaves (delta -1) thread t's columns of v (codes from base). */
EV_HD void cambi_tile_slide(const CambiTile *b, uint8_t *v, const int base, const int t,
                            const int r, const int delta)
{
    for (int x = t; x < b->span; x += b->threads) {
        const int g = b->j0 - b->pad + x;
        if (g < 0 || g >= b->w)
            continue;
        const int code = b->codes[(size_t)r * b->w + g];
        if (code != (int)CAMBI_NOT_COUNTED && code >= base && code < base + b->cap)
            v[(size_t)(code - base) * b->span + x] += (uint8_t)delta;
    }
}

/* The sum of the four bytes of a word. */
EV_HD uint32_t cambi_byte_sum(const uint32_t v, const uint32_t acc)
{
#ifdef __CUDA_ARCH__
    return __dp4a(v, 0x01010101u, acc);
#else
    return acc + (v & 0xff) + ((v >> 8) & 0xff) + ((v >> 16) & 0xff) + (v >> 24);
#endif
}

/* Bytes x .. x + n - 1 (n >= 1) of a 4-aligned row, summed a word at a time with the edges
 * masked (little-endian: byte k of a word is bits 8k .. 8k + 7); reads the words holding
 * them only. */
EV_HD uint32_t cambi_row_sum(const uint8_t *row, const int x, const int n)
{
    const int first = x >> 2, last = (x + n - 1) >> 2;
    uint32_t acc = 0;
    for (int k = first; k <= last; k++) {
        uint32_t v;
#ifdef __CUDA_ARCH__
        v = ((const uint32_t *)row)[k];
#else
        memcpy(&v, row + 4 * k, sizeof(v));
#endif
        if (k == first)
            v &= 0xffffffffu << (8 * (x & 3));
        if (k == last)
            v &= 0xffffffffu >> (8 * (3 - ((x + n - 1) & 3)));
        acc = cambi_byte_sum(v, acc);
    }
    return acc;
}

/* Thread t at row i of pass q (codes from base = lo + q step): the pixel's value when this is
 * its pass (or 0 when it is not counted, in pass 0), added to the sums as cambi_totals_add. */
EV_HD void cambi_tile_query(const CambiTile *b, const uint8_t *v, const CambiTables *tab,
                            const int nd, const unsigned lo, const unsigned hi, const int q,
                            const int t, const int i, CambiTileSums *sums)
{
    const int j = b->j0 + t;
    if (j >= b->w)
        return;
    const size_t at = (size_t)i * b->w + j;
    const unsigned code = b->codes[at];
    if (code == CAMBI_NOT_COUNTED) {
        if (q == 0)
            b->c[at] = 0.0f;
        return;
    }
    if (cambi_tile_pass_of(code, lo, hi, b->cap, nd) != q)
        return;
    const int base = (int)lo + q * cambi_tile_step(b->cap, nd);
    const int need_lo = (int)code - nd > (int)lo ? (int)code - nd : (int)lo;
    const int need_hi = (int)code + nd < (int)hi ? (int)code + nd : (int)hi;
    uint32_t up[CAMBI_MAX_DIFFS], down[CAMBI_MAX_DIFFS];
    EV_UNROLL
    for (int d = 0; d < nd; d++) {
        const int ku = (int)code + d + 1, kd = (int)code - d - 1;
        up[d] =
            ku <= need_hi ? cambi_row_sum(v + (size_t)(ku - base) * b->span, t, 2 * b->pad + 1) : 0;
        down[d] =
            kd >= need_lo ? cambi_row_sum(v + (size_t)(kd - base) * b->span, t, 2 * b->pad + 1) : 0;
    }
    const uint32_t p0 = cambi_row_sum(v + (size_t)((int)code - base) * b->span, t, 2 * b->pad + 1);
    const float val = cambi_c_value_of(tab, nd, code, p0, up, down);
    b->c[at] = val;
    if (val != 0.0f) {
        sums->irregular |= (uint32_t)!cambi_value_regular(val);
        sums->units += cambi_value_units(val);
        sums->nonzero++;
    }
}

#endif
