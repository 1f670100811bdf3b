/*
 * glibc's exp, pow and powf (2.28 and later: ARM optimized-routines' algorithm, MIT licence,
 * Copyright (c) 2017-2018 Arm Ltd), rewritten as EV_HD functions that perform the same double
 * operations in the same order, with an fma() wherever glibc's x86-64 FMA build
 * (__ieee754_exp_fma, __ieee754_pow_fma, __powf_fma, selected on CPUs with FMA) fuses: read from the
 * disassembly of Debian's libm 2.36 (the sources are unchanged up to 2.39). The polynomial
 * coefficients, and powf's 16 log2 table entries (chosen by a search, not by a formula), are
 * ARM's (MIT); the other tables are generated from their definitions (ciede_libm_tables.h).
 *
 * Only the paths that ciede can reach are here. Every other input (pow: x not +0 or a positive
 * normal double, y outside [2^-65, 2^63) or not positive at x = 0, |y log x| >= 1024; exp: |x| >= 512 or not finite; powf: x negative or NaN, y not a
 * positive normal float) returns NaN, which the twin detects
 * and reports: these functions never return a value glibc would not.
 *
 * Proof of equality with glibc: tests/unit/ciede_libm_check.c (CI: a seeded sample;
 * scripts/ciede_libm_check.sh: every input ciede can produce where enumerable).
 */
#ifndef EV_FEATURES_CIEDE_LIBM_H
#define EV_FEATURES_CIEDE_LIBM_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/hd.h"
#include "features/ciede/ciede_libm_tables.h"

typedef struct CiedePowLogEntry {
    double invc, logc, logctail;
} CiedePowLogEntry;

typedef struct CiedePowfLog2Entry {
    double invc, logc;
} CiedePowfLog2Entry;

/* powf's log2 table (ARM optimized-routines math/powf_log2_data.c, MIT): 1/c and log2(c) for
 * 16 points c near the centres of the subintervals of [0x1.66p-1, 0x1.66p0). */
#define CIEDE_POWF_LOG2_TABLE_INIT { \
    { 0x1.661ec79f8f3bep+0, -0x1.efec65b963019p-2 }, \
    { 0x1.571ed4aaf883dp+0, -0x1.b0b6832d4fca4p-2 }, \
    { 0x1.49539f0f010bp+0, -0x1.7418b0a1fb77bp-2 }, \
    { 0x1.3c995b0b80385p+0, -0x1.39de91a6dcf7bp-2 }, \
    { 0x1.30d190c8864a5p+0, -0x1.01d9bf3f2b631p-2 }, \
    { 0x1.25e227b0b8eap+0, -0x1.97c1d1b3b7afp-3 }, \
    { 0x1.1bb4a4a1a343fp+0, -0x1.2f9e393af3c9fp-3 }, \
    { 0x1.12358f08ae5bap+0, -0x1.960cbbf788d5cp-4 }, \
    { 0x1.0953f419900a7p+0, -0x1.a6f9db6475fcep-5 }, \
    { 0x1p+0, 0x0p+0 }, \
    { 0x1.e608cfd9a47acp-1, 0x1.338ca9f24f53dp-4 }, \
    { 0x1.ca4b31f026aap-1, 0x1.476a9543891bap-3 }, \
    { 0x1.b2036576afce6p-1, 0x1.e840b4ac4e4d2p-3 }, \
    { 0x1.9c2d163a1aa2dp-1, 0x1.40645f0c6651cp-2 }, \
    { 0x1.886e6037841edp-1, 0x1.88e9c2c1b9ff8p-2 }, \
    { 0x1.767dcf5534862p-1, 0x1.ce0a44eb17bccp-2 }, \
}

static const uint64_t ciede_exp_table[256] = CIEDE_EXP_TABLE_INIT;
static const CiedePowLogEntry ciede_pow_log_table[128] = CIEDE_POW_LOG_TABLE_INIT;
static const uint64_t ciede_exp2f_table[32] = CIEDE_EXP2F_TABLE_INIT;
static const CiedePowfLog2Entry ciede_powf_log2_table[16] = CIEDE_POWF_LOG2_TABLE_INIT;
#ifdef __CUDACC__
static __device__ const uint64_t ciede_exp_table_dev[256] = CIEDE_EXP_TABLE_INIT;
static __device__ const CiedePowLogEntry ciede_pow_log_table_dev[128] = CIEDE_POW_LOG_TABLE_INIT;
static __device__ const uint64_t ciede_exp2f_table_dev[32] = CIEDE_EXP2F_TABLE_INIT;
static __device__ const CiedePowfLog2Entry ciede_powf_log2_table_dev[16] =
    CIEDE_POWF_LOG2_TABLE_INIT;
