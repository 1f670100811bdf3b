/* Float VIF row kernels, the C reference (float_vif_rows_tmpl.h). */
#define VIF_FLOAT_ISA c
#include "features/vif/float_vif_rows_tmpl.h"
