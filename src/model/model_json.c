/* Netflix's JSON model files, read with jansson (reference: libvmaf/src/read_json_model.c).
 * Only "model_dict" is read. A file without it is a model collection: "0" (the main model),
 * "1", "2", ... each a complete model. Every problem is one line naming the file and field. */
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

#define MAX_COLLECTION 1000u

typedef struct JsonSrc {
    const char *origin; /* the file, or "built-in model X" */
    char where[32];     /* "model_dict", or "\"3\".model_dict" in a collection */
    const EvLog *log;
    unsigned flags; /* EV_MODEL_* */
} JsonSrc;

/* Log "<origin>: <where>.<field>: <problem>" and return -EINVAL. */
static int bad_field(const JsonSrc *s, const char *field, const char *fmt, ...) EV_PRINTF(3, 4);
static int bad_field(const JsonSrc *s, const char *field, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    ev_log(s->log, EV_LOG_ERROR, "%s: %s.%s: %s", s->origin, s->where, field, what);
    return -EINVAL;
}

static int missing(const JsonSrc *s, const char *field)
{
    ev_log(s->log, EV_LOG_ERROR, "%s: %s lacks the field \"%s\"", s->origin, s->where, field);
    return -EINVAL;
}

static char *dup_string(const char *str)
{
    const size_t n = strlen(str) + 1;
    char *d = malloc(n);
    return d ? memcpy(d, str, n) : NULL;
}

static int parse_kind(const JsonSrc *s, const json_t *md, EvModel *m)
{
    const json_t *v = json_object_get(md, "model_type");
    if (!v)
        return missing(s, "model_type");
    const char *t = json_is_string(v) ? json_string_value(v) : "";
    m->kind = !strcmp(t, "LIBSVMNUSVR")                    ? EV_MODEL_SVM
              : !strcmp(t, "BOOTSTRAP_LIBSVMNUSVR")        ? EV_MODEL_BOOTSTRAP
              : !strcmp(t, "RESIDUEBOOTSTRAP_LIBSVMNUSVR") ? EV_MODEL_RESIDUE_BOOTSTRAP
                                                           : 0;
    if (!m->kind)
        return bad_field(s, "model_type",
                         "must be \"LIBSVMNUSVR\", \"BOOTSTRAP_LIBSVMNUSVR\" "
                         "or \"RESIDUEBOOTSTRAP_LIBSVMNUSVR\"");
    const json_t *n = json_object_get(md, "norm_type");
    if (!n)
        return missing(s, "norm_type");
    const char *norm = json_is_string(n) ? json_string_value(n) : "";
    if (strcmp(norm, "linear_rescale") && strcmp(norm, "none"))
        return bad_field(s, "norm_type", "must be \"linear_rescale\" or \"none\"");
    m->linear_rescale = !strcmp(norm, "linear_rescale");
    return 0;
}

/* The one feature whose name holds part (libvmaf matches by substring); its index in *at. */
static int find_one_feature(const JsonSrc *s, const EvModel *m, const char *part, unsigned *at)
{
    unsigned found = 0;
    for (unsigned i = 0; i < m->n_features; i++)
        if (strstr(m->feature[i].name, part)) {
            *at = i;
            found++;
        }
    if (found != 1)
        return bad_field(s, "chroma_correction_parameter",
                         "needs exactly one feature named with \"%s\" (the model has %u)", part,
                         found);
    return 0;
}

/* chroma_correction_parameter (v1 models): a non-zero number, and one adm3 feature to correct
 * one speed_chroma feature from. libvmaf computes no score at all when it is 0, and leaves a
 * model with no or several such features undefined; both are refused here. */
static int parse_chroma_correction(const JsonSrc *s, const json_t *md, EvModel *m)
{
    const json_t *v = json_object_get(md, "chroma_correction_parameter");
    if (!v)
        return 0;
    if (!json_is_number(v) || json_number_value(v) == 0.0)
        return bad_field(s, "chroma_correction_parameter", "must be a non-zero number");
    m->chroma_correction = 1;
    m->chroma_parameter = json_number_value(v);
    int err = find_one_feature(s, m, "speed_chroma", &m->chroma_guided);
    if (!err)
        err = find_one_feature(s, m, "adm3", &m->chroma_guiding);
    return err;
}

