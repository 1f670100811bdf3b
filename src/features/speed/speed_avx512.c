/* Speed-family kernels, AVX-512 F (speed_simd_tmpl.h). */
#define SPEED_W 512
#include "features/speed/speed_simd_tmpl.h"
