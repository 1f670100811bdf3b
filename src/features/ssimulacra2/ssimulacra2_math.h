/*
 * SSIMULACRA2's per-sample arithmetic, as libjxl 0.11's ssimulacra2 tool (tools/ssimulacra2.cc,
 * tools/gauss_blur.cc, lib/jxl/enc_xyb.cc, lib/jxl/cms) computes it when built for Highway's
 * scalar target (one lane; Highway's MulAdd is a rounded product then a rounded sum there):
 * shared by the C reference (ssimulacra2_frame.c) and a CUDA twin. docs/SSIMULACRA2.md.
 *
 * Every operation is float unless it says double, in the tool's order; the constants are the
 * floats the tool uses (hex literals: the bits are the contract).
 */
#ifndef EV_FEATURES_SSIMULACRA2_MATH_H
#define EV_FEATURES_SSIMULACRA2_MATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/bitcast.h"
#include "base/hd.h"

enum { SSIMU2_SCALES = 6, SSIMU2_MIN_SIZE = 8, SSIMU2_RADIUS = 5 };

/* ---- the video's R'G'B' (the exactvmaf side of the definition, docs/SSIMULACRA2.md) ---- */

/* Y'CbCr to R'G'B': R = Y + rv Cr, G = (Y - gu Cb) - gv Cr, B = Y + bu Cb; the coefficients
 * 2 (1 - Kr), 2 Kb (1 - Kb) / Kg, 2 Kr (1 - Kr) / Kg, 2 (1 - Kb) rounded to float. */
typedef struct Ssimu2Matrix {
    float rv, gu, gv, bu;
} Ssimu2Matrix;

/* BT.709 (Kr 0.2126, Kb 0.0722) and BT.601 (Kr 0.299, Kb 0.114). */
#define SSIMU2_BT709                                                                               \
    {                                                                                              \
        0x1.932618p+0f, 0x1.7fa3dep-3f, 0x1.df5bf8p-2f, 0x1.db089ap+0f                             \
    }
#define SSIMU2_BT601                                                                               \
    {                                                                                              \
        0x1.66e978p+0f, 0x1.606544p-2f, 0x1.6da346p-1f, 0x1.c5a1cap+0f                             \
    }

/* A limited-range code value as a float: (v - offset) / scale, one correctly rounded division
 * (offset 16 << (bpc - 8), scale 219 << (bpc - 8) for Y; 128 and 224 for Cb, Cr). */
EV_HD float ssimu2_unit(const int v, const int offset, const int scale)
{
    return (float)(v - offset) / (float)scale;
}

EV_HD float ssimu2_clamp01(const float v)
{
    return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
}

/* One pixel's R'G'B' in [0, 1] (what the reference's PFM carries). */
EV_HD void ssimu2_rgb(const Ssimu2Matrix *m, const float y, const float cb, const float cr,
                      float *r, float *g, float *b)
{
    *r = ssimu2_clamp01(y + m->rv * cr);
    *g = ssimu2_clamp01((y - m->gu * cb) - m->gv * cr);
    *b = ssimu2_clamp01(y + m->bu * cb);
}

/* ---- libjxl: sRGB to linear (lib/jxl/cms: TF_SRGB's DisplayFromEncoded) ---- */

/* A degree-4 rational polynomial in x, each step p * x + c (product, then sum), then p / q. */
EV_HD float ssimu2_srgb_poly(const float x)
{
    float p = 0x1.a45c1ep-1f, q = 0x1.ab5fbcp-8f;
    p = p * x + 0x1.97a1d4p-1f;
    q = q * x + -0x1.c39578p-5f;
    p = p * x + 0x1.4cc362p-3f;
    q = q * x + 0x1.feb91p-2f;
    p = p * x + 0x1.55faaap-7f;
    q = q * x + 0x1.13b4bcp+0f;
    p = p * x + 0x1.cd6ceep-13f;
    q = q * x + 0x1.0d804ap-2f;
    return p / q;
}

/* Linear from sRGB-encoded: odd in x (the sign bit is carried over), x / 12.92 (as x times
 * the float 1 / 12.92) up to 0.04045, the rational polynomial above it. */
EV_HD float ssimu2_linear_from_srgb(const float v)
{
    const uint32_t sign = ev_bits32(v) & 0x80000000u;
    const float x = ev_float_of(ev_bits32(v) & 0x7fffffffu);
    const float mag = x > 0x1.4b5dccp-5f ? ssimu2_srgb_poly(x) : x * 0x1.3d0722p-4f;
    return ev_float_of((ev_bits32(mag) & 0x7fffffffu) | sign);
}

/* ---- libjxl: linear sRGB to XYB (lib/jxl/enc_xyb.cc, intensity target 255) ---- */

/* The opsin absorbance mix of one row of the matrix: m0 r + (m1 g + (m2 b + bias)). */
EV_HD float ssimu2_mix(const float m0, const float m1, const float m2, const float r, const float g,
                       const float b)
{
    const float bias = 0x1.f12a6cp-9f;
    return m0 * r + (m1 * g + (m2 * b + bias));
}

/* The cube root approximation (an exponent guess, 3 Newton steps on x^(-1/3) and a final one),
 * plus add: for x >= 0 (negatives are zeroed before). */
EV_HD float ssimu2_cbrt_add(const float x, const float add)
{
    const float k1_3 = 0x1.555556p-2f, k4_3 = 0x1.555556p+0f;
    const float x_3 = k1_3 * x;
    const uint32_t bits = ev_bits32(x);
    const uint32_t guess = 0x54800000u - (bits >> 23) * 0x002AAAAAu; /* exponent times -1/3 */
    float r = ev_float_of(guess & (0u - (uint32_t)(bits != 0)));     /* 0 for 0 */
    for (int i = 0; i < 3; i++) {
        const float r2 = r * r;
        r = k4_3 * r - x_3 * (r2 * r2);
    }
    float r2 = r * r;
    r = k1_3 * (r - x * (r2 * r2)) + r;
    r2 = r * r;
    return r2 * x + add;
}

