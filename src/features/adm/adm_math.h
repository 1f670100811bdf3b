/*
 * Integer ADM arithmetic of libvmaf (feature/integer_adm.c), one coefficient at a time, shared
 * by the C reference (adm_*.c) and a CUDA twin. Every width, shift and rounding constant is the
 * reference's, including its odd ones (65535 for the diagonal CSF, 2^q in the s123 denominator,
 * -2^31 in the s123 flt/threshold terms). Where the reference narrows an out-of-range value
 * (GCC: modulo 2^n) the narrowing is spelled out with adm_wrap16/adm_wrap32, and sums that could
 * wrap are done modulo 2^n in unsigned types, so no step here overflows a signed type. Right
 * shifts of negative values are arithmetic, as the reference relies on (GCC, Clang, NVCC).
 */
#ifndef EV_FEATURES_ADM_MATH_H
#define EV_FEATURES_ADM_MATH_H

#include <stdint.h>

#include "base/hd.h"

/* db2 wavelet in Q15; the low-pass taps sum to 46342, the high-pass ones to 0. */
#define ADM_LO0 15826
#define ADM_LO1 27411
#define ADM_LO2 7345
#define ADM_LO3 (-4240)
#define ADM_LO_SUM 46342
#define ADM_HI0 (-4240)
#define ADM_HI1 (-7345)
#define ADM_HI2 27411
#define ADM_HI3 (-15826)

/* ---- narrowing as GCC does it (two's complement, modulo 2^n) ---- */

EV_HD int16_t adm_wrap16(const int64_t v)
{
    const uint16_t u = (uint16_t)(uint64_t)v;
    return u < 0x8000u ? (int16_t)u : (int16_t)((int32_t)u - 0x10000);
}

EV_HD int32_t adm_wrap32(const int64_t v)
{
    const uint32_t u = (uint32_t)(uint64_t)v;
    return u < 0x80000000u ? (int32_t)u : (int32_t)((int64_t)u - 0x100000000LL);
}

/* abs() of an int32 as GCC computes it (abs(INT32_MIN) stays INT32_MIN). */
EV_HD int32_t adm_abs32(const int32_t v)
{
    return v < 0 ? adm_wrap32(-(int64_t)v) : v;
}

/* Leading zeros of a non-zero 32-bit value (the reference's __builtin_clz). */
EV_HD unsigned adm_clz32(const uint32_t v)
{
#if defined(__CUDA_ARCH__)
    return (unsigned)__clz((int)v);
#elif defined(__GNUC__)
    return (unsigned)__builtin_clz(v);
#else
    unsigned n = 0;
    while (!(v & (0x80000000u >> n)))
        n++;
    return n;
#endif
}

/* ---- borders ---- */

/* Source index of DWT tap position k (2i-1 .. 2i+2) in a line of n samples: mirrored without
 * repeat before the start (-1 -> 1), with repeat past the end (n -> n-1). Valid for n >= 5 in the
 * integer DWT (the reference's index tables degenerate below that; init refuses such frames). */
EV_HD int adm_dwt_index(const int k, const int n)
{
    return k < 0 ? -k : (k >= n ? 2 * n - k - 1 : k);
}

/* Neighbour rows/columns of the contrast-masking 3x3 window: reflected at the start (row -1 is
 * row 1), replicated at the end (row n is row n-1). */
EV_HD int adm_cm_prev(const int i)
{
    return i > 0 ? i - 1 : 1;
}

EV_HD int adm_cm_next(const int i, const int n)
{
    return i < n - 1 ? i + 1 : n - 1;
}

/* ---- DWT ---- */

/* Four taps of scales 1..3, exact in int64 (the reference's accumulators are int64). */
EV_HD int64_t adm_taps_lo(const int64_t s0, const int64_t s1, const int64_t s2, const int64_t s3)
{
    return ADM_LO0 * s0 + ADM_LO1 * s1 + ADM_LO2 * s2 + ADM_LO3 * s3;
}

EV_HD int64_t adm_taps_hi(const int64_t s0, const int64_t s1, const int64_t s2, const int64_t s3)
{
    return ADM_HI0 * s0 + ADM_HI1 * s1 + ADM_HI2 * s2 + ADM_HI3 * s3;
}

