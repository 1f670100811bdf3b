/* Reading shared/corpus/corpus.tsv, shared/golden/cases.tsv and shared/golden/<pair>.tsv. */
#ifndef EV_TESTS_GOLDEN_IO_H
#define EV_TESTS_GOLDEN_IO_H

#include <stdint.h>
#include <stdio.h>

typedef struct GoldenPair {
    char name[96], ref[128], dis[128];
    unsigned width, height, chroma, bitdepth, frames;
} GoldenPair;

typedef struct GoldenCorpus {
    GoldenPair pair[64];
    unsigned n;
} GoldenCorpus;

typedef struct GoldenCase {
    char id[96];
    char kind[16];  /* "extractor" or "model" */
    char spec[512]; /* vmaf CLI arguments */
} GoldenCase;

typedef struct GoldenCases {
    GoldenCase item[256];
    unsigned n;
} GoldenCases;

/* One row of a pair's table. frame: >= 0 a frame index; or one of the GOLDEN_ROW_* kinds. */
enum {
    GOLDEN_ROW_POOLED_MEAN = -1,
    GOLDEN_ROW_POOLED_HMEAN = -2,
    GOLDEN_ROW_POOLED_MIN = -3,
    GOLDEN_ROW_POOLED_MAX = -4,
    GOLDEN_ROW_AGGREGATE = -5,
    GOLDEN_ROW_REFUSED = -6
};

typedef struct GoldenRow {
    char case_id[96];
    int frame;
    char feature[160];
    uint64_t bits;
} GoldenRow;

typedef struct GoldenTable {
    GoldenRow *row;
    unsigned n;
} GoldenTable;

int golden_load_corpus(GoldenCorpus *c);
int golden_load_cases(GoldenCases *c);
int golden_load_table(const char *pair_name, GoldenTable *t);
void golden_free_table(GoldenTable *t);
const char *golden_shared_dir(void);
/* Open <shared>/<folder>/<name> with fopen's mode; NULL (said on stderr) when it cannot. */
FILE *golden_open(const char *folder, const char *name, const char *mode);
/* 1 when the shared folder (corpus, golden) is there; unit tests skip their golden parts
 * otherwise, as the golden tests skip whole. */
int golden_available(void);

#endif
