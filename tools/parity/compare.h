/* What the parity runs (parity.c, noise_search.c, vmaf_search.c) share: the contexts of each
 * side, and a batch of frames scored by the CPU and by the twins, compared bit for bit. */
#ifndef EV_PARITY_COMPARE_H
#define EV_PARITY_COMPARE_H

#include "exactvmaf/exactvmaf.h"

/* A context on backend with threads workers (0: one per core), logging to log (NULL: silent);
 * NULL when it cannot be opened. */
EvContext *parity_open(EvBackend backend, unsigned threads, EvLogCallback log);

/* The frames 0..frames-1 whose values differ between cpu and twin (a missing value counts as
 * a difference; so does every frame when the feature counts differ); values counts the pairs
 * compared. A differing frame prints its first difference, as frame first + i, followed by
 * " (<where>, frame i of its batch)" when where is not NULL. */
unsigned long parity_compare_batch(EvContext *cpu, EvContext *twin, unsigned frames,
                                   unsigned long first, const char *where, unsigned long *values);

#endif
