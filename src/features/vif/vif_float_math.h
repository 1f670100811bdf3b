/*
 * Float VIF arithmetic of libvmaf (feature/vif_tools.c: vif_statistic_s, log2f_approx, the
 * separable filters' mirror), shared by the C reference (float_vif_scale.c) and a later CUDA
 * twin. Everything is float except where the reference widens to double (the noise variance
 * is a double option, so the log arguments are double expressions rounded to float).
 */
#ifndef EV_FEATURES_VIF_FLOAT_MATH_H
#define EV_FEATURES_VIF_FLOAT_MATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/hd.h"

/* The filters' border rule: one reflection without repeating the edge (the caller guarantees
 * that the filter radius is below n, so one reflection lands inside). */
EV_HD int vif_mirror(const int i, const int n)
{
    return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i);
}

/* vif_prescale's nearest-neighbour source index of output i: (int)(i * ratio) in float. */
EV_HD unsigned vif_float_nn_index(const int i, const float ratio)
{
    return (unsigned)(int)((float)i * ratio);
}

/* libvmaf's log2f replacement (VIF_OPT_FAST_LOG2): the exponent from the bits, plus a degree-8
 * polynomial of the mantissa in [0, 1), Horner in float from the highest coefficient. */
EV_HD float vif_log2f_approx(const float x)
{
    /* double literals rounded to float, as the reference's float table */
    const float poly[9] = {
        (float)-0.012671635276421, (float)0.064841182402670,  (float)-0.157048836463065,
        (float)0.257167726303123,  (float)-0.353800560300520, (float)0.480131410397451,
        (float)-0.721314327952201, (float)1.442694803896991,  0.0f
    };
    if (x == 0)
        return -INFINITY;
    if (x < 0)
        return NAN;
    uint32_t u;
    memcpy(&u, &x, sizeof(u));
    const int32_t exponent = (int32_t)((u & 0x7F800000u) >> 23);
    const uint32_t mant_bits = (u & 0x007FFFFFu) | 0x3F800000u; /* the mantissa in [1, 2) */
    float mant;
    memcpy(&mant, &mant_bits, sizeof(mant));
    const float t = mant - 1.0f;
    float p = 0;
    for (int i = 0; i < 9; i++)
        p = p * t + poly[i];
    return (float)(exponent - 127) + p;
}

/* The statistic's constants: gain limit as float, noise variance (double option), and
 * sigma_max_inv = powf(nsq, 2) / 255^2 rounded to float (computed on the host: powf). */
typedef struct VifFloatParams {
    float gain_limit;
    double sigma_nsq;
    float sigma_max_inv;
} VifFloatParams;

/* One pixel's numerator and denominator terms (vif_statistic_s, 'matching_matlab' mode). */
EV_HD void vif_float_pixel(const float mu1, const float mu2, const float xx, const float yy,
                           const float xy, const VifFloatParams *p, float *num, float *den)
{
    const float eps = 1.0e-10f;
    float sigma1_sq = xx - mu1 * mu1;
    float sigma2_sq = yy - mu2 * mu2;
    const float sigma12 = xy - mu1 * mu2;
    sigma1_sq = sigma1_sq > 0.0f ? sigma1_sq : 0.0f;
    sigma2_sq = sigma2_sq > 0.0f ? sigma2_sq : 0.0f;
    float g = sigma12 / (sigma1_sq + eps);
    float sv_sq = sigma2_sq - g * sigma12;
    if (sigma1_sq < eps) {
        g = 0.0f;
        sv_sq = sigma2_sq;
        sigma1_sq = 0.0f;
    }
    if (sigma2_sq < eps) {
        g = 0.0f;
        sv_sq = 0.0f;
    }
    if (g < 0.0f) {
        sv_sq = sigma2_sq;
        g = 0.0f;
    }
    sv_sq = sv_sq > eps ? sv_sq : eps;
    g = g < p->gain_limit ? g : p->gain_limit;
    /* float numerator over a double denominator: both log arguments are doubles, then float */
    float n = vif_log2f_approx((float)(1.0f + (g * g * sigma1_sq) / (sv_sq + p->sigma_nsq)));
    float d = vif_log2f_approx((float)(1.0f + sigma1_sq / p->sigma_nsq));
    if (sigma12 < 0.0f)
        n = 0.0f;
    if (sigma1_sq < p->sigma_nsq) {
        n = 1.0f - sigma2_sq * p->sigma_max_inv;
        d = 1.0f;
    }
    *num = n;
    *den = d;
}

#endif
