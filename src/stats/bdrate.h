/*
 * Bjøntegaard delta rate and delta score between two rate-quality ladders (docs/REPORTS.md), the
 * variant of the JCT-VC/JVET common test conditions (JCTVC-E137's bdrint, the JVET CTC sheet)
 * that Netflix's BDrateCalculator and the AOM CTC tools also compute: log10 of the rate as a
 * piecewise cubic Hermite (PCHIP, Fritsch-Carlson slopes in Moler's form, the shape-preserving
 * three-point end slopes) function of the score, integrated exactly over the scores both
 * ladders cover.
 */
#ifndef EV_STATS_BDRATE_H
#define EV_STATS_BDRATE_H

#include <stddef.h>

typedef struct EvStatsPoint {
    double rate, score;
} EvStatsPoint;

/* The fewest distinct points a ladder needs, as the reference calculators. */
#define EV_STATS_BD_MIN_POINTS 4

/* Sort a ladder by rate, drop exact duplicates, and check it: every rate finite and > 0, every
 * score finite, at least EV_STATS_BD_MIN_POINTS points, rate and score both strictly increasing.
 * @return the number of points kept, -EINVAL (a rate or score out of range), -EDOM (too few
 *         points, or a curve that is not increasing). */
long ev_stats_ladder_prepare(EvStatsPoint *p, size_t n);

/* BD-rate of test against anchor, as a fraction (x 100 for percent): 10^(mean difference of
 * log10 rate over the common score range) - 1. Both ladders prepared (ev_stats_ladder_prepare).
 * @return 0, -ERANGE (their score ranges do not overlap), -ENOMEM. */
int ev_stats_bd_rate(const EvStatsPoint *anchor, size_t n_anchor, const EvStatsPoint *test,
                     size_t n_test, double *out);

/* BD-score (BD-PSNR for PSNR): the mean difference of score, as a PCHIP function of log10 rate,
 * over the common log10 rate range. @return as ev_stats_bd_rate. */
int ev_stats_bd_score(const EvStatsPoint *anchor, size_t n_anchor, const EvStatsPoint *test,
                      size_t n_test, double *out);

#endif
