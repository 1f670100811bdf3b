/*
 * glibc's sin and cos (s_sin.c) use a table of sin and cos of k/128 as double-double pairs.
 * Its high parts are the nearest doubles, but 18 of its 220 low parts are not the nearest
 * double to the rest (their generator's precision): the table cannot be regenerated from its
 * definition, and results that depend on those low bits (rare, not testable) would differ.
 * So the replica (ciede_libm.h) takes the table from the libm this process runs: found in
 * the file of the library that defines sin, by its high parts (generated from the definition,
 * CIEDE_SINCOS_TABLE_INIT), and checked entry by entry. Nothing of glibc is copied into
 * exactvmaf; the values come from the host at run time, which is also where the CPU
 * reference's bits come from.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "features/ciede/ciede_libm_tables.h"
#include "features/ciede/ciede_sincos_table.h"

enum { SINCOS_ENTRIES = 110, SINCOS_DOUBLES = 4 * SINCOS_ENTRIES };

static const double defined_table[SINCOS_ENTRIES][4] = CIEDE_SINCOS_TABLE_INIT;

/* Whether the bytes at p hold a table equal to the definition's high parts, with low parts
 * within 2^-100 of |hi| of the definition's (every table-driven sin in glibc since 2001). */
static int table_at(const unsigned char *p, double out[SINCOS_DOUBLES])
{
    memcpy(out, p, SINCOS_DOUBLES * sizeof(double));
    for (int k = 0; k < SINCOS_ENTRIES; k++)
        for (int j = 0; j < 4; j += 2) {
            const double hi = out[4 * k + j], lo = out[4 * k + j + 1];
            if (memcmp(&hi, &defined_table[k][j], sizeof(hi)))
                return 0;
            if (!(fabs(lo - defined_table[k][j + 1]) <= ldexp(fabs(hi), -100)))
                return 0;
        }
    return 1;
}

static int fail(char *err, const size_t n, const char *what, const char *path)
{
    snprintf(err, n, "ciede: glibc's sin/cos table: %s%s%s", what, path ? " " : "",
             path ? path : "");
    return -1;
}

int ciede_sincos_table_from_libm(double tab[SINCOS_DOUBLES], char *err, size_t err_size)
{
    void *sin_addr = dlsym(RTLD_DEFAULT, "sin");
    Dl_info info;
    if (!sin_addr || !dladdr(sin_addr, &info) || !info.dli_fname)
        return fail(err, err_size, "cannot find the library that defines sin", NULL);
    FILE *f = fopen(info.dli_fname, "rb");
    if (!f)
        return fail(err, err_size, "cannot open", info.dli_fname);
    unsigned char *buf = NULL;
    size_t size = 0, cap = 0;
    for (;;) {
        if (size == cap) {
            cap = cap ? 2 * cap : 1u << 20;
            unsigned char *b = cap <= (64u << 20) ? realloc(buf, cap) : NULL;
            if (!b) {
                free(buf);
                fclose(f);
                return fail(err, err_size, "cannot read (too large or out of memory)",
                            info.dli_fname);
            }
            buf = b;
        }
        const size_t got = fread(buf + size, 1, cap - size, f);
        size += got;
        if (!got)
            break;
    }
    fclose(f);
    /* entry 1's sin hi, at byte 32 of the table */
    const double key = defined_table[1][0];
    int found = 0;
    double cand[SINCOS_DOUBLES];
    for (size_t i = 32; i + (SINCOS_DOUBLES - 4) * sizeof(double) <= size; i += 8) {
        if (memcmp(buf + i, &key, sizeof(key)))
            continue;
        if (i - 32 + SINCOS_DOUBLES * sizeof(double) <= size && table_at(buf + i - 32, cand)) {
            if (found++)
                break;
            memcpy(tab, cand, sizeof(cand));
        }
    }
    free(buf);
    if (found != 1)
        return fail(err, err_size, found ? "more than one candidate in" : "no table found in",
                    info.dli_fname);
    return 0;
}
