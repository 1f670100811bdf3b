/* glibc's sin/cos and atan2 tables (glibc_exp_pow.h) read from the host's libm at run time:
 * see glibc_ibm_tables.c. */
#ifndef EV_LIBM_GLIBC_IBM_TABLES_H
#define EV_LIBM_GLIBC_IBM_TABLES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct EvGlibcTables {
    double sincos[440];    /* {sin hi, sin lo, cos hi, cos lo} of k/128, k = 0..109 */
    double atan2[7 * 241]; /* cij: {x0, atan x0, its Taylor coefficients 1..5} */
} EvGlibcTables;

/*
 * Fills t from the file of the libm that this process calls for sin and atan2. @return 0, or
 * -1 with a message in err: the library could not be found or read, or holds no table (or
 * tables that differ) of the defining properties checked in glibc_ibm_tables.c.
 */
int ev_glibc_tables_from_libm(EvGlibcTables *t, char *err, size_t err_size);

/*
 * A quick check at the twin's start that this process's libm is one the replicas follow (the
 * proofs are per glibc build: scripts/libm_check.sh): n seeded arguments of each
 * function of glibc_exp_pow.h, in the ranges ciede uses, against libm, bit for bit. @return 0, or
 * -1 with the first difference in err.
 */
int ev_libm_selftest(const EvGlibcTables *t, unsigned n, char *err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
