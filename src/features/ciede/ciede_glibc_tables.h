/* glibc's sin/cos and atan2 tables (ciede_libm.h) read from the host's libm at run time:
 * see ciede_glibc_tables.c. */
#ifndef EV_FEATURES_CIEDE_GLIBC_TABLES_H
#define EV_FEATURES_CIEDE_GLIBC_TABLES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct CiedeGlibcTables {
    double sincos[440];   /* {sin hi, sin lo, cos hi, cos lo} of k/128, k = 0..109 */
    double atan2[7 * 241]; /* cij: {x0, atan x0, its Taylor coefficients 1..5} */
} CiedeGlibcTables;

/*
 * Fills t from the file of the libm that this process calls for sin and atan2. @return 0, or
 * -1 with a message in err: the library could not be found or read, or holds no table (or
 * tables that differ) of the defining properties checked in ciede_glibc_tables.c.
 */
int ciede_glibc_tables_from_libm(CiedeGlibcTables *t, char *err, size_t err_size);

/*
 * A quick check at the twin's start that this process's libm is one the replicas follow (the
 * proofs are per glibc build: scripts/ciede_libm_check.sh): n seeded arguments of each
 * function of ciede_libm.h, in the ranges ciede uses, against libm, bit for bit. @return 0, or
 * -1 with the first difference in err.
 */
int ciede_libm_selftest(const CiedeGlibcTables *t, unsigned n, char *err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