static int parse_names(const JsonSrc *s, const json_t *md, EvModel *m)
{
    const json_t *v = json_object_get(md, "feature_names");
    if (!v)
        return missing(s, "feature_names");
    const size_t n = json_is_array(v) ? json_array_size(v) : 0;
    if (!n || n > EV_MODEL_MAX_FEATURES)
        return bad_field(s, "feature_names", "must be an array of 1 to %d names",
                         EV_MODEL_MAX_FEATURES);
    m->feature = calloc(n, sizeof(*m->feature));
    if (!m->feature)
        return -ENOMEM;
    m->n_features = (unsigned)n;
    for (size_t i = 0; i < n; i++) {
        const json_t *name = json_array_get(v, i);
        if (!json_is_string(name))
            return bad_field(s, "feature_names", "item %zu is not a string", i);
        if (!json_string_value(name)[0]) /* names no feature: no extractor can give it */
            return bad_field(s, "feature_names", "item %zu is an empty name", i);
        if (!(m->feature[i].name = dup_string(json_string_value(name))))
            return -ENOMEM;
    }
    return 0;
}

/* slopes / intercepts: the score's first, then one per feature. */
static int parse_rescale_list(const JsonSrc *s, const json_t *md, const char *key, EvModel *m,
                              int slopes)
{
    const json_t *v = json_object_get(md, key);
    if (!v)
        return missing(s, key);
    if (!json_is_array(v) || json_array_size(v) != m->n_features + 1)
        return bad_field(s, key,
                         "must be an array of %u numbers (the score's, then one per "
                         "feature)",
                         m->n_features + 1);
    for (unsigned i = 0; i <= m->n_features; i++) {
        const json_t *x = json_array_get(v, i);
        if (!json_is_number(x))
            return bad_field(s, key, "item %u is not a number", i);
        double *dst = i == 0 ? (slopes ? &m->slope : &m->intercept)
                             : (slopes ? &m->feature[i - 1].slope : &m->feature[i - 1].intercept);
        *dst = json_number_value(x);
    }
    return 0;
}

static int parse_clip(const JsonSrc *s, const json_t *md, EvModel *m)
{
    const json_t *v = json_object_get(md, "score_clip");
    if (!v)
        return 0;
    if (!json_is_array(v) || json_array_size(v) != 2 || !json_is_number(json_array_get(v, 0)) ||
        !json_is_number(json_array_get(v, 1)))
        return bad_field(s, "score_clip", "must be [min, max]");
    m->clip = !(s->flags & EV_MODEL_DISABLE_CLIP);
    m->clip_min = json_number_value(json_array_get(v, 0));
    m->clip_max = json_number_value(json_array_get(v, 1));
    return 0;
}

/* p0, p1, p2: a number, or null / absent for a term that is left out. */
static int parse_term(const JsonSrc *s, const json_t *t, const char *key, int *has, double *val)
{
    const json_t *v = json_object_get(t, key);
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_number(v))
        return bad_field(s, "score_transform", "%s must be a number or null", key);
    *has = 1;
    *val = json_number_value(v);
    return 0;
}

/* knots: null, or up to 10 [x, y] points with x increasing and y not decreasing (libvmaf
 * checks this while mapping and then returns a partial result; an invalid list is refused). */
static int parse_knots(const JsonSrc *s, const json_t *v, EvScoreTransform *t)
{
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_array(v) || json_array_size(v) > EV_MODEL_MAX_KNOTS)
        return bad_field(s, "score_transform", "knots must be null or up to %d [x, y] points",
                         EV_MODEL_MAX_KNOTS);
    t->n_knots = (unsigned)json_array_size(v);
    for (unsigned i = 0; i < t->n_knots; i++) {
        const json_t *k = json_array_get(v, i);
        if (!json_is_array(k) || json_array_size(k) != 2 || !json_is_number(json_array_get(k, 0)) ||
            !json_is_number(json_array_get(k, 1)))
            return bad_field(s, "score_transform", "knot %u is not an [x, y] pair", i);
        t->knot_x[i] = json_number_value(json_array_get(k, 0));
        t->knot_y[i] = json_number_value(json_array_get(k, 1));
        if (i && !(t->knot_x[i - 1] < t->knot_x[i] && t->knot_y[i - 1] <= t->knot_y[i]))
            return bad_field(s, "score_transform", "knot %u does not increase", i);
    }
    t->has_knots = 1;
    return 0;
}

