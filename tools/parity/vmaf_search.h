/* The gate's VMAF search (vmaf_search.c). */
#ifndef EV_PARITY_VMAF_SEARCH_H
#define EV_PARITY_VMAF_SEARCH_H

#include <stdint.h>

#include "exactvmaf/exactvmaf.h"

typedef struct VmafSearch {
    unsigned threads, twin_threads;
    int twin_backend;       /* an EvBackend: CUDA, or CPU to test the search itself */
    unsigned long frames;
    uint32_t seed;
    int progress;           /* a line per batch (--verbose) */
} VmafSearch;

/* 0 when every value of every frame is identical, 1 when one differs, < 0 on an error. */
int vmaf_search(const VmafSearch *vs);

#endif
