/* Integer VIF row kernels, AVX-512 with VNNI (vif_simd_tmpl.h). */
#define VIF_W 512
#define VIF_VNNI 1
#include "features/vif/vif_simd_tmpl.h"
