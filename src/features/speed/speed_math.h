/*
 * SpEED-QA arithmetic of libvmaf (feature/speed.c, feature/vif_tools.c, scalar C), one step per
 * function, shared by the C reference (speed_*.c) and a later CUDA twin. The types are the
 * reference's: floats, except where it widens to double (its double constants and options,
 * libm calls, the covariance sums); each function says where a value is rounded.
 *
 * libm. The bits depend on these glibc calls (golden: glibc 2.36 x86-64):
 *  - log2 (double): the entropy of every block and eigenvalue (speed_entropy_arg ->
 *    speed_entropy_add), the base entropy, the variance weights of the score
 *    (speed_weight_arg). Per frame: 25 x blocks + 2 x blocks calls. SPEED_LOG2 is glibc's log2
 *    on the host and libm/glibc_log2.h's ev_glibc_log2 on the device, proven equal to glibc's
 *    on every float argument (the entropies' and modes 0-2's) and sampled on the double
 *    arguments of modes 3-6 (tests/unit/glibc_log2_*.c). The base entropy stays on the host.
 *  - log2(2 pi e): a constant the reference's compiler folds (GCC, correctly rounded);
 *    SPEED_LOG2_2PIE holds it, and unit_speed_math checks it against glibc's log2 at run time.
 *  - exp, sqrt: the Gaussian taps (speed_gaussian_tap), once at init.
 *  - sqrt (double, of a float): the norms and Givens rotations of the eigen and QR solvers
 *    (speed_linalg.c); correctly rounded everywhere.
 *  - floor, ceil: exact. sin: the lanczos4 prescale weights, tabulated once at init.
 */
#ifndef EV_FEATURES_SPEED_MATH_H
#define EV_FEATURES_SPEED_MATH_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "libm/glibc_log2.h"
#include "base/hd.h"

#ifdef __CUDA_ARCH__
#define SPEED_LOG2(x) ev_glibc_log2(x)
#else
#define SPEED_LOG2(x) log2(x)
#endif

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#ifndef M_E
#define M_E 2.7182818284590452354
#endif

enum { SPEED_BLOCK = 5, SPEED_BLOCK_ELEMS = 25, SPEED_SCALES = 4 };

/* log2(2 * M_PI * M_E) as GCC folds it (correctly rounded; glibc agrees) */
#define SPEED_LOG2_2PIE 0x1.06073a671183dp+2

/* The filters' border rule (vif_filter1d_s): reflect without repeating the edge. */
EV_HD int speed_mirror(const int i, const int n)
{
    return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i);
}

/* One tap of a separable filter: float product, float sum (no fused multiply-add). */
EV_HD float speed_tap(const float acc, const float tap, const float v)
{
    return acc + tap * v;
}

/* The Gaussian density at integer offset x (get_gaussian_pdf): exponent in double, the
 * density and its scale rounded to float, their quotient in float. Host only (exp). */
static inline float speed_gaussian_tap(const int x, const float sigma)
{
    const float d = (float)x;
    const float num = (float)exp(-0.5 * d / sigma * d / sigma);
    const float den = (float)(1 / (sigma * sqrt(2 * M_PI)));
    return num / den;
}

/* One term of a covariance sum (compute_cov_kernel_scalar): samples and means widened to
 * double, the centred product added to the running double sum in raster order. */
EV_HD double speed_cov_add(const double acc, const double centred_x, const double centred_y)
{
    return acc + centred_x * centred_y;
}

EV_HD double speed_centre(const float v, const float mean)
{
    return (double)v - (double)mean;
}

/* A covariance: the double sum divided by the element count, rounded to float. */
EV_HD float speed_cov_value(const double sum, const size_t n)
{
    return (float)(sum / (double)n);
}

/* A mean (compute_mean): the float sum divided by the count converted to float. */
EV_HD float speed_mean_value(const float sum, const size_t n)
{
    return sum / (float)n;
}

/* Step 5 of est_params: the solution times the independent term over the block's 25
 * elements, all float. */
EV_HD float speed_weighted(const float x, const float y)
{
    return (x * y) / (float)SPEED_BLOCK_ELEMS;
}

/* The eigenvalue used for the entropy: negative ones count as 0. */
EV_HD float speed_clamp_eigen(const float l)
{
    return l < 0 ? 0 : l;
}

/* update_entropy: log2's argument L x S + sigma_nn in float ... */
EV_HD float speed_entropy_arg(const float l, const float s, const float sigma_nn)
{
    return l * s + sigma_nn;
}

/* ... and the block's entropy += log2(arg) + log2(2 pi e), summed in double, kept in float. */
EV_HD float speed_entropy_add(const float entropy, const double log2_arg)
{
    return (float)((double)entropy + (log2_arg + SPEED_LOG2_2PIE));
}

