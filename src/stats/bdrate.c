/* Bjøntegaard deltas (bdrate.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "stats/bdrate.h"
#include "stats/pchip.h"

static int by_rate_then_score(const void *pa, const void *pb)
{
    const EvStatsPoint *a = pa, *b = pb;
    if (a->rate != b->rate)
        return a->rate < b->rate ? -1 : 1;
    return (a->score > b->score) - (a->score < b->score);
}

long ev_stats_ladder_prepare(EvStatsPoint *const p, const size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(p[i].rate) || !(p[i].rate > 0.0) || !isfinite(p[i].score))
            return -EINVAL;
    qsort(p, n, sizeof(*p), by_rate_then_score);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (!kept || p[i].rate != p[kept - 1].rate || p[i].score != p[kept - 1].score)
            p[kept++] = p[i];
    if (kept < EV_STATS_BD_MIN_POINTS)
        return -EDOM;
    for (size_t i = 1; i < kept; i++)
        if (!(p[i].rate > p[i - 1].rate) || !(p[i].score > p[i - 1].score))
            return -EDOM;
    return (long)kept;
}

/* The mean of y over [lo, hi] for one ladder, x and y picked from its points: log10 rate as a
 * function of score (rate_of_score), or score as a function of log10 rate. */
static int mean_over(const EvStatsPoint *p, size_t n, int rate_of_score, double lo, double hi,
                     double *integral)
{
    double *const x = malloc(2 * n * sizeof(*x));
    if (!x)
        return -ENOMEM;
    double *const y = x + n;
    for (size_t i = 0; i < n; i++) {
        x[i] = rate_of_score ? p[i].score : log10(p[i].rate);
        y[i] = rate_of_score ? log10(p[i].rate) : p[i].score;
    }
    const int err = ev_pchip_integral(x, y, n, lo, hi, integral);
    free(x);
    return err;
}

static double axis_min(const EvStatsPoint *p, int scores)
{
    return scores ? p[0].score : log10(p[0].rate);
}

static double axis_max(const EvStatsPoint *p, size_t n, int scores)
{
    return scores ? p[n - 1].score : log10(p[n - 1].rate);
}

/* The mean difference (test - anchor) of the dependent axis over the common range. */
static int mean_delta(const EvStatsPoint *a, size_t na, const EvStatsPoint *t, size_t nt,
                      int rate_of_score, double *out)
{
    const double lo = fmax(axis_min(a, rate_of_score), axis_min(t, rate_of_score));
    const double hi = fmin(axis_max(a, na, rate_of_score), axis_max(t, nt, rate_of_score));
    if (!(hi > lo))
        return -ERANGE;
    double ia, it;
    int err = mean_over(a, na, rate_of_score, lo, hi, &ia);
    if (!err)
        err = mean_over(t, nt, rate_of_score, lo, hi, &it);
    if (!err)
        *out = (it - ia) / (hi - lo);
    return err;
}

int ev_stats_bd_rate(const EvStatsPoint *anchor, size_t n_anchor, const EvStatsPoint *test,
                     size_t n_test, double *out)
{
    double mean_log_ratio;
    const int err = mean_delta(anchor, n_anchor, test, n_test, 1, &mean_log_ratio);
    if (!err)
        *out = pow(10.0, mean_log_ratio) - 1.0;
    return err;
}

int ev_stats_bd_score(const EvStatsPoint *anchor, size_t n_anchor, const EvStatsPoint *test,
                      size_t n_test, double *out)
{
    return mean_delta(anchor, n_anchor, test, n_test, 0, out);
}
