/* CAMBI row kernels, compiled for AVX-512 (cambi_rows_tmpl.h). */
#define CAMBI_ISA avx512
#define CAMBI_SIMD_LEVEL 512
#include "features/cambi/cambi_rows_tmpl.h"
