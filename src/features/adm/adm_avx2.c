/* Integer ADM row kernels, AVX2 (adm_simd_tmpl.h). */
#define ADM_W 256
#include "features/adm/adm_simd_tmpl.h"
