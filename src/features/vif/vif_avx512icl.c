/* Integer VIF row kernels, AVX-512 with VNNI (see vif_avx512_tmpl.h). */
#define VIF_ISA avx512icl
#define VIF_VNNI 1
#include "features/vif/vif_avx512_tmpl.h"
