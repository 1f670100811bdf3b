/* Reading results (exactvmaf.h): per-frame values, libvmaf's pooling (model/pool.h),
 * aggregates, and values the caller imports. Before the flush the workers may be writing: a
 * read then holds the collector's lock. */
#include <errno.h>
#include <pthread.h>

#include "api/context.h"
#include "model/pool.h"

static EvCollector *collector_of(const EvContext *const c)
{
    return ev_engine_results(c->engine).collector;
}

unsigned ev_feature_count(const EvContext *const c)
{
    return c && c->flushed ? collector_of(c)->n_feat : 0;
}

const char *ev_feature_name(const EvContext *const c, const unsigned i)
{
    if (!c || !c->flushed)
        return NULL;
    const EvCollector *const col = collector_of(c);
    return i < col->n_feat ? col->feat[i].name : NULL;
}

int ev_get_score(const EvContext *const c, const char *const name, const unsigned frame,
                 double *const value)
{
    if (!c || !name || !value)
        return -EINVAL;
    EvCollector *const col = collector_of(c);
    if (!c->flushed)
        pthread_mutex_lock(&col->lock);
    const EvFeatureVec *f = ev_collector_find(col, name);
    const int err = !f ? -ENOENT : frame >= f->cap || !f->written[frame] ? -ENODATA : 0;
    if (!err)
        *value = f->value[frame];
    if (!c->flushed)
        pthread_mutex_unlock(&col->lock);
    return err;
}

int ev_get_pooled(const EvContext *const c, const char *const name, const EvPoolMethod m,
                  double *const value)
{
    if (!c || !name || !value)
        return -EINVAL;
    const EvEngineResults r = ev_engine_results(c->engine);
    const EvFeatureVec *f = ev_collector_find(r.collector, name);
    if (!f)
        return -ENOENT;
    return ev_pool(f, r.n_frames, r.step, m, value);
}

unsigned ev_aggregate_count(const EvContext *const c)
{
    return c && c->flushed ? collector_of(c)->n_agg : 0;
}

int ev_get_aggregate(const EvContext *const c, const unsigned i, const char **const name,
                     double *const value)
{
    if (!c || !c->flushed || i >= collector_of(c)->n_agg)
        return -EINVAL;
    const EvCollector *const col = collector_of(c);
    if (name)
        *name = col->agg[i].name;
    if (value)
        *value = col->agg[i].value;
    return 0;
}

int ev_import_score(EvContext *const c, const char *const name, const unsigned frame,
                    const double value)
{
    if (!c || !name || !*name)
        return -EINVAL;
    EvCollector *const col = collector_of(c);
    /* written as if by an extractor registered after all others, at that frame */
    EvCollectorSink sink = ev_sink(col, frame, 0xFFFFu);
    const int err = ev_sink_put(&sink.base, name, frame, value);
    if (!err && c->flushed)
        ev_collector_finish(col); /* output order again */
    return err;
}
