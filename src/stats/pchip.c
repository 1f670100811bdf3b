/* PCHIP and its integral (pchip.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "stats/pchip.h"

static double end_slope(const double h0, const double h1, const double s0, const double s1)
{
    const double d = ((2.0 * h0 + h1) * s0 - h0 * s1) / (h0 + h1);
    if (d * s0 < 0.0)
        return 0.0;
    if (s0 * s1 < 0.0 && fabs(d) > fabs(3.0 * s0))
        return 3.0 * s0;
    return d;
}

static double inner_slope(const double h0, const double h1, const double s0, const double s1)
{
    if (!(s0 * s1 > 0.0))
        return 0.0; /* a local extremum, or a flat interval: keep the shape */
    return (3.0 * h0 + 3.0 * h1) / ((2.0 * h1 + h0) / s0 + (h1 + 2.0 * h0) / s1);
}

/* Slopes d[0..n-1] from the interval widths h and slopes s (n - 1 each). */
static void slopes(const double *h, const double *s, const size_t n, double *d)
{
    d[0] = end_slope(h[0], h[1], s[0], s[1]);
    for (size_t i = 1; i + 1 < n; i++)
        d[i] = inner_slope(h[i - 1], h[i], s[i - 1], s[i]);
    d[n - 1] = end_slope(h[n - 2], h[n - 3], s[n - 2], s[n - 3]);
}

/* The integral of piece i from offset a to offset b (0 <= a <= b <= h[i]). */
static double piece_integral(const double y0, const double d0, const double d1, const double h,
                             const double s, const double a, const double b)
{
    const double c = (3.0 * s - 2.0 * d0 - d1) / h;
    const double cub = (d0 - 2.0 * s + d1) / (h * h);
    const double a2 = a * a, b2 = b * b;
    double r = (b - a) * y0;
    r += (b2 - a2) * d0 / 2.0;
    r += (b2 * b - a2 * a) * c / 3.0;
    r += (b2 * b2 - a2 * a2) * cub / 4.0;
    return r;
}

static double clamp(const double v, const double lo, const double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

int ev_pchip_integral(const double *const x, const double *const y, const size_t n, const double lo,
                      const double hi, double *const out)
{
    double *const h = malloc(3 * n * sizeof(*h));
    if (!h)
        return -ENOMEM;
    double *const s = h + n, *const d = s + n;
    for (size_t i = 0; i + 1 < n; i++) {
        h[i] = x[i + 1] - x[i];
        s[i] = (y[i + 1] - y[i]) / h[i];
    }
    slopes(h, s, n, d);
    double sum = 0.0;
    for (size_t i = 0; i + 1 < n; i++) {
        const double a = clamp(x[i], lo, hi) - x[i];
        const double b = clamp(x[i + 1], lo, hi) - x[i];
        if (b > a)
            sum += piece_integral(y[i], d[i], d[i + 1], h[i], s[i], a, b);
    }
    free(h);
    *out = sum;
    return 0;
}
