/* VmafModel and VmafModelCollection: a checked --model specification each. Loading reads the
 * model once (to refuse what libvmaf refuses: an unknown version, a bad file, a collection
 * loaded as a model or the reverse); the context loads it again in ev_use_model(). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compat.h"

static void spec_free(CvModelSpec *const s)
{
    free(s->name);
    free(s->source);
    free(s->overloads);
    memset(s, 0, sizeof(*s));
}

/* Fill s from cfg and the source, after checking that the source is a single model
 * (want_collection 0) or a bootstrap collection (1). */
static int spec_init(CvModelSpec *const s, const VmafModelConfig *const cfg, const char *key,
                     const char *const value, const int want_collection)
{
    if (!cfg || !value)
        return -EINVAL;
    const CvLog log = cv_stderr_log(VMAF_LOG_LEVEL_WARNING);
    /* VMAF_MODEL_FLAG_DISABLE_TRANSFORM is accepted and, as in libvmaf 3.2.0, has no effect
     * here: libvmaf reads only ENABLE_TRANSFORM when it loads a model, and applies DISABLE_*
     * to its own bootstrap statistics only (predict.c), which exactvmaf computes the same way. */
    if (strchr(value, ':')) {
        cv_log(&log, EV_LOG_ERROR, "model %s \"%s\": a ':' in it is not supported", key, value);
        return -EINVAL;
    }
    char *const spec = malloc(strlen(key) + strlen(value) + 2);
    if (!spec)
        return -ENOMEM;
    sprintf(spec, "%s=%s", key, value);
    int collection = 0;
    const int err = ev_check_model(spec, &collection, log.cb, NULL);
    free(spec);
    if (err) {
        cv_log(&log, EV_LOG_ERROR, "could not load model%s %s \"%s\"",
               want_collection ? " collection" : "", key, value);
        return -EINVAL;
    }
    if (collection != want_collection) {
        cv_log(&log, EV_LOG_ERROR, "%s \"%s\" is %s", key, value,
               collection ? "a model collection: load it with vmaf_model_collection_load"
                          : "a single model, not a model collection");
        return -EINVAL;
    }
    const char *name = cfg->name ? cfg->name : "vmaf";
    s->name = strdup(name);
    s->source = malloc(strlen(key) + strlen(value) + 2);
    s->overloads = strdup("");
    s->flags = cfg->flags;
    if (!s->name || !s->source || !s->overloads) {
        spec_free(s);
        return -ENOMEM;
    }
    sprintf(s->source, "%s=%s", key, value);
    return 0;
}

char *cv_spec_text(const CvModelSpec *const s)
{
    const size_t len = strlen(s->source) + strlen(s->name) + strlen(s->overloads) + 64;
    char *t = malloc(len);
    if (!t)
        return NULL;
    snprintf(t, len, "%s:name=%s%s%s%s", s->source, s->name,
             (s->flags & VMAF_MODEL_FLAG_DISABLE_CLIP) ? ":disable_clip" : "",
             (s->flags & VMAF_MODEL_FLAG_ENABLE_TRANSFORM) ? ":enable_transform" : "",
             s->overloads);
    return t;
}

static int load_model(VmafModel **const model, VmafModelConfig *const cfg, const char *key,
                      const char *const value)
{
    if (!model)
        return -EINVAL;
    *model = NULL;
    VmafModel *m = calloc(1, sizeof(*m));
    if (!m)
        return -ENOMEM;
    const int err = spec_init(&m->spec, cfg, key, value, 0);
    if (err) {
        free(m);
        return err;
    }
    *model = m;
    return 0;
}

int vmaf_model_load(VmafModel **const model, VmafModelConfig *const cfg, const char *const version)
{
    return load_model(model, cfg, "version", version);
}

int vmaf_model_load_from_path(VmafModel **const model, VmafModelConfig *const cfg,
                              const char *const path)
{
    return load_model(model, cfg, "path", path);
}

