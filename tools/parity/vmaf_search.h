/* The gate's VMAF search (vmaf_search.c). */
#ifndef EV_PARITY_VMAF_SEARCH_H
#define EV_PARITY_VMAF_SEARCH_H

#include <stdint.h>

#include "exactvmaf/exactvmaf.h"

typedef struct VmafSearch {
    unsigned threads, twin_threads;
    int twin_backend; /* an EvBackend: CUDA, or CPU to test the search itself */
    unsigned long frames;
    uint32_t seed;
    int progress; /* a line per batch (--verbose) */
    /* NULL: the v0.6.1 set above. Else the extractors to search, ';'-separated entries
     * "name" or "name:options" ("model:version=..." for a model), e.g.
     * "cambi;speed_chroma:speed_kernelscale=1.0" (--features). */
    const char *features;
    unsigned min_w, min_h; /* the smallest geometry drawn (--min-size; default 16x16) */
    unsigned max_w, max_h; /* the largest (--max-size; default 1920x1080) */
    unsigned depth_mask;   /* bit d set: depth d may be drawn (--depths 8,10,12; 0: 8..16) */
} VmafSearch;

/* Each entry of vs->features opened on c (0 or the first error). */
int search_use_features(EvContext *c, const char *features);

/* 0 when every value of every frame is identical, 1 when one differs, < 0 on an error. */
int vmaf_search(const VmafSearch *vs);

#endif
