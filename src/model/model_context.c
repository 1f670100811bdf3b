/* Adding a model: load it, resolve its features and register the extractors it reads
 * (scoring: model_score.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "features/registry.h"
#include "model/model.h"
#include "model/model_context.h"
#include "model/model_spec.h"

void ev_models_free(struct EvModels *const m)
{
    if (!m)
        return;
    for (unsigned i = 0; i < m->n; i++) {
        free(m->entry[i].name);
        ev_model_set_free(&m->entry[i].set);
    }
    free(m->entry);
    free(m);
}

static void keep_line(void *user, EvLogLevel level, const char *line)
{
    snprintf((char *)user, 512, "%s", line);
}

/* The options of one model feature: its feature_opts_dicts entry, then the spec's overloads for
 * its extractor (later keys win, as libvmaf's dictionary merge). */
static int feature_options(EvModelFeature *f, const EvFeatureSource *src, EvModelSpec *spec)
{
    char buf[2048];
    size_t len = (size_t)snprintf(buf, sizeof(buf), "%s", f->options ? f->options : "");
    for (unsigned i = 0; i < spec->n_overloads && len < sizeof(buf); i++) {
        EvModelOverload *o = &spec->overload[i];
        if (strcmp(o->extractor, src->extractor))
            continue;
        o->used = 1;
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s=%s", len ? ":" : "", o->option,
                                o->value);
    }
    if (len >= sizeof(buf))
        return -EINVAL;
    free(f->options);
    f->options = len ? strdup(buf) : NULL;
    return len && !f->options ? -ENOMEM : 0;
}

/* Find the extractor of a feature, settle its options and the column the model reads. */
static int resolve_feature(const EvLog *log, const char *label, EvModelFeature *f,
                           EvModelSpec *spec)
{
    const EvFeatureSource *src = ev_feature_source(f->name);
    const EvExtractorClass *cls = src ? ev_find_extractor(src->extractor) : NULL;
    if (!src) {
        ev_log(log, EV_LOG_ERROR, "%s: no extractor provides feature %s", label, f->name);
        return -ENOENT;
    }
    if (!cls) {
        ev_log(log, EV_LOG_ERROR,
               "%s: feature %s needs the extractor \"%s\", which this build "
               "lacks",
               label, f->name, src->extractor);
        return -ENOENT;
    }
    int err = feature_options(f, src, spec);
    if (err == -EINVAL)
        ev_log(log, EV_LOG_ERROR, "%s: feature %s: options too long", label, f->name);
    void *opts = calloc(1, cls->opts_size ? cls->opts_size : 1);
    if (err || !opts) {
        free(opts);
        return err ? err : -ENOMEM;
    }
    char why[512] = "";
    const EvLog keep = { keep_line, why, EV_LOG_ERROR };
    ev_options_defaults(cls, opts);
    if ((err = ev_options_parse(cls, opts, f->options, &keep)))
        ev_log(log, EV_LOG_ERROR, "%s: feature %s: %s", label, f->name, why);
    char column[512];
    ev_options_feature_name(column, sizeof(column), src->printed, cls, opts);
    free(opts);
    if (!err && !(f->column = strdup(column)))
        err = -ENOMEM;
    return err;
}

static int resolve_set(const EvLog *log, const char *label, EvModelSet *set, EvModelSpec *spec)
{
    for (unsigned m = 0; m < set->n_models; m++)
        for (unsigned i = 0; i < set->model[m].n_features; i++) {
            const int err = resolve_feature(log, label, &set->model[m].feature[i], spec);
            if (err)
                return err;
        }
    for (unsigned i = 0; i < spec->n_overloads; i++)
        if (!spec->overload[i].used) {
            ev_log(log, EV_LOG_ERROR,
                   "%s: %s.%s: the model reads no feature of extractor "
                   "\"%s\"",
                   label, spec->overload[i].extractor, spec->overload[i].option,
                   spec->overload[i].extractor);
            return -EINVAL;
        }
    return 0;
}

/* Register the extractors in model feature order (the same path as ev_use_feature). */
static int register_set(const EvModelSet *set, EvUseFeature use, void *user)
{
    for (unsigned m = 0; m < set->n_models; m++)
        for (unsigned i = 0; i < set->model[m].n_features; i++) {
            const EvModelFeature *f = &set->model[m].feature[i];
            const int err = use(user, ev_feature_source(f->name)->extractor, f->options);
            if (err)
                return err;
        }
    return 0;
}

static int add_entry(struct EvModels **const pms, const char *name, EvModelSet *set)
{
    if (!*pms && !(*pms = calloc(1, sizeof(**pms))))
        return -ENOMEM;
    struct EvModels *ms = *pms;
    EvModelEntry *e = realloc(ms->entry, (ms->n + 1) * sizeof(*e));
    if (!e)
        return -ENOMEM;
    ms->entry = e;
    char *copy = strdup(name);
    if (!copy)
        return -ENOMEM;
    ms->entry[ms->n++] = (EvModelEntry){ copy, *set };
    memset(set, 0, sizeof(*set));
    return 0;
}

static int check_use(const struct EvModels *ms, const EvModelSpec *spec, const char *label,
                     const int closed, const EvLog *log)
{
    if (closed) {
        ev_log(log, EV_LOG_ERROR, "%s: models must be added before the first picture", label);
        return -EINVAL;
    }
    for (unsigned i = 0; ms && i < ms->n; i++)
        if (!strcmp(ms->entry[i].name, spec->name)) {
            ev_log(log, EV_LOG_ERROR,
                   "%s: another model is named \"%s\"; set a unique name=", label, spec->name);
            return -EINVAL;
        }
    return 0;
}

int ev_models_add(struct EvModels **const ms, const char *const spec_text, const int predict,
                  const int closed, const EvLog *const log, const EvUseFeature use,
                  void *const user)
{
    EvModelSpec spec;
    EvModelSet set = { 0 };
    int err = ev_model_spec_parse(&spec, spec_text, log);
    char label[512] = "model";
    if (!err)
        snprintf(label, sizeof(label), "model %s", spec.version ? spec.version : spec.path);
    if (!err)
        err = check_use(*ms, &spec, label, closed, log);
    if (!err)
        err = spec.version ? ev_model_set_load_builtin(&set, spec.version, spec.flags, log)
                           : ev_model_set_load_file(&set, spec.path, spec.flags, log);
    if (!err)
        err = resolve_set(log, label, &set, &spec);
    if (!err)
        err = register_set(&set, use, user);
    if (!err && predict)
        err = add_entry(ms, spec.name, &set);
    ev_model_set_free(&set);
    ev_model_spec_free(&spec);
    return err;
}
