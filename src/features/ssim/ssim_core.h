/*
 * One SSIM evaluation as libvmaf's _iqa_ssim default path (feature/iqa/ssim_tools.c): 11x11
 * Gaussian window applied separably over the valid region, per-window l, c, s, and their
 * means. Used by float_ssim (once per frame) and float_ms_ssim (once per scale).
 */
#ifndef EV_FEATURES_SSIM_CORE_H
#define EV_FEATURES_SSIM_CORE_H

#include <stddef.h>

#include "features/ssim/ssim_dsp.h"
#include "features/ssim/ssim_filter.h"
#include "features/ssim/ssim_math.h"

/* Scratch bytes for planes up to w samples wide (w >= SSIM_WINDOW). */
size_t ssim_core_scratch_size(int w);

/* SSIM of two planes of the same size (both sides >= SSIM_WINDOW), with dsp's row kernels. */
void ssim_core(const SsimPlane *ref, const SsimPlane *cmp, const SsimDsp *dsp, void *scratch,
               SsimMeans *out);

#endif