/* glibc's sin/cos and atan2 tables: the twin uploads them (ciede_glibc_tables.c). */
static __device__ double ciede_sincos_table_dev[440];
static __device__ double ciede_atan2_table_dev[7 * 241];
#endif

EV_HD const uint64_t *ciede_exp_tab(void)
{
#ifdef __CUDA_ARCH__
    return ciede_exp_table_dev;
#else
    return ciede_exp_table;
#endif
}

EV_HD const CiedePowLogEntry *ciede_pow_log_tab(void)
{
#ifdef __CUDA_ARCH__
    return ciede_pow_log_table_dev;
#else
    return ciede_pow_log_table;
#endif
}

EV_HD const uint64_t *ciede_exp2f_tab(void)
{
#ifdef __CUDA_ARCH__
    return ciede_exp2f_table_dev;
#else
    return ciede_exp2f_table;
#endif
}

EV_HD const CiedePowfLog2Entry *ciede_powf_log2_tab(void)
{
#ifdef __CUDA_ARCH__
    return ciede_powf_log2_table_dev;
#else
    return ciede_powf_log2_table;
#endif
}

EV_HD uint32_t ciede_bits32(const float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof(u));
    return u;
}

EV_HD float ciede_float32(const uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof(x));
    return x;
}

EV_HD uint64_t ciede_bits64(const double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof(u));
    return u;
}

EV_HD double ciede_double64(const uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof(x));
    return x;
}

/* exp's constants (N = 128). */
#define CIEDE_EXP_INV_LN2_N (0x1.71547652b82fep0 * 128)
#define CIEDE_EXP_NEG_LN2_HI_N -0x1.62e42fefa0000p-8
#define CIEDE_EXP_NEG_LN2_LO_N -0x1.cf79abc9e3b3ap-47
#define CIEDE_EXP_SHIFT 0x1.8p52
#define CIEDE_EXP_C2 0x1.ffffffffffdbdp-2
#define CIEDE_EXP_C3 0x1.555555555543cp-3
#define CIEDE_EXP_C4 0x1.55555cf172b91p-5
#define CIEDE_EXP_C5 0x1.1111167a4d017p-7

/* The top 12 bits (sign and exponent) of a double. */
EV_HD uint32_t ciede_top12(const double x)
{
    return (uint32_t)(ciede_bits64(x) >> 52);
}

/*
 * glibc's specialcase of exp_inline. k > 0 (results near overflow): scale's exponent taken
 * down by 1009 and put back by one product (the FMA build fuses scale + scale * tmp here).
 * k < 0 (results near or in the subnormal range): scale * (1 + tmp) rounded once to the
 * subnormal precision; nothing fused (scale * tmp has two uses).
 */
EV_HD double ciede_exp_special(const double tmp, uint64_t sbits, const uint64_t ki)
{
    if (!(ki & 0x80000000u)) {
        sbits -= 1009ull << 52;
        const double scale = ciede_double64(sbits);
        return 0x1p1009 * fma(scale, tmp, scale);
    }
    sbits += 1022ull << 52;
    const double scale = ciede_double64(sbits);
    const double st = scale * tmp;
    double y = scale + st;
    if (fabs(y) < 1.0) {
        double lo = scale - y + st;
        const double one = y < 0.0 ? -1.0 : 1.0;
        const double hi = one + y;
        lo = one - hi + y + lo;
        y = (hi + lo) - one;
        if (y == 0.0)
            y = ciede_double64(sbits & 0x8000000000000000ull);
    }
    return 0x1p-1022 * y;
}

/*
 * exp(x + xtail) for 2^-54 <= |x| < 1024 (the caller checks), glibc's exp_inline / __exp:
 * x = k ln2/128 + r, exp(x) = 2^(k/128) exp(r). with_tail: pow's variant (r += xtail).
 * special: |x| >= 512, where glibc finishes in its specialcase.
 */
