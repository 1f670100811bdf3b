/* The small dense float linear algebra of SpEED (libvmaf feature/speed.c): eigenvalues of the
 * 25 x 25 covariance (Householder tridiagonalisation, implicit QR steps), and the solution of
 * K X = Y through a Householder QR of K. Float arithmetic in the reference's order. */
#ifndef EV_FEATURES_SPEED_LINALG_H
#define EV_FEATURES_SPEED_LINALG_H

#include <stddef.h>

#include "features/speed/speed_linalg_math.h" /* SPEED_N */

/* Scratch the solvers need: 5 square matrices and 4 vectors of SPEED_N floats. */
typedef struct SpeedLinalgWork {
    float a[SPEED_N * SPEED_N], q[SPEED_N * SPEED_N], r[SPEED_N * SPEED_N];
    float t1[SPEED_N * SPEED_N], t2[SPEED_N * SPEED_N];
    float d[SPEED_N], sd[SPEED_N], v[SPEED_N], x[SPEED_N];
} SpeedLinalgWork;

/* The eigenvalues of the symmetric SPEED_N x SPEED_N matrix k (not modified), unordered as
 * the reference leaves them. Returns 1 when the QR iteration hit its limit (the reference then
 * only warns), else 0. */
int speed_eigenvalues(const float *k, float *eig, SpeedLinalgWork *w);

/* x (SPEED_N x cols) = k^-1 y by QR; y and x are row-major with row stride cols. Returns 0, or
 * -1 when a diagonal element of R is below 1e-6 in magnitude (x is then not written). */
int speed_solve(const float *k, const float *y, size_t cols, float *x, float *qty,
                SpeedLinalgWork *w);

#endif
