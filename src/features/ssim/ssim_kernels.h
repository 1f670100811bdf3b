/* The SSIM kernel table type and every kernel of every level. Header only (docs/FAMILY.md). */
#ifndef EV_FEATURES_SSIM_KERNELS_H
#define EV_FEATURES_SSIM_KERNELS_H

#include "features/ssim/ssim_math.h"

/* The row kernels, one table per CPU level (ssim_dsp.c): the C reference (ssim_rows.c) and the
 * SIMD executors (ssim_avx2.c, ssim_avx512.c, both from ssim_simd_tmpl.h). Decimation outputs
 * [xa, xb) of one row whose taps all lie inside it (rows[v]: the kernel's row v); the Gaussian
 * pass along one row (out[x] = sum_k in[x + k] g[k], x < w - 10) and across 11 rows (out[x] =
 * sum_k rows[k][x] g[k], x < n); the window terms of n windows from their five filter outputs
 * (stat: mu_x, mu_y, E[x^2], E[y^2], E[xy]). */
typedef struct SsimDsp {
    void (*decimate_span)(const float *const *rows, const SsimKernel *k, int xa, int xb,
                          float *dst);
    void (*gauss_row)(const float *in, int w, float *out);
    void (*gauss_column)(const float *const *rows, int n, float *out);
    void (*terms_row)(const float *const *stat, int n, double *l, double *c, float *s);
} SsimDsp;

#define EV_SSIM_DECLARE(isa)                                                                       \
    void ssim_decimate_span_##isa(const float *const *rows, const SsimKernel *k, int xa, int xb,   \
                                  float *dst);                                                     \
    void ssim_gauss_row_##isa(const float *in, int w, float *out);                                 \
    void ssim_gauss_column_##isa(const float *const *rows, int n, float *out);                     \
    void ssim_terms_row_##isa(const float *const *stat, int n, double *l, double *c, float *s);
EV_SSIM_DECLARE(c)
EV_SSIM_DECLARE(avx2)
EV_SSIM_DECLARE(avx512)

#endif
