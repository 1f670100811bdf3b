/* Scoring at ev_flush: every model predicts every computed frame from the collector's feature
 * values and writes its scores through sinks placed after every extractor, so they come last
 * in output order. Order among models is libvmaf's CLI order: each model's main score in
 * ev_use_model order, then each bootstrap collection's members and statistics. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_context.h"

typedef struct ScoreJob {
    const EvEngineResults *r;
    const EvModelEntry *e;
    const char **col; /* distinct columns read by the set's models */
    unsigned n_col;
    unsigned *col_of; /* column of each (model, feature), models back to back */
    double *x;        /* the frame's value of each column */
    double *raw;      /* bootstrap members' unclipped, untransformed scores */
    char **out;       /* member names <name>_0001.., then _bagging, _stddev, _ci_p95_lo/hi */
    unsigned n_out;
} ScoreJob;

static const char *const stat_suffix[4] = { "_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi" };

static void job_free(ScoreJob *j)
{
    for (unsigned i = 0; j->out && i < j->n_out; i++)
        free(j->out[i]);
    free(j->out);
    free(j->col);
    free(j->col_of);
    free(j->x);
    free(j->raw);
}

static int find_column(ScoreJob *j, const char *name)
{
    for (unsigned i = 0; i < j->n_col; i++)
        if (!strcmp(j->col[i], name))
            return (int)i;
    j->col[j->n_col] = name;
    return (int)j->n_col++;
}

static int job_columns(ScoreJob *j)
{
    const EvModelSet *set = &j->e->set;
    unsigned total = 0;
    for (unsigned m = 0; m < set->n_models; m++)
        total += set->model[m].n_features;
    j->col = calloc(total, sizeof(*j->col));
    j->col_of = calloc(total, sizeof(*j->col_of));
    j->x = calloc(total, sizeof(*j->x));
    j->raw = calloc(set->n_models, sizeof(*j->raw));
    if (!j->col || !j->col_of || !j->x || !j->raw)
        return -ENOMEM;
    unsigned k = 0;
    for (unsigned m = 0; m < set->n_models; m++)
        for (unsigned i = 0; i < set->model[m].n_features; i++)
            j->col_of[k++] = (unsigned)find_column(j, set->model[m].feature[i].column);
    return 0;
}

/* Output names of a collection; none may already name a feature. */
static int job_names(ScoreJob *j)
{
    const EvModelSet *set = &j->e->set;
    const unsigned members = set->collection ? set->n_models - 1 : 0;
    j->n_out = set->collection ? members + 4 : 0;
    if (j->n_out && !(j->out = calloc(j->n_out, sizeof(*j->out))))
        return -ENOMEM;
    const size_t size = strlen(j->e->name) + 16;
    for (unsigned i = 0; i < j->n_out; i++) {
        if (!(j->out[i] = malloc(size)))
            return -ENOMEM;
        if (i < members)
            snprintf(j->out[i], size, "%s_%04u", j->e->name, i + 1);
        else
            snprintf(j->out[i], size, "%s%s", j->e->name, stat_suffix[i - members]);
    }
    for (unsigned i = 0; i <= j->n_out; i++) {
        const char *name = i < j->n_out ? j->out[i] : j->e->name;
        if (ev_collector_find(j->r->collector, name)) {
            ev_log(j->r->log, EV_LOG_ERROR,
                   "model output %s: a feature has this name; set "
                   "another name=",
                   name);
            return -EINVAL;
        }
    }
    return 0;
}

/* The frame's value of every column (looked up afresh: writes may move the collector's
 * vectors). */
static int fetch_frame(ScoreJob *j, unsigned frame)
{
    for (unsigned i = 0; i < j->n_col; i++) {
        const EvFeatureVec *f = ev_collector_find(j->r->collector, j->col[i]);
        if (!f || frame >= f->cap || !f->written[frame]) {
            ev_log(j->r->log, EV_LOG_ERROR, "model %s: feature %s has no value at frame %u",
                   j->e->name, j->col[i], frame);
            return -EINVAL;
        }
        j->x[i] = f->value[frame];
    }
    return 0;
}

/* Feature values of model m of the set, in its feature order. */
static const double *model_input(const ScoreJob *j, unsigned m, double *buf)
{
    unsigned k = 0;
    for (unsigned i = 0; i < m; i++)
        k += j->e->set.model[i].n_features;
    for (unsigned i = 0; i < j->e->set.model[m].n_features; i++)
        buf[i] = j->x[j->col_of[k + i]];
    return buf;
}

static int score_collection(ScoreJob *j, unsigned frame, unsigned sink_index)
{
    const EvModelSet *set = &j->e->set;
    const unsigned members = set->n_models - 1;
    EvCollectorSink sink = ev_sink(j->r->collector, EV_EPOCH_FLUSH, sink_index);
    double in[EV_MODEL_MAX_FEATURES];
    int err = 0;
    for (unsigned k = 0; k < members && !err; k++) {
        const EvModel *m = &set->model[k + 1];
        model_input(j, k + 1, in);
        j->raw[k] = ev_model_predict(m, in, 1);
        err = ev_sink_put(&sink.base, j->out[k], frame, ev_model_predict(m, in, 0));
    }
    EvBootstrapScores b;
    ev_bootstrap_scores(&set->model[1], j->raw, members, &b);
    const double stat[4] = { b.bagging, b.stddev, b.ci_lo, b.ci_hi };
    for (unsigned i = 0; i < 4 && !err; i++)
        err = ev_sink_put(&sink.base, j->out[members + i], frame, stat[i]);
    return err;
}

static int score_entry(const EvEngineResults *r, const EvModelEntry *e, unsigned main_index,
                       unsigned collection_index)
{
    ScoreJob j = { .r = r, .e = e };
    int err = job_columns(&j);
    if (!err)
        err = job_names(&j);
    double in[EV_MODEL_MAX_FEATURES];
    for (unsigned frame = 0; !err && frame < r->n_frames; frame += r->step) {
        if ((err = fetch_frame(&j, frame)))
            break;
        EvCollectorSink sink = ev_sink(r->collector, EV_EPOCH_FLUSH, main_index);
        const double score = ev_model_predict(&e->set.model[0], model_input(&j, 0, in), 0);
        err = ev_sink_put(&sink.base, e->name, frame, score);
        if (!err && e->set.collection)
            err = score_collection(&j, frame, collection_index);
    }
    job_free(&j);
    return err;
}

int ev_models_predict(const struct EvModels *const ms, const EvEngineResults *const r)
{
    const unsigned first = r->first_free_sink;
    for (unsigned k = 0; ms && k < ms->n; k++) {
        const int err = score_entry(r, &ms->entry[k], first + k, first + ms->n + k);
        if (err)
            return err;
    }
    return 0;
}
