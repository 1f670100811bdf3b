/*
 * VMAF models (internal): Netflix's JSON model, its nu-SVR with an RBF kernel, the score
 * transform and clip, and bootstrap collections.
 *   model_json.c     JSON (jansson) -> EvModelSet          model_svm.c      libsvm text, kernel
 *   model_predict.c  one frame's scores from feature values model_context.c ev_use_model, flush
 * The reference is libvmaf's read_json_model.c, predict.c and svm.cpp (see
 * shared/reference/libvmaf-map.md section 5).
 */
#ifndef EV_MODEL_MODEL_H
#define EV_MODEL_MODEL_H

#include <stddef.h>

#include "base/log.h"

#define EV_MODEL_MAX_FEATURES 64 /* libvmaf's limit; also the largest SVM index */
#define EV_MODEL_MAX_KNOTS 10

/* A nu-SVR (or epsilon-SVR) with an RBF kernel. Support vectors are stored dense: an index
 * that the libsvm text omits holds 0.0, which gives libsvm's sparse kernel sum bit for bit
 * ((x - 0)^2 == x*x, (0 - v)^2 == v*v, and the terms keep their index order). */
typedef struct EvSvm {
    double gamma;
    double rho;
    unsigned n_sv;
    unsigned dim; /* values per support vector: the largest index used */
    double *coef; /* n_sv */
    double *sv;   /* n_sv * dim */
} EvSvm;

typedef struct EvScoreTransform {
    int enabled;                /* "enabled": true, or the enable_transform flag */
    int has_p0, has_p1, has_p2; /* polynomial p0 + p1*y + p2*y*y; a null term is absent */
    double p0, p1, p2;
    int has_knots; /* piecewise-linear map through the knots */
    unsigned n_knots;
    double knot_x[EV_MODEL_MAX_KNOTS], knot_y[EV_MODEL_MAX_KNOTS];
    int out_lte_in, out_gte_in; /* rectification: min(out, in) / max(out, in) */
} EvScoreTransform;

typedef struct EvModelFeature {
    char *name;              /* Netflix's feature name, e.g. "VMAF_integer_feature_adm2_score" */
    double slope, intercept; /* linear_rescale of the feature */
    char *options;           /* "key=value:..." from feature_opts_dicts, or NULL */
    char *column;            /* the collector name it is read from (set by ev_use_model) */
} EvModelFeature;

typedef enum EvModelKind {
    EV_MODEL_SVM = 1,               /* LIBSVMNUSVR */
    EV_MODEL_BOOTSTRAP = 2,         /* BOOTSTRAP_LIBSVMNUSVR */
    EV_MODEL_RESIDUE_BOOTSTRAP = 3, /* RESIDUEBOOTSTRAP_LIBSVMNUSVR */
} EvModelKind;

typedef struct EvModel {
    EvModelKind kind;
    int linear_rescale;      /* norm_type linear_rescale; 0 = "none" */
    double slope, intercept; /* of the score (the first slope / intercept) */
    unsigned n_features;
    EvModelFeature *feature;
    int clip; /* score_clip given and not disabled */
    double clip_min, clip_max;
    EvScoreTransform transform;
    /* v1 models' chroma_correction_parameter: a frame whose speed_chroma feature is 0 takes
     * it from adm3 instead (ev_model_predict). guided / guiding index those two features. */
    int chroma_correction;
    double chroma_parameter;
    unsigned chroma_guided, chroma_guiding;
    EvSvm svm;
} EvModel;

/* What one model file holds: one model, or a bootstrap collection whose model[0] is the
 * file's "0" (the main model) and model[1..n_models-1] its "1", "2", ... members. */
typedef struct EvModelSet {
    EvModel *model;
    unsigned n_models;
    int collection;
} EvModelSet;

/* Load flags: libvmaf's VMAF_MODEL_FLAG_DISABLE_CLIP and _ENABLE_TRANSFORM. */
enum { EV_MODEL_DISABLE_CLIP = 1 << 0, EV_MODEL_ENABLE_TRANSFORM = 1 << 1 };

/* JSON text -> set. origin names the source in messages (a path, or "built-in model X").
 * Every problem is one logged line naming origin and the field. @return 0 or -EINVAL/-ENOMEM */
int ev_model_set_parse(EvModelSet *set, const char *json, size_t size, const char *origin,
                       unsigned flags, const EvLog *log);
/* A file (-ENOENT when it cannot be opened) or a built-in version (-ENOENT, listing them). */
int ev_model_set_load_file(EvModelSet *set, const char *path, unsigned flags, const EvLog *log);
int ev_model_set_load_builtin(EvModelSet *set, const char *version, unsigned flags,
                              const EvLog *log);
void ev_model_set_free(EvModelSet *set); /* NULL-safe, leaves *set zeroed */

/* libsvm's text model -> svm, with at least n_features dimensions. On failure, err holds one
 * line saying what is wrong. */
int ev_svm_parse(EvSvm *svm, const char *text, size_t len, unsigned n_features, char *err,
                 size_t err_size);
void ev_svm_free(EvSvm *svm);
/* sum_k coef_k * exp(-gamma * |x - sv_k|^2) - rho, as libsvm's svm_predict; x has svm->dim
 * values. */
double ev_svm_predict(const EvSvm *svm, const double *x);

/* The score of one frame from the raw feature values x[0..n_features-1], as libvmaf's
 * vmaf_predict_score_at_index: normalise, SVM, denormalise, then (unless raw) transform and
 * clip. raw = libvmaf's DISABLE_CLIP | DISABLE_TRANSFORM flags, used for bootstrap statistics. */
double ev_model_predict(const EvModel *m, const double *x, int raw);
/* The score transform and clip alone (each a no-op when the model disables it). */
double ev_model_transform(const EvModel *m, double y);
double ev_model_clip(const EvModel *m, double y);

typedef struct EvBootstrapScores {
    double bagging, stddev, ci_lo, ci_hi;
} EvBootstrapScores;
/* libvmaf's bootstrap statistics of the members' raw scores raw[0..n-1] (reordered: sorted in
 * place); first = the first member, whose transform and clip libvmaf applies to them. */
void ev_bootstrap_scores(const EvModel *first, double *raw, unsigned n, EvBootstrapScores *out);

/* Which extractor writes a model feature, and under which printed (aliased) name. */
typedef struct EvFeatureSource {
    const char *feature;   /* Netflix's provided feature name */
    const char *extractor; /* Netflix's extractor name */
    const char *printed;   /* the name the extractor writes (libvmaf's alias) */
} EvFeatureSource;
const EvFeatureSource *ev_feature_source(const char *feature); /* NULL if none */

#endif
