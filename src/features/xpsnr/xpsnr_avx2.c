/* xpsnr block kernels, compiled for AVX2 (xpsnr_rows_tmpl.h). */
#define XPSNR_ISA avx2
#include "features/xpsnr/xpsnr_rows_tmpl.h"
