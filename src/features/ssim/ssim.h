/* The CUDA twins of float_ssim and float_ms_ssim (ssim.cu); what they share with the C
 * references (states, reporting) is ssim_emit.h. */
#ifndef EV_FEATURES_SSIM_H
#define EV_FEATURES_SSIM_H

#include "base/extractor.h"
#include "features/ssim/ssim_emit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CUDA twins (ssim.cu). */
EV_EXTRACT_FN(ev_float_ssim_extract_cuda);
EV_EXTRACT_FN(ev_float_ms_ssim_extract_cuda);

/* Means of this process's SSIM twins: certified from exact sums, and summed in the
 * reference's order because certification declined (for benchmarks and the gate). */
void ev_ssim_cuda_mean_counts(unsigned long long *certified, unsigned long long *in_order);

#ifdef __cplusplus
}
#endif

#endif
