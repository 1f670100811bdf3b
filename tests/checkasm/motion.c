/* checkasm: integer motion kernels (not yet). */
#include "checkasm/checkasm.h"
void checkasm_motion(void) {}
