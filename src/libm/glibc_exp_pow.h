/*
 * glibc's exp, pow and powf (2.28 and later: ARM optimized-routines' algorithm, MIT licence,
 * Copyright (c) 2017-2018 Arm Ltd), rewritten as EV_HD functions that perform the same double
 * operations in the same order, with an fma() wherever glibc's x86-64 FMA build
 * (__ieee754_exp_fma, __ieee754_pow_fma, __powf_fma, selected on CPUs with FMA) fuses: read from the
 * disassembly of Debian's libm 2.36 (the sources are unchanged up to 2.39). The polynomial
 * coefficients, and powf's 16 log2 table entries (chosen by a search, not by a formula), are
 * ARM's (MIT); the other tables are generated from their definitions (glibc_exp_pow_tables.h).
 * sin, cos and atan2 (IBM's algorithms) are in glibc_sin_cos_atan2.h, included at the end.
 *
 * Only the paths that ciede can reach are here. Every other input (pow: x not +0 or a positive
 * normal double, y outside [2^-65, 2^63) or not positive at x = 0, |y log x| >= 1024; exp: |x| >= 512 or not finite; powf: x negative or NaN, y not a
 * positive normal float) returns NaN, which the twin detects
 * and reports: these functions never return a value glibc would not.
 *
 * Proof of equality with glibc: tests/unit/libm_check.c (CI: a seeded sample;
 * scripts/libm_check.sh: every input ciede can produce where enumerable).
 */
#ifndef EV_LIBM_GLIBC_EXP_POW_H
#define EV_LIBM_GLIBC_EXP_POW_H

#include <math.h>
#include <stdint.h>

#include "base/bitcast.h"
#include "base/hd.h"
#include "libm/glibc_exp_pow_tables.h"

typedef struct CiedePowLogEntry {
    double invc, logc, logctail;
} CiedePowLogEntry;

typedef struct CiedePowfLog2Entry {
    double invc, logc;
} CiedePowfLog2Entry;

/* powf's log2 table (ARM optimized-routines math/powf_log2_data.c, MIT): 1/c and log2(c) for
 * 16 points c near the centres of the subintervals of [0x1.66p-1, 0x1.66p0). */
#define LIBM_POWF_LOG2_TABLE_INIT                                                                  \
    {                                                                                              \
        { 0x1.661ec79f8f3bep+0, -0x1.efec65b963019p-2 },                                           \
            { 0x1.571ed4aaf883dp+0, -0x1.b0b6832d4fca4p-2 },                                       \
            { 0x1.49539f0f010bp+0, -0x1.7418b0a1fb77bp-2 },                                        \
            { 0x1.3c995b0b80385p+0, -0x1.39de91a6dcf7bp-2 },                                       \
            { 0x1.30d190c8864a5p+0, -0x1.01d9bf3f2b631p-2 },                                       \
            { 0x1.25e227b0b8eap+0, -0x1.97c1d1b3b7afp-3 },                                         \
            { 0x1.1bb4a4a1a343fp+0, -0x1.2f9e393af3c9fp-3 },                                       \
            { 0x1.12358f08ae5bap+0, -0x1.960cbbf788d5cp-4 },                                       \
            { 0x1.0953f419900a7p+0, -0x1.a6f9db6475fcep-5 }, { 0x1p+0, 0x0p+0 },                   \
            { 0x1.e608cfd9a47acp-1, 0x1.338ca9f24f53dp-4 },                                        \
            { 0x1.ca4b31f026aap-1, 0x1.476a9543891bap-3 },                                         \
            { 0x1.b2036576afce6p-1, 0x1.e840b4ac4e4d2p-3 },                                        \
            { 0x1.9c2d163a1aa2dp-1, 0x1.40645f0c6651cp-2 },                                        \
            { 0x1.886e6037841edp-1, 0x1.88e9c2c1b9ff8p-2 },                                        \
            { 0x1.767dcf5534862p-1, 0x1.ce0a44eb17bccp-2 },                                        \
    }

static const uint64_t libm_exp_table[256] = LIBM_EXP_TABLE_INIT;
static const CiedePowLogEntry libm_pow_log_table[128] = LIBM_POW_LOG_TABLE_INIT;
static const uint64_t libm_exp2f_table[32] = LIBM_EXP2F_TABLE_INIT;
static const CiedePowfLog2Entry libm_powf_log2_table[16] = LIBM_POWF_LOG2_TABLE_INIT;
#ifdef __CUDACC__
static __device__ const uint64_t libm_exp_table_dev[256] = LIBM_EXP_TABLE_INIT;
static __device__ const CiedePowLogEntry libm_pow_log_table_dev[128] = LIBM_POW_LOG_TABLE_INIT;
static __device__ const uint64_t libm_exp2f_table_dev[32] = LIBM_EXP2F_TABLE_INIT;
static __device__ const CiedePowfLog2Entry libm_powf_log2_table_dev[16] = LIBM_POWF_LOG2_TABLE_INIT;
/* glibc's sin/cos and atan2 tables: the twin uploads them (glibc_ibm_tables.c). */
static __device__ double libm_sincos_table_dev[440];
static __device__ double libm_atan2_table_dev[7 * 241];
#endif

