/* CAMBI row kernels, the C reference (cambi_rows_tmpl.h). */
#define CAMBI_ISA c
#include "features/cambi/cambi_rows_tmpl.h"
