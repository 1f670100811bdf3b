/* What every output layout shares (output_common.c): the run being printed and the number
 * format. */
#ifndef EV_OUTPUT_OUTPUT_COMMON_H
#define EV_OUTPUT_OUTPUT_COMMON_H

#include <stdio.h>

#include "core/collector.h"
#include "model/pool.h"

typedef struct EvOut {
    FILE *f;
    const EvCollector *col; /* finished: features in output order */
    unsigned n_frames;      /* pairs scored */
    unsigned step;          /* every step-th frame was computed (n_subsample, at least 1) */
    unsigned width, height; /* the frames' */
    const char *backend;    /* "cpu" or "cuda" */
    const char *version;    /* the library's, for the version fields */
    int precision;          /* EV_PRECISION_NETFLIX, EV_PRECISION_MAX or 0..17 */
    double fps;
    const EvPoolStat *pool; /* exactvmaf's --pool statistics, after Netflix's four */
    unsigned n_pool;
    unsigned n_rows; /* frame loop bound: the longest feature vector, as Netflix
                               (set by ev_output_write) */
} EvOut;

/* Netflix's leading-zero count of the fraction of |x| (count_leading_zeros_d): multiply the
 * fraction by 10 until it is >= 1; 0 for a zero fraction. Netflix takes the integer part with
 * (int)x, which GCC on x86-64 makes INT_MIN for |x| >= 2^31 and for non-finite x; the fraction
 * is then >= 1 or NaN, so the count is 0 there, and this function says so without UB. */
int ev_output_leading_zeros(double x);

/* Print x in the chosen precision: Netflix's "%.6f" or, past six leading zeros, "%.16f";
 * "%.17g"; or "%.<N>f". Non-finite values as printf spells them (inf, -inf, nan). */
void ev_out_number(const EvOut *o, double x);

/* As ev_out_number, but a non-finite value is the JSON literal null. */
void ev_out_json_number(const EvOut *o, double x);

/* 1 when feature f has a value at frame i. */
static inline int ev_out_written(const EvFeatureVec *f, unsigned i)
{
    return i < f->cap && f->written[i];
}

/* Number of features written at frame i, or 0 when the frame is not printed (no value, or
 * skipped by n_subsample: Netflix prints only frames i % n == 0). */
unsigned ev_out_frame_values(const EvOut *o, unsigned i);

/* "min", "max", "mean", "harmonic_mean", indexed by EvPoolMethod (Netflix's names). */
extern const char *const ev_out_pool_name[EV_POOL_HARMONIC_MEAN + 1];

#endif
