/*
 * glibc's sin, cos (s_sin.c) and atan2 (e_atan2.c) are table driven, and their tables cannot
 * be regenerated from a definition:
 *   sin/cos: sin and cos of k/128 as double-double pairs; the high parts are the nearest
 *     doubles, but 18 of the 220 low parts are not the nearest double to the rest (their
 *     generator's precision), and a result that depends on those bits would differ;
 *   atan2: cij, 241 rows {x0, atan(x0), the Taylor coefficients of atan at x0}, whose points x0
 *     were chosen by a search (Gal's accurate tables).
 * So the replicas (glibc_exp_pow.h) take the tables from the libm this process runs, which is
 * where the CPU reference's bits come from too: found in the file of the library that
 * defines sin, by their defining properties (checked for every entry below), and required
 * to be unique up to identical copies (glibc compiles e_atan2.c once per ISA variant). Nothing
 * of glibc is copied into exactvmaf.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libm/glibc_ibm_tables.h"
#include "libm/glibc_exp_pow.h"
#include "libm/glibc_exp_pow_tables.h"

enum { SINCOS_ENTRIES = 110, SINCOS_DOUBLES = 4 * SINCOS_ENTRIES, ATAN2_ROWS = 241 };

static const double defined_sincos[SINCOS_ENTRIES][4] = LIBM_SINCOS_TABLE_INIT;

/* Whether t is the sin/cos table: high parts equal to the definition's nearest doubles, low
 * parts within 2^-100 |hi| of the definition's. */
static int is_sincos(const double *t)
{
    for (int k = 0; k < SINCOS_ENTRIES; k++)
        for (int j = 0; j < 4; j += 2) {
            const double hi = t[4 * k + j], lo = t[4 * k + j + 1];
            if (memcmp(&hi, &defined_sincos[k][j], sizeof(hi)))
                return 0;
            if (!(fabs(lo - defined_sincos[k][j + 1]) <= ldexp(fabs(hi), -100)))
                return 0;
        }
    return 1;
}

static int near(const double got, const double want, const double rel)
{
    return fabs(got - want) <= rel * fabs(want);
}

/* |got - want| <= tol (for coefficients of order 1 that pass through zero). */
static int close_to(const double got, const double want, const double tol)
{
    return fabs(got - want) <= tol;
}

/* Whether row i of t is cij's: x0 within 1/256 of (i + 16) / 256, atan(x0) and 1/(1 + x0^2)
 * to 2^-40 relative, the Taylor coefficients 2..5 of atan at x0 to 2^-12 (they are fitted,
 * not exact, and pass through zero). */
static int is_atan2_row(const double *r, const int i)
{
    const double x = r[0], x2 = x * x, a = 1 / (1 + x2);
    if (!(fabs(x - (i + 16) / 256.0) <= 1 / 256.0))
        return 0;
    return near(r[1], atan(x), 0x1p-40) && near(r[2], a, 0x1p-40) &&
           close_to(r[3], -x * a * a, 0x1p-12) &&
           close_to(r[4], (3 * x2 - 1) / 3 * a * a * a, 0x1p-12) &&
           close_to(r[5], -x * (x2 - 1) * a * a * a * a, 0x1p-12) &&
           close_to(r[6], (5 * x2 * x2 - 10 * x2 + 1) / 5 * a * a * a * a * a, 0x1p-12);
}

static int is_atan2(const double *t)
{
    for (int i = 0; i < ATAN2_ROWS; i++)
        if (!is_atan2_row(t + 7 * i, i))
            return 0;
    return 1;
}

static double double_at(const unsigned char *p, const size_t k)
{
    double d;
    memcpy(&d, p + 8 * k, sizeof(d));
    return d;
}

/* Quick tests of a candidate's first entries before the full check. */
static int maybe_sincos(const unsigned char *p)
{
    return double_at(p, 2) == 1.0 && double_at(p, 4) == defined_sincos[1][0];
}

static int maybe_atan2(const unsigned char *p)
{
    const double x = double_at(p, 0);
    return fabs(x - 16 / 256.0) <= 1 / 256.0 && near(double_at(p, 1), atan(x), 0x1p-40);
}

/* Finds the n-double table that is() accepts in buf, unique up to identical copies.
 * @return the number of distinct tables found (1 is success; out then holds it). */
static int find_table(const unsigned char *buf, const size_t size, const size_t n,
                      int (*maybe)(const unsigned char *), int (*is)(const double *), double *out)
{
    int distinct = 0;
    double *cand = malloc(n * sizeof(double));
    if (!cand)
        return -1;
    for (size_t i = 0; i + n * sizeof(double) <= size; i += 8) {
        if (!maybe(buf + i))
            continue;
        memcpy(cand, buf + i, n * sizeof(double));
        if (!is(cand))
            continue;
        if (distinct && !memcmp(cand, out, n * sizeof(double)))
            continue;
        if (distinct++ == 0)
            memcpy(out, cand, n * sizeof(double));
    }
    free(cand);
    return distinct;
}

