/* SpEED's eigenvalues and linear solve in float, as libvmaf feature/speed.c computes them
 * (its adaptation of GSL's symmtd/symm, and its Householder QR). Each expression keeps the
 * reference's operand order and the points where it widens to double (double constants, sqrt
 * of a float in double). */
#include <math.h>
#include <string.h>

#include "features/speed/speed_linalg.h"

#define N SPEED_N
#define EPS 1e-6    /* a double, as the reference's EIGENVALUE_EPS */

static float sqrt_of(const float x)
{
    return (float)sqrt((double)x);
}

static int sign_of(const float x)
{
    return x >= 0 ? 1 : -1;
}

static float hypot_of(const float x, const float y)
{
    return sqrt_of(x * x + y * y);
}

/* ---- eigenvalues: Householder tridiagonalisation ---- */

/* The Householder vector annihilating a[start+1.., col], stored in place (a[start][col] gets
 * beta, the rest divided by alpha - beta); returns tau. */
static float householder(float *a, const int col, const int start)
{
    if (N - start == 1)
        return 0.0f;
    float sq = 0;
    for (int i = start + 1; i < N; i++)
        sq += a[i * N + col] * a[i * N + col];
    const float xnorm = sqrt_of(sq);
    if (xnorm == 0.0f)
        return 0.0f;
    const float alpha = a[start * N + col];
    const float beta = -sign_of(alpha) * hypot_of(alpha, xnorm);
    const float tau = (beta - alpha) / beta;
    const float s = alpha - beta;
    if (s != 0.0f) {
        for (int i = start; i < N; i++)
            a[i * N + col] /= s;
        a[start * N + col] = beta;
    }
    return tau;
}

/* a's rows and columns [lo, N): x = tau a v; x += alpha v with alpha = -tau (x.v) / 2;
 * a -= x v' + v x'. */
static void reflect(float *a, const float *v, float *x, const float tau, const int lo)
{
    for (int i = lo; i < N; i++) {
        x[i] = 0.0f;
        for (int j = lo; j < N; j++)
            x[i] += tau * a[i * N + j] * v[j];
    }
    float xv = 0;
    for (int i = lo; i < N; i++)
        xv += x[i] * v[i];
    const float alpha = (float)(-0.5 * tau * xv);
    for (int i = lo; i < N; i++)
        x[i] += alpha * v[i];
    for (int i = lo; i < N; i++)
        for (int j = lo; j < N; j++)
            a[i * N + j] -= x[i] * v[j] + v[i] * x[j];
}

static void tridiagonalise(float *a, float *d, float *sd, float *v, float *x)
{
    for (int i = 0; i < N - 2; i++) {
        const float tau = householder(a, i, i + 1);
        for (int j = i + 1; j < N; j++)
            v[j] = a[j * N + i];
        if (tau != 0.0f) {
            a[(i + 1) * N + i] = v[i + 1];
            v[i + 1] = 1.0f;
            reflect(a, v, x, tau, i + 1);
        }
    }
    for (int i = 0; i < N; i++)
        d[i] = a[i * N + i];
    for (int i = 0; i < N - 1; i++)
        sd[i] = a[(i + 1) * N + i];
}

/* ---- eigenvalues: implicit symmetric QR steps on (d, sd) ---- */

static void chop_small(const float *d, float *sd, const int n)
{
    for (int i = 0; i < n - 1; i++)
        if (fabsf(sd[i]) < EPS * (fabsf(d[i]) + fabsf(d[i + 1])))
            sd[i] = 0.0f;
}

/* Wilkinson's shift from the trailing 2 x 2 block. */
static float trailing_shift(const float *d, const float *sd, const int n)
{
    const float ta = d[n - 2], tb = d[n - 1], tab = sd[n - 2];
    const float dt = (float)((ta - tb) / 2.0);
    if (dt > 0)
        return tb - tab * (tab / (dt + hypot_of(dt, tab)));
    if (dt == 0)
        return tb - fabsf(tab);
    return tb + tab * (tab / (-dt + hypot_of(dt, tab)));
}

static void givens(const float a, const float b, float *c, float *s)
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
static void rotate(const float c, const float s, const float ap, const float bp, const float aq,
                   float *ap1, float *bp1, float *aq1)
{
    *ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
    *bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
    *aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
}

