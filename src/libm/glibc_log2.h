/*
 * glibc's double log2 on x86-64 with FMA (the "fma" ifunc variant of e_log2.c that glibc 2.28+
 * selects on every CPU with FMA and AVX2), as a host + device function: the device gets the
 * CPU reference's bits where the reference calls log2 (SpEED's entropies and weights).
 *
 * The algorithm and its tables are ARM's optimized-routines (math/log2.c, math/log2_data.c,
 * Copyright (c) 2018 Arm Limited, MIT OR Apache-2.0 WITH LLVM-exception), which glibc ships as
 * sysdeps/ieee754/dbl-64/e_log2.c. This is an independent implementation of that algorithm;
 * the constants below are its data (checked equal to the bytes of glibc 2.36's libm.so.6).
 * The order of operations is not the C source's but glibc's compiled FMA build: GCC contracts
 * the polynomial and the hi/lo sums into fused multiply-adds (objdump of __log2_fma, glibc
 * 2.36 Debian, and the same binary shape is expected of 2.39), and each fma() below stands for
 * one of its vfmadd/vfmsub instructions. Every step is an IEEE operation correctly rounded on
 * both executors (+, -, *, fma, int -> double), so host and device agree by construction;
 * tests/unit/glibc_log2_exhaustive.c proves the host function equal to this machine's glibc
 * log2 on every float argument (and samples of double ones), unit_glibc_log2 samples it in CI.
 *
 * Without FMA (a pre-Haswell CPU) glibc runs the generic build (z - chi - clo, split products),
 * which may round differently: exactvmaf's golden values come from the FMA build.
 *
 * Special inputs return glibc's x86-64 results bit for bit: -inf for +-0, +inf for +inf, the
 * quieted input for a NaN, and x86's default NaN (0xfff8000000000000: glibc computes
 * (x - x) / (x - x)) for a negative number or -inf; the device's own NaN would be positive.
 */
#ifndef EV_LIBM_GLIBC_LOG2_H
#define EV_LIBM_GLIBC_LOG2_H

#include <math.h>
#include <stdint.h>

#include "base/bitcast.h"
#include "base/hd.h"