EV_HD const uint64_t *libm_exp_tab(void)
{
#ifdef __CUDA_ARCH__
    return libm_exp_table_dev;
#else
    return libm_exp_table;
#endif
}

EV_HD const CiedePowLogEntry *libm_pow_log_tab(void)
{
#ifdef __CUDA_ARCH__
    return libm_pow_log_table_dev;
#else
    return libm_pow_log_table;
#endif
}

EV_HD const uint64_t *libm_exp2f_tab(void)
{
#ifdef __CUDA_ARCH__
    return libm_exp2f_table_dev;
#else
    return libm_exp2f_table;
#endif
}

EV_HD const CiedePowfLog2Entry *libm_powf_log2_tab(void)
{
#ifdef __CUDA_ARCH__
    return libm_powf_log2_table_dev;
#else
    return libm_powf_log2_table;
#endif
}

/* exp's constants (N = 128). */
#define LIBM_EXP_INV_LN2_N (0x1.71547652b82fep0 * 128)
#define LIBM_EXP_NEG_LN2_HI_N -0x1.62e42fefa0000p-8
#define LIBM_EXP_NEG_LN2_LO_N -0x1.cf79abc9e3b3ap-47
#define LIBM_EXP_SHIFT 0x1.8p52
#define LIBM_EXP_C2 0x1.ffffffffffdbdp-2
#define LIBM_EXP_C3 0x1.555555555543cp-3
#define LIBM_EXP_C4 0x1.55555cf172b91p-5
#define LIBM_EXP_C5 0x1.1111167a4d017p-7

/* The top 12 bits (sign and exponent) of a double. */
EV_HD uint32_t libm_top12(const double x)
{
    return (uint32_t)(ev_bits64(x) >> 52);
}

/*
 * glibc's specialcase of exp_inline. k > 0 (results near overflow): scale's exponent taken
 * down by 1009 and put back by one product (the FMA build fuses scale + scale * tmp here).
 * k < 0 (results near or in the subnormal range): scale * (1 + tmp) rounded once to the
 * subnormal precision; nothing fused (scale * tmp has two uses).
 */
EV_HD double libm_exp_special(const double tmp, uint64_t sbits, const uint64_t ki)
{
    if (!(ki & 0x80000000u)) {
        sbits -= 1009ull << 52;
        const double scale = ev_double_of(sbits);
        return 0x1p1009 * fma(scale, tmp, scale);
    }
    sbits += 1022ull << 52;
    const double scale = ev_double_of(sbits);
    const double st = scale * tmp;
    double y = scale + st;
    if (fabs(y) < 1.0) {
        double lo = scale - y + st;
        const double one = y < 0.0 ? -1.0 : 1.0;
        const double hi = one + y;
        lo = one - hi + y + lo;
        y = (hi + lo) - one;
        if (y == 0.0)
            y = ev_double_of(sbits & 0x8000000000000000ull);
    }
    return 0x1p-1022 * y;
}

/*
 * exp(x + xtail) for 2^-54 <= |x| < 1024 (the caller checks), glibc's exp_inline / __exp:
 * x = k ln2/128 + r, exp(x) = 2^(k/128) exp(r). with_tail: pow's variant (r += xtail).
 * special: |x| >= 512, where glibc finishes in its specialcase.
 */
EV_HD double libm_exp_main(const double x, const double xtail, const int with_tail,
                           const int special, const uint64_t *tab)
{
    double kd = fma(x, LIBM_EXP_INV_LN2_N, LIBM_EXP_SHIFT);
    const uint64_t ki = ev_bits64(kd);
    kd -= LIBM_EXP_SHIFT;
    double r = fma(kd, LIBM_EXP_NEG_LN2_LO_N, fma(kd, LIBM_EXP_NEG_LN2_HI_N, x));
    if (with_tail)
        r += xtail;
    const uint64_t idx = 2 * (ki % 128);
    const uint64_t top = ki << 45;
    const double tail = ev_double_of(tab[idx]);
    const uint64_t sbits = tab[idx + 1] + top;
    const double r2 = r * r;
    const double p23 = fma(r, LIBM_EXP_C3, LIBM_EXP_C2);
    const double tail_r = tail + r;
    const double p45 = fma(r, LIBM_EXP_C5, LIBM_EXP_C4);
    const double tmp = fma(r2 * r2, p45, fma(r2, p23, tail_r));
    if (special)
        return libm_exp_special(tmp, sbits, ki);
    const double scale = ev_double_of(sbits);
    return fma(scale, tmp, scale);
}

