/*
 * SpEED one output at a time, for the CUDA twin (speed.cu) and for its host test
 * (tests/unit/speed_twin_test.c, which runs these on the host against speed_score): the C
 * reference's row loops (speed_core.c, speed_linalg.c) taken apart per output, each output the
 * same sequence of the same speed_math.h / speed_linalg_math.h steps as in the reference.
 *
 * The solver functions (speed_twin_eigen, speed_twin_solve) are written for a block of nt
 * threads, thread t, sharing a SpeedTwinSolver: the loops over independent outputs stride by
 * nt, the serial steps run on thread 0, and SPEED_TWIN_SYNC() (__syncthreads on the device,
 * nothing on the host) separates a step's writes from the next step's reads. Every thread
 * reaches every SPEED_TWIN_SYNC (the loop bounds are the same for all). With t = 0, nt = 1 on
 * the host they are a serial program, which the host test checks against the reference.
 */
#ifndef EV_FEATURES_SPEED_TWIN_H
#define EV_FEATURES_SPEED_TWIN_H

#include <stddef.h>

#include "base/hd.h"
#include "features/speed/speed_core.h"
#include "features/speed/speed_linalg.h"
#include "features/speed/speed_linalg_math.h"
#include "features/speed/speed_math.h"

#ifdef __CUDA_ARCH__
#define SPEED_TWIN_SYNC() __syncthreads()
#else
#define SPEED_TWIN_SYNC() ((void)0)
#endif

enum { SPEED_TWIN_PAIRS = SPEED_N * (SPEED_N + 1) / 2 };

/* ---- downscale ---- */

/* The separable filter (taps tap[0..n)) of a w x h image at (cy, cx): for each horizontal tap,
 * the vertical pass at its mirrored column (filter_rows), then the horizontal sum (filter_at). */
EV_HD float speed_twin_filter_at(const float *tap, const int n, const float *img,
                                 const ptrdiff_t stride, const int w, const int h, const int cy,
                                 const int cx)
{
    const int r = n / 2;
    float acc = 0;
    for (int kh = 0; kh < n; kh++) {
        const int col = speed_mirror(cx - r + kh, w);
        float v = 0;
        for (int kv = 0; kv < n; kv++)
            v = speed_tap(v, tap[kv], img[speed_mirror(cy - r + kv, h) * stride + col]);
        acc = speed_tap(acc, tap[kh], v);
    }
    return acc;
}

/* The local-mean-removed sample i of the decimated image dec (dw x dh). */
EV_HD float speed_twin_centred(const float *tap, const int n, const float *dec, const int dw,
                               const int dh, const int i)
{
    return dec[i] - speed_twin_filter_at(tap, n, dec, dw, dw, dh, i / dw, i % dw);
}

/* ---- est_params: moments ---- */

/* The mean of submatrix o = (r, c): its float sum in raster order over the count. */
EV_HD float speed_twin_mean(const float *d, const int dw, const int sub_w, const int sub_h,
                            const int o)
{
    const int r = o / SPEED_BLOCK, c = o % SPEED_BLOCK;
    float sum = 0;
    for (int i = 0; i < sub_h; i++)
        for (int j = 0; j < sub_w; j++)
            sum += d[(r + i) * dw + c + j];
    return speed_mean_value(sum, (size_t)sub_w * sub_h);
}

/* Pair p (x >= y, numbered as the reference's accumulators) of the covariance. */
EV_HD void speed_twin_pair(const int p, int *x, int *y)
{
    int a = 0;
    while ((a + 1) * (a + 2) / 2 <= p)
        a++;
    *x = a;
    *y = p - a * (a + 1) / 2;
}

/* Covariance pair (x, y): its double sum of centred products in raster order, as a float. */
EV_HD float speed_twin_cov(const float *d, const int dw, const int sub_w, const int sub_h,
                           const float *mean, const int x, const int y)
{
    const int ox = (x / SPEED_BLOCK) * dw + x % SPEED_BLOCK;
    const int oy = (y / SPEED_BLOCK) * dw + y % SPEED_BLOCK;
    double acc = 0;
    for (int i = 0; i < sub_h; i++)
        for (int j = 0; j < sub_w; j++) {
            const int at = i * dw + j;
            acc = speed_cov_add(acc, speed_centre(d[ox + at], mean[x]),
                                speed_centre(d[oy + at], mean[y]));
        }
    return speed_cov_value(acc, (size_t)sub_w * sub_h);
}

/* Entry e = o * n_blocks + block of the independent term. */
EV_HD float speed_twin_indep(const float *d, const int dw, const int bw, const int n_blocks,
                             const int e)
{
    const int o = e / n_blocks, b = e % n_blocks;
    const int bi = b / bw, bj = b % bw;
    return d[(SPEED_BLOCK * bi + o / SPEED_BLOCK) * dw + SPEED_BLOCK * bj + o % SPEED_BLOCK];
}

