/* Percentiles and lows (percentile.h). */
#include <math.h>
#include <stdlib.h>

#include "stats/percentile.h"

/* NaN compares neither below nor above a number: it is ordered after every one. */
static int ascending_nan_last(const void *pa, const void *pb)
{
    const double a = *(const double *)pa, b = *(const double *)pb;
    if (a < b)
        return -1;
    if (a > b)
        return 1;
    return isnan(a) - isnan(b);
}

void ev_stats_sort(double *const v, const size_t n)
{
    qsort(v, n, sizeof(*v), ascending_nan_last);
}

double ev_stats_percentile_sorted(const double *const x, const size_t n, const double percent)
{
    if (isnan(x[n - 1]))
        return NAN; /* numpy: a slice holding NaN gives NaN */
    const double q = percent / 100.0;
    const double h = (double)(n - 1) * q;
    size_t lo = n - 1, hi = n - 1;
    double g = h + 1.0; /* numpy's index -1 past the end: g = h - (-1) */
    if (h < (double)(n - 1)) {
        const double f = floor(h);
        lo = (size_t)f;
        hi = lo + 1;
        g = h - f;
    }
    const double a = x[lo], b = x[hi];
    const double diff = b - a;
    return g >= 0.5 ? b - diff * (1.0 - g) : a + diff * g;
}

double ev_stats_low_sorted(const double *const x, const size_t n, const double percent)
{
    double k = ceil((double)n * percent / 100.0);
    k = k < 1.0 ? 1.0 : k > (double)n ? (double)n : k;
    const size_t count = (size_t)k;
    double sum = 0.0;
    for (size_t i = 0; i < count; i++)
        sum += x[i];
    return sum / (double)count;
}