/* out_lte_in / out_gte_in: a string; "true" turns the rectification on. */
static int parse_rectify(const JsonSrc *s, const json_t *t, const char *key, int *on)
{
    const json_t *v = json_object_get(t, key);
    if (!v)
        return 0;
    if (!json_is_string(v))
        return bad_field(s, "score_transform", "%s must be a string", key);
    *on = !strcmp(json_string_value(v), "true");
    return 0;
}

/* score_transform; the enable_transform flag turns it on when "enabled" is absent or false. */
static int parse_transform(const JsonSrc *s, const json_t *md, EvScoreTransform *t)
{
    const json_t *v = json_object_get(md, "score_transform");
    if (!v)
        return 0;
    if (!json_is_object(v))
        return bad_field(s, "score_transform", "must be an object");
    const json_t *en = json_object_get(v, "enabled");
    if (en && !json_is_boolean(en))
        return bad_field(s, "score_transform", "enabled must be true or false");
    t->enabled = json_is_true(en) || (s->flags & EV_MODEL_ENABLE_TRANSFORM);
    int err = parse_term(s, v, "p0", &t->has_p0, &t->p0);
    if (!err)
        err = parse_term(s, v, "p1", &t->has_p1, &t->p1);
    if (!err)
        err = parse_term(s, v, "p2", &t->has_p2, &t->p2);
    if (!err)
        err = parse_knots(s, json_object_get(v, "knots"), t);
    if (!err)
        err = parse_rectify(s, v, "out_lte_in", &t->out_lte_in);
    if (!err)
        err = parse_rectify(s, v, "out_gte_in", &t->out_gte_in);
    return err;
}

/* feature_opts_dicts: one object per feature (fewer is fine), turned into "key=value:..." in
 * Netflix's option syntax; numbers become "%.17g" and are normalised like every option value. */
static int opts_string(const JsonSrc *s, const json_t *obj, unsigned i, char **out)
{
    char buf[1024] = "";
    size_t len = 0;
    const char *key;
    const json_t *val;
    json_object_foreach((json_t *)obj, key, val)
    {
        char text[64];
        const char *v = json_is_true(val) ? "true" : json_is_false(val) ? "false" : text;
        if (json_is_number(val))
            snprintf(text, sizeof(text), "%.17g", json_number_value(val));
        else if (json_is_string(val))
            v = json_string_value(val);
        else if (!json_is_boolean(val))
            return bad_field(s, "feature_opts_dicts",
                             "%s of feature %u is not a number, bool "
                             "or string",
                             key, i);
        if (strpbrk(key, ":=") || strpbrk(v, ":="))
            return bad_field(s, "feature_opts_dicts", "\"%s\" of feature %u holds ':' or '='", key,
                             i);
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s=%s", len ? ":" : "", key, v);
        if (len >= sizeof(buf))
            return bad_field(s, "feature_opts_dicts", "options of feature %u are too long", i);
    }
    if (len && !(*out = dup_string(buf)))
        return -ENOMEM;
    return 0;
}

static int parse_opts(const JsonSrc *s, const json_t *md, EvModel *m)
{
    const json_t *v = json_object_get(md, "feature_opts_dicts");
    if (!v)
        return 0;
    if (!json_is_array(v) || json_array_size(v) > m->n_features)
        return bad_field(s, "feature_opts_dicts", "must be an array of at most %u objects",
                         m->n_features);
    for (unsigned i = 0; i < json_array_size(v); i++) {
        const json_t *obj = json_array_get(v, i);
        if (!json_is_object(obj))
            return bad_field(s, "feature_opts_dicts", "item %u is not an object", i);
        const int err = opts_string(s, obj, i, &m->feature[i].options);
        if (err)
            return err;
    }
    return 0;
}

static int parse_svm(const JsonSrc *s, const json_t *md, EvModel *m)
{
    const json_t *v = json_object_get(md, "model");
    if (!v)
        return missing(s, "model");
    if (!json_is_string(v))
        return bad_field(s, "model", "must be a string (libsvm's model text)");
    char err[160];
    const int ret = ev_svm_parse(&m->svm, json_string_value(v), json_string_length(v),
                                 m->n_features, err, sizeof(err));
    if (ret == -EINVAL)
        return bad_field(s, "model", "%s", err);
    return ret;
}

