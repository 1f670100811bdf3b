/*
 * Float ADM arithmetic of libvmaf (feature/adm_tools.c, x86-64 build), one coefficient at a
 * time, shared by the C reference (float_adm*.c) and a CUDA twin. All float, no contraction;
 * the reference's double literals (0.0333333351, 0.0666666701) and its double gain step are
 * kept, so those products and sums round through double as there.
 *
 * Division: on x86-64 libvmaf divides t / (o + 1e-30) as t * rcp(o + 1e-30), where rcp is the
 * SSE rcpss estimate refined by one Newton step. rcpss is not specified by IEEE and differs
 * between vendors, so Netflix's float_adm bits depend on the CPU that runs libvmaf: the golden
 * (shared/golden) was made on AMD; on an Intel Xeon 455 of its 2912 float_adm values differ
 * (rcpss(1.5) is 0x3f2aa800 on AMD, 0x3f2aa000 on Intel). exactvmaf takes the estimate from a
 * vendor's table (adm_rcp.h), equal to that vendor's rcpss for all 2^32 inputs: AMD's by
 * default, so float_adm gives the golden's bits on every CPU and on a GPU, or Intel's
 * (rcp_estimate=1), Netflix's bits as run on Intel. No intrinsics here: the estimate never
 * comes from the running CPU.
 */
#ifndef EV_FEATURES_FLOAT_ADM_MATH_H
#define EV_FEATURES_FLOAT_ADM_MATH_H

#include <math.h>
#include <stddef.h>

#include "base/hd.h"
#include "features/adm/adm_rcp.h"

/* db2 taps: the reference's double literals stored in float arrays. */
#define FADM_LO0 ((float)0.482962913144690)
#define FADM_LO1 ((float)0.836516303737469)
#define FADM_LO2 ((float)0.224143868041857)
#define FADM_LO3 ((float)-0.129409522550921)
#define FADM_HI0 ((float)-0.129409522550921)
#define FADM_HI1 ((float)-0.224143868041857)
#define FADM_HI2 ((float)0.836516303737469)
#define FADM_HI3 ((float)-0.482962913144690)

#define FADM_ONE_BY_30 0.0333333351 /* double: the product is formed in double */
#define FADM_ONE_BY_15 0.0666666701

/* Four taps into a float accumulator starting at 0, in tap order. */
EV_HD float fadm_taps(const float f0, const float f1, const float f2, const float f3,
                      const float s0, const float s1, const float s2, const float s3)
{
    float acc = 0.0f;
    acc += f0 * s0;
    acc += f1 * s1;
    acc += f2 * s2;
    acc += f3 * s3;
    return acc;
}

EV_HD float fadm_taps_lo(const float s0, const float s1, const float s2, const float s3)
{
    return fadm_taps(FADM_LO0, FADM_LO1, FADM_LO2, FADM_LO3, s0, s1, s2, s3);
}

EV_HD float fadm_taps_hi(const float s0, const float s1, const float s2, const float s3)
{
    return fadm_taps(FADM_HI0, FADM_HI1, FADM_HI2, FADM_HI3, s0, s1, s2, s3);
}

/* 1/d as libvmaf's x86-64 build computes it (adm_tools.c rcp_s): xi = rcpss(d), the estimate of
 * the vendor whose table is given (adm_rcp_vendor_table), then one Newton step
 * xi + xi * (1 - d * xi) in float, not contracted. */
EV_HD float fadm_rcp(const float d, const uint16_t *const rcp_table)
{
    const float xi = adm_rcp_estimate_with(d, rcp_table);
    return xi + xi * (1.0f - d * xi);
}

/* Angle test on the (h, v) pair, all in float. */
EV_HD int fadm_angle_flag(const float oh, const float ov, const float th, const float tv,
                          const float cos_1deg_sq)
{
    const float ot_dp = oh * th + ov * tv;
    const float o_mag_sq = oh * oh + ov * ov;
    const float t_mag_sq = th * th + tv * tv;
    return ot_dp >= 0.0f && ot_dp * ot_dp >= cos_1deg_sq * o_mag_sq * t_mag_sq;
}

