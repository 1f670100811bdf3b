/* The speed-family kernel table (speed_kernels.h) for one CPU: the C reference, then the SIMD
 * levels the CPU allows, chosen once at init. */
#ifndef EV_FEATURES_SPEED_DSP_H
#define EV_FEATURES_SPEED_DSP_H

#include "features/speed/speed_kernels.h"

void speed_dsp_init(SpeedDsp *dsp, unsigned cpu);

#endif
