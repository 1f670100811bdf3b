/* Models (exactvmaf.h): ev_use_model and ev_use_model_features add a model through the model
 * layer (model/model_context.h), which registers its extractors here. */
#include <errno.h>

#include "api/context.h"
#include "model/model_builtin.h"
#include "model/model_spec.h"

static int use_feature(void *const user, const char *const extractor, const char *const options)
{
    return ev_use_feature(user, extractor, options);
}

static int use_model(EvContext *const c, const char *const spec, const int predict)
{
    if (!c || !spec)
        return -EINVAL;
    return ev_models_add(&c->models, spec, predict, ev_engine_started(c->engine), &c->log,
                         use_feature, c);
}

int ev_use_model(EvContext *const c, const char *const spec)
{
    return use_model(c, spec, 1);
}

int ev_use_model_features(EvContext *const c, const char *const spec)
{
    return use_model(c, spec, 0);
}

int ev_check_model(const char *const spec_text, int *const collection, const EvLogCallback log,
                   void *const log_user)
{
    if (!spec_text)
        return -EINVAL;
    const EvLog l = { log, log_user, EV_LOG_ERROR };
    EvModelSpec spec;
    int err = ev_model_spec_parse(&spec, spec_text, &l);
    if (err)
        return err;
    EvModelSet set = { 0 };
    err = spec.version ? ev_model_set_load_builtin(&set, spec.version, spec.flags, &l)
                       : ev_model_set_load_file(&set, spec.path, spec.flags, &l);
    if (!err && collection)
        *collection = set.collection;
    ev_model_set_free(&set);
    ev_model_spec_free(&spec);
    return err;
}

const char *const *ev_model_versions(void)
{
    return ev_builtin_model_versions;
}
