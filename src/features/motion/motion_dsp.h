/* The integer motion kernel table (motion_kernels.h) for one CPU: the C reference, then the SIMD
 * levels the CPU allows, chosen once at init; and the scratch every level's kernel fits in. */
#ifndef EV_FEATURES_MOTION_DSP_H
#define EV_FEATURES_MOTION_DSP_H

#include <stddef.h>

#include "features/motion/motion_kernels.h"

void motion_dsp_init(MotionDsp *dsp, unsigned cpu);
size_t motion_dsp_tmp_size(int max_w);

#endif
