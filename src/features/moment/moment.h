/* float_moment's CPU paths and what its CUDA twin (moment.cu) shares with them. Sums are of x
 * and of x*x over the luma plane, not yet divided by w*h. */
#ifndef EV_FEATURES_MOMENT_H
#define EV_FEATURES_MOMENT_H

#include <stdint.h>

#include "base/extractor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The reference loop, and the exact integer path (0 when it cannot prove exactness). */
void ev_moment_sums_reference(const EvPic *p, double sums[2]);
int ev_moment_sums_fast(const EvPic *p, double sums[2]);

/* Sums from integer units (1/scaler, 1/scaler^2) computed elsewhere: exact below 2^53 units
 * (returns 1); past it, the reference loop on the host samples of p (returns 0). */
int ev_moment_sums_from_units(const EvPic *p, uint64_t first, uint64_t second, double sums[2]);
int ev_moment_emit(const EvPic *ref, const double r[2], const double d[2], unsigned frame,
                   EvSink *sink);

/* CUDA twin: launch = enqueue the device sums on ref->gpu's stream; extract = launch, wait,
 * finish on the host. */
void ev_moment_launch_cuda(const void *state, const EvPic *ref, const EvPic *dis);
EV_EXTRACT_FN(ev_moment_extract_cuda);

#ifdef __cplusplus
}
#endif

#endif
