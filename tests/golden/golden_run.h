/* Running one golden case on one corpus pair and comparing every value by its bits. */
#ifndef EV_TESTS_GOLDEN_RUN_H
#define EV_TESTS_GOLDEN_RUN_H

#include "golden/golden_io.h"

typedef struct GoldenTally {
    unsigned compared;  /* values compared */
    unsigned different; /* values (or refusals, names, counts) that differ */
    unsigned refused;   /* refusals matched */
} GoldenTally;

/* Returns 0 when the comparison ran (differences are counted in t), -1 on a setup error. */
int golden_run_case(const GoldenPair *pair, const GoldenCase *gc, const GoldenTable *table,
                    unsigned threads, unsigned cpu_mask, GoldenTally *t);

#endif
