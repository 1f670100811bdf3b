/* adm's dispatch (adm_dsp.c): the kernels of one CPU level (adm_kernels.h), chosen once
 * at init. */
#ifndef EV_FEATURES_ADM_ADM_DSP_H
#define EV_FEATURES_ADM_ADM_DSP_H

#include <stddef.h>

#include "features/adm/adm_kernels.h"

/* The kernels of the best level in cpu (EV_CPU_* flags). */
void adm_dsp_init(AdmDsp *dsp, unsigned cpu);
/* Scratch of any level's DWT and CM kernels for rows of up to max_in_w input samples. */
size_t adm_dsp_tmp_size(int max_in_w);

#endif
