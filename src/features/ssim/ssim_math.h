/*
 * SSIM / MS-SSIM arithmetic of libvmaf (feature/iqa/ssim_tools.c, convolve.c, decimate.c,
 * feature/ssim.c, feature/ms_ssim.c), shared by the C reference and the CUDA twins.
 *
 * Types are the contract (libvmaf-map.md 3): every filter output is a double sum of float
 * products taken in tap order, rounded to float; the window statistics are float; luminance and
 * contrast divide a double numerator by a float denominator; structure is all float; the four
 * per-window terms are summed in double, in raster order, by the caller (ssim_accumulate).
 */
#ifndef EV_FEATURES_SSIM_MATH_H
#define EV_FEATURES_SSIM_MATH_H

#include <math.h>

#include "base/hd.h"

#define SSIM_WINDOW 11     /* Gaussian window side: outputs are (w - 10) x (h - 10) */
#define SSIM_LPF 9         /* MS-SSIM 9/7 low-pass side, offsets -4..4 */
#define SSIM_MAX_FACTOR 10 /* largest explicit float_ssim scale (automatic ones may be larger) */

/* ---- constants ------------------------------------------------------------------------- */

/* C1 = (K1 L)^2, C2 = (K2 L)^2 with float K1 = 0.01, K2 = 0.03 and int L = 255, all in float;
 * C3 = C2 / 2 in float. */
EV_HD float ssim_c1(void)
{
    const float k1l = 0.01f * 255;
    return k1l * k1l;
}

EV_HD float ssim_c2(void)
{
    const float k2l = 0.03f * 255;
    return k2l * k2l;
}

EV_HD float ssim_c3(void)
{
    return ssim_c2() / 2.0f;
}

/* The 1-D Gaussian tap k (0..10) of the separable 11-tap window, sigma 1.5 (libvmaf's
 * g_gaussian_window_h/_v, which are equal), indexed here by distance from the centre. */
EV_HD float ssim_gauss_tap(const int k)
{
    const float by_distance[6] = {
        0.266012f, 0.213006f, 0.109361f, 0.036001f, 0.007599f, 0.001028f
    };
    const int d = k < 5 ? 5 - k : k - 5;
    return by_distance[d];
}

/* The 2-D 9/7 biorthogonal low-pass coefficient at row v, column u (0..8) of libvmaf's
 * g_lpf (not the product of its 1-D taps: the decimation reads the 2-D table). The table is
 * symmetric in the row and column distances from the centre. */
EV_HD float ssim_lpf_tap(const int v, const int u)
{
    const float by_distance[5][5] = {
        { 0.363505f, 0.160885f, -0.047149f, -0.010146f, 0.016114f },
        { 0.160885f, 0.071207f, -0.020867f, -0.004490f, 0.007132f },
        { -0.047149f, -0.020867f, 0.006115f, 0.001316f, -0.002090f },
        { -0.010146f, -0.004490f, 0.001316f, 0.000283f, -0.000450f },
        { 0.016114f, 0.007132f, -0.002090f, -0.000450f, 0.000714f },
    };
    const int dv = v < 4 ? 4 - v : v - 4;
    const int du = u < 4 ? 4 - u : u - 4;
    return by_distance[dv][du];
}

/* The float_ssim box tap of a factor x factor decimation: 1.0f / (factor * factor). */
EV_HD float ssim_box_tap(const int factor)
{
    return 1.0f / (float)(factor * factor);
}

/* ---- geometry -------------------------------------------------------------------------- */

/* libvmaf's automatic float_ssim scale: max(1, round(min(w, h) / 256)) in float, where iqa's
 * round adds one when the fraction is >= 0.5 (compared in double). */
EV_HD int ssim_auto_scale(const int w, const int h)
{
    const float a = (float)(w < h ? w : h) / 256.0f;
    const int whole = (int)a;
    const int rounded = a - (float)whole >= 0.5 ? whole + (a > 0.0f ? 1 : -1) : whole;
    return rounded > 1 ? rounded : 1;
}

/* Decimated size: n / factor + (n & 1), the parity of n, not n % factor. */
EV_HD int ssim_decimated_size(const int n, const int factor)
{
    return n / factor + (n & 1);
}

/* First tap offset of a decimation kernel of side n (the box is anchored left for even n). */
EV_HD int ssim_kernel_first(const int n)
{
    return -(n / 2);
}

/* iqa's KBND_SYMMETRIC index: one reflection with edge repeat (-1 -> 0, n -> n - 1). */
EV_HD int ssim_reflect(const int i, const int n)
{
    if (i < 0)
        return -1 - i;
    if (i >= n)
        return 2 * n - 1 - i;
    return i;
}

/* ---- filter steps ---------------------------------------------------------------------- */

/* One tap: the float product, rounded, added to the double sum. */
EV_HD double ssim_tap(const double sum, const float sample, const float coef)
{
    const float product = sample * coef;
    return sum + (double)product;
}

/* A filter output: the sum times the kernel scale 1.0f (exact), rounded to float. */
EV_HD float ssim_tap_end(const double sum)
{
    return (float)(sum * 1.0f);
}

/* ---- decimation kernels ----------------------------------------------------------------- */

/* A square decimation kernel of side n, taps at offsets first .. first + n - 1, read row-major.
 * float_ssim's box (any factor: the automatic scale has no upper bound) has every tap equal
 * to box and no table; the MS-SSIM low-pass (box == 0) reads its 9 x 9 table. */
typedef struct SsimKernel {
    int n, first, factor;
    float box;
    float table[SSIM_LPF * SSIM_LPF];
} SsimKernel;