/* Append ":<extractor>.<k>=<v>" for every entry of the dictionary to the spec's overloads. */
static int add_overload(CvModelSpec *const s, const char *const extractor,
                        const VmafFeatureDictionary *const d)
{
    char *more = cv_dict_join(d, extractor);
    if (!more)
        return -ENOMEM;
    char *all = malloc(strlen(s->overloads) + strlen(more) + 1);
    if (!all) {
        free(more);
        return -ENOMEM;
    }
    sprintf(all, "%s%s", s->overloads, more);
    free(more);
    free(s->overloads);
    s->overloads = all;
    return 0;
}

static int valid_overload(const char *const feature_name, const VmafFeatureDictionary *d)
{
    if (!feature_name || !d || !*feature_name || strchr(feature_name, ':'))
        return 0;
    for (unsigned i = 0; i < d->n; i++)
        if (strchr(d->key[i], ':') || strchr(d->val[i], ':'))
            return 0;
    return 1;
}

/* The options of feature_name into spec and, when given, also; the dictionary is consumed. */
static int overload(CvModelSpec *const spec, CvModelSpec *const also,
                    const char *const feature_name, VmafFeatureDictionary *opts_dict)
{
    int err = -EINVAL;
    if (spec && valid_overload(feature_name, opts_dict)) {
        err = add_overload(spec, feature_name, opts_dict);
        if (!err && also)
            err = add_overload(also, feature_name, opts_dict);
    }
    if (opts_dict)
        vmaf_feature_dictionary_free(&opts_dict);
    return err;
}

int vmaf_model_feature_overload(VmafModel *const model, const char *const feature_name,
                                VmafFeatureDictionary *opts_dict)
{
    return overload(model ? &model->spec : NULL, NULL, feature_name, opts_dict);
}

void vmaf_model_destroy(VmafModel *const model)
{
    if (!model)
        return;
    spec_free(&model->spec);
    free(model);
}

static int load_collection(VmafModel **const model, VmafModelCollection **const mc,
                           VmafModelConfig *const cfg, const char *key, const char *value)
{
    if (!model || !mc)
        return -EINVAL;
    *model = NULL;
    *mc = NULL;
    VmafModel *m = calloc(1, sizeof(*m));
    VmafModelCollection *c = calloc(1, sizeof(*c));
    int err = m && c ? 0 : -ENOMEM;
    if (!err)
        err = spec_init(&c->spec, cfg, key, value, 1);
    if (!err) {
        /* the main model ("0") is scored under the name, the collection under NAME_bagging...:
         * both are the same ev_use_model() registration */
        m->spec = c->spec;
        m->spec.name = strdup(c->spec.name);
        m->spec.source = strdup(c->spec.source);
        m->spec.overloads = strdup("");
        if (!m->spec.name || !m->spec.source || !m->spec.overloads)
            err = -ENOMEM;
    }
    if (err) {
        vmaf_model_destroy(m);
        vmaf_model_collection_destroy(c);
        return err;
    }
    *model = m;
    *mc = c;
    return 0;
}

int vmaf_model_collection_load(VmafModel **const model,
                               VmafModelCollection **const model_collection,
                               VmafModelConfig *const cfg, const char *const version)
{
    return load_collection(model, model_collection, cfg, "version", version);
}

int vmaf_model_collection_load_from_path(VmafModel **const model,
                                         VmafModelCollection **const model_collection,
                                         VmafModelConfig *const cfg, const char *const path)
{
    return load_collection(model, model_collection, cfg, "path", path);
}

int vmaf_model_collection_feature_overload(VmafModel *const model,
                                           VmafModelCollection **const model_collection,
                                           const char *const feature_name,
                                           VmafFeatureDictionary *opts_dict)
{
    return overload(model_collection && *model_collection ? &(*model_collection)->spec : NULL,
                    model ? &model->spec : NULL, feature_name, opts_dict);
}

void vmaf_model_collection_destroy(VmafModelCollection *const model_collection)
{
    if (!model_collection)
        return;
    spec_free(&model_collection->spec);
    free(model_collection);
}
