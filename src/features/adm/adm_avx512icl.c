/* Integer ADM row kernels, AVX-512 with VNNI (see adm_avx512_tmpl.h). */
#define ADM_ISA avx512icl
#define ADM_ICL 1
#include "features/adm/adm_avx512_tmpl.h"
