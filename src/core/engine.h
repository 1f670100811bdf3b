/*
 * The engine: registrations, the frame scheduler and the collector. It knows extractors only
 * through their contract (base/extractor.h) and nothing of models, output or the public
 * context: src/api/ drives it (docs/ARCHITECTURE.md). The functions below mirror the public
 * calls of the same names (include/exactvmaf/exactvmaf.h), whose contracts they keep.
 */
#ifndef EV_CORE_ENGINE_H
#define EV_CORE_ENGINE_H

#include <pthread.h>

#include "base/extractor.h"
#include "core/collector.h"

typedef struct EvEngine EvEngine;

int ev_engine_open(EvEngine **out, const EvSettings *s);
void ev_engine_close(EvEngine **e);
/* Register an extractor: cls (its CPU reference), twin (its CUDA twin, or NULL) and opts
 * (cls->opts_size bytes, parsed; the engine takes them, also on failure). One registration per
 * set of output names, as libvmaf keeps them: a later one whose name-forming options equal an
 * earlier one's is dropped (returns 0). Only before the first picture. */
int ev_engine_register(EvEngine *e, const EvExtractorClass *cls, const EvExtractorClass *twin,
                       void *opts);
/* 1 once the first picture arrived (registrations are closed), or after the flush. */
int ev_engine_started(const EvEngine *e);
const char *ev_engine_backend_name(const EvEngine *e);
unsigned ev_engine_frame_count(const EvEngine *e);

/* What a flushed engine hands up: its collector (values, then ev_collector_finish), the frames
 * pushed and computed, the first frame's geometry, and the sink index after every extractor's. */
typedef struct EvEngineResults {
    EvCollector *collector;
    unsigned n_frames;
    unsigned step; /* every step-th frame was computed (n_subsample, at least 1) */
    unsigned first_free_sink;
    EvPicInfo info;
    int flushed;
    int error; /* the first error of any frame, 0 if none */
    const EvLog *log;
} EvEngineResults;
EvEngineResults ev_engine_results(const EvEngine *e);

#endif
