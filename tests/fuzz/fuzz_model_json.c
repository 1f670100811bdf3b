/* libFuzzer harness: the model JSON loader (src/model/model_json.c, ev_model_set_parse) on
 * any bytes. The first byte picks the load flags (disable_clip, enable_transform); the rest is
 * the JSON text. Contract checked: a refused model logs at least one line and leaves the set
 * empty; an accepted one has features and support vectors of consistent sizes, and each of its
 * models predicts a score for an all-0.5 feature vector without touching memory it does not
 * own (ASan) or undefined arithmetic (UBSan), and a collection's bootstrap statistics. */
#include <string.h>

#include "fuzz_common.h"
#include "model/model.h"

enum { EV_MODEL_MAX_MEMBERS = 64 }; /* statistics over the first 64 members at most */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const unsigned flags = data[0] & (EV_MODEL_DISABLE_CLIP | EV_MODEL_ENABLE_TRANSFORM);
    EvModelSet set;
    fuzz_log_reset();
    const int ret =
        ev_model_set_parse(&set, (const char *)data + 1, size - 1, "fuzz model", flags, fuzz_log());
    if (ret) {
        FUZZ_CHECK(fuzz_log_lines() > 0, "refused (%d) without a message", ret);
        FUZZ_CHECK(!set.model && !set.n_models, "a refused model leaves a set");
        return 0;
    }
    FUZZ_CHECK(set.model && set.n_models >= 1, "an accepted model set is empty");
    for (unsigned i = 0; i < set.n_models; i++) {
        const EvModel *m = &set.model[i];
        FUZZ_CHECK(m->n_features >= 1 && m->n_features <= EV_MODEL_MAX_FEATURES,
                   "model %u: %u features", i, m->n_features);
        FUZZ_CHECK(m->svm.dim >= m->n_features, "model %u: svm of %u dimensions for %u features", i,
                   m->svm.dim, m->n_features);
        for (unsigned f = 0; f < m->n_features; f++)
            FUZZ_CHECK(m->feature[f].name && m->feature[f].name[0], "model %u: feature %u", i, f);
        double x[EV_MODEL_MAX_FEATURES];
        for (unsigned f = 0; f < EV_MODEL_MAX_FEATURES; f++)
            x[f] = 0.5;
        (void)ev_model_predict(m, x, 0);
        (void)ev_model_predict(m, x, 1);
    }
    if (set.collection && set.n_models > 1) { /* the members' statistics, as model_score.c */
        double raw[EV_MODEL_MAX_MEMBERS];
        const unsigned members =
            set.n_models - 1 < EV_MODEL_MAX_MEMBERS ? set.n_models - 1 : EV_MODEL_MAX_MEMBERS;
        double x[EV_MODEL_MAX_FEATURES];
        for (unsigned f = 0; f < EV_MODEL_MAX_FEATURES; f++)
            x[f] = 0.25;
        for (unsigned k = 0; k < members; k++)
            raw[k] = ev_model_predict(&set.model[k + 1], x, 1);
        EvBootstrapScores b;
        ev_bootstrap_scores(&set.model[1], raw, members, &b);
    }
    ev_model_set_free(&set);
    FUZZ_CHECK(!set.model && !set.n_models, "free leaves the set");
    return 0;
}
