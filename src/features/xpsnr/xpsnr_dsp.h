/* The xpsnr kernel table (xpsnr_kernels.h) for one CPU: the C reference, then the levels the
 * CPU allows, chosen once at init. */
#ifndef EV_FEATURES_XPSNR_DSP_H
#define EV_FEATURES_XPSNR_DSP_H

#include "features/xpsnr/xpsnr_kernels.h"

void xpsnr_dsp_init(XpsnrDsp *dsp, unsigned cpu);

#endif
