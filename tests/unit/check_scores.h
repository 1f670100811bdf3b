/* Unit-test helper: two contexts' results compared by their bits. */
#ifndef EV_TESTS_UNIT_CHECK_SCORES_H
#define EV_TESTS_UNIT_CHECK_SCORES_H

#include <string.h>

#include "check.h"
#include "exactvmaf/exactvmaf.h"

/* Every feature of want at every frame, and the mean of each, equal to got's bits (the same
 * names in the same order, the same frame count). */
static inline void check_same_scores(const EvContext *got, const EvContext *want)
{
    CHECK(ev_frame_count(got) == ev_frame_count(want));
    CHECK(ev_feature_count(got) == ev_feature_count(want));
    for (unsigned i = 0; i < ev_feature_count(want); i++) {
        const char *name = ev_feature_name(want, i);
        CHECK(!strcmp(ev_feature_name(got, i), name));
        for (unsigned f = 0; f < ev_frame_count(want); f++) {
            double a = 0, b = 0;
            CHECK(ev_get_score(want, name, f, &b) == 0);
            CHECK(ev_get_score(got, name, f, &a) == 0);
            CHECK_BITS(a, b);
        }
        double a = 0, b = 0;
        CHECK(ev_get_pooled(want, name, EV_POOL_MEAN, &b) == 0);
        CHECK(ev_get_pooled(got, name, EV_POOL_MEAN, &a) == 0);
        CHECK_BITS(a, b);
    }
}

#endif
