/*
 * Speed-family kernels (libvmaf's speed features, est_params): the table type and every kernel
 * of every level: the C reference (speed_rows.c) and the SIMD executors (speed_avx2.c,
 * speed_avx512.c, both from speed_simd_tmpl.h). Header only; speed_dsp.c fills the table
 * (docs/FAMILY.md). Every executor gives the C kernel's bits (tests/checkasm).
 */
#ifndef EV_FEATURES_SPEED_KERNELS_H
#define EV_FEATURES_SPEED_KERNELS_H

#include <stddef.h>

/* SPEED_N = 25 values per position (a 5 x 5 block), their 325 products */
enum { SPEED_COV_N = 25, SPEED_COV_TERMS = SPEED_COV_N * (SPEED_COV_N + 1) / 2 };

/* One row of the covariance sums: for each position j = 0..n-1 of the row, the 25 centred
 * values v[o] = (double)d[(o / 5) * stride + o % 5 + j] - (double)mean[o], and every product
 * v[x] * v[y] (y <= x) added to its own double sum acc[x (x + 1) / 2 + y], positions in order,
 * each product rounded, then each sum (no fused multiply-add). */
typedef void (*SpeedCovRowFn)(double *acc, const float *d, ptrdiff_t stride, const float *mean,
                              int n);

typedef struct SpeedDsp {
    SpeedCovRowFn cov_row;
} SpeedDsp;

void speed_cov_row_c(double *acc, const float *d, ptrdiff_t stride, const float *mean, int n);
void ev_speed_cov_row_avx2(double *acc, const float *d, ptrdiff_t stride, const float *mean, int n);
void ev_speed_cov_row_avx512(double *acc, const float *d, ptrdiff_t stride, const float *mean,
                             int n);

#endif