EV_HD double ciede_exp_main(const double x, const double xtail, const int with_tail,
                            const int special, const uint64_t *tab)
{
    double kd = fma(x, CIEDE_EXP_INV_LN2_N, CIEDE_EXP_SHIFT);
    const uint64_t ki = ciede_bits64(kd);
    kd -= CIEDE_EXP_SHIFT;
    double r = fma(kd, CIEDE_EXP_NEG_LN2_LO_N, fma(kd, CIEDE_EXP_NEG_LN2_HI_N, x));
    if (with_tail)
        r += xtail;
    const uint64_t idx = 2 * (ki % 128);
    const uint64_t top = ki << 45;
    const double tail = ciede_double64(tab[idx]);
    const uint64_t sbits = tab[idx + 1] + top;
    const double r2 = r * r;
    const double p23 = fma(r, CIEDE_EXP_C3, CIEDE_EXP_C2);
    const double tail_r = tail + r;
    const double p45 = fma(r, CIEDE_EXP_C5, CIEDE_EXP_C4);
    const double tmp = fma(r2 * r2, p45, fma(r2, p23, tail_r));
    if (special)
        return ciede_exp_special(tmp, sbits, ki);
    const double scale = ciede_double64(sbits);
    return fma(scale, tmp, scale);
}

/* Whether exp's main path takes x (2^-54 <= |x| < 512), as glibc's abstop test. */
EV_HD int ciede_exp_main_path(const double x)
{
    return (ciede_top12(x) & 0x7ffu) - 0x3c9u < 0x3fu;
}

/* glibc's exp(x) on x in (-512, 512), NaN elsewhere (not proven there). */
EV_HD double ciede_glibc_exp(const double x)
{
    if (ciede_exp_main_path(x))
        return ciede_exp_main(x, 0.0, 0, 0, ciede_exp_tab());
    if ((ciede_top12(x) & 0x7ffu) < 0x3c9u)
        return 1.0 + x; /* |x| < 2^-54 */
    return NAN;
}

/* pow's log constants. */
#define CIEDE_POW_LN2_HI 0x1.62e42fefa3800p-1
#define CIEDE_POW_LN2_LO 0x1.ef35793c76730p-45
#define CIEDE_POW_A0 -0x1p-1
#define CIEDE_POW_A1 (0x1.555555555556p-2 * -2)
#define CIEDE_POW_A2 (-0x1.0000000000006p-2 * -2)
#define CIEDE_POW_A3 (0x1.999999959554ep-3 * 4)
#define CIEDE_POW_A4 (-0x1.555555529a47ap-3 * 4)
#define CIEDE_POW_A5 (0x1.2495b9b4845e9p-3 * -8)
#define CIEDE_POW_A6 (-0x1.0002b8b263fc3p-3 * -8)
#define CIEDE_POW_OFF 0x3fe6955500000000u

