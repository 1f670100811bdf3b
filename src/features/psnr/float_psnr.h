/* float_psnr: what the C reference (float_psnr.c) shares with its CUDA twin (float_psnr.cu),
 * and its two CPU paths, exposed for tests: the reference's running double sum of the squared
 * float differences over the luma plane, and the exact integer path (0 when it cannot prove
 * exactness). */
#ifndef EV_FEATURES_FLOAT_PSNR_H
#define EV_FEATURES_FLOAT_PSNR_H

#include <stdint.h>

#include "base/extractor.h"
#include "base/picture.h"

#ifdef __cplusplus
extern "C" {
#endif

double ev_float_psnr_noise_reference(const EvPic *ref, const EvPic *dis);
int ev_float_psnr_noise_fast(const EvPic *ref, const EvPic *dis, double *noise);

/* The score from the reference's noise sum (before the division by w*h). */
int ev_float_psnr_emit(const void *state, double noise_sum, unsigned frame, const EvPic *ref,
                       EvSink *sink);
/* The noise sum in units of 1/scaler^2 -> the reference's double sum, or the reference loop on
 * the host copy when the units reach 2^53. */
double ev_float_psnr_noise_from_units(const EvPic *ref, const EvPic *dis, uint64_t units);

/* CUDA twin (float_psnr.cu): launch = enqueue the device sum on ref->gpu's stream; extract =
 * launch, wait, score. */
void ev_float_psnr_launch_cuda(const void *state, const EvPic *ref, const EvPic *dis);
EV_EXTRACT_FN(ev_float_psnr_extract_cuda);

#ifdef __cplusplus
}
#endif

#endif