/* Whether exp's main path takes x (2^-54 <= |x| < 512), as glibc's abstop test. */
EV_HD int libm_exp_main_path(const double x)
{
    return (libm_top12(x) & 0x7ffu) - 0x3c9u < 0x3fu;
}

/* glibc's exp(x) on x in (-512, 512), NaN elsewhere (not proven there). */
EV_HD double ev_glibc_exp(const double x)
{
    if (libm_exp_main_path(x))
        return libm_exp_main(x, 0.0, 0, 0, libm_exp_tab());
    if ((libm_top12(x) & 0x7ffu) < 0x3c9u)
        return 1.0 + x; /* |x| < 2^-54 */
    return NAN;
}

/* pow's log constants. */
#define LIBM_POW_LN2_HI 0x1.62e42fefa3800p-1
#define LIBM_POW_LN2_LO 0x1.ef35793c76730p-45
#define LIBM_POW_A0 -0x1p-1
#define LIBM_POW_A1 (0x1.555555555556p-2 * -2)
#define LIBM_POW_A2 (-0x1.0000000000006p-2 * -2)
#define LIBM_POW_A3 (0x1.999999959554ep-3 * 4)
#define LIBM_POW_A4 (-0x1.555555529a47ap-3 * 4)
#define LIBM_POW_A5 (0x1.2495b9b4845e9p-3 * -8)
#define LIBM_POW_A6 (-0x1.0002b8b263fc3p-3 * -8)
#define LIBM_POW_OFF 0x3fe6955500000000u

/* log(x) = hi + *lo for the bits ix of a positive normal double: glibc's pow log_inline. */
EV_HD double libm_pow_log(const uint64_t ix, double *lo_out, const CiedePowLogEntry *tab)
{
    const uint64_t tmp = ix - LIBM_POW_OFF;
    const int i = (int)((tmp >> 45) % 128);
    const int k = (int)((int64_t)tmp >> 52);
    const uint64_t iz = ix - (tmp & 0xfffull << 52);
    const double z = ev_double_of(iz);
    const double kd = (double)k;
    const double invc = tab[i].invc, logc = tab[i].logc, logctail = tab[i].logctail;
    const double r = fma(z, invc, -1.0);
    const double t1 = fma(kd, LIBM_POW_LN2_HI, logc);
    const double t2 = t1 + r;
    const double lo1 = fma(kd, LIBM_POW_LN2_LO, logctail);
    const double lo2 = t1 - t2 + r;
    const double ar = LIBM_POW_A0 * r;
    const double ar2 = r * ar;
    const double ar3 = r * ar2;
    const double hi = t2 + ar2;
    const double lo3 = fma(ar, r, -ar2);
    const double lo4 = t2 - hi + ar2;
    const double q12 = fma(r, LIBM_POW_A2, LIBM_POW_A1);
    const double q34 = fma(r, LIBM_POW_A4, LIBM_POW_A3);
    const double q56 = fma(r, LIBM_POW_A6, LIBM_POW_A5);
    const double q = fma(ar2, fma(ar2, q56, q34), q12);
    const double lo = fma(ar3, q, lo1 + lo2 + lo3 + lo4);
    const double y = hi + lo;
    *lo_out = hi - y + lo;
    return y;
}

/*
 * glibc's pow(x, y) for x = +0 or a positive normal double, y > 0 or 2^-65 <= |y| < 2^63,
 * and |y log x| < 1024 (subnormal and overflowing results included); NaN elsewhere.
 */
EV_HD double ev_glibc_pow(const double x, const double y)
{
    const uint64_t ix = ev_bits64(x);
    const uint32_t topx = libm_top12(x), topy = libm_top12(y) & 0x7ffu;
    if (topy - 0x3beu >= 0x43eu - 0x3beu || !(y > 0.0 || y < 0.0))
        return NAN;
    if (ix == 0 && y > 0.0)
        return 0.0; /* glibc: x * x */
    if (topx - 1u >= 0x7feu)
        return NAN;
    double lo;
    const double hi = libm_pow_log(ix, &lo, libm_pow_log_tab());
    const double ehi = y * hi;
    const double elo = fma(y, lo, fma(y, hi, -ehi));
    if (libm_exp_main_path(ehi))
        return libm_exp_main(ehi, elo, 1, 0, libm_exp_tab());
    const uint32_t abstop = libm_top12(ehi) & 0x7ffu;
    if (abstop < 0x3c9u)
        return 1.0 + ehi; /* |ehi| < 2^-54: glibc's exp_inline returns 1 + x */
    if (abstop >= 0x409u)
        return NAN; /* |ehi| >= 1024: glibc's __math_oflow / __math_uflow */
    return libm_exp_main(ehi, elo, 1, 1, libm_exp_tab());
}

