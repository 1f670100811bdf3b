/*
 * Order statistics of a sample (docs/REPORTS.md): numpy's default percentile and the "lows".
 * Both read a sample sorted ascending with NaN last (ev_stats_sort), so that one sort serves
 * every statistic of a feature.
 */
#ifndef EV_STATS_PERCENTILE_H
#define EV_STATS_PERCENTILE_H

#include <stddef.h>

/* Sort v ascending, every NaN after every number (numpy's order). */
void ev_stats_sort(double *v, size_t n);

/* numpy.percentile(v, percent) with its default method ("linear", numpy 1.22 and later): the
 * virtual index h = (n - 1) * (percent / 100) between the sorted values x[floor(h)] and the next,
 * interpolated as numpy's _lerp does it: with g = h - floor(h), a + (b - a) * g when g < 0.5,
 * else b - (b - a) * (1 - g); past the last value (h >= n - 1) both ends are the last value and
 * g = h + 1, as numpy's index -1 gives it. A sample holding NaN gives NaN; infinities follow the
 * same IEEE arithmetic (two equal infinities interpolate to NaN, as in numpy).
 * sorted: n >= 1 values, as ev_stats_sort leaves them; 0 <= percent <= 100 (the caller checks). */
double ev_stats_percentile_sorted(const double *sorted, size_t n, double percent);

/* The mean of the worst percent% of the sample, the "1% low" of encoder benchmarks: the k lowest
 * values, k = ceil(n * percent / 100) (at least 1, at most n), summed lowest first and divided
 * by k. NaN when the k values hold a NaN. 0 < percent <= 100 (the caller checks). */
double ev_stats_low_sorted(const double *sorted, size_t n, double percent);

#endif