static int fail(char *err, const size_t n, const char *what, const char *path)
{
    snprintf(err, n, "ciede: glibc's tables: %s%s%s", what, path ? " " : "", path ? path : "");
    return -1;
}

/* The whole file at path, or NULL. */
static unsigned char *read_file(const char *path, size_t *size_out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *buf = NULL;
    size_t size = 0, cap = 0;
    for (;;) {
        if (size == cap) {
            cap = cap ? 2 * cap : 1u << 20;
            unsigned char *b = cap <= (64u << 20) ? realloc(buf, cap) : NULL;
            if (!b) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = b;
        }
        const size_t got = fread(buf + size, 1, cap - size, f);
        size += got;
        if (!got)
            break;
    }
    fclose(f);
    *size_out = size;
    return buf;
}

int ev_glibc_tables_from_libm(EvGlibcTables *t, char *err, size_t err_size)
{
    void *sin_addr = dlsym(RTLD_DEFAULT, "sin"), *atan2_addr = dlsym(RTLD_DEFAULT, "atan2");
    Dl_info info, info2;
    if (!sin_addr || !atan2_addr || !dladdr(sin_addr, &info) || !info.dli_fname ||
        !dladdr(atan2_addr, &info2) || !info2.dli_fname || strcmp(info.dli_fname, info2.dli_fname))
        return fail(err, err_size, "cannot find the one library that defines sin and atan2", NULL);
    size_t size = 0;
    unsigned char *buf = read_file(info.dli_fname, &size);
    if (!buf)
        return fail(err, err_size, "cannot read", info.dli_fname);
    const int n_sincos = find_table(buf, size, SINCOS_DOUBLES, maybe_sincos, is_sincos, t->sincos);
    const int n_atan2 = find_table(buf, size, 7 * ATAN2_ROWS, maybe_atan2, is_atan2, t->atan2);
    free(buf);
    if (n_sincos != 1)
        return fail(err, err_size,
                    n_sincos > 1 ? "two different sin/cos tables in" : "no sin/cos table in",
                    info.dli_fname);
    if (n_atan2 != 1)
        return fail(err, err_size,
                    n_atan2 > 1 ? "two different atan2 tables in" : "no atan2 table in",
                    info.dli_fname);
    return 0;
}

static double (*volatile libm_pow)(double, double) = pow;
static float (*volatile libm_powf)(float, float) = powf;
static double (*volatile libm_exp)(double) = exp;
static double (*volatile libm_sin)(double) = sin;
static double (*volatile libm_cos)(double) = cos;
static double (*volatile libm_atan2)(double, double) = atan2;

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A double in [lo, hi) from the generator. */
static double draw(uint64_t *s, const double lo, const double hi)
{
    return lo + (hi - lo) * ((double)(mix(s) >> 11) * 0x1p-53);
}

static int differs(const char *fn, const double x, const double want, const double got, char *err,
                   const size_t n)
{
    if (!memcmp(&want, &got, sizeof(want)))
        return 0;
    snprintf(err, n,
             "ciede: this libm's %s(%a) = %a, the device replica's %a: the replicas "
             "follow glibc's x86-64 FMA builds (2.28 and later), not this libm",
             fn, x, want, got);
    return 1;
}

int ev_libm_selftest(const EvGlibcTables *t, const unsigned n, char *err, size_t err_size)
{
    uint64_t s = 20261201;
    for (unsigned i = 0; i < n; i++) {
        const double x = draw(&s, 0.08, 1.0), t3 = draw(&s, 0.008, 1.0), c = draw(&s, 0, 300);
        const float cf = (float)c;
        const double e = -draw(&s, 0, 121), a = draw(&s, -25, 25), b = draw(&s, -1.6, 1.6);
        const float ya = (float)draw(&s, -200, 200), xa = (float)draw(&s, -200, 200);
        const float pf = libm_powf(cf, 7.0f), pf2 = ev_glibc_powf(cf, 7.0f);
        if (differs("pow", x, libm_pow(x, 2.4), ev_glibc_pow(x, 2.4), err, err_size) ||
            differs("pow", t3, libm_pow(t3, 1.0 / 3.0), ev_glibc_pow(t3, 1.0 / 3.0), err,
                    err_size) ||
            differs("pow", cf, libm_pow(cf, 7.0), ev_glibc_pow(cf, 7.0), err, err_size) ||
            differs("powf", cf, pf, pf2, err, err_size) ||
            differs("exp", e, libm_exp(e), ev_glibc_exp(e), err, err_size) ||
            differs("cos", a, libm_cos(a), ev_glibc_cos(a, t->sincos), err, err_size) ||
            differs("sin", b, libm_sin(b), ev_glibc_sin(b, t->sincos), err, err_size) ||
            differs("atan2", ya, libm_atan2(ya, xa), ev_glibc_atan2(ya, xa, t->atan2), err,
                    err_size))
            return -1;
    }
    return 0;
}