/* log(x) = hi + *lo for the bits ix of a positive normal double: glibc's pow log_inline. */
EV_HD double ciede_pow_log(const uint64_t ix, double *lo_out, const CiedePowLogEntry *tab)
{
    const uint64_t tmp = ix - CIEDE_POW_OFF;
    const int i = (int)((tmp >> 45) % 128);
    const int k = (int)((int64_t)tmp >> 52);
    const uint64_t iz = ix - (tmp & 0xfffull << 52);
    const double z = ciede_double64(iz);
    const double kd = (double)k;
    const double invc = tab[i].invc, logc = tab[i].logc, logctail = tab[i].logctail;
    const double r = fma(z, invc, -1.0);
    const double t1 = fma(kd, CIEDE_POW_LN2_HI, logc);
    const double t2 = t1 + r;
    const double lo1 = fma(kd, CIEDE_POW_LN2_LO, logctail);
    const double lo2 = t1 - t2 + r;
    const double ar = CIEDE_POW_A0 * r;
    const double ar2 = r * ar;
    const double ar3 = r * ar2;
    const double hi = t2 + ar2;
    const double lo3 = fma(ar, r, -ar2);
    const double lo4 = t2 - hi + ar2;
    const double q12 = fma(r, CIEDE_POW_A2, CIEDE_POW_A1);
    const double q34 = fma(r, CIEDE_POW_A4, CIEDE_POW_A3);
    const double q56 = fma(r, CIEDE_POW_A6, CIEDE_POW_A5);
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
EV_HD double ciede_glibc_pow(const double x, const double y)
{
    const uint64_t ix = ciede_bits64(x);
    const uint32_t topx = ciede_top12(x), topy = ciede_top12(y) & 0x7ffu;
    if (topy - 0x3beu >= 0x43eu - 0x3beu || !(y > 0.0 || y < 0.0))
        return NAN;
    if (ix == 0 && y > 0.0)
        return 0.0; /* glibc: x * x */
    if (topx - 1u >= 0x7feu)
        return NAN;
    double lo;
    const double hi = ciede_pow_log(ix, &lo, ciede_pow_log_tab());
    const double ehi = y * hi;
    const double elo = fma(y, lo, fma(y, hi, -ehi));
    if (ciede_exp_main_path(ehi))
        return ciede_exp_main(ehi, elo, 1, 0, ciede_exp_tab());
    const uint32_t abstop = ciede_top12(ehi) & 0x7ffu;
    if (abstop < 0x3c9u)
        return 1.0 + ehi; /* |ehi| < 2^-54: glibc's exp_inline returns 1 + x */
    if (abstop >= 0x409u)
        return NAN; /* |ehi| >= 1024: glibc's __math_oflow / __math_uflow */
    return ciede_exp_main(ehi, elo, 1, 1, ciede_exp_tab());
}


/* powf's constants. */
#define CIEDE_POWF_OFF 0x3f330000u
#define CIEDE_POWF_A0 0x1.27616c9496e0bp-2
#define CIEDE_POWF_A1 -0x1.71969a075c67ap-2
#define CIEDE_POWF_A2 0x1.ec70a6ca7baddp-2
#define CIEDE_POWF_A3 -0x1.7154748bef6c8p-1
#define CIEDE_POWF_A4 0x1.71547652ab82bp0
#define CIEDE_EXP2F_SHIFT (0x1.8p+52 / 32)
#define CIEDE_EXP2F_C0 0x1.c6af84b912394p-5
#define CIEDE_EXP2F_C1 0x1.ebfce50fac4f3p-3
#define CIEDE_EXP2F_C2 0x1.62e42ff0c52d6p-1

/* log2(x) for the bits ix of a positive float (subnormals normalised): powf's log2_inline. */
EV_HD double ciede_powf_log2(const uint32_t ix, const CiedePowfLog2Entry *tab)
{
    const uint32_t tmp = ix - CIEDE_POWF_OFF;
    const int i = (int)((tmp >> 19) % 16);
    const uint32_t top = tmp & 0xff800000u;
    const uint32_t iz = ix - top;
    const int k = (int)(int32_t)top >> 23;
    const double invc = tab[i].invc, logc = tab[i].logc;
    const double z = (double)ciede_float32(iz);
    const double r = fma(z, invc, -1.0);
    const double y0 = logc + (double)k;
    const double r2 = r * r;
    const double y = fma(r, CIEDE_POWF_A0, CIEDE_POWF_A1);
    const double p = fma(r, CIEDE_POWF_A2, CIEDE_POWF_A3);
    const double r4 = r2 * r2;
    double q = fma(r, CIEDE_POWF_A4, y0);
    q = fma(r2, p, q);
    return fma(y, r4, q);
}

/* 2^xd for xd in [-150, 128]: powf's exp2_inline, rounded to float. */
EV_HD float ciede_powf_exp2(const double xd, const uint64_t *tab)
{
    double kd = xd + CIEDE_EXP2F_SHIFT;
    const uint64_t ki = ciede_bits64(kd);
    kd -= CIEDE_EXP2F_SHIFT;
    const double r = xd - kd;
    const uint64_t t = tab[ki % 32] + (ki << 47);
    const double s = ciede_double64(t);
    const double z = fma(r, CIEDE_EXP2F_C0, CIEDE_EXP2F_C1);
    const double r2 = r * r;
    double y = fma(r, CIEDE_EXP2F_C2, 1.0);
    y = fma(z, r2, y);
    return (float)(y * s);
}

/*
 * glibc's powf(x, y) for x >= 0 (+0, subnormals and +inf included) and y a positive normal
 * float; NaN elsewhere. Underflow as glibc's: 0 where y log2 x <= -150, the least subnormal
 * (__math_may_uflowf's 0x1.4p-75f squared) where it is in (-150, -149).
 */
EV_HD float ciede_glibc_powf(const float x, const float y)
{
    uint32_t ix = ciede_bits32(x);
    const uint32_t iy = ciede_bits32(y);
    if (iy - 0x00800000u >= 0x7f800000u - 0x00800000u)
        return NAN;
    if (ix == 0 || ix == 0x7f800000u)
        return x * x;
    if (ix > 0x7f800000u)
        return NAN;
    if (ix < 0x00800000u) {
        ix = ciede_bits32(x * 0x1p23f) & 0x7fffffffu;
        ix -= 23u << 23;
    }
    const double logx = ciede_powf_log2(ix, ciede_powf_log2_tab());
    const double ylogx = (double)y * logx;
    if ((ciede_bits64(ylogx) >> 47 & 0xffffu) >= ciede_bits64(126.0) >> 47) {
        if (ylogx > 0x1.fffffffd1d571p+6)
            return INFINITY;
        if (ylogx <= -150.0)
            return 0.0f;
        if (ylogx < -149.0) {
            const float tiny = 0x1.4p-75f;
            return tiny * tiny;
        }
    }
    return ciede_powf_exp2(ylogx, ciede_exp2f_tab());
}



/*
 * sin and cos: glibc's s_sin.c (IBM Accurate Mathematical Library, 2001; here rewritten from
 * its algorithm), the paths for |x| < 105414350 (up to the table-driven reduction by pi/2;
 * beyond it glibc calls __branred: NaN here), with the fusions of __sin_fma / __cos_fma.
 * x = k/128 + r: sin/cos(k/128) from a table of double-double pairs, r by polynomials.
 * tab: 110 entries {sin hi, sin lo, cos hi, cos lo} of k/128, glibc's own (their lo parts are
 * not all the nearest doubles; ciede_glibc_tables.c reads them from the host's libm).
 */
#define CIEDE_SIN_S1 -0x1.5555555555555p-3
#define CIEDE_SIN_S2 0x1.1111111110ECEp-7
#define CIEDE_SIN_S3 -0x1.A01A019DB08B8p-13
#define CIEDE_SIN_S4 0x1.71DE27B9A7ED9p-19
#define CIEDE_SIN_S5 -0x1.ADDFFC2FCDF59p-26
#define CIEDE_SIN_BIG 0x1.8000000000000p45
#define CIEDE_SIN_HP0 0x1.921FB54442D18p0
#define CIEDE_SIN_HP1 0x1.1A62633145C07p-54
#define CIEDE_SIN_MP1 0x1.921FB58000000p0
#define CIEDE_SIN_MP2 -0x1.DDE973C000000p-27
#define CIEDE_SIN_PP3 -0x1.CB3B398000000p-55
#define CIEDE_SIN_PP4 -0x1.d747f23e32ed7p-83
#define CIEDE_SIN_HPINV 0x1.45F306DC9C883p-1
#define CIEDE_SIN_TOINT 0x1.8000000000000p52
#define CIEDE_SIN_SN3 -1.66666666666664880952546298448555E-01
#define CIEDE_SIN_SN5 8.33333214285722277379541354343671E-03
#define CIEDE_SIN_CS2 4.99999999999999999999950396842453E-01
#define CIEDE_SIN_CS4 -4.16666666666664434524222570944589E-02
#define CIEDE_SIN_CS6 1.38888874007937613028114285595617E-03
#define CIEDE_SINCOS_TABLE_SIZE 440

/* glibc's TAYLOR_SIN(a * a, a, da): sin(a + da) for |a| < 0.126. */
EV_HD double ciede_sin_taylor(const double a, const double da)
{
    const double xx = a * a;
    const double p = fma(fma(fma(fma(CIEDE_SIN_S5, xx, CIEDE_SIN_S4), xx, CIEDE_SIN_S3), xx,
                             CIEDE_SIN_S2), xx, CIEDE_SIN_S1);
    const double t = fma(xx, fma(p, a, -(0.5 * da)), da);
    return a + t;
}

/* The table index of |x| < 0.86 rounded to a multiple of 1/128 (u = big + |x|), times 4. */
EV_HD int ciede_sincos_index(const double u)
{
    return (int)(uint32_t)ciede_bits64(u) << 2;
}

/* glibc's do_sin(x, dx): sin(x + dx) for |x| < 0.86. */
EV_HD double ciede_do_sin(const double x, double dx, const double *tab)
{
    if (fabs(x) < 0.126)
        return ciede_sin_taylor(x, dx);
    if (x <= 0)
        dx = -dx;
    const double u = CIEDE_SIN_BIG + fabs(x);
    const double r = fabs(x) - (u - CIEDE_SIN_BIG);
    const double xx = r * r;
    const double s = r + fma(r * xx, fma(xx, CIEDE_SIN_SN5, CIEDE_SIN_SN3), dx);
    const double c = fma(r, dx, xx * fma(xx, fma(xx, CIEDE_SIN_CS6, CIEDE_SIN_CS4), CIEDE_SIN_CS2));
    const int k = ciede_sincos_index(u);
    const double sn = tab[k], ssn = tab[k + 1], cs = tab[k + 2], ccs = tab[k + 3];
    const double cor = fma(s, cs, fma(-sn, c, fma(s, ccs, ssn)));
    return copysign(sn + cor, x);
}

/* glibc's do_cos(x, dx): cos(x + dx) for |x| < 0.86. */
EV_HD double ciede_do_cos(const double x, double dx, const double *tab)
{
    if (x < 0)
        dx = -dx;
    const double u = CIEDE_SIN_BIG + fabs(x);
    const double r = fabs(x) - (u - CIEDE_SIN_BIG) + dx;
    const double xx = r * r;
    const double s = fma(r * xx, fma(xx, CIEDE_SIN_SN5, CIEDE_SIN_SN3), r);
    const double c = xx * fma(xx, fma(xx, CIEDE_SIN_CS6, CIEDE_SIN_CS4), CIEDE_SIN_CS2);
    const int k = ciede_sincos_index(u);
    const double sn = tab[k], ssn = tab[k + 1], cs = tab[k + 2], ccs = tab[k + 3];
    const double cor = fma(-s, sn, fma(-c, cs, fma(-s, ssn, ccs)));
    return cs + cor;
}

/* glibc's reduce_sincos: x = n pi/2 + (*a + *da), |x| < 105414350; returns n mod 4. */
EV_HD int ciede_reduce_sincos(const double x, double *a, double *da)
{
    const double t = fma(x, CIEDE_SIN_HPINV, CIEDE_SIN_TOINT);
    const double xn = t - CIEDE_SIN_TOINT;
    const double y = fma(-xn, CIEDE_SIN_MP2, fma(-xn, CIEDE_SIN_MP1, x));
    const int n = (int)((uint32_t)ciede_bits64(t) & 3u);
    const double t2 = fma(-xn, CIEDE_SIN_PP3, y);
    double db = fma(-xn, CIEDE_SIN_PP3, y - t2);
    const double b = fma(-xn, CIEDE_SIN_PP4, t2);
    db += fma(-xn, CIEDE_SIN_PP4, t2 - b);
    *a = b;
    *da = db;
    return n;
}

/* glibc's do_sincos: sin (n even) or cos (n odd) of a + da, negated for n & 2. */
EV_HD double ciede_do_sincos(const double a, const double da, const int n, const double *tab)
{
    const double r = (n & 1) ? ciede_do_cos(a, da, tab) : ciede_do_sin(a, da, tab);
    return (n & 2) ? -r : r;
}

/* The high word of |x| (glibc's k). */
EV_HD uint32_t ciede_abs_high(const double x)
{
    return (uint32_t)(ciede_bits64(x) >> 32) & 0x7fffffffu;
}

/* glibc's sin(x) for |x| < 105414350 (NaN beyond). */
EV_HD double ciede_glibc_sin(const double x, const double *tab)
{
    const uint32_t k = ciede_abs_high(x);
    if (k < 0x3e500000u)
        return x;
    if (k < 0x3feb6000u)
        return ciede_do_sin(x, 0, tab);
    if (k < 0x400368fdu)
        return copysign(ciede_do_cos(CIEDE_SIN_HP0 - fabs(x), CIEDE_SIN_HP1, tab), x);
    if (k < 0x419921fbu) {
        double a, da;
        const int n = ciede_reduce_sincos(x, &a, &da);
        return ciede_do_sincos(a, da, n, tab);
    }
    return NAN;
}

/* glibc's cos(x) for |x| < 105414350 (NaN beyond). */
EV_HD double ciede_glibc_cos(const double x, const double *tab)
{
    const uint32_t k = ciede_abs_high(x);
    if (k < 0x3e400000u)
        return 1.0;
    if (k < 0x3feb6000u)
        return ciede_do_cos(x, 0, tab);
    if (k < 0x400368fdu) {
        const double y = CIEDE_SIN_HP0 - fabs(x);
        const double a = y + CIEDE_SIN_HP1;
        const double da = (y - a) + CIEDE_SIN_HP1;
        return ciede_do_sin(a, da, tab);
    }
    if (k < 0x419921fbu) {
        double a, da;
        const int n = ciede_reduce_sincos(x, &a, &da);
        return ciede_do_sincos(a, da, n + 1, tab);
    }
    return NAN;
}


/*
 * atan2: glibc's e_atan2.c (IBM Accurate Mathematical Library; here rewritten from its
 * algorithm) without its slow paths (removed in glibc 2.35), with the fusions of
 * __ieee754_atan2_fma. u = min(|x|,|y|) / max(|x|,|y|) + du exactly (du by an fma), then
 * atan(u) by a polynomial (u < 1/16) or the table point x0 <= u (cij[i] = {x0, atan x0,
 * Taylor coefficients}), combined into the quadrant's result with pi/2 or pi as double-doubles.
 * cij: 241 rows of 7, glibc's own (its points are chosen by a search: ciede_glibc_tables.c
 * reads it from the host's libm). Finite arguments only (NaN for NaN or infinite ones).
 */
#define CIEDE_ATAN2_ROWS 241
#define CIEDE_ATAN2_TABLE_SIZE (7 * CIEDE_ATAN2_ROWS)

EV_HD double ciede_atan2_const(const uint64_t bits)
{
    return ciede_double64(bits);
}

#define CIEDE_AT_D3 ciede_atan2_const(0xbfd5555555555555ull)
#define CIEDE_AT_D5 ciede_atan2_const(0x3fc99999999997fdull)
#define CIEDE_AT_D7 ciede_atan2_const(0xbfc24924923f7603ull)
#define CIEDE_AT_D9 ciede_atan2_const(0x3fbc71c6e5129a3bull)
#define CIEDE_AT_D11 ciede_atan2_const(0xbfb7458022b13c25ull)
#define CIEDE_AT_D13 ciede_atan2_const(0x3fb375f08b31cbceull)
#define CIEDE_AT_INV16 0x1p-4
#define CIEDE_AT_OPI ciede_atan2_const(0x400921fb54442d18ull)
#define CIEDE_AT_OPI1 ciede_atan2_const(0x3ca1a62633145c07ull)
#define CIEDE_AT_HPI ciede_atan2_const(0x3ff921fb54442d18ull)
#define CIEDE_AT_HPI1 ciede_atan2_const(0x3c91a62633145c07ull)
#define CIEDE_AT_QPI ciede_atan2_const(0x3fe921fb54442d18ull)
#define CIEDE_AT_TQPI ciede_atan2_const(0x4002d97c7f3321d2ull)
#define CIEDE_AT_TWO52 0x1p52

/* atan(u + du) - u - du for u < 1/16 by glibc's polynomial I, times u v (v = u u). */
EV_HD double ciede_atan2_poly(const double v)
{
    return fma(v, fma(v, fma(v, fma(v, fma(v, CIEDE_AT_D13, CIEDE_AT_D11), CIEDE_AT_D9),
                                 CIEDE_AT_D7), CIEDE_AT_D5), CIEDE_AT_D3);
}

/* The row of the table point below u in [1/16, 1]: (2^52 + 256 u) - 2^52 - 16. */
EV_HD const double *ciede_atan2_row(const double u, const double *cij)
{
    const int i = (int)(fma(u, 256.0, CIEDE_AT_TWO52) - CIEDE_AT_TWO52) - 16;
    return cij + 7 * i;
}

/* c[2] + v (c[3] + v (c[4] + v (c[5] + v c[6]))) of a row. */
EV_HD double ciede_atan2_taylor2(const double v, const double *c)
{
    return fma(v, fma(v, fma(v, fma(v, c[6], c[5]), c[4]), c[3]), c[2]);
}

/* glibc's atan2(y, x) for finite x, y (NaN otherwise). */
EV_HD double ciede_glibc_atan2(const double y, const double x, const double *cij)
{
    const uint64_t bx = ciede_bits64(x), by = ciede_bits64(y);
    const uint32_t ux = (uint32_t)(bx >> 32), uy = (uint32_t)(by >> 32);
    if ((ux & 0x7ff00000u) == 0x7ff00000u || (uy & 0x7ff00000u) == 0x7ff00000u)
        return NAN;
    if ((by & 0x7fffffffffffffffull) == 0)
        return (ux & 0x80000000u) == 0 ? ((uy & 0x80000000u) ? -0.0 : 0.0)
                                       : ((uy & 0x80000000u) ? -CIEDE_AT_OPI : CIEDE_AT_OPI);
    if (x == 0)
        return (uy & 0x80000000u) == 0 ? CIEDE_AT_HPI : -CIEDE_AT_HPI;
    double ax = x < 0 ? -x : x;
    double ay = y < 0 ? -y : y;
    const int de = (int)(uy & 0x7ff00000u) - (int)(ux & 0x7ff00000u);
    if (de >= 59768832)
        return y > 0 ? CIEDE_AT_HPI : -CIEDE_AT_HPI;
    if (de <= -59768832) {
        if (x > 0)
            return copysign(ay / ax, y);
        return y > 0 ? CIEDE_AT_OPI : -CIEDE_AT_OPI;
    }
    if (ax < 0x1p-500 || ay < 0x1p-500) {
        ax *= 0x1p500;
        ay *= 0x1p500;
    }
    if (ax > 0x1p500 || ay > 0x1p500) {
        ax *= 0x1p-500;
        ay *= 0x1p-500;
    }
    double u, du;
    if (ay < ax) {
        u = ay / ax;
        const double v = ax * u, vv = fma(ax, u, -v);
        du = ((ay - v) - vv) / ax;
    } else {
        u = ax / ay;
        const double v = ay * u, vv = fma(ay, u, -v);
        du = ((ax - v) - vv) / ay;
    }
    double z;
    if (x > 0) {
        if (ay < ax) { /* (i) atan(ay / ax) */
            if (u < CIEDE_AT_INV16) {
                const double v = u * u;
                const double zz = fma(u * v, ciede_atan2_poly(v), du);
                z = u + zz;
            } else {
                const double *c = ciede_atan2_row(u, cij);
                const double t3 = u - c[0];
                const double v = du + t3;
                const double dv = fabs(t3) > fabs(du) ? (t3 - v) + du : (du - v) + t3;
                const double p = fma(v, fma(v, fma(v, c[6], c[5]), c[4]), c[3]);
                const double zz = fma(v, c[2], fma(dv, c[2], (v * v) * p));
                z = zz + c[1];
            }
        } else if (u < CIEDE_AT_INV16) { /* (ii) pi/2 - atan(ax / ay) */
            const double v = u * u;
            const double zz = (u * v) * ciede_atan2_poly(v);
            const double t2 = CIEDE_AT_HPI - u;
            const double cor = CIEDE_AT_HPI > fabs(u) ? (CIEDE_AT_HPI - t2) - u
                                                      : CIEDE_AT_HPI - (u + t2);
            const double t3 = ((cor + CIEDE_AT_HPI1) - du) - zz;
            z = t3 + t2;
        } else {
            const double *c = ciede_atan2_row(u, cij);
            const double v = (u - c[0]) + du;
            const double zz = fma(-v, ciede_atan2_taylor2(v, c), CIEDE_AT_HPI1);
            const double t1 = CIEDE_AT_HPI - c[1];
            z = t1 + zz;
        }
    } else if (ax < ay) { /* (iii) pi/2 + atan(ax / ay) */
        if (u < CIEDE_AT_INV16) {
            const double v = u * u;
            const double zz = (u * v) * ciede_atan2_poly(v);
            const double t2 = u + CIEDE_AT_HPI;
            const double cor = CIEDE_AT_HPI > fabs(u) ? (CIEDE_AT_HPI - t2) + u
                                                      : (u - t2) + CIEDE_AT_HPI;
            const double t3 = ((cor + CIEDE_AT_HPI1) + du) + zz;
            z = t3 + t2;
        } else {
            const double *c = ciede_atan2_row(u, cij);
            const double t1 = CIEDE_AT_HPI + c[1];
            const double v = (u - c[0]) + du;
            const double zz = fma(v, ciede_atan2_taylor2(v, c), CIEDE_AT_HPI1);
            z = t1 + zz;
        }
    } else if (u < CIEDE_AT_INV16) { /* (iv) pi - atan(ay / ax) */
        const double v = u * u;
        const double zz = (u * v) * ciede_atan2_poly(v);
        const double t2 = CIEDE_AT_OPI - u;
        const double cor = CIEDE_AT_OPI > fabs(u) ? (CIEDE_AT_OPI - t2) - u
                                                  : CIEDE_AT_OPI - (t2 + u);
        const double t3 = ((cor + CIEDE_AT_OPI1) - du) - zz;
        z = t3 + t2;
    } else {
        const double *c = ciede_atan2_row(u, cij);
        const double v = (u - c[0]) + du;
        const double zz = fma(-v, ciede_atan2_taylor2(v, c), CIEDE_AT_OPI1);
        const double t1 = CIEDE_AT_OPI - c[1];
        z = t1 + zz;
    }
    return copysign(z, y);
}

#endif
