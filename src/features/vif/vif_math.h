/*
 * Integer VIF arithmetic of libvmaf (feature/integer_vif.c, integer_vif.h), shared by the C
 * reference (vif_scale.c) and a later CUDA twin.
 *
 * Units: every scale works on "8-bit sample x 256" means and "8-bit sample^2 x 65536"
 * second moments, whatever the input depth, so the noise variance is 2.0 = 131072 units.
 * Every filter sum of integer VIF is an exact integer (it provably never wraps its type), so
 * the taps may be added in any order; only the per-pixel statistic has floating-point steps (a
 * double gain), and its four totals are int64: any pixel order gives the same totals.
 */
#ifndef EV_FEATURES_VIF_MATH_H
#define EV_FEATURES_VIF_MATH_H

#include <stdint.h>

#include "base/hd.h"

enum {
    VIF_SIGMA_NSQ = 65536 << 1, /* noise variance 2.0 in 8-bit^2 x 2^16 units */
    VIF_LOG2_ONE = 2048,        /* the log2 table's fixed point: log2(x) x 2048 */
    VIF_LOG2_TABLE_MIN = 32768, /* the table covers the 16-bit mantissas [2^15, 2^16) */
    VIF_LOG2_TABLE_SIZE = 32768,
    VIF_MAX_TAPS = 17,
    VIF_MAX_RADIUS = 8,
};

/* The reference's Q16 filters, one per scale (17, 9, 5 and 3 taps, each summing to 65536);
 * the initialiser also fills the CUDA twin's constant-memory copy (vif.cu). */
#define VIF_TAPS_INIT                                                                              \
    {                                                                                              \
        { 489,  935,  1640, 2640, 3896, 5274, 6547, 7455, 7784,                                    \
          7455, 6547, 5274, 3896, 2640, 1640, 935,  489 },                                         \
            { 1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244 },                           \
            { 3571, 16004, 26386, 16004, 3571 }, { 10904, 43728, 10904 },                          \
    }
static const uint16_t vif_taps[4][VIF_MAX_TAPS] = VIF_TAPS_INIT;
static const int vif_n_taps[4] = { 17, 9, 5, 3 };

/* How a vertical filter sum of scale s is rounded back to the scale's units: means by
 * mu_shift, second moments by sq_shift (0 for 8-bit scale 0: the sums are kept whole). */
typedef struct VifShifts {
    unsigned mu_shift, sq_shift;
} VifShifts;

EV_HD VifShifts vif_shifts(const int scale, const unsigned bpc)
{
    VifShifts s = { 16, 16 };
    if (scale == 0) {
        s.mu_shift = bpc;
        s.sq_shift = 2 * (bpc - 8);
    }
    return s;
}

/* The four per-scale totals of the reference (integer_vif.c), summed over pixels. */
typedef struct VifSums {
    int64_t num_log; /* sum of log2 ratios, x 2048 */
    int64_t den_log;
    int64_t num_non_log; /* sigma2_sq of the pixels below the noise floor */
    int64_t den_non_log; /* how many such pixels */
} VifSums;

/* Index of sample i of a line of n >= 2 samples extended by reflection without repeating the
 * edge, applied again as often as needed: the reference pads with R copies of this rule, and
 * for n <= R its pad rows mirror earlier pad rows, which is this same periodic extension. */
EV_HD int vif_reflect(int i, const int n)
{
    while (i < 0 || i >= n) {
        if (i < 0)
            i = -i;
        if (i >= n)
            i = 2 * (n - 1) - i;
    }
    return i;
}

/* (acc + 2^(shift-1)) >> shift, and acc itself for shift 0 (the reference's 8-bit squares). */
EV_HD uint64_t vif_round_shift(const uint64_t acc, const unsigned shift)
{
    return shift ? (acc + (UINT64_C(1) << (shift - 1))) >> shift : acc;
}

/* Leading zeros of x != 0 (the reference's __builtin_clz / __builtin_clzll). */
EV_HD int vif_clz32(const uint32_t x)
{
#if defined(__CUDA_ARCH__)
    return __clz((int)x);
#elif defined(__GNUC__)
    return __builtin_clz(x);
#else
    int n = 0;
    while (!(x & (UINT32_C(1) << (31 - n))))
        n++;
    return n;
#endif
}

