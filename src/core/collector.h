/*
 * The collector: frame index -> feature name -> double, plus aggregate metrics.
 * Thread-safe. Output order is the order Netflix's single-threaded run prints (order of first
 * write by frame, then by extractor registration, then by the extractor's own write order),
 * whatever the thread count: each feature keeps the smallest write key it has seen.
 */
#ifndef EV_CORE_COLLECTOR_H
#define EV_CORE_COLLECTOR_H

#include <pthread.h>
#include <stdint.h>

#include "base/extractor.h"

typedef struct EvFeatureVec {
    char *name;
    uint64_t first_key; /* smallest (epoch, extractor, seq) key of any write */
    double *value;
    uint8_t *written;
    unsigned cap;
} EvFeatureVec;

typedef struct EvAggregate {
    char *name;
    double value;
} EvAggregate;

typedef struct EvCollector {
    pthread_mutex_t lock;
    EvFeatureVec *feat;
    unsigned n_feat, cap_feat;
    EvAggregate *agg;
    unsigned n_agg, cap_agg;
    const EvLog *log;
} EvCollector;

/* The sink an extractor writes through (base/extractor.h): one per extract()/flush() call,
 * given to it as &sink.base. */
typedef struct EvCollectorSink {
    EvSink base;
    EvCollector *c;
    uint32_t epoch;     /* frame index, or EV_EPOCH_FLUSH */
    uint16_t extractor; /* registration index */
    uint16_t seq;       /* writes so far in this call */
} EvCollectorSink;
#define EV_EPOCH_FLUSH 0xFFFFFFFFu

int ev_collector_init(EvCollector *c, const EvLog *log);
void ev_collector_free(EvCollector *c);
/* Sort the features into output order; call once all writes are done. */
void ev_collector_finish(EvCollector *c);
const EvFeatureVec *ev_collector_find(const EvCollector *c, const char *name);

int ev_collector_put(EvSink *s, const char *name, unsigned frame, double value);
int ev_collector_put_aggregate(EvSink *s, const char *name, double value);

static inline EvCollectorSink ev_sink(EvCollector *c, uint32_t epoch, unsigned extractor)
{
    const EvCollectorSink s = {
        { ev_collector_put, ev_collector_put_aggregate }, c, epoch, (uint16_t)extractor, 0
    };
    return s;
}

#endif
