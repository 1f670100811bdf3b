/* The serial steps of SpEED's float linear algebra (libvmaf feature/speed.c: its adaptation of
 * GSL's symmtd/symm eigen solver and its Householder QR), host + device: speed_linalg.c (the C
 * reference) and the CUDA twin's solver (speed_twin.h, speed.cu) run these same functions.
 * Each expression keeps the reference's operand order and the points where it widens to double
 * (the double constant EPS, sqrt of a float in double: correctly rounded on both executors). */
#ifndef EV_FEATURES_SPEED_LINALG_MATH_H
#define EV_FEATURES_SPEED_LINALG_MATH_H

#include <math.h>
#include <stddef.h>

#include "base/hd.h"

enum { SPEED_N = 25, SPEED_MAX_QR_ITERS = 500 }; /* the matrix order; the QR steps' limit */

#define SPEED_EPS 1e-6 /* a double, as the reference's EIGENVALUE_EPS */

EV_HD float speed_sqrt_of(const float x)
{
    return (float)sqrt((double)x);
}

EV_HD int speed_sign_of(const float x)
{
    return x >= 0 ? 1 : -1;
}

EV_HD float speed_hypot_of(const float x, const float y)
{
    return speed_sqrt_of(x * x + y * y);
}

/* One term of a float matrix product or dot product, as the reference accumulates it. */
EV_HD float speed_mat_term(const float acc, const float x, const float y)
{
    return acc + x * y;
}

/* The Householder vector annihilating a[start+1.., col], stored in place (a[start][col] gets
 * beta, the rest divided by alpha - beta); returns tau. */
EV_HD float speed_householder(float *a, const int col, const int start)
{
    const int n = SPEED_N;
    if (n - start == 1)
        return 0.0f;
    float sq = 0;
    for (int i = start + 1; i < n; i++)
        sq = speed_mat_term(sq, a[i * n + col], a[i * n + col]);
    const float xnorm = speed_sqrt_of(sq);
    if (xnorm == 0.0f)
        return 0.0f;
    const float alpha = a[start * n + col];
    const float beta = -speed_sign_of(alpha) * speed_hypot_of(alpha, xnorm);
    const float tau = (beta - alpha) / beta;
    const float s = alpha - beta;
    if (s != 0.0f) {
        for (int i = start; i < n; i++)
            a[i * n + col] /= s;
        a[start * n + col] = beta;
    }
    return tau;
}

/* Step i of the tridiagonalisation (the C reference's and the twin's): the Householder vector
 * of column i into v[i+1..] (v[i+1] = 1 once a holds the vector's first element); returns its
 * tau. */
EV_HD float speed_householder_column(float *a, float *v, const int i)
{
    const float tau = speed_householder(a, i, i + 1);
    for (int j = i + 1; j < SPEED_N; j++)
        v[j] = a[j * SPEED_N + i];
    if (tau != 0.0f) {
        a[(i + 1) * SPEED_N + i] = v[i + 1];
        v[i + 1] = 1.0f;
    }
    return tau;
}

/* reflect(), x[i] = sum over j >= lo of tau a[i][j] v[j], in j order */
EV_HD float speed_reflect_x(const float *a, const float *v, const float tau, const int lo,
                            const int i)
{
    float x = 0.0f;
    for (int j = lo; j < SPEED_N; j++)
        x += tau * a[i * SPEED_N + j] * v[j];
    return x;
}

/* reflect()'s alpha = -tau (x.v) / 2: the dot product in float, the rest in double */
EV_HD float speed_reflect_alpha(const float *x, const float *v, const float tau, const int lo)
{
    float xv = 0;
    for (int i = lo; i < SPEED_N; i++)
        xv = speed_mat_term(xv, x[i], v[i]);
    return (float)(-0.5 * tau * xv);
}

/* reflect()'s update of a[i][j] */
EV_HD float speed_reflect_entry(const float aij, const float *x, const float *v, const int i,
                                const int j)
{
    return aij - (x[i] * v[j] + v[i] * x[j]);
}

/* ---- implicit symmetric QR steps on the tridiagonal (d, sd) ---- */

EV_HD void speed_chop_small(const float *d, float *sd, const int n)
{
    for (int i = 0; i < n - 1; i++)
        if (fabsf(sd[i]) < SPEED_EPS * (fabsf(d[i]) + fabsf(d[i + 1])))
            sd[i] = 0.0f;
}

/* Wilkinson's shift from the trailing 2 x 2 block. */
EV_HD float speed_trailing_shift(const float *d, const float *sd, const int n)
{
    const float ta = d[n - 2], tb = d[n - 1], tab = sd[n - 2];
    const float dt = (float)((ta - tb) / 2.0);
    if (dt > 0)
        return tb - tab * (tab / (dt + speed_hypot_of(dt, tab)));
    if (dt == 0)
        return tb - fabsf(tab);
    return tb + tab * (tab / (-dt + speed_hypot_of(dt, tab)));
}

