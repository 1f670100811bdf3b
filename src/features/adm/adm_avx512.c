/* Integer ADM row kernels, AVX-512 (see adm_avx512_tmpl.h). */
#define ADM_ISA avx512
#define ADM_ICL 0
#include "features/adm/adm_avx512_tmpl.h"
