/* Float VIF row kernels, compiled for AVX2 (float_vif_rows_tmpl.h). */
#define VIF_FLOAT_ISA avx2
#include "features/vif/float_vif_rows_tmpl.h"
