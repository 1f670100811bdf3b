/* vif's dispatch (vif_dsp.c): the kernels of one CPU level (vif_kernels.h), chosen once
 * at init. */
#ifndef EV_FEATURES_VIF_VIF_DSP_H
#define EV_FEATURES_VIF_VIF_DSP_H

#include <stddef.h>

#include "features/vif/vif_kernels.h"

/* The kernels of the best level in cpu (EV_CPU_* flags). */
void vif_dsp_init(VifDsp *dsp, unsigned cpu);
/* Scratch of any level's kernels for rows up to max_w samples. */
size_t vif_dsp_tmp_size(int max_w);

#endif
