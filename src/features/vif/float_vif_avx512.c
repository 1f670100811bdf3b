/* Float VIF row kernels, compiled for AVX-512 (float_vif_rows_tmpl.h). */
#define VIF_FLOAT_ISA avx512
#include "features/vif/float_vif_rows_tmpl.h"