static void qr_step(float *d, float *sd, const int n)
{
    float mu = trailing_shift(d, sd, n);
    if (EPS * fabsf(mu) > fabsf(d[0]) + fabsf(sd[0]))
        mu = 0;
    float x = d[0] - mu, z = sd[0];
    float bk = 0, zk = 0;
    float ap = d[0], bp = sd[0], aq = d[1];
    float c, s, ap1, bp1, aq1;
    if (n == 2) {
        givens(x, z, &c, &s);
        rotate(c, s, ap, bp, aq, &ap1, &bp1, &aq1);
        d[0] = ap1;
        sd[0] = bp1;
        d[1] = aq1;
        return;
    }
    float bq = sd[1];
    for (int k = 0; k < n - 1; k++) {
        givens(x, z, &c, &s);
        const float bk1 = c * bk - s * zk;
        rotate(c, s, ap, bp, aq, &ap1, &bp1, &aq1);
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

int speed_eigenvalues(const float *k, float *eig, SpeedLinalgWork *w)
{
    memcpy(w->a, k, sizeof(w->a));
    tridiagonalise(w->a, w->d, w->sd, w->v, w->x);
    float *d = w->d, *sd = w->sd;
    chop_small(d, sd, N);
    int b = N - 1, iter = 0;
    while (b > 0 && iter < SPEED_MAX_QR_ITERS) {
        if (sd[b - 1] == 0.0f) {
            b--;
            continue;
        }
        int a = b - 1;
        while (a > 0 && sd[a - 1] != 0.0f)
            a--;
        qr_step(d + a, sd + a, b - a + 1);
        chop_small(d + a, sd + a, b - a + 1);
        iter++;
    }
    memcpy(eig, d, N * sizeof(float));
    return iter == SPEED_MAX_QR_ITERS;
}

/* ---- linear solve: Householder QR ---- */

/* dst (rows x cols) = x (rows x N) y (N x cols): zeroed, then += x[i][k] y[k][j] for k in
 * order (the loop over j runs innermost, so it vectorises without reordering any sum). */
static void mat_mul(float *dst, const float *x, const float *y, const int rows,
                    const size_t cols)
{
    memset(dst, 0, (size_t)rows * cols * sizeof(float));
    for (int i = 0; i < rows; i++)
        for (int k = 0; k < N; k++) {
            const float xik = x[i * N + k];
            const float *yk = y + (size_t)k * cols;
            float *di = dst + (size_t)i * cols;
            for (size_t j = 0; j < cols; j++)
                di[j] += xik * yk[j];
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

static float norm_of(const float *v)
{
    float sum = 0;
    for (int i = 0; i < N; i++)
        sum += v[i] * v[i];
    return sqrt_of(sum);
}

/* q (orthogonal, returned transposed as the reference leaves it) and r with a = q r. */
static void qr_decompose(const float *a, float *q, float *r, float *h, float *z)
{
    float *vec = r;             /* r is free until the end: the reference's scratch vector */
    memcpy(z, a, N * N * sizeof(float));
    for (int i = 0; i < N * N; i++)
        q[i] = i % (N + 1) == 0 ? 1 : 0;
    for (int k = 0; k < N - 1; k++) {
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                if (i < k || j < k)
                    z[i * N + j] = i == j ? 1 : 0;
        for (int i = 0; i < N; i++)
            vec[i] = z[i * N + k];
        const float norm = norm_of(vec);
        vec[k] += sign_of(a[k * N + k]) * norm;
        const float len = norm_of(vec);
        for (int i = 0; i < N; i++)
            vec[i] = vec[i] / len;
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                h[i * N + j] = -2 * vec[i] * vec[j];
        for (int i = 0; i < N; i++)
            h[i * N + i] += 1;
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
    const float *r = w->r;
    for (int i = N - 1; i >= 0; i--) {
        const float den = r[i * N + i];
        if (fabsf(den) < EPS)
            return -1;
        for (size_t j = 0; j < cols; j++) {
            float t = qty[(size_t)i * cols + j];
            for (int m = i + 1; m < N; m++)
                t -= x[(size_t)m * cols + j] * r[i * N + m];
            x[(size_t)i * cols + j] = t / den;
        }
    }
    return 0;
}
