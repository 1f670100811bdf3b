/* Integer VIF row kernels, AVX2 (vif_simd_tmpl.h). */
#define VIF_W 256
#include "features/vif/vif_simd_tmpl.h"
