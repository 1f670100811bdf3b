/* The SSIM kernel table (ssim_kernels.h) of the best level in cpu (EV_CPU_* bits): a static
 * table, the C reference's when the CPU has no SIMD level. */
#ifndef EV_FEATURES_SSIM_DSP_H
#define EV_FEATURES_SSIM_DSP_H

#include "features/ssim/ssim_kernels.h"

const SsimDsp *ssim_dsp(unsigned cpu);

#endif
