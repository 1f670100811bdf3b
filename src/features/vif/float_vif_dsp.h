/* The float VIF kernel table (float_vif_kernels.h) for one CPU: the C reference, then the SIMD
 * levels the CPU allows. */
#ifndef EV_FEATURES_FLOAT_VIF_DSP_H
#define EV_FEATURES_FLOAT_VIF_DSP_H

#include "features/vif/float_vif_kernels.h"

void vif_float_dsp_init(VifFloatDsp *dsp, unsigned cpu);

#endif
