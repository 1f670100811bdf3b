/* Pooled statistics of a context's features and the context-free statistics (exactvmaf.h,
 * stats.h): argument checks, then output/output_pool.c and src/stats/. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "api/context.h"
#include "exactvmaf/stats.h"
#include "output/output_pool.h"
#include "stats/bdrate.h"
#include "stats/percentile.h"

int ev_get_pooled_stat(const EvContext *const c, const char *const name, const EvPoolStat stat,
                       double *const value)
{
    if (!c || !name || !value || !ev_pool_stat_valid(stat))
        return -EINVAL;
    const EvEngineResults r = ev_engine_results(c->engine);
    const EvFeatureVec *f = ev_collector_find(r.collector, name);
    if (!f)
        return -ENOENT;
    return ev_pool_stat(f, r.n_frames, r.step, stat, value);
}

int ev_pool_stat_name(const EvPoolStat stat, char *const buf, const size_t size)
{
    if (!buf || !size)
        return -EINVAL;
    return ev_pool_stat_format(stat, buf, size);
}

/* values sorted into a new array, or NULL. */
static double *sorted_copy(const double *values, size_t n)
{
    double *v = malloc(n * sizeof(*v));
    if (v) {
        memcpy(v, values, n * sizeof(*v));
        ev_stats_sort(v, n);
    }
    return v;
}

int ev_percentile(const double *const values, const size_t n, const double percent,
                  double *const out)
{
    if (!values || !n || !out || !(percent >= 0.0 && percent <= 100.0))
        return -EINVAL;
    double *v = sorted_copy(values, n);
    if (!v)
        return -ENOMEM;
    *out = ev_stats_percentile_sorted(v, n, percent);
    free(v);
    return 0;
}

int ev_low_mean(const double *const values, const size_t n, const double percent, double *const out)
{
    if (!values || !n || !out || !(percent > 0.0 && percent <= 100.0))
        return -EINVAL;
    double *v = sorted_copy(values, n);
    if (!v)
        return -ENOMEM;
    *out = ev_stats_low_sorted(v, n, percent);
    free(v);
    return 0;
}

/* A prepared copy of a ladder (bdrate.h), or NULL with *err set. */
static EvStatsPoint *ladder_copy(const EvRatePoint *p, size_t n, long *kept, int *err)
{
    EvStatsPoint *q = malloc((n ? n : 1) * sizeof(*q));
    if (!q) {
        *err = -ENOMEM;
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        q[i] = (EvStatsPoint){ p[i].rate, p[i].score };
    *kept = ev_stats_ladder_prepare(q, n);
    if (*kept < 0) {
        *err = (int)*kept;
        free(q);
        return NULL;
    }
    return q;
}

int ev_bd_rate(const EvRatePoint *const anchor, const size_t n_anchor,
               const EvRatePoint *const test, const size_t n_test, double *const delta_rate,
               double *const delta_score)
{
    if (!anchor || !test || !delta_rate)
        return -EINVAL;
    long na = 0, nt = 0;
    int err = 0;
    EvStatsPoint *a = ladder_copy(anchor, n_anchor, &na, &err);
    EvStatsPoint *t = a ? ladder_copy(test, n_test, &nt, &err) : NULL;
    if (t)
        err = ev_stats_bd_rate(a, (size_t)na, t, (size_t)nt, delta_rate);
    if (t && !err && delta_score)
        err = ev_stats_bd_score(a, (size_t)na, t, (size_t)nt, delta_score);
    free(a);
    free(t);
    return err;
}
