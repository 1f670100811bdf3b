/* Integer ADM row kernels, AVX-512 with VNNI (adm_simd_tmpl.h). */
#define ADM_W 512
#define ADM_ICL 1
#include "features/adm/adm_simd_tmpl.h"
