/* ssimulacra2 row kernels, compiled for AVX2 (ssimulacra2_rows_tmpl.h). */
#define SSIMU2_ISA avx2
#include "features/ssimulacra2/ssimulacra2_rows_tmpl.h"