/* 1/c and log2(c) of the 64 subintervals of [0x1.6p-1, 0x1.6p0) (log2_data.c tab) */
#define EV_GLIBC_LOG2_TABLE                                                                        \
    {                                                                                              \
        0x1.724286bb1acf8p+0, -0x1.1095feecdbp-1, 0x1.6e1f766d2cca1p+0, -0x1.08494bd76dp-1,        \
            0x1.6a13d0e30d48ap+0, -0x1.00143aee8f8p-1, 0x1.661ec32d06c85p+0, -0x1.efec5360b4p-2,   \
            0x1.623fa951198f8p+0, -0x1.dfdd91ab7ep-2, 0x1.5e75ba4cf026cp+0, -0x1.cffae0cc79p-2,    \
            0x1.5ac055a214fb8p+0, -0x1.c043811fdap-2, 0x1.571ed0f166e1ep+0, -0x1.b0b67323aep-2,    \
            0x1.53909590bf835p+0, -0x1.a152f5a2dbp-2, 0x1.5014fed61adddp+0, -0x1.9217f5af86p-2,    \
            0x1.4cab88e487bdp+0, -0x1.8304db0719p-2, 0x1.49539b4334feep+0, -0x1.74189f9a9ep-2,     \
            0x1.460cbdfafd569p+0, -0x1.6552bb5199p-2, 0x1.42d664ee4b953p+0, -0x1.56b23a29b1p-2,    \
            0x1.3fb01111dd8a6p+0, -0x1.483650f5fap-2, 0x1.3c995b70c5836p+0, -0x1.39de937f6ap-2,    \
            0x1.3991c4ab6fd4ap+0, -0x1.2baa1538d6p-2, 0x1.3698e0ce099b5p+0, -0x1.1d98340ca4p-2,    \
            0x1.33ae48213e7b2p+0, -0x1.0fa853a40ep-2, 0x1.30d191985bdb1p+0, -0x1.01d9c32e73p-2,    \
            0x1.2e025cab271d7p+0, -0x1.e857da2fa6p-3, 0x1.2b404cf13cd82p+0, -0x1.cd3c8633d8p-3,    \
            0x1.288b02c7ccb5p+0, -0x1.b26034c14ap-3, 0x1.25e2263944de5p+0, -0x1.97c1c2f4fep-3,     \
            0x1.234563d8615b1p+0, -0x1.7d6023f8p-3, 0x1.20b46e33eaf38p+0, -0x1.633a71a05ep-3,      \
            0x1.1e2eefdcda3ddp+0, -0x1.494f5e957p-3, 0x1.1bb4a580b393p+0, -0x1.2f9e424e0ap-3,      \
            0x1.19453847f22p+0, -0x1.162595afdcp-3, 0x1.16e06c0d5d73cp+0, -0x1.f9c9a75bd8p-4,      \
            0x1.1485f47b7e4c2p+0, -0x1.c7b575bf9cp-4, 0x1.12358ad0085d1p+0, -0x1.960c60ff48p-4,    \
            0x1.0fef00f532227p+0, -0x1.64ce247b6p-4, 0x1.0db2077d03a8fp+0, -0x1.33f78b2014p-4,     \
            0x1.0b7e6d65980d9p+0, -0x1.0387d1a42cp-4, 0x1.0953efe7b408dp+0, -0x1.a6f9208b5p-5,     \
            0x1.07325cac53b83p+0, -0x1.47a954f77p-5, 0x1.05197e40d1b5cp+0, -0x1.d23a8c50cp-6,      \
            0x1.03091c1208ea2p+0, -0x1.16a262978p-6, 0x1.0101025b37e21p+0, -0x1.720f8d8e8p-8,      \
            0x1.fc07ef9caa76bp-1, 0x1.6fe53b15p-7, 0x1.f4465d3f6f184p-1, 0x1.11ccce10f8p-5,        \
            0x1.ecc079f84107fp-1, 0x1.c4dfc8c8b8p-5, 0x1.e573a99975ae8p-1, 0x1.3aa321e574p-4,      \
            0x1.de5d6f0bd3de6p-1, 0x1.918a0d08b8p-4, 0x1.d77b681ff38b3p-1, 0x1.e72e9da044p-4,      \
            0x1.d0cb5724de943p-1, 0x1.1dcd2507f6p-3, 0x1.ca4b2dc0e7563p-1, 0x1.476ab03deap-3,      \
            0x1.c3f8ee8d6cb51p-1, 0x1.7074377e22p-3, 0x1.bdd2b4f020c4cp-1, 0x1.98ede8ba94p-3,      \
            0x1.b7d6c006015cap-1, 0x1.c0db86ad2ep-3, 0x1.b20366e2e338fp-1, 0x1.e840aafceep-3,      \
            0x1.ac57026295039p-1, 0x1.0790ab4678p-2, 0x1.a6d01bc2731ddp-1, 0x1.1ac056801cp-2,      \
            0x1.a16d3bc3ff18bp-1, 0x1.2db11d4feep-2, 0x1.9c2d14967feadp-1, 0x1.406464ec58p-2,      \
            0x1.970e4f47c9902p-1, 0x1.52dbe093afp-2, 0x1.920fb3982bcf2p-1, 0x1.651902050dp-2,      \
            0x1.8d30187f759f1p-1, 0x1.771d2cdeafp-2, 0x1.886e5ebb9f66dp-1, 0x1.88e9c857d9p-2,      \
            0x1.83c97b658b994p-1, 0x1.9a80155e16p-2, 0x1.7f405ffc61022p-1, 0x1.abe186ed3dp-2,      \
            0x1.7ad22181415cap-1, 0x1.bd0f2aea0ep-2, 0x1.767dcf99eff8cp-1, 0x1.ce0a43dbf4p-2,      \
    }

#ifdef __CUDACC__
static __device__ const double ev_glibc_log2_table_dev[128] = EV_GLIBC_LOG2_TABLE;
#endif
static const double ev_glibc_log2_table_host[128] = EV_GLIBC_LOG2_TABLE;

/* 1/ln 2 split in two (invln2hi has 32 significant bits) */
#define EV_GLIBC_LOG2_INVLN2HI 0x1.71547652p+0
#define EV_GLIBC_LOG2_INVLN2LO 0x1.705fc2eefa2p-33