/* 0 when an eigenvalue is below 1e-6 (est_params then takes the covariance as singular). */
EV_HD int speed_twin_regular(const float *eig)
{
    int regular = 1;
    for (int i = 0; i < SPEED_N; i++)
        if (eig[i] < 1e-6)
            regular = 0;
    return regular;
}

/* ---- the solvers, on a block of threads ---- */

typedef struct SpeedTwinSolver {
    SpeedLinalgWork la;
    float cov[SPEED_N * SPEED_N];
    float mean[SPEED_N];
    float tau;
} SpeedTwinSolver;

/* The means and the covariance of d into s->mean, s->cov. */
EV_HD void speed_twin_moments(SpeedTwinSolver *s, const float *d, const int dw, const int sub_w,
                              const int sub_h, const int t, const int nt)
{
    for (int o = t; o < SPEED_N; o += nt)
        s->mean[o] = speed_twin_mean(d, dw, sub_w, sub_h, o);
    SPEED_TWIN_SYNC();
    for (int p = t; p < SPEED_TWIN_PAIRS; p += nt) {
        int x, y;
        speed_twin_pair(p, &x, &y);
        s->cov[x * SPEED_N + y] = s->cov[y * SPEED_N + x] =
            speed_twin_cov(d, dw, sub_w, sub_h, s->mean, x, y);
    }
    SPEED_TWIN_SYNC();
}

/* One Householder reflection of tridiagonalise on a's trailing block from lo. */
EV_HD void speed_twin_reflect(SpeedTwinSolver *s, const float tau, const int lo, const int t,
                              const int nt)
{
    float *a = s->la.a, *v = s->la.v, *x = s->la.x;
    for (int i = lo + t; i < SPEED_N; i += nt)
        x[i] = speed_reflect_x(a, v, tau, lo, i);
    SPEED_TWIN_SYNC();
    const float alpha = speed_reflect_alpha(x, v, tau, lo);
    SPEED_TWIN_SYNC();
    for (int i = lo + t; i < SPEED_N; i += nt)
        x[i] += alpha * v[i];
    SPEED_TWIN_SYNC();
    const int m = SPEED_N - lo;
    for (int e = t; e < m * m; e += nt) {
        const int i = lo + e / m, j = lo + e % m;
        a[i * SPEED_N + j] = speed_reflect_entry(a[i * SPEED_N + j], x, v, i, j);
    }
}

/* speed_eigenvalues of s->cov into eig (the block's). */
EV_HD void speed_twin_eigen(SpeedTwinSolver *s, float *eig, const int t, const int nt)
{
    float *a = s->la.a, *v = s->la.v;
    for (int e = t; e < SPEED_N * SPEED_N; e += nt)
        a[e] = s->cov[e];
    SPEED_TWIN_SYNC();
    for (int i = 0; i < SPEED_N - 2; i++) {
        if (t == 0)
            s->tau = speed_householder_column(a, v, i);
        SPEED_TWIN_SYNC();
        const float tau = s->tau;
        if (tau != 0.0f)
            speed_twin_reflect(s, tau, i + 1, t, nt);
        SPEED_TWIN_SYNC();
    }
    if (t == 0) {
        float *d = s->la.d, *sd = s->la.sd;
        for (int i = 0; i < SPEED_N; i++)
            d[i] = a[i * SPEED_N + i];
        for (int i = 0; i < SPEED_N - 1; i++)
            sd[i] = a[(i + 1) * SPEED_N + i];
        speed_tridiagonal_eigen(d, sd);
        for (int i = 0; i < SPEED_N; i++)
            eig[i] = d[i];
    }
    SPEED_TWIN_SYNC();
}

/* Entry e of dst = x y (x: SPEED_N x SPEED_N, y: SPEED_N x cols), as mat_mul sums it. */
EV_HD float speed_twin_product(const float *x, const float *y, const size_t cols, const size_t e)
{
    const size_t i = e / cols, j = e % cols;
    float acc = 0;
    for (int k = 0; k < SPEED_N; k++)
        acc = speed_mat_term(acc, x[i * SPEED_N + k], y[k * cols + j]);
    return acc;
}

/* dst = x y for SPEED_N x SPEED_N matrices, then a sync. */
EV_HD void speed_twin_mat_mul(float *dst, const float *x, const float *y, const int t, const int nt)
{
    for (int e = t; e < SPEED_N * SPEED_N; e += nt)
        dst[e] = speed_twin_product(x, y, SPEED_N, (size_t)e);
    SPEED_TWIN_SYNC();
}

EV_HD void speed_twin_copy(float *dst, const float *src, const int t, const int nt)
{
    for (int e = t; e < SPEED_N * SPEED_N; e += nt)
        dst[e] = src[e];
    SPEED_TWIN_SYNC();
}

/* qr_decompose of s->cov into la.q (not transposed: the reference transposes it twice before
 * using it) and la.r. */