/* Scale 0, vertical pass on bpc-bit samples, in the reference's int32 arithmetic: the low band
 * is re-centred by subtracting 46342 * 2^(bpc-1) before rounding, the high band (taps sum 0) is
 * not. For 16-bit input the reference's partial sums wrap, but the value it keeps fits in int32,
 * so the modular (uint32) sum is that value exactly. */
EV_HD int16_t adm_dwt0_vert_lo(const uint32_t s0, const uint32_t s1, const uint32_t s2,
                               const uint32_t s3, const unsigned bpc)
{
    const uint32_t half = 1u << (bpc - 1);
    const uint32_t acc = (uint32_t)ADM_LO0 * s0 + (uint32_t)ADM_LO1 * s1 + (uint32_t)ADM_LO2 * s2 +
                         (uint32_t)ADM_LO3 * s3 - (uint32_t)ADM_LO_SUM * half + half;
    return adm_wrap16(adm_wrap32(acc) >> bpc);
}

EV_HD int16_t adm_dwt0_vert_hi(const uint32_t s0, const uint32_t s1, const uint32_t s2,
                               const uint32_t s3, const unsigned bpc)
{
    const uint32_t half = 1u << (bpc - 1);
    const uint32_t acc = (uint32_t)ADM_HI0 * s0 + (uint32_t)ADM_HI1 * s1 + (uint32_t)ADM_HI2 * s2 +
                         (uint32_t)ADM_HI3 * s3 + half;
    return adm_wrap16(adm_wrap32(acc) >> bpc);
}

/* Scale 0, horizontal pass on the int16 vertical outputs: int32 taps (|sum| < 2^31), then
 * (sum + 2^15) >> 16, stored as int16. */
EV_HD int32_t adm_taps0_lo(const int32_t s0, const int32_t s1, const int32_t s2, const int32_t s3)
{
    return ADM_LO0 * s0 + ADM_LO1 * s1 + ADM_LO2 * s2 + ADM_LO3 * s3;
}

EV_HD int32_t adm_taps0_hi(const int32_t s0, const int32_t s1, const int32_t s2, const int32_t s3)
{
    return ADM_HI0 * s0 + ADM_HI1 * s1 + ADM_HI2 * s2 + ADM_HI3 * s3;
}

EV_HD int16_t adm_dwt0_horz(const int32_t taps)
{
    return adm_wrap16((taps + 32768) >> 16);
}

/* Scales 1..3: (sum + add) >> shift, stored as int32. Vertical (add, shift) per scale 1, 2, 3:
 * (0, 0), (32768, 16), (32768, 16); horizontal: (16384, 15), (32768, 16), (16384, 15). */
EV_HD int32_t adm_dwt_round32(const int64_t taps, const int64_t add, const unsigned shift)
{
    return adm_wrap32((taps + add) >> shift);
}

/* ---- decouple ---- */

/* Reference's division table: div_lookup[32768 + i] = 2^30 / i, [32768 - i] = -(2^30 / i). */
EV_HD int32_t adm_div_entry(const int i)
{
    const int32_t q = (int32_t)(1073741824 / (i < 0 ? -i : i));
    return i < 0 ? -q : q;
}

/* Angle test: (o . t) >= 0 and (o . t)^2 >= cos(1 deg)^2 |o|^2 |t|^2, evaluated as the reference
 * does: each int64 rounded to float, divided by 4096.0 in double, the rest in double. */
EV_HD int adm_angle_flag(const int64_t ot_dp, const int64_t o_mag_sq, const int64_t t_mag_sq,
                         const float cos_1deg_sq)
{
    const double ot = (double)(float)ot_dp / 4096.0;
    const double oo = (double)(float)o_mag_sq / 4096.0;
    const double tt = (double)(float)t_mag_sq / 4096.0;
    return ot >= 0.0 && ot * ot >= (double)cos_1deg_sq * oo * tt;
}

EV_HD int32_t adm_clamp_k(const int64_t k)
{
    return k < 0 ? 0 : (k > 32768 ? 32768 : (int32_t)k);
}

