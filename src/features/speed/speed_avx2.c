/* Speed-family kernels, AVX2 (speed_simd_tmpl.h). */
#define SPEED_W 256
#include "features/speed/speed_simd_tmpl.h"
