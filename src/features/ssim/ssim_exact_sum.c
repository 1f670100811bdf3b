/*
 * Certifying an SSIM mean from exact row sums (ssim_exact_sum.h).
 *
 * The bound. Let t_1 .. t_n be the terms in raster order, S_i = t_1 + ... + t_i exactly, and
 * s_i the reference's running double (s_1 = 0.0 + t_1 = t_1 exactly). Each addition rounds to
 * nearest: s_i = z_i + d_i with z_i = s_(i-1) + t_i and |d_i| <= u |z_i|, u = 2^-53 (an addition
 * whose result is subnormal is exact; |t_i| < 2^16 keeps every sum finite). With
 * E = |d_2| + ... + |d_n| we have |s_i - S_i| <= E for every i, so |z_i| <= |S_i| + E and
 *     E <= u (|S_2| + ... + |S_n|) + (n - 1) u E,   that is   E <= u P / (1 - (n - 1) u)
 * for any P >= |S_1| + ... + |S_n|. For a term i of window row r, |S_i| <= |S(r)| + A(r), where
 * S(r) is the exact sum of the rows before r and A(r) the sum of |t| over row r, so
 *     P = sum over rows of w (|S(r)| + A(r))
 * will do. On typical content this is about half the textbook bound (n - 1) u sum |t|, and on
 * noise, where the running sum wanders near zero, it is smaller by about sqrt(n).
 *
 * The decision. s_n lies in [S_n - E, S_n + E]; mean(x) = (float)(x / (double)(w h)) is
 * non-decreasing in x (a correctly rounded division by a positive number, then a rounding to
 * float). So if a double lo <= S_n - E and a double hi >= S_n + E give the same float (same
 * bits), the reference's mean is that float. Every quantity below is an upper bound computed
 * in double with explicit slack for its own rounding errors (each slack factor covers far more
 * than the few roundings it follows), so lo and hi are safe.
 */
#include <string.h>

#include "features/ssim/ssim_exact_sum.h"
#include "features/ssim/ssim_math.h"

#define U53 0x1p-53

/* Running exact integer sum, in units of 2^-76: c2 2^64 + c1 2^32 + c0 (each int64 stays far
 * from overflow: fewer than 2^31 terms, chunks below 2^32). */
typedef struct Exact {
    int64_t c0, c1, c2;
    int64_t terms;
} Exact;

/* value ~ exact sum, with |value - exact| <= err (both in real units, not 2^-76). The three
 * conversions and two additions each err by at most u of a magnitude below `mag`; the
 * truncation of each term to 2^-76 errs by less than one unit per term. */
static void exact_to_double(const Exact *e, double *value, double *err)
{
    const double a2 = (double)e->c2 * 0x1p64, a1 = (double)e->c1 * 0x1p32, a0 = (double)e->c0;
    const double v = (a2 + a1) + a0;
    const double mag = fabs(a2) + fabs(a1) + fabs(a0);
    *value = v / SSIM_FIX_UNIT;
    *err = (mag * 0x1p-50 + (double)e->terms + 1.0) / SSIM_FIX_UNIT;
}

static uint32_t float_bits(const float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof(b));
    return b;
}

int ssim_certify_mean(const SsimFixed *rows, const size_t row_stride, const int w, const int h,
                      float *mean)
{
    Exact before = { 0, 0, 0, 0 };
    double p = 0.0;
    for (int y = 0; y < h; y++) {
        const SsimFixed *r = rows + (size_t)y * row_stride;
        if (r->bad)
            return 0;
        double s, s_err;
        exact_to_double(&before, &s, &s_err);
        const double row_abs = (double)r->abs / SSIM_ABS_UNIT;
        p += (double)w * ((fabs(s) + s_err) + row_abs);
        before.c0 += r->c0;
        before.c1 += r->c1;
        before.c2 += r->c2;
        before.terms += w;
    }
    p *= 1.0 + 0x1p-30; /* the h roundings of the sum above, each <= u */
    const double n = (double)w * (double)h;
    double e = U53 * p / (1.0 - (n - 1.0) * U53);
    double sum, sum_err;
    exact_to_double(&before, &sum, &sum_err);
    const double radius = (e + sum_err) * (1.0 + 0x1p-30) + fabs(sum) * 0x1p-50;
    const float lo = ssim_mean(sum - radius, w, h);
    const float hi = ssim_mean(sum + radius, w, h);
    if (float_bits(lo) != float_bits(hi))
        return 0;
    *mean = lo;
    return 1;
}

double ssim_sequential_sum(const double *terms, const size_t n)
{
    double sum = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += terms[i];
    return sum;
}
