/* Piecewise cubic Hermite interpolation (PCHIP) of y(x) and its exact integral: the curve of
 * BD-rate (bdrate.h). Reference: C. Moler, Numerical Computing with MATLAB, sections 3.3-3.4. */
#ifndef EV_STATS_PCHIP_H
#define EV_STATS_PCHIP_H

#include <stddef.h>

/* The integral from lo to hi (x[0] <= lo <= hi <= x[n-1]) of the PCHIP through (x[i], y[i]),
 * n >= 3, x strictly increasing. Slopes: at an inner point the weighted harmonic mean
 * 3 (h0 + h1) / ((2 h1 + h0) / s0 + (h1 + 2 h0) / s1) of the slopes s0, s1 of the intervals
 * h0, h1 beside it (0 where s0 and s1 differ in sign or one is 0); at an end the three-point
 * formula ((2 h0 + h1) s0 - h0 s1) / (h0 + h1), made 0 when its sign differs from s0's and
 * 3 s0 when s0 and s1 differ in sign and it is larger than 3 |s0|. Each piece's cubic,
 * y[i] + d s + c s^2 + b s^3 for s = x - x[i], is integrated in closed form over the part of
 * [lo, hi] it covers, pieces in order. @return 0, -ENOMEM. */
int ev_pchip_integral(const double *x, const double *y, size_t n, double lo, double hi,
                      double *out);

#endif