/* +0 for any value with the sign bit set (-0 too), as Highway's ZeroIfNegative. */
EV_HD float ssimu2_zero_if_negative(const float v)
{
    const uint32_t u = ev_bits32(v);
    return ev_float_of(u & ~(0u - (u >> 31)));
}

/* Linear R, G, B to SSIMULACRA2's positive XYB: X 14 x + 0.42, Y y + 0.01, B (b - y) + 0.55. */
EV_HD void ssimu2_xyb(const float r, const float g, const float b, float *x, float *y, float *z)
{
    const float neg_cbrt_bias = -0x1.3f64eap-3f; /* -cbrtf(bias) */
    const float l = ssimu2_zero_if_negative(
        ssimu2_mix(0x1.333334p-2f, 0x1.3e76c8p-1f, 0x1.3f7ceep-4f, r, g, b));
    const float m = ssimu2_zero_if_negative(
        ssimu2_mix(0x1.d70a3ep-3f, 0x1.624dd2p-1f, 0x1.3f7ceep-4f, r, g, b));
    const float s = ssimu2_zero_if_negative(
        ssimu2_mix(0x1.f28798p-3f, 0x1.a35d1ep-3f, 0x1.1a86d2p-1f, r, g, b));
    const float cl = ssimu2_cbrt_add(l, neg_cbrt_bias);
    const float cm = ssimu2_cbrt_add(m, neg_cbrt_bias);
    const float cs = ssimu2_cbrt_add(s, neg_cbrt_bias);
    const float vx = 0.5f * (cl - cm), vy = 0.5f * (cl + cm);
    *z = (cs - vy) + 0x1.19999ap-1f;
    *x = vx * 14.0f + 0x1.ae147ap-2f;
    *y = vy + 0x1.47ae14p-7f;
}

/* ---- the tool's downscaling (linear RGB, 2x2 box, the last row and column repeated) ---- */

EV_HD float ssimu2_box4(const float a, const float b, const float c, const float d)
{
    return (((a + b) + c) + d) * 0.25f;
}

/* ---- the recursive Gaussian, sigma 1.5 (tools/gauss_blur.cc: Charalampidis 2016, radius 5)
 * Three second-order recursions k = 1, 3, 5 with the float constants n2[k], d1[k] that
 * CreateRecursiveGaussian(1.5) computes; the two passes order their terms differently. ---- */

typedef struct Ssimu2Gauss {
    float n2[3], d1[3];
} Ssimu2Gauss;

#define SSIMU2_GAUSS                                                                               \
    {                                                                                              \
        { 0x1.c4fa84p-5f, -0x1.e1fd7ap-5f, 0x1.a8894ap-7f },                                       \
        {                                                                                          \
            -0x1.e6f0e2p+0f, -0x1.2cf23p+0f, -0x1.1a6264p-53f                                      \
        }                                                                                          \
    }

/* Horizontal: o = (sum n2 - prev2) - d1 prev, per recursion. */
EV_HD float ssimu2_hstep(const float sum, const float n2, const float d1, const float prev,
                         const float prev2)
{
    return (sum * n2 - prev2) - d1 * prev;
}

/* Vertical: y = n2 sum + (-(d1 prev) - prev2), per recursion. */
EV_HD float ssimu2_vstep(const float sum, const float n2, const float d1, const float prev,
                         const float prev2)
{
    return n2 * sum + (-(d1 * prev) - prev2);
}

/* An output: o1 + (o3 + o5). */
EV_HD float ssimu2_gauss_out(const float o1, const float o3, const float o5)
{
    return o1 + (o3 + o5);
}

/* ---- the error maps ---- */

/* v < 0 ? 0 : v (std::max(v, 0.0): -0 and NaN kept), as a mask so that loops vectorise. */
EV_HD double ssimu2_max0(const double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof(u));
    u &= ~(0u - (uint64_t)(v < 0.0));
    double r;
    memcpy(&r, &u, sizeof(r));
    return r;
}

/* 1 - SSIM' of one sample (no luminance denominator), at least 0, as a double. */
EV_HD double ssimu2_ssim_term(const float mu1, const float mu2, const float s11, const float s22,
                              const float s12)
{
    const float c2 = 0x1.d7dbf4p-11f; /* 0.0009f */
    const float mu11 = mu1 * mu1, mu22 = mu2 * mu2, mu12 = mu1 * mu2;
    const float dm = mu1 - mu2;
    const float num_m = (float)(1.0 - (double)(dm * dm));
    const float num_s = 2.0f * (s12 - mu12) + c2;
    const float denom_s = ((s11 - mu11) + (s22 - mu22)) + c2;
    return ssimu2_max0(1.0 - (double)((num_m * num_s) / denom_s));
}

/* The edge ratio of one sample: (1 + |dis - mu_dis|) / (1 + |ref - mu_ref|) - 1 (double). */
EV_HD double ssimu2_edge_term(const float ref, const float mu_ref, const float dis,
                              const float mu_dis)
{
    const float ad = fabsf(dis - mu_dis), ar = fabsf(ref - mu_ref);
    return (1.0 + (double)ad) / (1.0 + (double)ar) - 1.0;
}

EV_HD double ssimu2_quartic(double v)
{
    v *= v;
    return v * v;
}

#endif