/* Scale 0 ratio t/o in Q15, clamped to [0, 1]. */
EV_HD int32_t adm_k0(const int16_t o, const int16_t t, const int32_t *div_lookup)
{
    if (o == 0)
        return 32768;
    return adm_clamp_k(((int64_t)div_lookup[o + 32768] * t + 16384) >> 15);
}

/* Scales 1..3: |o| >= 2^15 is first rounded to its top 15 bits (shift n = 17 - clz(|o|)). */
EV_HD int32_t adm_k123(const int32_t o, const int32_t t, const int32_t *div_lookup)
{
    if (o == 0)
        return 32768;
    const uint32_t mag = (uint32_t)adm_abs32(o);
    unsigned shift = 0;
    uint32_t idx = mag;
    if (mag >= 32768) {
        shift = 17 - adm_clz32(mag);
        idx = (mag + (1u << (shift - 1))) >> shift; /* at most 32768 */
    }
    const int64_t sign = o < 0 ? -1 : 1;
    const int64_t num = (int64_t)div_lookup[idx + 32768] * t * sign;
    return adm_clamp_k((num + ((int64_t)1 << (14 + shift))) >> (15 + shift));
}

/* The restored coefficient k*o, then the enhancement-gain limit where the angle test passed:
 * min(rst*egl, t) for a positive restoration, max(rst*egl, t) for a negative one, in double,
 * truncated (the sign test uses the reference's float product (k/32768) * (o/64)). */
EV_HD int64_t adm_restore(const int32_t k, const int32_t o, const int32_t t, const int flag,
                          const double egl)
{
    const int64_t rst = ((int64_t)k * o + 16384) >> 15;
    if (!flag)
        return rst;
    const float sign_f = ((float)k / 32768) * ((float)o / 64);
    const double lim = (double)rst * egl;
    if (sign_f > 0.0f)
        return (int64_t)(lim < (double)t ? lim : (double)t);
    if (sign_f < 0.0f)
        return (int64_t)(lim > (double)t ? lim : (double)t);
    return rst;
}

/* One band of one coefficient: restored r and additive a = t - r (scale 0, int16). */
EV_HD void adm_decouple_coef0(const int16_t o, const int16_t t, const int flag, const double egl,
                              const int32_t *div_lookup, int16_t *r, int16_t *a)
{
    const int16_t rst = adm_wrap16(adm_restore(adm_k0(o, t, div_lookup), o, t, flag, egl));
    *r = rst;
    *a = adm_wrap16((int32_t)t - rst);
}

/* The same at scales 1..3 (int32). */
EV_HD void adm_decouple_coef123(const int32_t o, const int32_t t, const int flag, const double egl,
                                const int32_t *div_lookup, int32_t *r, int32_t *a)
{
    const int32_t rst = adm_wrap32(adm_restore(adm_k123(o, t, div_lookup), o, t, flag, egl));
    *r = rst;
    *a = adm_wrap32((int64_t)t - rst);
}

/* ---- contrast sensitivity ---- */

/* Scale 0: dst = (rf * x + add) >> shift with (shift, add) = (15, 16384) for h and v and
 * (17, 65535) for d; rf is the factor in Q21 (h, v) or Q23 (d). */
EV_HD int16_t adm_csf_coef0(const int16_t x, const uint16_t rf, const int diag)
{
    const int32_t prod = (int32_t)rf * x;
    return adm_wrap16(diag ? ((int64_t)prod + 65535) >> 17 : ((int64_t)prod + 16384) >> 15);
}

/* Scale 0 masking filter value: |dst| * 4369 / 2^12 rounded (about |dst| / 30 * 2^5). */
EV_HD int16_t adm_flt_coef0(const int16_t dst)
{
    const int32_t mag = dst < 0 ? -(int32_t)dst : dst;
    return adm_wrap16((4369 * mag + 2048) >> 12);
}

/* Scales 1..3: dst = (rf * x + 2^27) >> 28 with rf the factor in Q32. */
EV_HD int32_t adm_csf_coef123(const int32_t x, const uint32_t rf)
{
    return adm_wrap32(((int64_t)rf * x + (1 << 27)) >> 28);
}