EV_HD void ssim_kernel_box(SsimKernel *k, const int factor)
{
    k->n = factor;
    k->first = ssim_kernel_first(factor);
    k->factor = factor;
    k->box = ssim_box_tap(factor);
}

EV_HD void ssim_kernel_lpf(SsimKernel *k)
{
    k->n = SSIM_LPF;
    k->first = ssim_kernel_first(SSIM_LPF);
    k->factor = 2;
    k->box = 0.0f;
    for (int v = 0; v < SSIM_LPF; v++)
        for (int u = 0; u < SSIM_LPF; u++)
            k->table[v * SSIM_LPF + u] = ssim_lpf_tap(v, u);
}

EV_HD float ssim_kernel_tap(const SsimKernel *k, const int v, const int u)
{
    return k->box != 0.0f ? k->box : k->table[v * SSIM_LPF + u];
}

/* One decimated sample whose taps may leave the image: taps from column x0, rows[v] is image
 * row (reflected) v of the window, row-major tap order. */
EV_HD float ssim_decimate_edge(const float *const *rows, const SsimKernel *k, const int x0,
                               const int w)
{
    double sum = 0.0;
    for (int v = 0; v < k->n; v++)
        for (int u = 0; u < k->n; u++)
            sum = ssim_tap(sum, rows[v][ssim_reflect(x0 + u, w)], ssim_kernel_tap(k, v, u));
    return ssim_tap_end(sum);
}

/* The same sample when columns x0 .. x0 + n - 1 are all inside the image. */
EV_HD float ssim_decimate_inner(const float *const *rows, const SsimKernel *k, const int x0)
{
    double sum = 0.0;
    for (int v = 0; v < k->n; v++)
        for (int u = 0; u < k->n; u++)
            sum = ssim_tap(sum, rows[v][x0 + u], ssim_kernel_tap(k, v, u));
    return ssim_tap_end(sum);
}

/* ---- window statistics ----------------------------------------------------------------- */

/* The float product fed to the window (x * x, y * y or x * y). */
EV_HD float ssim_product(const float a, const float b)
{
    return a * b;
}

/* sigma^2 = E[x^2] - mu^2 in float, clamped with MAX(0.0, v): compared in double, so -0.0 and
 * NaN pass through. */
EV_HD float ssim_variance(const float filtered_sq, const float mu)
{
    const float v = filtered_sq - mu * mu;
    return 0.0 > v ? 0.0f : v;
}

/* sigma_xy = E[xy] - mu_x mu_y in float, not clamped. */
EV_HD float ssim_covariance(const float filtered_xy, const float mu_x, const float mu_y)
{
    return filtered_xy - mu_x * mu_y;
}

/* sigma_x sigma_y = sqrt of the float product, taken in double, stored to float. */
EV_HD float ssim_sigma_root(const float var_x, const float var_y)
{
    return (float)sqrt((double)(var_x * var_y));
}

/* l = (2 mu_x mu_y + C1) / (mu_x^2 + mu_y^2 + C1): numerator double, denominator float. */
EV_HD double ssim_luminance(const float mu_x, const float mu_y)
{
    const double num = 2.0 * mu_x * mu_y + ssim_c1();
    const float den = mu_x * mu_x + mu_y * mu_y + ssim_c1();
    return num / den;
}

/* c = (2 sigma_x sigma_y + C2) / (sigma_x^2 + sigma_y^2 + C2): numerator double, den float. */
EV_HD double ssim_contrast(const float root, const float var_x, const float var_y)
{
    const double num = 2.0 * root + ssim_c2();
    const float den = var_x + var_y + ssim_c2();
    return num / den;
}

/* s = (sigma_xy + C3) / (sigma_x sigma_y + C3) in float; sigma_xy is taken as 0 when it is
 * negative on a flat window (root <= 0), libvmaf's fix for identical flat regions. */
EV_HD float ssim_structure(const float cov, const float root)
{
    const float c = (cov < 0.0f && root <= 0.0f) ? 0.0f : cov;
    return (c + ssim_c3()) / (root + ssim_c3());
}

/* The three terms of one window from its five filter outputs. */
EV_HD void ssim_window_terms(const float mu_x, const float mu_y, const float f_xx, const float f_yy,
                             const float f_xy, double *l, double *c, float *s)
{
    const float var_x = ssim_variance(f_xx, mu_x);
    const float var_y = ssim_variance(f_yy, mu_y);
    const float cov = ssim_covariance(f_xy, mu_x, mu_y);
    const float root = ssim_sigma_root(var_x, var_y);
    *l = ssim_luminance(mu_x, mu_y);
    *c = ssim_contrast(root, var_x, var_y);
    *s = ssim_structure(cov, root);
}

/* ---- reduction ------------------------------------------------------------------------- */

typedef struct SsimSums {
    double ssim, l, c, s;
} SsimSums;

/* The SSIM term of one window: (l * c) * s in double. */
EV_HD double ssim_window_ssim(const double l, const double c, const float s)
{
    return l * c * s;
}

/* Add one window, in raster order: ssim += (l * c) * s, each term to its own double. */
EV_HD void ssim_accumulate(SsimSums *sums, const double l, const double c, const float s)
{
    sums->ssim += ssim_window_ssim(l, c, s);
    sums->l += l;
    sums->c += c;
    sums->s += s;
}

/* A mean as libvmaf reports it: (float)(sum / (double)(w * h)), w * h an int product. */
EV_HD float ssim_mean(const double sum, const int w, const int h)
{
    return (float)(sum / (double)(w * h));
}

/* The float means one SSIM evaluation reports: SSIM and its luminance, contrast and
 * structure terms. */
typedef struct SsimMeans {
    float ssim, l, c, s;
} SsimMeans;

#endif
