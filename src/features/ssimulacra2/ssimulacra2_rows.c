/* ssimulacra2 row kernels, the C reference (ssimulacra2_rows_tmpl.h). */
#define SSIMU2_ISA c
#include "features/ssimulacra2/ssimulacra2_rows_tmpl.h"
