/* The ssimulacra2 kernel table (ssimulacra2_kernels.h) for one CPU: the C reference, then the
 * levels the CPU allows, chosen once at init. */
#ifndef EV_FEATURES_SSIMULACRA2_DSP_H
#define EV_FEATURES_SSIMULACRA2_DSP_H

#include "features/ssimulacra2/ssimulacra2_kernels.h"

void ssimu2_dsp_init(Ssimu2Dsp *dsp, unsigned cpu);

#endif
