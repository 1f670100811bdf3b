/*
 * Integer VIF one output at a time: the steps of vif_scale.c's row kernels taken apart per
 * column, for the CUDA twin (vif.cu), which runs one output per thread, and for
 * tests/unit/vif_twin_test.c, which runs them on the host against the C reference. Every sum is
 * the reference's integer (vif_math.h: exact, any order); the per-pixel statistic is
 * vif_pixel_stat itself.
 *
 * A "window" pointer v with v[t], t = 0 .. n - 1, holds the n values a horizontal tap reads for
 * one output: the vertical results at the reflected columns (vif_reflect) of that output.
 */
#ifndef EV_FEATURES_VIF_TWIN_H
#define EV_FEATURES_VIF_TWIN_H

#include <stddef.h>
#include <stdint.h>

#include "base/hd.h"
#include "features/vif/vif_math.h"

/* One scale's filter: n taps at tap (vif_taps on the host; the twin's constant-memory copy
 * on the device). */
typedef struct VifFilter {
    int n;
    const uint16_t *tap;
} VifFilter;

static inline VifFilter vif_filter(const int scale)
{
    const VifFilter f = { vif_n_taps[scale], vif_taps[scale] };
    return f;
}

/* A luma plane: uint8_t samples (is_u8) or uint16_t, rows stride bytes apart. */
typedef struct VifTwinPlane {
    const void *p;
    ptrdiff_t stride;
    int w, h, is_u8;
} VifTwinPlane;

EV_HD uint32_t vif_twin_sample(const VifTwinPlane *pl, const int y, const int x)
{
    const char *row = (const char *)pl->p + (ptrdiff_t)y * pl->stride;
    return pl->is_u8 ? ((const uint8_t *)row)[x] : ((const uint16_t *)row)[x];
}

/* The statistic's vertical results at one column: the means rounded to 16 bits (mu: mu1 in
 * the low half, mu2 in the high one), the second moments rounded to 32; 16 bytes, 16-aligned
 * (one vector access in the twin's tiles). */
typedef struct VifVert {
    EV_ALIGN(16) uint32_t mu;
    uint32_t xx, yy, xy;
} VifVert;

/* Vertical pass of one column from its taps: x[k * pitch], y[k * pitch] (k < f->n) are the
 * reference and distorted samples the filter reads, rows already reflected; rounded by sh
 * (stat_vert_u8/_u16). narrow: the second moments are summed in uint32, exact when sh.sq_shift
 * is 0 (8-bit scale 0: at most 65536 x 255^2 < 2^32), as the reference's u8 kernel does. */
EV_HD VifVert vif_twin_stat_vert_taps(const uint16_t *x, const uint16_t *y, const int pitch,
                                      const VifFilter *f, const VifShifts sh, const int narrow)
{
    uint32_t m1 = 0, m2 = 0;
    VifVert v;
    if (narrow) {
        uint32_t xx = 0, yy = 0, xy = 0;
        EV_UNROLL
        for (int k = 0; k < f->n; k++) {
            const uint32_t p = x[k * pitch], q = y[k * pitch];
            const uint32_t cp = f->tap[k] * p, cq = f->tap[k] * q;
            m1 += cp;
            m2 += cq;
            xx += cp * p;
            yy += cq * q;
            xy += cp * q;
        }
        v.xx = xx;
        v.yy = yy;
        v.xy = xy;
    } else {
        uint64_t xx = 0, yy = 0, xy = 0;
        EV_UNROLL
        for (int k = 0; k < f->n; k++) {
            const uint32_t p = x[k * pitch], q = y[k * pitch];
            const uint32_t cp = f->tap[k] * p, cq = f->tap[k] * q;
            m1 += cp;
            m2 += cq;
            xx += (uint64_t)cp * p;
            yy += (uint64_t)cq * q;
            xy += (uint64_t)cp * q;
        }
        v.xx = (uint32_t)vif_round_shift(xx, sh.sq_shift);
        v.yy = (uint32_t)vif_round_shift(yy, sh.sq_shift);
        v.xy = (uint32_t)vif_round_shift(xy, sh.sq_shift);
    }
    v.mu = (uint32_t)(uint16_t)vif_round_shift(m1, sh.mu_shift) |
           (uint32_t)(uint16_t)vif_round_shift(m2, sh.mu_shift) << 16;
    return v;
}

