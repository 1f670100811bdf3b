/*
 * float_moment's per-sample terms (libvmaf feature/moment.c): the sample as a float x, and its
 * square as one float product x * x; the reference adds them to running doubles in raster
 * order.
 *
 * Exact integer form. x is a multiple of 1/scaler (scaler = 2^(bpc-8)) and x * x, rounded to
 * float, is a multiple of 1/scaler^2 (a float >= 1 unit keeps at most 24 significant bits of an
 * integer number of units). While the running sum stays below 2^53 units every partial sum is
 * a double exactly, so the reference's sum is the exact integer sum of the terms in any order.
 * moment_first_units/moment_square_units give the terms in those units.
 */
#ifndef EV_FEATURES_MOMENT_MATH_H
#define EV_FEATURES_MOMENT_MATH_H

#include <stdint.h>

#include "base/hd.h"
#include "features/common/sample_math.h"

/* The second-moment term: one float rounding, as the reference's float x * x. */
EV_HD float moment_square(const float x)
{
    return x * x;
}

/* x in units of 1/scaler: the sample itself. */
EV_HD uint64_t moment_first_units(const uint32_t v)
{
    return v;
}

/* x * x (rounded to float) in units of 1/scaler^2. x = v / scaler with scaler a power of two,
 * so the float product rounds exactly as the integer v * v converted to float does (one
 * round-to-nearest-even to 24 bits); below 2^24 the square is exact. */
EV_HD uint64_t moment_square_units(const uint32_t v)
{
    return (uint64_t)(float)((uint64_t)v * v);
}

/* moment_square_units for v < 4096 (8..12-bit samples): the square is below 2^24, exact. */
EV_HD uint32_t moment_square_units_small(const uint32_t v)
{
    return v * v;
}

/* The largest running sum, in units, that the double reference still adds exactly. */
#define MOMENT_EXACT_LIMIT (UINT64_C(1) << 53)

#endif
