/* Reading results: per-frame values, libvmaf's pooling, aggregates. */
#include <errno.h>

#include "core/context.h"

unsigned ev_feature_count(const EvContext *const c)
{
    return c && c->flushed ? c->collector.n_feat : 0;
}

const char *ev_feature_name(const EvContext *const c, const unsigned i)
{
    return c && c->flushed && i < c->collector.n_feat ? c->collector.feat[i].name : NULL;
}

int ev_get_score(const EvContext *const c, const char *const name, const unsigned frame,
                 double *const value)
{
    if (!c || !name || !value)
        return -EINVAL;
    const EvFeatureVec *f = ev_collector_find(&c->collector, name);
    if (!f)
        return -ENOENT;
    if (frame >= f->cap || !f->written[frame])
        return -ENODATA;
    *value = f->value[frame];
    return 0;
}

/* libvmaf's vmaf_feature_score_pooled over 0..n-1: running double sums in frame order; the
 * harmonic mean is n / sum(1 / (x + 1)) - 1; min/max start from frame 0. */
int ev_pool_feature(const EvContext *const c, const EvFeatureVec *const f, const EvPoolMethod m,
                    double *const out)
{
    const unsigned step = c->settings.n_subsample > 1 ? c->settings.n_subsample : 1;
    if (!c->n_frames)
        return -ENODATA;
    unsigned cnt = 0;
    double sum = 0.0, inv_sum = 0.0, lo = 0.0, hi = 0.0;
    for (unsigned i = 0; i < c->n_frames; i += step) {
        if (i >= f->cap || !f->written[i])
            return -ENODATA;
        const double s = f->value[i];
        cnt++;
        sum += s;
        inv_sum += 1.0 / (s + 1.0);
        if (i == 0 || s < lo)
            lo = s;
        if (i == 0 || s > hi)
            hi = s;
    }
    switch (m) {
    case EV_POOL_MEAN: *out = sum / cnt; return 0;
    case EV_POOL_MIN: *out = lo; return 0;
    case EV_POOL_MAX: *out = hi; return 0;
    case EV_POOL_HARMONIC_MEAN: *out = cnt / inv_sum - 1.0; return 0;
    }
    return -EINVAL;
}

int ev_get_pooled(const EvContext *const c, const char *const name, const EvPoolMethod m,
                  double *const value)
{
    if (!c || !name || !value)
        return -EINVAL;
    const EvFeatureVec *f = ev_collector_find(&c->collector, name);
    if (!f)
        return -ENOENT;
    return ev_pool_feature(c, f, m, value);
}

unsigned ev_aggregate_count(const EvContext *const c)
{
    return c && c->flushed ? c->collector.n_agg : 0;
}

int ev_get_aggregate(const EvContext *const c, const unsigned i, const char **const name,
                     double *const value)
{
    if (!c || !c->flushed || i >= c->collector.n_agg)
        return -EINVAL;
    if (name)
        *name = c->collector.agg[i].name;
    if (value)
        *value = c->collector.agg[i].value;
    return 0;
}
