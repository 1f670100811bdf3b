/* Integer ADM row kernels, AVX-512 (adm_simd_tmpl.h). */
#define ADM_W 512
#define ADM_ICL 0
#include "features/adm/adm_simd_tmpl.h"