EV_HD void speed_twin_qr(SpeedTwinSolver *s, const int t, const int nt)
{
    float *a = s->la.a, *q = s->la.q, *r = s->la.r, *h = s->la.t1, *z = s->la.t2;
    float *vec = r;
    for (int e = t; e < SPEED_N * SPEED_N; e += nt) {
        a[e] = z[e] = s->cov[e];
        q[e] = e % (SPEED_N + 1) == 0 ? 1 : 0;
    }
    SPEED_TWIN_SYNC();
    for (int k = 0; k < SPEED_N - 1; k++) {
        for (int e = t; e < SPEED_N * SPEED_N; e += nt)
            z[e] = speed_qr_masked(z[e], e / SPEED_N, e % SPEED_N, k);
        SPEED_TWIN_SYNC();
        if (t == 0)
            speed_qr_vector(a, z, k, vec);
        SPEED_TWIN_SYNC();
        for (int e = t; e < SPEED_N * SPEED_N; e += nt)
            h[e] = speed_reflector_entry(vec, e / SPEED_N, e % SPEED_N);
        SPEED_TWIN_SYNC();
        speed_twin_mat_mul(r, h, z, t, nt);
        speed_twin_copy(z, r, t, nt);
        speed_twin_mat_mul(r, h, q, t, nt);
        speed_twin_copy(q, r, t, nt);
    }
    speed_twin_mat_mul(r, q, a, t, nt);
}

/* speed_solve of s->cov for y (SPEED_N x nb): x, with qty as scratch; returns the reference's
 * -1 (singular R: x not written) or 0. */
EV_HD int speed_twin_solve(SpeedTwinSolver *s, const float *y, const int nb, float *x, float *qty,
                           const int t, const int nt)
{
    speed_twin_qr(s, t, nt);
    const size_t cols = (size_t)nb;
    for (size_t e = (size_t)t; e < SPEED_N * cols; e += (size_t)nt)
        qty[e] = speed_twin_product(s->la.q, y, cols, e);
    SPEED_TWIN_SYNC();
    if (speed_r_singular(s->la.r))
        return -1;
    for (size_t j = (size_t)t; j < cols; j += (size_t)nt)
        for (int i = SPEED_N - 1; i >= 0; i--)
            x[i * cols + j] = speed_back_entry(s->la.r, x, cols, qty[i * cols + j], i, j);
    return 0;
}

/* Block j's variance and entropy (est_params steps 5-7), the solution x zeroed first in that
 * block's column when the covariance was singular (as the reference's memset). */
EV_HD void speed_twin_block(float *x, const float *y, const int nb, const int j, const int singular,
                            const float *eig, const float sigma_nn, float *variance, float *entropy)
{
    if (singular)
        for (int i = 0; i < SPEED_N; i++)
            x[(size_t)i * nb + j] = 0;
    variance[j] = speed_block_variance(x, y, (size_t)nb, (size_t)j);
    entropy[j] = speed_block_entropy(eig, variance[j], sigma_nn);
}

/* ---- the plan, as the kernels get it (by value) ---- */

typedef struct SpeedTwinPlan {
    int w, h, sw, sh, dw, dh, bw, n_blocks, sub_w, sub_h;
    int scaling, identity, method;
    int n_aa, n_local, weight_var_mode;
    float sigma_nn, base_entropy;
    float aa[SPEED_MAX_TAPS], local[SPEED_MAX_TAPS];
} SpeedTwinPlan;

static inline SpeedTwinPlan speed_twin_plan(const SpeedPlan *pl)
{
    SpeedTwinPlan t = { .w = pl->w,
                        .h = pl->h,
                        .sw = pl->sw,
                        .sh = pl->sh,
                        .dw = pl->dw,
                        .dh = pl->dh,
                        .bw = pl->bw,
                        .n_blocks = pl->n_blocks,
                        .sub_w = pl->sub_w,
                        .sub_h = pl->sub_h,
                        .scaling = pl->scaling,
                        .identity = pl->scaling && pl->scale.identity,
                        .method = (int)pl->scale.method,
                        .n_aa = pl->antialias.n,
                        .n_local = pl->local.n,
                        .weight_var_mode = pl->p.weight_var_mode,
                        .sigma_nn = (float)pl->p.sigma_nn,
                        .base_entropy = pl->base_entropy };
    for (int k = 0; k < SPEED_MAX_TAPS; k++) {
        t.aa[k] = pl->antialias.tap[k];
        t.local[k] = pl->local.tap[k];
    }
    return t;
}

/* The decimated anti-alias output e = a * dw + b of the (prescaled) image s (sw x sh, rows
 * stride floats apart: sw when prescaled, else the plane's width, as downscale()). */
EV_HD float speed_twin_dec(const SpeedTwinPlan *p, const float *s, const ptrdiff_t stride,
                           const int e)
{
    const int a = e / p->dw, b = e % p->dw;
    return speed_twin_filter_at(p->aa, p->n_aa, s, stride, p->sw, p->sh, a << SPEED_SCALES,
                                b << SPEED_SCALES);
}

#endif
