/* The CAMBI row kernel table (cambi_kernels.h) for one CPU: the C reference, then the SIMD
 * levels the CPU allows, chosen once at init. */
#ifndef EV_FEATURES_CAMBI_DSP_H
#define EV_FEATURES_CAMBI_DSP_H

#include "features/cambi/cambi_kernels.h"

void cambi_dsp_init(CambiDsp *dsp, unsigned cpu);

#endif
