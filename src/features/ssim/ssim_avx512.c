/* SSIM row kernels, AVX-512 (ssim_simd_tmpl.h). */
#define SSIM_W 512
#include "features/ssim/ssim_simd_tmpl.h"
