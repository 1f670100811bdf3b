/*
 * The SSIM means without the reference's summation order (DESIGN.md, "certify, else
 * reproduce"). The reference adds the n per-window terms of a sum into one double, in raster
 * order, and reports the float (float)(sum / n) (ssim_mean). A twin computes the terms in
 * parallel and keeps, per raster row of windows, an exact fixed-point sum of them and a bound
 * on their magnitudes (SsimFixed, order-free integer sums). From the rows, the host encloses
 * every value the sequential double sum can take; when both ends of that interval give the
 * same float mean, that float is the reference's (ssim_certify_mean). Otherwise the twin sums
 * the terms in raster order itself.
 *
 * Fixed point: a term t (|t| < 2^16) is taken as sign(t) * floor(|t| 2^76) units of 2^-76,
 * split into three non-negative chunks below 2^32, 2^32 and 2^28 (c0 + c1 2^32 + c2 2^64).
 * Each chunk is summed with the term's sign into an int64: with fewer than 2^31 terms no sum
 * can overflow, and integer addition is exact in any order. Truncation loses less than one
 * unit per term, which the bound accounts for. A term outside the range (or NaN) is counted
 * as bad and makes its sum uncertifiable.
 */
#ifndef EV_FEATURES_SSIM_EXACT_SUM_H
#define EV_FEATURES_SSIM_EXACT_SUM_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hd.h"

#define SSIM_FIX_UNIT 0x1p76   /* fixed-point units per 1.0 */
#define SSIM_ABS_UNIT 0x1p16   /* magnitude-bound units per 1.0 */
#define SSIM_TERM_LIMIT 0x1p16 /* terms of this magnitude or more are not certified */

/* The integer sums of one run of terms (a raster row of windows, or part of one). */
typedef struct SsimFixed {
    int64_t c0, c1, c2; /* signed sums of the chunks of floor(|t| 2^76) */
    int64_t abs;        /* sum of floor(|t| 2^16) + 1: above sum |t| 2^16 */
    int64_t bad;        /* terms that are NaN or at least 2^16 in magnitude */
} SsimFixed;

EV_HD void ssim_fixed_zero(SsimFixed *a)
{
    a->c0 = a->c1 = a->c2 = a->abs = a->bad = 0;
}

/* Add one term. Every step is exact: scaling by powers of two, floor of a double, and the
 * differences r and c0, whose bits are bits of x below 2^64 and 2^32. */
EV_HD void ssim_fixed_add(SsimFixed *a, const double t)
{
    const double m = fabs(t);
    if (!(m < SSIM_TERM_LIMIT)) {
        a->bad++;
        return;
    }
    const double x = floor(m * SSIM_FIX_UNIT); /* < 2^92 */
    const double c2 = floor(x * 0x1p-64);      /* < 2^28 */
    const double r = x - c2 * 0x1p64;          /* x mod 2^64 */
    const double c1 = floor(r * 0x1p-32);
    const double c0 = r - c1 * 0x1p32;
    const int64_t sign = t < 0 ? -1 : 1;
    a->c0 += sign * (int64_t)c0;
    a->c1 += sign * (int64_t)c1;
    a->c2 += sign * (int64_t)c2;
    a->abs += (int64_t)floor(m * SSIM_ABS_UNIT) + 1;
}

/* Fold b into a (integer sums: any order gives the same words). */
EV_HD void ssim_fixed_merge(SsimFixed *a, const SsimFixed *b)
{
    a->c0 += b->c0;
    a->c1 += b->c1;
    a->c2 += b->c2;
    a->abs += b->abs;
    a->bad += b->bad;
}

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The mean (float)(sum / (w * h)) that the reference's sequential double sum of w * h terms,
 * in raster order, gives: certified from rows[0 .. h - 1], rows[y] holding the fixed-point
 * sums of the w terms of window row y (rows are row_stride records apart). Returns 1 and
 * sets *mean when certified; 0 when the caller must sum the terms in order.
 */
int ssim_certify_mean(const SsimFixed *rows, size_t row_stride, int w, int h, float *mean);

/* The reference's sum itself: terms added into a double from 0.0, in order. */
double ssim_sequential_sum(const double *terms, size_t n);

#ifdef __cplusplus
}
#endif

#endif
