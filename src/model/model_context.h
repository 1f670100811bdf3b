/* The models of a context (model_context.c): what core/context.c calls. */
#ifndef EV_MODEL_MODEL_CONTEXT_H
#define EV_MODEL_MODEL_CONTEXT_H

#include "core/context.h"
#include "model/model.h"

/* One ev_use_model: the output name and the loaded model (or collection). */
typedef struct EvModelEntry {
    char *name;
    EvModelSet set;
} EvModelEntry;

/* Every model of a context, in ev_use_model order. */
struct EvModels {
    EvModelEntry *entry;
    unsigned n;
};

/* After the extractors' flush: every model's scores for every computed frame, written into the
 * collector after all features. @return 0, or a negative code (logged). */
int ev_models_predict(EvContext *c);

/* Free what ev_use_model added to the context; NULL-safe. */
void ev_models_free(struct EvModels *m);

#endif
