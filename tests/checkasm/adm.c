/* checkasm: integer ADM kernels (not yet). */
#include "checkasm/checkasm.h"
void checkasm_adm(void) {}