EV_HD int vif_clz64(const uint64_t x)
{
#if defined(__CUDA_ARCH__)
    return __clzll((long long)x);
#elif defined(__GNUC__)
    return __builtin_clzll(x);
#else
    int n = 0;
    while (!(x & (UINT64_C(1) << (63 - n))))
        n++;
    return n;
#endif
}

/* log2(x) x 2048 from the 16 leading bits of x, for x >= 2^17 (always so here: the arguments
 * are at least the noise variance). table[] is indexed from 2^15. */
EV_HD int32_t vif_log2_32(const uint16_t *table, const uint32_t x)
{
    const int k = 16 - vif_clz32(x);
    return table[(x >> k) - VIF_LOG2_TABLE_MIN] + VIF_LOG2_ONE * k;
}

EV_HD int32_t vif_log2_64(const uint16_t *table, const uint64_t x)
{
    const int k = 48 - vif_clz64(x);
    return table[(x >> k) - VIF_LOG2_TABLE_MIN] + VIF_LOG2_ONE * k;
}

/* (int32_t)d as GCC on x86-64 converts it (cvttsd2si): truncation toward zero, and INT32_MIN
 * when d is out of range or NaN (undefined in C; spelled out so that every executor agrees). */
EV_HD int32_t vif_trunc_i32(const double d)
{
    if (!(d > -2147483649.0 && d < 2147483648.0))
        return INT32_MIN;
    return (int32_t)d;
}

/* (uint32)((a * b + 2^31) >> 32): the reference's squared means. */
EV_HD uint32_t vif_mul_q32(const uint32_t a, const uint32_t b)
{
    return (uint32_t)(((uint64_t)a * b + UINT64_C(2147483648)) >> 32);
}

/*
 * One pixel's contribution to the totals. mu1, mu2: horizontal sums of the vertical means
 * (unshifted, so 8-bit x 2^24); xx, yy, xy: the filtered second moments, already rounded to
 * 8-bit^2 x 2^16. egl: vif_enhn_gain_limit. The variances are uint32 differences read back as
 * int32 (they may wrap), and only sigma2_sq is clamped at 0, as the reference.
 */
EV_HD void vif_pixel_stat(VifSums *s, const uint16_t *table, const uint32_t mu1, const uint32_t mu2,
                          const uint32_t xx, const uint32_t yy, const uint32_t xy, const double egl)
{
    const int32_t sigma1_sq = (int32_t)(xx - vif_mul_q32(mu1, mu1));
    int32_t sigma2_sq = (int32_t)(yy - vif_mul_q32(mu2, mu2));
    const int32_t sigma12 = (int32_t)(xy - vif_mul_q32(mu1, mu2));
    sigma2_sq = sigma2_sq > 0 ? sigma2_sq : 0;
    if (sigma1_sq < VIF_SIGMA_NSQ) {
        s->num_non_log += sigma2_sq;
        s->den_non_log++;
        return;
    }
    /* log2(1 + sigma1_sq / nsq) = log2(nsq + sigma1_sq) - log2(2^17) */
    s->den_log += vif_log2_32(table, (uint32_t)sigma1_sq + VIF_SIGMA_NSQ) - VIF_LOG2_ONE * 17;
    if (sigma12 <= 0 || sigma2_sq <= 0)
        return;
    const double eps = 65536 * 1.0e-10;
    double g = sigma12 / (sigma1_sq + eps);
    int32_t sv_sq = vif_trunc_i32(sigma2_sq - g * sigma12);
    sv_sq = sv_sq > 0 ? sv_sq : 0;
    g = g < egl ? g : egl;
    /* log2(1 + g^2 s1 / (sv + nsq)) = log2(sv + nsq + g^2 s1) - log2(sv + nsq) */
    const uint32_t n1 = (uint32_t)sv_sq + VIF_SIGMA_NSQ;
    const int64_t n2 = (int64_t)(g * g * sigma1_sq) + n1;
    s->num_log += vif_log2_64(table, (uint64_t)n2) - vif_log2_64(table, n1);
}

/* The per-scale numerator and denominator, each a double expression stored as float. */
EV_HD float vif_scale_num(const VifSums *s)
{
    return (float)(s->num_log / 2048.0 + (s->den_non_log - (s->num_non_log / 16384.0) / 65025.0));
}

EV_HD float vif_scale_den(const VifSums *s)
{
    return (float)(s->den_log / 2048.0 + s->den_non_log);
}

#endif
