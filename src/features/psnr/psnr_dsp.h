/* The psnr kernel table (psnr_kernels.h) for one CPU: the C reference, then the SIMD levels the
 * CPU allows, chosen once at init. */
#ifndef EV_FEATURES_PSNR_DSP_H
#define EV_FEATURES_PSNR_DSP_H

#include "features/psnr/psnr_kernels.h"

void psnr_dsp_init(PsnrDsp *dsp, unsigned cpu);

#endif
