/* The models of a run: adding them (model_context.c) and scoring them (model_score.c). */
#ifndef EV_MODEL_MODEL_CONTEXT_H
#define EV_MODEL_MODEL_CONTEXT_H

#include "core/engine.h"
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

/* Registers one extractor with its options, as ev_use_feature() does: 0 or a negative code. */
typedef int (*EvUseFeature)(void *user, const char *extractor, const char *options);

/* Add the model of a spec in Netflix's --model syntax (ev_use_model()): parse it, load the
 * model, resolve each feature's extractor and options, and register them through use; with
 * predict, keep it in *ms (allocated by the first model) to be scored at the flush. closed:
 * registrations are closed (the first picture came), which is refused.
 * @return 0, or a negative code (one logged line names the model and the problem). */
int ev_models_add(struct EvModels **ms, const char *spec, int predict, int closed, const EvLog *log,
                  EvUseFeature use, void *user);

/* After the extractors' flush: every model's scores for every computed frame of r, written
 * into r's collector through sinks after every extractor's (r->first_free_sink on), before the
 * collector is finished. @return 0, or a negative code (logged). */
int ev_models_predict(const struct EvModels *ms, const EvEngineResults *r);

/* Free what ev_use_model added to the context; NULL-safe. */
void ev_models_free(struct EvModels *m);

#endif