/* powf's constants. */
#define LIBM_POWF_OFF 0x3f330000u
#define LIBM_POWF_A0 0x1.27616c9496e0bp-2
#define LIBM_POWF_A1 -0x1.71969a075c67ap-2
#define LIBM_POWF_A2 0x1.ec70a6ca7baddp-2
#define LIBM_POWF_A3 -0x1.7154748bef6c8p-1
#define LIBM_POWF_A4 0x1.71547652ab82bp0
#define LIBM_EXP2F_SHIFT (0x1.8p+52 / 32)
#define LIBM_EXP2F_C0 0x1.c6af84b912394p-5
#define LIBM_EXP2F_C1 0x1.ebfce50fac4f3p-3
#define LIBM_EXP2F_C2 0x1.62e42ff0c52d6p-1

/* log2(x) for the bits ix of a positive float (subnormals normalised): powf's log2_inline. */
EV_HD double libm_powf_log2(const uint32_t ix, const CiedePowfLog2Entry *tab)
{
    const uint32_t tmp = ix - LIBM_POWF_OFF;
    const int i = (int)((tmp >> 19) % 16);
    const uint32_t top = tmp & 0xff800000u;
    const uint32_t iz = ix - top;
    const int k = (int)(int32_t)top >> 23;
    const double invc = tab[i].invc, logc = tab[i].logc;
    const double z = (double)ev_float_of(iz);
    const double r = fma(z, invc, -1.0);
    const double y0 = logc + (double)k;
    const double r2 = r * r;
    const double y = fma(r, LIBM_POWF_A0, LIBM_POWF_A1);
    const double p = fma(r, LIBM_POWF_A2, LIBM_POWF_A3);
    const double r4 = r2 * r2;
    double q = fma(r, LIBM_POWF_A4, y0);
    q = fma(r2, p, q);
    return fma(y, r4, q);
}

/* 2^xd for xd in [-150, 128]: powf's exp2_inline, rounded to float. */
EV_HD float libm_powf_exp2(const double xd, const uint64_t *tab)
{
    double kd = xd + LIBM_EXP2F_SHIFT;
    const uint64_t ki = ev_bits64(kd);
    kd -= LIBM_EXP2F_SHIFT;
    const double r = xd - kd;
    const uint64_t t = tab[ki % 32] + (ki << 47);
    const double s = ev_double_of(t);
    const double z = fma(r, LIBM_EXP2F_C0, LIBM_EXP2F_C1);
    const double r2 = r * r;
    double y = fma(r, LIBM_EXP2F_C2, 1.0);
    y = fma(z, r2, y);
    return (float)(y * s);
}

/*
 * glibc's powf(x, y) for x >= 0 (+0, subnormals and +inf included) and y a positive normal
 * float; NaN elsewhere. Underflow as glibc's: 0 where y log2 x <= -150, the least subnormal
 * (__math_may_uflowf's 0x1.4p-75f squared) where it is in (-150, -149).
 */
EV_HD float ev_glibc_powf(const float x, const float y)
{
    uint32_t ix = ev_bits32(x);
    const uint32_t iy = ev_bits32(y);
    if (iy - 0x00800000u >= 0x7f800000u - 0x00800000u)
        return NAN;
    if (ix == 0 || ix == 0x7f800000u)
        return x * x;
    if (ix > 0x7f800000u)
        return NAN;
    if (ix < 0x00800000u) {
        ix = ev_bits32(x * 0x1p23f) & 0x7fffffffu;
        ix -= 23u << 23;
    }
    const double logx = libm_powf_log2(ix, libm_powf_log2_tab());
    const double ylogx = (double)y * logx;
    if ((ev_bits64(ylogx) >> 47 & 0xffffu) >= ev_bits64(126.0) >> 47) {
        if (ylogx > 0x1.fffffffd1d571p+6)
            return INFINITY;
        if (ylogx <= -150.0)
            return 0.0f;
        if (ylogx < -149.0) {
            const float tiny = 0x1.4p-75f;
            return tiny * tiny;
        }
    }
    return libm_powf_exp2(ylogx, libm_exp2f_tab());
}

#include "libm/glibc_sin_cos_atan2.h"

#endif
