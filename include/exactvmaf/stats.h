/*
 * exactvmaf statistics without a context: percentiles and lows of any values, and Bjøntegaard
 * deltas between two rate-quality ladders. The definitions are in docs/REPORTS.md; the pooled
 * statistics of a context's features are ev_get_pooled_stat() (exactvmaf.h). Every call is
 * reentrant and may be called from any thread.
 */
#ifndef EXACTVMAF_STATS_H
#define EXACTVMAF_STATS_H

#include "exactvmaf/exactvmaf.h"

#ifdef __cplusplus
extern "C" {
#endif

/** numpy.percentile(values, percent) with numpy's default method (linear interpolation between
 *  the two sorted values around (n - 1) * percent / 100, numpy's own arithmetic): the same
 *  double. NaN when a value is NaN. values is not changed (a sorted copy is made).
 *  @return 0; -EINVAL (NULL, n = 0, percent outside 0..100), -ENOMEM. */
EV_API int ev_percentile(const double *values, size_t n, double percent, double *out);

/** The mean of the lowest ceil(n * percent / 100) values (at least one), the "1% low" for
 *  percent 1. @return 0; -EINVAL (NULL, n = 0, percent not in (0, 100]), -ENOMEM. */
EV_API int ev_low_mean(const double *values, size_t n, double percent, double *out);

/** One point of a rate-quality ladder: a bitrate (any unit, the same in both ladders) and the
 *  pooled score at it. */
typedef struct EvRatePoint {
    double rate;
    double score;
} EvRatePoint;

/**
 * Bjøntegaard delta rate of test against anchor, as JCT-VC/JVET's and AOM's common test
 * conditions compute it with piecewise cubic interpolation: log10(rate) as a PCHIP function of
 * the score for each ladder, integrated exactly over the score range both cover; *delta_rate =
 * 10^(mean difference) - 1, a fraction (-0.05: test needs 5% less rate for the same score).
 * Points may come in any order; exact duplicates count once. With delta_score not NULL, also
 * the Bjøntegaard delta score (BD-PSNR for PSNR): the mean score difference, score as a PCHIP
 * function of log10(rate), over the common log10 rate range.
 * @return 0; -EINVAL (NULL, a rate not finite and > 0, a score not finite); -EDOM (a ladder with
 *         fewer than 4 distinct points, or whose scores do not rise strictly with rate);
 *         -ERANGE (the score or rate ranges do not overlap); -ENOMEM.
 */
EV_API int ev_bd_rate(const EvRatePoint *anchor, size_t n_anchor, const EvRatePoint *test,
                      size_t n_test, double *delta_rate, double *delta_score);

#ifdef __cplusplus
}
#endif

#endif /* EXACTVMAF_STATS_H */