/* Vertical pass of output row i at column c of two planes (the taps gathered, reflected). */
EV_HD VifVert vif_twin_stat_vert(const VifTwinPlane *ref, const VifTwinPlane *dis,
                                 const VifFilter *f, const VifShifts sh, const int i, const int c)
{
    const int r = f->n / 2;
    uint16_t x[VIF_MAX_TAPS], y[VIF_MAX_TAPS];
    for (int k = 0; k < f->n; k++) {
        const int row = vif_reflect(i - r + k, ref->h);
        x[k] = (uint16_t)vif_twin_sample(ref, row, c);
        y[k] = (uint16_t)vif_twin_sample(dis, row, c);
    }
    return vif_twin_stat_vert_taps(x, y, 1, f, sh, sh.sq_shift == 0);
}

/* Horizontal pass of one output from its window v, then the per-pixel statistic into *s. */
EV_HD void vif_twin_stat_horiz(VifSums *s, const VifVert *v, const VifFilter *f,
                               const uint16_t *log2_table, const double egl)
{
    uint32_t m1 = 0, m2 = 0;
    uint64_t xx = 0, yy = 0, xy = 0;
    EV_UNROLL
    for (int t = 0; t < f->n; t++) {
        const uint32_t c = f->tap[t];
        m1 += c * (v[t].mu & 0xffffu);
        m2 += c * (v[t].mu >> 16);
        xx += (uint64_t)c * v[t].xx;
        yy += (uint64_t)c * v[t].yy;
        xy += (uint64_t)c * v[t].xy;
    }
    vif_pixel_stat(s, log2_table, m1, m2, (uint32_t)vif_round_shift(xx, 16),
                   (uint32_t)vif_round_shift(yy, 16), (uint32_t)vif_round_shift(xy, 16), egl);
}

/* The decimation's vertical pass of one column from its taps x[t * pitch] (rows already
 * reflected), filter f (the next scale's), rounded by shift (down_vert). */
EV_HD uint32_t vif_twin_down_vert_taps(const uint16_t *x, const int pitch, const VifFilter *f,
                                       const unsigned shift)
{
    uint32_t acc = 0;
    EV_UNROLL
    for (int t = 0; t < f->n; t++)
        acc += f->tap[t] * (uint32_t)x[t * pitch];
    return (uint16_t)vif_round_shift(acc, shift);
}

/* The same for next-scale row k at column c of a plane (input rows around 2k). */
EV_HD uint32_t vif_twin_down_vert(const VifTwinPlane *in, const VifFilter *f, const unsigned shift,
                                  const int k, const int c)
{
    const int r = f->n / 2;
    uint16_t x[VIF_MAX_TAPS];
    for (int t = 0; t < f->n; t++)
        x[t] = (uint16_t)vif_twin_sample(in, vif_reflect(2 * k - r + t, in->h), c);
    return vif_twin_down_vert_taps(x, 1, f, shift);
}

/* Its horizontal pass at one even column, from the window v (stride 1: v[t] is the vertical
 * result at column reflect(2j - r + t)). */
EV_HD uint16_t vif_twin_down_horiz(const uint32_t *v, const VifFilter *f)
{
    uint32_t acc = 0;
    EV_UNROLL
    for (int t = 0; t < f->n; t++)
        acc += f->tap[t] * v[t];
    return (uint16_t)vif_round_shift(acc, 16);
}

/* Sum b into a (int64 totals: any order gives the same). */
EV_HD void vif_sums_add(VifSums *a, const VifSums *b)
{
    a->num_log += b->num_log;
    a->den_log += b->den_log;
    a->num_non_log += b->num_non_log;
    a->den_non_log += b->den_non_log;
}

#endif
