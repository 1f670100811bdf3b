/* Parity-gate fixtures: generated frames from a seeded hash, and corpus pairs. */
#ifndef EV_PARITY_FIXTURES_H
#define EV_PARITY_FIXTURES_H

#include <stdint.h>
#include <stdio.h>

#include "exactvmaf/exactvmaf.h"

typedef enum FixtureKind {
    FIX_NOISE,      /* full-range noise, ref and dis independent */
    FIX_IDENTICAL,  /* dis = ref (noise) */
    FIX_BRIGHT,     /* samples in the top 1/16 of the range, small errors */
    FIX_UNITS_2P53, /* luma whose float_moment/float_psnr sum is 2^53 + delta units */
    FIX_MOTION,     /* scenes of moving content: two still frames, a pan, a cut; dis =
                           ref + noise (motion across cuts and identical frames) */
    FIX_EXTREME,    /* every sample 0 or max, ref and dis independent */
    FIX_CORPUS,     /* a pair of raw files */
    FIX_BANDING,    /* smooth gradients (ref: 10-bit precision) and their banded versions
                           (dis), the variant in delta (BANDING_*); for cambi */
    FIX_OVERRANGE,  /* FIX_MOTION's scenes with samples above the depth's maximum (about
                           1 in 61, every plane of both pictures; 9..15 bits): the API passes
                           them on unchecked, and each twin must then give the CPU's bits */
} FixtureKind;

/* FIX_BANDING variants (Fixture.delta): dis is the ref's 10-bit gradient ... */
enum {
    BANDING_8BIT,      /* ... quantised to 8 bits */
    BANDING_DITHERED,  /* ... quantised to 8 bits, one in four samples moved by one step */
    BANDING_NOISY,     /* ... quantised to 8 bits plus noise of up to two steps */
    BANDING_10BIT,     /* ... itself (at depths above 10: banding of 10-bit steps) */
    BANDING_STRIPES,   /* 4-wide stripes of 10-bit codes 4 apart: the largest contrast values
                           (a top-k sum past 2^53 units from 1080p up) */
    BANDING_BLOCKS,    /* 8x8 blocks of random levels: many codes in one window */
    BANDING_OVERRANGE, /* BANDING_10BIT with a few luma samples above the depth's maximum
                           (9..15 bits): refused, by the first in raster order */
};

typedef struct Fixture {
    char name[96];
    FixtureKind kind;
    unsigned width, height, bitdepth, frames;
    EvPixelLayout layout;
    uint32_t seed;
    int delta;                         /* FIX_UNITS_2P53: -1, 0, +1 */
    int quick;                         /* in the quick set */
    const char *only;                  /* NULL, or the one extractor (and models) it is for */
    char ref_path[512], dis_path[512]; /* FIX_CORPUS */
} Fixture;

typedef struct FixtureList {
    Fixture *item;
    unsigned n, cap;
} FixtureList;

/* The standard set (DESIGN.md "Parity gate"); quick = the small ones only. */
int fixtures_standard(FixtureList *l, uint32_t seed, int quick);
int fixtures_quick(FixtureList *l, uint32_t seed);
/* Every pair of corpus_dir/corpus.tsv. */
int fixtures_corpus(FixtureList *l, const char *corpus_dir);
/* n random small fixtures for --search. */
int fixtures_random(FixtureList *l, uint32_t seed, unsigned n);
void fixtures_free(FixtureList *l);

/* A frame source: fills packed ref/dis pictures (planes one after another). */
typedef struct FrameSource {
    const Fixture *fx;
    FILE *ref, *dis;
    uint8_t *buf; /* ref then dis */
    size_t frame_bytes;
    EvPicture pic[2];
} FrameSource;

int source_open(FrameSource *s, const Fixture *fx);
/* Frame i (0-based, in order). Returns 0, or -1 on a read error. */
int source_frame(FrameSource *s, unsigned i);
void source_close(FrameSource *s);

uint32_t fixture_hash(uint32_t x);

#endif
