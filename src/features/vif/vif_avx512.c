/* Integer VIF row kernels, AVX-512 (see vif_avx512_tmpl.h). */
#define VIF_ISA avx512
#define VIF_VNNI 0
#include "features/vif/vif_avx512_tmpl.h"