/* Scales 1..3 masking filter value. The reference keeps its rounding term 2^31 in an int32,
 * which makes it -2^31: values below 15 give -1. */
EV_HD int32_t adm_flt_coef123(const int32_t dst)
{
    return adm_wrap32((143165577LL * adm_abs32(dst) - 2147483648LL) >> 32);
}

/* ---- contrast masking ---- */

/* Centre term of the scale-0 threshold: |csf| * 8738 / 2^12 rounded, kept as int16. */
EV_HD int16_t adm_cm_centre0(const int16_t csf)
{
    const int32_t mag = csf < 0 ? -(int32_t)csf : csf;
    return adm_wrap16((8738 * mag + 2048) >> 12);
}

/* Centre term of the s123 threshold, with the same -2^31 rounding term as adm_flt_coef123. */
EV_HD int32_t adm_cm_centre123(const int32_t csf)
{
    return adm_wrap32((286331153LL * adm_abs32(csf) - 2147483648LL) >> 32);
}

/* Scale 0 masked cube of one coefficient: x = src * rf (int32), x = max(|x| - (thr << sub), 0),
 * x2 = (x*x + 2^(sq-1)) >> sq as int32, cube = (x2*x + add) >> cub.
 * (sub, sq) = (10, 29) for h and v, (12, 30) for d. */
EV_HD int64_t adm_cm_cube0(const int16_t src, const uint16_t rf, const int32_t thr,
                           const unsigned sub, const unsigned sq, const int64_t cub_add,
                           const unsigned cub)
{
    const int32_t x0 = (int32_t)rf * src;
    const int32_t thr_q = adm_wrap32((int64_t)((uint64_t)(uint32_t)thr << sub));
    int32_t x = adm_wrap32((int64_t)(x0 < 0 ? -x0 : x0) - thr_q);
    x = x < 0 ? 0 : x;
    const int32_t x2 = adm_wrap32(((int64_t)x * x + ((int64_t)1 << (sq - 1))) >> sq);
    return ((int64_t)x2 * x + cub_add) >> cub;
}

/* Scales 1..3 masked cube: x = (src * rf + 2^27) >> 28, x = max(|x| - thr, 0),
 * x2 = (x*x + 2^29) >> 30, cube = (x2*x + add) >> cub. */
EV_HD int64_t adm_cm_cube123(const int32_t src, const uint32_t rf, const int32_t thr,
                             const int64_t cub_add, const unsigned cub)
{
    int32_t x = adm_wrap32((int64_t)adm_abs32(adm_csf_coef123(src, rf)) - thr);
    x = x < 0 ? 0 : x;
    const int32_t x2 = adm_wrap32(((int64_t)x * x + (1 << 29)) >> 30);
    return ((int64_t)x2 * x + cub_add) >> cub;
}

/* ---- denominator ---- */

/* Scale 0: |x|^3 of an int16 reference coefficient, exact in uint64. */
EV_HD uint64_t adm_den_cube0(const int16_t x)
{
    const uint64_t m = (uint64_t)(x < 0 ? -(int32_t)x : x);
    return m * m * m;
}

/* Scales 1..3: ((x*x + 2^q) >> q) * x, then (+ add) >> cub; q = 31, 30, 31 for scales 1, 2, 3.
 * The reference rounds the square with 2^q, not 2^(q-1). */
EV_HD uint64_t adm_den_cube123(const int32_t x, const unsigned q, const uint64_t cub_add,
                               const unsigned cub)
{
    const uint64_t m = (uint32_t)adm_abs32(x);
    return ((((m * m) + ((uint64_t)1 << q)) >> q) * m + cub_add) >> cub;
}

/* Wrapping int64 addition (the reference's int64 sums cannot overflow on real frames; an
 * adversarial one wraps, as GCC's code does, instead of being undefined). */
EV_HD int64_t adm_add64(const int64_t a, const int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

/* One row's sum folded into the total: (row + 2^(shift-1)) >> shift, no rounding for shift 0. */
EV_HD int64_t adm_fold_row(const int64_t row, const unsigned shift)
{
    return shift ? adm_add64(row, (int64_t)1 << (shift - 1)) >> shift : row;
}

#endif