EV_HD void speed_givens(const float a, const float b, float *c, float *s)
{
    if (b == 0) {
        *c = 1;
        *s = 0;
    } else if (fabsf(b) > fabsf(a)) {
        const float t = -a / b;
        const float s1 = (float)(1.0 / sqrt((double)(1 + t * t)));
        *s = s1;
        *c = s1 * t;
    } else {
        const float t = -b / a;
        const float c1 = (float)(1.0 / sqrt((double)(1 + t * t)));
        *c = c1;
        *s = c1 * t;
    }
}

/* The rotated 2 x 2 block (ap, bp; bp, aq): new ap, bp, aq. */
EV_HD void speed_rotate(const float c, const float s, const float ap, const float bp,
                        const float aq, float *ap1, float *bp1, float *aq1)
{
    *ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
    *bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
    *aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
}

EV_HD void speed_qr_step(float *d, float *sd, const int n)
{
    float mu = speed_trailing_shift(d, sd, n);
    if (SPEED_EPS * fabsf(mu) > fabsf(d[0]) + fabsf(sd[0]))
        mu = 0;
    float x = d[0] - mu, z = sd[0];
    float bk = 0, zk = 0;
    float ap = d[0], bp = sd[0], aq = d[1];
    float c, s, ap1, bp1, aq1;
    if (n == 2) {
        speed_givens(x, z, &c, &s);
        speed_rotate(c, s, ap, bp, aq, &ap1, &bp1, &aq1);
        d[0] = ap1;
        sd[0] = bp1;
        d[1] = aq1;
        return;
    }
    float bq = sd[1];
    for (int k = 0; k < n - 1; k++) {
        speed_givens(x, z, &c, &s);
        const float bk1 = c * bk - s * zk;
        speed_rotate(c, s, ap, bp, aq, &ap1, &bp1, &aq1);
        const float zp1 = -s * bq;
        const float bq1 = c * bq;
        bk = bp1;
        zk = zp1;
        ap = aq1;
        bp = bq1;
        if (k < n - 2)
            aq = d[k + 2];
        if (k < n - 3)
            bq = sd[k + 2];
        d[k] = ap1;
        if (k > 0)
            sd[k - 1] = bk1;
        if (k < n - 2)
            sd[k + 1] = bp;
        x = bk;
        z = zk;
    }
    d[n - 1] = ap;
    sd[n - 2] = bk;
}

/* The QR iteration on the tridiagonal (d, sd) of SPEED_N; d ends as the eigenvalues. Returns
 * 1 when it hit SPEED_MAX_QR_ITERS (the reference then only warns), else 0. */
EV_HD int speed_tridiagonal_eigen(float *d, float *sd)
{
    speed_chop_small(d, sd, SPEED_N);
    int b = SPEED_N - 1, iter = 0;
    while (b > 0 && iter < SPEED_MAX_QR_ITERS) {
        if (sd[b - 1] == 0.0f) {
            b--;
            continue;
        }
        int a = b - 1;
        while (a > 0 && sd[a - 1] != 0.0f)
            a--;
        speed_qr_step(d + a, sd + a, b - a + 1);
        speed_chop_small(d + a, sd + a, b - a + 1);
        iter++;
    }
    return iter == SPEED_MAX_QR_ITERS;
}

/* ---- Householder QR ---- */

EV_HD float speed_norm_of(const float *v)
{
    float sum = 0;
    for (int i = 0; i < SPEED_N; i++)
        sum = speed_mat_term(sum, v[i], v[i]);
    return speed_sqrt_of(sum);
}

/* qr_decompose's step k: vec = column k of z, turned into the unit Householder vector. */
EV_HD void speed_qr_vector(const float *a, const float *z, const int k, float *vec)
{
    for (int i = 0; i < SPEED_N; i++)
        vec[i] = z[i * SPEED_N + k];
    const float norm = speed_norm_of(vec);
    vec[k] += speed_sign_of(a[k * SPEED_N + k]) * norm;
    const float len = speed_norm_of(vec);
    for (int i = 0; i < SPEED_N; i++)
        vec[i] = vec[i] / len;
}

/* The reflector I - 2 vec vec' at (i, j): the product, then 1 added on the diagonal. */
EV_HD float speed_reflector_entry(const float *vec, const int i, const int j)
{
    float h = -2 * vec[i] * vec[j];
    if (i == j)
        h += 1;
    return h;
}

/* z's entries outside the trailing (N - k) x (N - k) block become the identity's. */
EV_HD float speed_qr_masked(const float zij, const int i, const int j, const int k)
{
    return i < k || j < k ? (i == j ? 1.0f : 0.0f) : zij;
}

/* One back-substitution step: (qty - sum over m > i of x[m] r[i][m]) / r[i][i], m in order. */
EV_HD float speed_back_entry(const float *r, const float *x, const size_t cols, const float qty_ij,
                             const int i, const size_t j)
{
    float t = qty_ij;
    for (int m = i + 1; m < SPEED_N; m++)
        t -= x[(size_t)m * cols + j] * r[i * SPEED_N + m];
    return t / r[i * SPEED_N + i];
}

/* 1 when a diagonal element of r is below SPEED_EPS in magnitude: the solve fails. */
EV_HD int speed_r_singular(const float *r)
{
    for (int i = SPEED_N - 1; i >= 0; i--)
        if (fabsf(r[i * SPEED_N + i]) < SPEED_EPS)
            return 1;
    return 0;
}

#endif
