/*
 * The cost of VMAF prediction per frame (SVM, transform, clip, bootstrap statistics), apart
 * from the extractors: every built-in model scores synthetic feature values.
 * usage: bench_model [--frames N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/model.h"
#include "model/model_builtin.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One frame of a set: the main model, and for a collection its members and statistics. */
static double score_frame(const EvModelSet *set, const double *x)
{
    double sum = ev_model_predict(&set->model[0], x, 0), raw[64];
    if (!set->collection)
        return sum;
    for (unsigned k = 1; k < set->n_models; k++) {
        raw[k - 1] = ev_model_predict(&set->model[k], x, 1);
        sum += ev_model_predict(&set->model[k], x, 0);
    }
    EvBootstrapScores b;
    ev_bootstrap_scores(&set->model[1], raw, set->n_models - 1, &b);
    return sum + b.bagging + b.stddev + b.ci_lo + b.ci_hi;
}

int main(int argc, char **argv)
{
    unsigned frames = 10000;
    if (argc == 3 && !strcmp(argv[1], "--frames"))
        frames = (unsigned)strtoul(argv[2], NULL, 10);
    double sink = 0;
    for (const EvBuiltinModel *b = ev_builtin_models; b->version; b++) {
        EvModelSet set;
        if (ev_model_set_load_builtin(&set, b->version, 0, NULL))
            return fprintf(stderr, "%s: cannot load\n", b->version), 1;
        double x[EV_MODEL_MAX_FEATURES];
        const double t0 = now();
        for (unsigned f = 0; f < frames; f++) {
            for (unsigned i = 0; i < EV_MODEL_MAX_FEATURES; i++)
                x[i] = 0.5 + 0.4 * (double)((f * 7 + i * 13) % 101) / 101.0;
            x[1] = 4.0 * x[1]; /* a motion-like range */
            sink += score_frame(&set, x);
        }
        const double dt = now() - t0;
        printf("%-22s %2u model(s) %4u SVs  %8.2f us/frame  %9.0f frames/s\n", b->version,
               set.n_models, set.model[0].svm.n_sv, 1e6 * dt / frames, frames / dt);
        ev_model_set_free(&set);
    }
    return sink == 12345.0; /* keeps the work */
}
