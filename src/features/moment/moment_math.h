/*
 * float_moment's per-sample terms (libvmaf feature/moment.c): the sample as a float, and its
 * square as a float product, each added to a running double in raster order by the caller.
 */
#ifndef EV_FEATURES_MOMENT_MATH_H
#define EV_FEATURES_MOMENT_MATH_H

#include "core/hd.h"

/* The second-moment term: one float rounding, as the reference's float x * x. */
EV_HD float moment_square(const float x)
{
    return x * x;
}

#endif
