/* SSIM row kernels, AVX2 (ssim_simd_tmpl.h). */
#define SSIM_W 256
#include "features/ssim/ssim_simd_tmpl.h"
