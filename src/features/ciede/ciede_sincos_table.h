/* glibc's sin/cos table (ciede_libm.h) read from the host's libm: see ciede_sincos_table.c. */
#ifndef EV_FEATURES_CIEDE_SINCOS_TABLE_H
#define EV_FEATURES_CIEDE_SINCOS_TABLE_H

#include <stddef.h>

/*
 * Fills tab[440] with the table of the libm that this process calls for sin: {sin hi, sin lo,
 * cos hi, cos lo} of k/128, k = 0..109. @return 0, or -1 with a message in err (the library
 * could not be found or read, or holds no table equal to CIEDE_SINCOS_TABLE_INIT in its high
 * parts and within 2^-100 relative in its low parts, or more than one).
 */
int ciede_sincos_table_from_libm(double tab[440], char *err, size_t err_size);

#endif
