/* Integer motion row kernel, AVX2 (motion_simd_tmpl.h). */
#define MOTION_W 256
#include "features/motion/motion_simd_tmpl.h"
