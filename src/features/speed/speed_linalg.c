/* SpEED's eigenvalues and linear solve in float, as libvmaf feature/speed.c computes them
 * (its adaptation of GSL's symmtd/symm, and its Householder QR). The serial steps are
 * speed_linalg_math.h's (shared with the CUDA twin); this file runs them in the reference's
 * loop order. */
#include <string.h>

#include "features/speed/speed_linalg.h"
#include "features/speed/speed_linalg_math.h"

#define N SPEED_N

/* ---- eigenvalues: Householder tridiagonalisation ---- */

/* a's rows and columns [lo, N): x = tau a v; x += alpha v with alpha = -tau (x.v) / 2;
 * a -= x v' + v x'. */
static void reflect(float *a, const float *v, float *x, const float tau, const int lo)
{
    for (int i = lo; i < N; i++)
        x[i] = speed_reflect_x(a, v, tau, lo, i);
    const float alpha = speed_reflect_alpha(x, v, tau, lo);
    for (int i = lo; i < N; i++)
        x[i] += alpha * v[i];
    for (int i = lo; i < N; i++)
        for (int j = lo; j < N; j++)
            a[i * N + j] = speed_reflect_entry(a[i * N + j], x, v, i, j);
}

static void tridiagonalise(float *a, float *d, float *sd, float *v, float *x)
{
    for (int i = 0; i < N - 2; i++) {
        const float tau = speed_householder_column(a, v, i);
        if (tau != 0.0f)
            reflect(a, v, x, tau, i + 1);
    }
    for (int i = 0; i < N; i++)
        d[i] = a[i * N + i];
    for (int i = 0; i < N - 1; i++)
        sd[i] = a[(i + 1) * N + i];
}

int speed_eigenvalues(const float *k, float *eig, SpeedLinalgWork *w)
{
    memcpy(w->a, k, sizeof(w->a));
    tridiagonalise(w->a, w->d, w->sd, w->v, w->x);
    const int stuck = speed_tridiagonal_eigen(w->d, w->sd);
    memcpy(eig, w->d, N * sizeof(float));
    return stuck;
}

/* ---- linear solve: Householder QR ---- */

/* dst (rows x cols) = x (rows x N) y (N x cols): zeroed, then += x[i][k] y[k][j] for k in
 * order (the loop over j runs innermost, so it vectorises without reordering any sum). */
static void mat_mul(float *dst, const float *x, const float *y, const int rows, const size_t cols)
{
    memset(dst, 0, (size_t)rows * cols * sizeof(float));
    for (int i = 0; i < rows; i++)
        for (int k = 0; k < N; k++) {
            const float xik = x[i * N + k];
            const float *yk = y + (size_t)k * cols;
            float *di = dst + (size_t)i * cols;
            for (size_t j = 0; j < cols; j++)
                di[j] = speed_mat_term(di[j], xik, yk[j]);
        }
}

static void transpose(float *m)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < i; j++) {
            const float t = m[i * N + j];
            m[i * N + j] = m[j * N + i];
            m[j * N + i] = t;
        }
}

/* q (orthogonal, returned transposed as the reference leaves it) and r with a = q r. */
static void qr_decompose(const float *a, float *q, float *r, float *h, float *z)
{
    float *vec = r; /* r is free until the end: the reference's scratch vector */
    memcpy(z, a, N * N * sizeof(float));
    for (int i = 0; i < N * N; i++)
        q[i] = i % (N + 1) == 0 ? 1 : 0;
    for (int k = 0; k < N - 1; k++) {
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                z[i * N + j] = speed_qr_masked(z[i * N + j], i, j, k);
        speed_qr_vector(a, z, k, vec);
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                h[i * N + j] = speed_reflector_entry(vec, i, j);
        mat_mul(r, h, z, N, N);
        memcpy(z, r, N * N * sizeof(float));
        mat_mul(r, h, q, N, N);
        memcpy(q, r, N * N * sizeof(float));
    }
    mat_mul(r, q, a, N, N);
    transpose(q);
}

int speed_solve(const float *k, const float *y, const size_t cols, float *x, float *qty,
                SpeedLinalgWork *w)
{
    memcpy(w->a, k, sizeof(w->a));
    qr_decompose(w->a, w->q, w->r, w->t1, w->t2);
    transpose(w->q);
    mat_mul(qty, w->q, y, N, cols);
    if (speed_r_singular(w->r))
        return -1;
    for (int i = N - 1; i >= 0; i--)
        for (size_t j = 0; j < cols; j++)
            x[(size_t)i * cols + j] =
                speed_back_entry(w->r, x, cols, qty[(size_t)i * cols + j], i, j);
    return 0;
}
