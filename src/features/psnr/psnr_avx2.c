/* psnr row kernels, AVX2 (psnr_simd_tmpl.h). */
#define PSNR_W 256
#include "features/psnr/psnr_simd_tmpl.h"