/* |x - 1| small: r = x - 1, log2(x) = r / ln 2 + r^2 poly1(r), in hi + lo form */
EV_HD double ev_glibc_log2_near1(const double x)
{
    const double b0 = -0x1.71547652b82fep-1, b1 = 0x1.ec709dc3a03f7p-2;
    const double b2 = -0x1.71547652b7c3fp-2, b3 = 0x1.2776c50f05be4p-2;
    const double b4 = -0x1.ec709dd768fe5p-3, b5 = 0x1.a61761ec4e736p-3;
    const double b6 = -0x1.7153fbc64a79bp-3, b7 = 0x1.484d154f01b4ap-3;
    const double b8 = -0x1.289e4a72c383cp-3, b9 = 0x1.0b32f285aee66p-3;
    const double r = x - 1.0;
    const double hi = r * EV_GLIBC_LOG2_INVLN2HI;
    const double lo = fma(r, EV_GLIBC_LOG2_INVLN2LO, fma(EV_GLIBC_LOG2_INVLN2HI, r, -hi));
    const double r2 = r * r, r4 = r2 * r2;
    const double p01 = fma(r, b1, b0);
    const double y = fma(p01, r2, hi);
    const double lo1 = fma(p01, r2, hi - y) + lo;
    const double p23 = fma(r, b3, b2), p45 = fma(r, b5, b4);
    const double p67 = fma(r, b7, b6), p89 = fma(r, b9, b8);
    const double q = fma(fma(p89, r2, p67), r4, fma(p45, r2, p23));
    return y + fma(q, r4, lo1);
}

/* x = 2^k z, z in [0x1.6p-1, 0x1.6p0): log2(x) = k + log2(c) + log2(z / c), r = z / c - 1 */
EV_HD double ev_glibc_log2_main(const uint64_t ix)
{
    const double a0 = -0x1.71547652b8339p-1, a1 = 0x1.ec709dc3a04bep-2;
    const double a2 = -0x1.7154764702ffbp-2, a3 = 0x1.2776c50034c48p-2;
    const double a4 = -0x1.ec7b328ea92bcp-3, a5 = 0x1.a6225e117f92ep-3;
    const uint64_t tmp = ix - 0x3fe6000000000000ull;
    const int i = (int)((tmp >> 46) & 63);
    const int k = (int)((int64_t)tmp >> 52);
    const double z = ev_double_of(ix - (tmp & 0xfff0000000000000ull));
#ifdef __CUDA_ARCH__
    const double *const t = ev_glibc_log2_table_dev;
#else
    const double *const t = ev_glibc_log2_table_host;
#endif
    const double invc = t[2 * i], logc = t[2 * i + 1];
    const double t3 = (double)k + logc;
    const double r = fma(z, invc, -1.0);
    const double t1 = r * EV_GLIBC_LOG2_INVLN2HI;
    const double t2 = fma(r, EV_GLIBC_LOG2_INVLN2LO, fma(EV_GLIBC_LOG2_INVLN2HI, r, -t1));
    const double hi = t1 + t3;
    const double lo = t3 - hi + t1 + t2;
    const double r2 = r * r, r4 = r2 * r2;
    const double p = fma(fma(r, a5, a4), r4, fma(fma(r, a3, a2), r2, fma(r, a1, a0)));
    return fma(r2, p, lo) + hi;
}

EV_HD double ev_glibc_log2(const double x)
{
    uint64_t ix = ev_bits64(x);
    const uint32_t top = (uint32_t)(ix >> 48);
    /* [1 - 0x1.5b51p-5, 1 + 0x1.6ab2p-5) */
    if (ix - 0x3feea4af00000000ull < 0x3ff0b55900000000ull - 0x3feea4af00000000ull)
        return ix == 0x3ff0000000000000ull ? 0.0 : ev_glibc_log2_near1(x);
    if (top - 0x0010u >= 0x7ff0u - 0x0010u) {
        if (ix * 2 == 0)
            return -INFINITY;
        if (ix == 0x7ff0000000000000ull)
            return x;
        if ((ix & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (ix << 12))
            return ev_double_of(ix | 0x0008000000000000ull); /* NaN, quieted */
        if (top & 0x8000u)
            return ev_double_of(0xfff8000000000000ull); /* x86's default NaN */
        /* subnormal: scale by 2^52 (exact) and take 52 off the exponent */
        ix = ev_bits64(x * 0x1p52) - (52ull << 52);
    }
    return ev_glibc_log2_main(ix);
}

#endif