/* The base entropy (get_speed_score): 25 x (log2((1 + floor) x sigma) + log2(2 pi e)), the
 * product (1 + floor) x sigma in float, the rest in double, rounded to float. log2_arg is
 * log2 of speed_base_arg(). */
EV_HD float speed_base_arg(const float nn_floor, const float sigma_nn)
{
    return (1 + nn_floor) * sigma_nn;
}

EV_HD float speed_base_entropy(const double log2_arg)
{
    return (float)((double)SPEED_BLOCK_ELEMS * (log2_arg + SPEED_LOG2_2PIE));
}

/* The argument of log2 that weighs block i's entropy (speed_weight_var_mode 0..6), of the
 * reference (dis = 0) or the distorted (dis = 1) image. rv, dv: the two variances. Modes 0-2
 * add in float; 3-6 in double. */
EV_HD double speed_weight_arg(const int mode, const int dis, const float rv, const float dv)
{
    switch (mode) {
    case 0: return (double)(1 + (dis ? dv : rv));
    case 1: return (double)(1 + rv);
    case 2: return (double)(1 + dv);
    case 3: return 1 + (rv + dv) / 2.0;
    case 4: return dis ? 1 + (rv + dv) / 2.0 : (double)(1 + rv);
    case 5: return dis ? 1 + (0.75 * rv + 0.25 * dv) : (double)(1 + rv);
    default: return dis ? 1 + (0.25 * rv + 0.75 * dv) : (double)(1 + rv);
    }
}

/* entropy x log2(weight arg): double product rounded to float. */
EV_HD float speed_spatial(const float entropy, const double log2_weight)
{
    return (float)(entropy * log2_weight);
}

/* One block's contribution to the score: 0 when both entropies are below the base entropy,
 * else |spatial_ref - spatial_dis| (float). */
EV_HD int speed_block_visible(const float ref_entropy, const float dis_entropy, const float base)
{
    return !(ref_entropy < base && dis_entropy < base);
}

EV_HD float speed_score_add(const float score, const float spatial_ref, const float spatial_dis)
{
    return score + fabsf(spatial_ref - spatial_dis);
}

/* The frame's score: the float sum over the block count converted to float. */
EV_HD float speed_score_value(const float sum, const size_t n_blocks)
{
    return sum / (float)n_blocks;
}

/* speed_chroma's uv score: the two float scores summed in float, halved in double. */
EV_HD float speed_uv_mean(const float u, const float v)
{
    return (float)((u + v) / 2.0);
}

/* An output clipped at speed_max_val (double), as the reference's MIN on a float score. */
EV_HD double speed_clip(const float score, const double max_val)
{
    return (double)score < max_val ? (double)score : max_val;
}

/* Block j's variance (est_params steps 5-6): the 25 weighted solution terms of the block,
 * summed in float from term 0 up. x: the solution, y: the independent term (SPEED_N x nb). */
EV_HD float speed_block_variance(const float *x, const float *y, const size_t nb, const size_t j)
{
    float v = speed_weighted(x[j], y[j]);
    for (int i = 1; i < SPEED_BLOCK_ELEMS; i++)
        v += speed_weighted(x[i * nb + j], y[i * nb + j]);
    return v;
}

/* Block entropy for variance v: the eigenvalues' terms in order from 0. */
EV_HD float speed_block_entropy(const float *eig, const float v, const float sigma_nn)
{
    float entropy = 0;
    for (int e = 0; e < SPEED_BLOCK_ELEMS; e++)
        entropy = speed_entropy_add(
            entropy, SPEED_LOG2(speed_entropy_arg(speed_clamp_eigen(eig[e]), v, sigma_nn)));
    return entropy;
}

/* Block i of get_speed_score: 0 when it is not visible (skipped), else 1 with its weighted
 * entropies *sr, *sd. re, de: entropies, rv, dv: variances (ref, dis). */
EV_HD int speed_block_spatial(const float *re, const float *de, const float *rv, const float *dv,
                              const int i, const float base, const int mode, float *sr, float *sd)
{
    if (!speed_block_visible(re[i], de[i], base))
        return 0;
    *sr = speed_spatial(re[i], SPEED_LOG2(speed_weight_arg(mode, 0, rv[i], dv[i])));
    *sd = speed_spatial(de[i], SPEED_LOG2(speed_weight_arg(mode, 1, rv[i], dv[i])));
    return 1;
}

/* get_speed_score: the visible blocks' differences of weighted entropies, summed in float in
 * block order, over the block count. */
EV_HD float speed_compare(const float *re, const float *de, const float *rv, const float *dv,
                          const int n_blocks, const float base, const int mode)
{
    float sum = 0;
    for (int i = 0; i < n_blocks; i++) {
        float sr, sd;
        if (speed_block_spatial(re, de, rv, dv, i, base, mode, &sr, &sd))
            sum = speed_score_add(sum, sr, sd);
    }
    return speed_score_value(sum, (size_t)n_blocks);
}

#endif