/* One band of one coefficient (rcp_table: see fadm_rcp): k = t/(o + 1e-30) clamped to [0, 1], r = k*o, the gain limit in
 * double (the second step tests the first's result, as the reference's two ifs do), a = t - r. */
EV_HD void fadm_decouple_coef(const float o, const float t, const int flag, const double egl,
                              const uint16_t *const rcp_table, float *r, float *a)
{
    float k = t * fadm_rcp(o + (float)1e-30, rcp_table);
    k = k < 0.0f ? 0.0f : (k > 1.0f ? 1.0f : k);
    const float rst0 = k * o;
    const double g0 = rst0 * egl;
    const float rst1 = flag && rst0 > 0.0 ? (float)(g0 < t ? g0 : t) : rst0;
    const double g1 = rst1 * egl;
    const float rst = flag && rst1 < 0.0 ? (float)(g1 > t ? g1 : t) : rst1;
    *r = rst;
    *a = t - rst;
}

/* Masking filter value of a CSF-weighted coefficient: (float)(0.0333333351 * |x|). */
EV_HD float fadm_flt(const float csf)
{
    return (float)(FADM_ONE_BY_30 * fabsf(csf));
}

/* One band's share of the threshold at a 3x3 window: a float running sum of the neighbours'
 * masking values with the centre's own term (added in double, rounded back) in the middle. */
EV_HD float fadm_thr_band(const float ul, const float u, const float ur, const float l,
                          const float centre_csf, const float r, const float dl, const float d,
                          const float dr)
{
    float sum = 0.0f;
    sum += ul;
    sum += u;
    sum += ur;
    sum += l;
    sum = (float)(sum + FADM_ONE_BY_15 * fabsf(centre_csf));
    sum += r;
    sum += dl;
    sum += d;
    sum += dr;
    return sum;
}

/* The threshold at (mid + j) of the 3x3 window over rows up/mid/dn and columns jl/j/jr: the
 * h, v and d shares (csf[b], flt[b]: the band's CSF-weighted values and masking values) added
 * into one float in band order. */
EV_HD float fadm_thr_at(const float *const csf[3], const float *const flt[3], const size_t up,
                        const size_t mid, const size_t dn, const int jl, const int j, const int jr)
{
    float thr = 0.0f;
    for (int b = 0; b < 3; b++) {
        const float *f = flt[b];
        thr += fadm_thr_band(f[up + jl], f[up + j], f[up + jr], f[mid + jl], csf[b][mid + j],
                             f[mid + jr], f[dn + jl], f[dn + j], f[dn + jr]);
    }
    return thr;
}

/* One DWT output from the 4 x 4 inputs around it, x[t][u] at input row 2i - 1 + t and column
 * 2j - 1 + u (each mirrored by adm_dwt_index): the vertical low and high passes of the four
 * columns, then the horizontal ones: a = LL, v = LH of the low rows, h and d from the high
 * rows (adm_dwt2_s; the C reference runs the same taps row by row). */
EV_HD void fadm_dwt_at(const float x[4][4], float *a, float *h, float *v, float *d)
{
    float lo[4], hi[4];
    for (int u = 0; u < 4; u++) {
        lo[u] = fadm_taps_lo(x[0][u], x[1][u], x[2][u], x[3][u]);
        hi[u] = fadm_taps_hi(x[0][u], x[1][u], x[2][u], x[3][u]);
    }
    *a = fadm_taps_lo(lo[0], lo[1], lo[2], lo[3]);
    *v = fadm_taps_hi(lo[0], lo[1], lo[2], lo[3]);
    *h = fadm_taps_lo(hi[0], hi[1], hi[2], hi[3]);
    *d = fadm_taps_hi(hi[0], hi[1], hi[2], hi[3]);
}

/* Masked energy of one coefficient: x = max(|rf * src| - thr, 0), cubed in float. */
EV_HD float fadm_cm_cube(const float src, const float rf, const float thr)
{
    float x = fabsf(src * rf) - thr;
    x = x < 0.0f ? 0.0f : x;
    return x * x * x;
}

/* Reference energy of one coefficient: |rf * src| cubed in float. */
EV_HD float fadm_den_cube(const float src, const float rf)
{
    const float x = fabsf(rf * src);
    return x * x * x;
}

#endif
