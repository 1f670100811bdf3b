/* xpsnr block kernels, the C reference (xpsnr_rows_tmpl.h). */
#define XPSNR_ISA c
#include "features/xpsnr/xpsnr_rows_tmpl.h"
