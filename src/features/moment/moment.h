/* float_moment's two CPU paths, exposed for tests: the reference loop (running doubles in
 * raster order) and the exact integer path (returns 0 when it cannot prove exactness). Both
 * give sums (not yet divided by w*h) of x and of x*x over the luma plane. */
#ifndef EV_FEATURES_MOMENT_H
#define EV_FEATURES_MOMENT_H

#include "core/picture.h"

void ev_moment_sums_reference(const EvPic *p, double sums[2]);
int ev_moment_sums_fast(const EvPic *p, double sums[2]);

#endif
