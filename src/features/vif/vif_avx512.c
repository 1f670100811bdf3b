/* Integer VIF row kernels, AVX-512 (vif_simd_tmpl.h). */
#define VIF_W 512
#define VIF_VNNI 0
#include "features/vif/vif_simd_tmpl.h"
