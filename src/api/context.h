/* The public context (include/exactvmaf/exactvmaf.h) as the facade holds it: an engine, the
 * models to score at the flush, and the flush's outcome. Only src/api/ includes this. */
#ifndef EV_API_CONTEXT_H
#define EV_API_CONTEXT_H

#include "base/log.h"
#include "core/engine.h"
#include "model/model_context.h"

struct EvContext {
    EvEngine *engine;
    EvLog log;
    struct EvModels *models; /* ev_use_model, or NULL */
    int flushed;             /* ev_flush ran: the models scored, the collector finished */
    int error;               /* its result */
};

#endif
