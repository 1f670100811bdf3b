/* CAMBI row kernels, compiled for AVX2 (cambi_rows_tmpl.h). */
#define CAMBI_ISA avx2
#define CAMBI_SIMD_LEVEL 256
#include "features/cambi/cambi_rows_tmpl.h"
