#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/collector.h"

int ev_collector_init(EvCollector *const c, const EvLog *const log)
{
    memset(c, 0, sizeof(*c));
    c->log = log;
    return pthread_mutex_init(&c->lock, NULL) ? -ENOMEM : 0;
}

void ev_collector_free(EvCollector *const c)
{
    for (unsigned i = 0; i < c->n_feat; i++) {
        free(c->feat[i].name);
        free(c->feat[i].value);
        free(c->feat[i].written);
    }
    for (unsigned i = 0; i < c->n_agg; i++)
        free(c->agg[i].name);
    free(c->feat);
    free(c->agg);
    pthread_mutex_destroy(&c->lock);
    memset(c, 0, sizeof(*c));
}

const EvFeatureVec *ev_collector_find(const EvCollector *const c, const char *const name)
{
    for (unsigned i = 0; i < c->n_feat; i++)
        if (!strcmp(c->feat[i].name, name))
            return &c->feat[i];
    return NULL;
}

static EvFeatureVec *find_or_add(EvCollector *c, const char *name, uint64_t key)
{
    EvFeatureVec *f = (EvFeatureVec *)ev_collector_find(c, name);
    if (f)
        return f;
    if (c->n_feat == c->cap_feat) {
        const unsigned cap = c->cap_feat ? 2 * c->cap_feat : 16;
        EvFeatureVec *nf = realloc(c->feat, cap * sizeof(*nf));
        if (!nf)
            return NULL;
        c->feat = nf;
        c->cap_feat = cap;
    }
    f = &c->feat[c->n_feat];
    memset(f, 0, sizeof(*f));
    f->name = strdup(name);
    if (!f->name)
        return NULL;
    f->first_key = key;
    c->n_feat++;
    return f;
}

static int grow(EvFeatureVec *f, unsigned frame)
{
    if (frame < f->cap)
        return 0;
    unsigned cap = f->cap ? f->cap : 64;
    while (cap <= frame)
        cap *= 2;
    double *v = realloc(f->value, cap * sizeof(*v));
    if (!v)
        return -ENOMEM;
    f->value = v;
    uint8_t *w = realloc(f->written, cap);
    if (!w)
        return -ENOMEM;
    memset(w + f->cap, 0, cap - f->cap);
    f->written = w;
    f->cap = cap;
    return 0;
}

int ev_collector_put(EvSink *const sink, const char *const name, const unsigned frame,
                     const double value)
{
    EvCollectorSink *const s = (EvCollectorSink *)sink; /* its first member */
    EvCollector *c = s->c;
    const uint64_t key = ((uint64_t)s->epoch << 32) | ((uint64_t)s->extractor << 16) | s->seq;
    s->seq++;
    pthread_mutex_lock(&c->lock);
    int err = 0;
    EvFeatureVec *f = find_or_add(c, name, key);
    if (!f) {
        err = -ENOMEM;
    } else if (!(err = grow(f, frame))) {
        if (f->written[frame]) {
            ev_log(c->log, EV_LOG_ERROR, "internal: %s written twice at frame %u", name, frame);
            err = -EINVAL;
        } else {
            f->value[frame] = value;
            f->written[frame] = 1;
            if (key < f->first_key)
                f->first_key = key;
        }
    }
    pthread_mutex_unlock(&c->lock);
    return err;
}

int ev_collector_put_aggregate(EvSink *const sink, const char *const name, const double value)
{
    EvCollector *c = ((EvCollectorSink *)sink)->c;
    pthread_mutex_lock(&c->lock);
    int err = 0;
    if (c->n_agg == c->cap_agg) {
        const unsigned cap = c->cap_agg ? 2 * c->cap_agg : 8;
        EvAggregate *na = realloc(c->agg, cap * sizeof(*na));
        if (!na)
            err = -ENOMEM;
        else {
            c->agg = na;
            c->cap_agg = cap;
        }
    }
    if (!err) {
        c->agg[c->n_agg].name = strdup(name);
        c->agg[c->n_agg].value = value;
        if (c->agg[c->n_agg].name)
            c->n_agg++;
        else
            err = -ENOMEM;
    }
    pthread_mutex_unlock(&c->lock);
    return err;
}

static int cmp_first_key(const void *a, const void *b)
{
    const uint64_t ka = ((const EvFeatureVec *)a)->first_key;
    const uint64_t kb = ((const EvFeatureVec *)b)->first_key;
    return ka < kb ? -1 : ka > kb;
}

void ev_collector_finish(EvCollector *const c)
{
    if (c->n_feat) /* a flush before any frame has none, and no array (qsort wants one) */
        qsort(c->feat, c->n_feat, sizeof(*c->feat), cmp_first_key);
}
