/* ssimulacra2 row kernels, compiled for AVX-512 (ssimulacra2_rows_tmpl.h). */
#define SSIMU2_ISA avx512
#include "features/ssimulacra2/ssimulacra2_rows_tmpl.h"
