/* psnr row kernels, AVX-512 (psnr_simd_tmpl.h). */
#define PSNR_W 512
#include "features/psnr/psnr_simd_tmpl.h"
