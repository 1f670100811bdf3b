/* Pooled statistics of a feature vector (output_pool.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/pool.h"
#include "output/output_pool.h"
#include "stats/percentile.h"

int ev_pool_stat_valid(const EvPoolStat st)
{
    switch (st.method) {
    case EV_POOL_MIN:
    case EV_POOL_MAX:
    case EV_POOL_MEAN:
    case EV_POOL_HARMONIC_MEAN: return 1;
    case EV_POOL_PERCENTILE: return st.level >= 0.0 && st.level <= 100.0;
    case EV_POOL_LOW: return st.level > 0.0 && st.level <= 100.0;
    }
    return 0;
}

/* The pooled frames' values, sorted (percentile.h's order). @return their count, or 0 with
 * *err set. */
static size_t sorted_values(const EvFeatureVec *f, unsigned n_frames, unsigned step,
                            double **values, int *err)
{
    const size_t n = n_frames ? (n_frames - 1) / step + 1 : 0;
    *values = n ? malloc(n * sizeof(**values)) : NULL;
    *err = !n ? -ENODATA : !*values ? -ENOMEM : 0;
    if (*err)
        return 0;
    size_t k = 0;
    for (unsigned i = 0; i < n_frames; i += step) {
        if (i >= f->cap || !f->written[i]) {
            free(*values);
            *err = -ENODATA;
            return 0;
        }
        (*values)[k++] = f->value[i];
    }
    ev_stats_sort(*values, k);
    return k;
}

int ev_pool_stat(const EvFeatureVec *const f, const unsigned n_frames, const unsigned step,
                 const EvPoolStat st, double *const out)
{
    if (!ev_pool_stat_valid(st))
        return -EINVAL;
    if (st.method != EV_POOL_PERCENTILE && st.method != EV_POOL_LOW)
        return ev_pool(f, n_frames, step, st.method, out);
    double *v;
    int err;
    const size_t n = sorted_values(f, n_frames, step, &v, &err);
    if (err)
        return err;
    *out = st.method == EV_POOL_PERCENTILE ? ev_stats_percentile_sorted(v, n, st.level)
                                           : ev_stats_low_sorted(v, n, st.level);
    free(v);
    return 0;
}

int ev_pool_stat_format(const EvPoolStat st, char *const buf, const size_t size)
{
    static const char *const netflix[] = { [EV_POOL_MIN] = "min",
                                           [EV_POOL_MAX] = "max",
                                           [EV_POOL_MEAN] = "mean",
                                           [EV_POOL_HARMONIC_MEAN] = "harmonic_mean" };
    if (!ev_pool_stat_valid(st))
        return snprintf(buf, size, "%s", "");
    if (st.method == EV_POOL_PERCENTILE || st.method == EV_POOL_LOW)
        return snprintf(buf, size, "%s%g", st.method == EV_POOL_LOW ? "low" : "p", st.level);
    return snprintf(buf, size, "%s", netflix[st.method]);
}