/* One model from an object holding "model_dict". */
static int parse_model(const JsonSrc *s, const json_t *root, EvModel *m)
{
    const json_t *md = json_object_get(root, "model_dict");
    if (!md) {
        ev_log(s->log, EV_LOG_ERROR, "%s: %s is missing", s->origin, s->where);
        return -EINVAL;
    }
    if (!json_is_object(md)) {
        ev_log(s->log, EV_LOG_ERROR, "%s: %s must be an object", s->origin, s->where);
        return -EINVAL;
    }
    int err = parse_kind(s, md, m);
    if (!err)
        err = parse_names(s, md, m);
    if (!err && m->linear_rescale)
        err = parse_rescale_list(s, md, "slopes", m, 1);
    if (!err && m->linear_rescale)
        err = parse_rescale_list(s, md, "intercepts", m, 0);
    if (!err)
        err = parse_chroma_correction(s, md, m);
    if (!err)
        err = parse_clip(s, md, m);
    if (!err)
        err = parse_transform(s, md, &m->transform);
    if (!err)
        err = parse_opts(s, md, m);
    if (!err)
        err = parse_svm(s, md, m);
    return err;
}

static void free_model(EvModel *m)
{
    for (unsigned i = 0; m->feature && i < m->n_features; i++) {
        free(m->feature[i].name);
        free(m->feature[i].options);
        free(m->feature[i].column);
    }
    free(m->feature);
    ev_svm_free(&m->svm);
}

void ev_model_set_free(EvModelSet *const set)
{
    if (!set)
        return;
    for (unsigned i = 0; set->model && i < set->n_models; i++)
        free_model(&set->model[i]);
    free(set->model);
    memset(set, 0, sizeof(*set));
}

/* A collection: "0", "1", ... until a number is missing; "1" onwards must be bootstrap models
 * of one kind (libvmaf predicts nothing else from a collection). */
static int parse_collection(JsonSrc *s, const json_t *root, EvModelSet *set)
{
    unsigned n = 0;
    char key[16];
    for (; n <= MAX_COLLECTION; n++) {
        snprintf(key, sizeof(key), "%u", n);
        if (!json_is_object(json_object_get(root, key)))
            break;
    }
    if (n < 2) {
        ev_log(s->log, EV_LOG_ERROR,
               n ? "%s: a model collection needs \"1\" beside \"0\""
                 : "%s: lacks the field \"model_dict\"",
               s->origin);
        return -EINVAL;
    }
    if (!(set->model = calloc(n, sizeof(*set->model))))
        return -ENOMEM;
    set->n_models = n;
    set->collection = 1;
    for (unsigned i = 0; i < n; i++) {
        snprintf(key, sizeof(key), "%u", i);
        snprintf(s->where, sizeof(s->where), "\"%u\".model_dict", i);
        const int err = parse_model(s, json_object_get(root, key), &set->model[i]);
        if (err)
            return err;
        const EvModelKind kind = set->model[i].kind;
        if (i >= 1 && (kind == EV_MODEL_SVM || kind != set->model[1].kind))
            return bad_field(s, "model_type",
                             "members of a collection must all be "
                             "BOOTSTRAP_LIBSVMNUSVR or all "
                             "RESIDUEBOOTSTRAP_LIBSVMNUSVR");
    }
    return 0;
}

int ev_model_set_parse(EvModelSet *const set, const char *const json, const size_t size,
                       const char *const origin, const unsigned flags, const EvLog *const log)
{
    memset(set, 0, sizeof(*set));
    json_error_t jerr;
    json_t *root = json_loadb(json, size, 0, &jerr);
    if (!root) {
        ev_log(log, EV_LOG_ERROR, "%s: not valid JSON at line %d, column %d: %s", origin, jerr.line,
               jerr.column, jerr.text);
        return -EINVAL;
    }
    JsonSrc s = { origin, "model_dict", log, flags };
    int err;
    if (!json_is_object(root)) {
        ev_log(log, EV_LOG_ERROR, "%s: the top level is not a JSON object", origin);
        err = -EINVAL;
    } else if (json_object_get(root, "model_dict")) {
        set->model = calloc(1, sizeof(*set->model));
        set->n_models = set->model ? 1 : 0;
        err = set->model ? parse_model(&s, root, set->model) : -ENOMEM;
    } else {
        err = parse_collection(&s, root, set);
    }
    json_decref(root);
    if (err)
        ev_model_set_free(set);
    return err;
}
