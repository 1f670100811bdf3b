/* The gate's noise search (noise_search.c). */
#ifndef EV_PARITY_NOISE_SEARCH_H
#define EV_PARITY_NOISE_SEARCH_H

#include <stdint.h>

typedef struct NoiseSearch {
    const char *extractor, *options;
    unsigned width, height, threads, twin_threads;
    int twin_backend; /* an EvBackend: CUDA, or CPU to test the search itself */
    unsigned long frames;
    uint32_t seed;
} NoiseSearch;

/* 0 when every value of every frame is identical, 1 when one differs, < 0 on an error. */
int noise_search(const NoiseSearch *ns);

#endif
