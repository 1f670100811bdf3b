/* xpsnr block kernels, compiled for AVX-512 (xpsnr_rows_tmpl.h). */
#define XPSNR_ISA avx512
#include "features/xpsnr/xpsnr_rows_tmpl.h"
