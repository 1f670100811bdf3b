/* Integer motion row kernel, AVX-512 (motion_simd_tmpl.h). */
#define MOTION_W 512
#include "features/motion/motion_simd_tmpl.h"
