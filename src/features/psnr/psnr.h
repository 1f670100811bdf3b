/* What the psnr / float_psnr C references share with their CUDA twins (psnr.cu). */
#ifndef EV_FEATURES_PSNR_H
#define EV_FEATURES_PSNR_H

#include <stdint.h>

#include "base/extractor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* psnr: planes scored (1 or 3), and the scoring of one plane from its integer sum. */
unsigned ev_psnr_planes(const void *state);
int ev_psnr_emit_plane(const void *state, unsigned p, uint64_t sse, unsigned n, unsigned frame,
                       EvSink *sink);

/* float_psnr: the score from the reference's noise sum (before the division by w*h). */
int ev_float_psnr_emit(const void *state, double noise_sum, unsigned frame, const EvPic *ref,
                       EvSink *sink);
/* float_psnr: the noise sum in units of 1/scaler^2 -> the reference's double sum, or the
 * reference loop on the host copy when the units reach 2^53. */
double ev_float_psnr_noise_from_units(const EvPic *ref, const EvPic *dis, uint64_t units);

/* CUDA twins: launch = enqueue the device sums on ref->gpu's stream (results in the worker's
 * host area once the stream is synchronised); extract = launch, wait, score. */
void ev_psnr_launch_cuda(const void *state, const EvPic *ref, const EvPic *dis);
void ev_float_psnr_launch_cuda(const void *state, const EvPic *ref, const EvPic *dis);
int ev_psnr_extract_cuda(const void *state, void *scratch, const EvPic *ref, const EvPic *dis,
                         unsigned frame, EvSink *sink);
int ev_float_psnr_extract_cuda(const void *state, void *scratch, const EvPic *ref,
                               const EvPic *dis, unsigned frame, EvSink *sink);

#ifdef __cplusplus
}
#endif

#endif
