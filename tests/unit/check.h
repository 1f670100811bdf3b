/* Minimal checks for unit tests: exact comparisons, %.17g and hex on failure. */
#ifndef EV_TESTS_UNIT_CHECK_H
#define EV_TESTS_UNIT_CHECK_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/bitcast.h"

static unsigned check_passed, check_failed;

/* Counts one check; returns ok, so that a failed one can say what it saw. */
static inline int check_count(int ok)
{
    if (ok)
        check_passed++;
    else
        check_failed++;
    return ok;
}

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!check_count(!!(cond)))                                                                \
            printf("%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);                        \
    } while (0)

/* A seeded 32-bit integer hash (lowbias32) for reproducible test content. */
static inline uint32_t check_hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    return x ^ (x >> 16);
}

/* The bits of a double or a float (base/bitcast.h has them back: ev_double_of, ev_float_of,
 * for expected values written as bits). */
#define check_bits(d) ev_bits64(d)
#define check_fbits(f) ev_bits32(f)

/* Doubles are equal only when their 64 bits are. */
#define CHECK_BITS(got, want)                                                                      \
    do {                                                                                           \
        const double g_ = (got), w_ = (want);                                                      \
        if (!check_count(check_bits(g_) == check_bits(w_)))                                        \
            printf("%s:%d: %s = %.17g (0x%016" PRIx64 "), want %.17g (0x%016" PRIx64 ")\n",        \
                   __FILE__, __LINE__, #got, g_, check_bits(g_), w_, check_bits(w_));              \
    } while (0)

/* Floats are equal only when their 32 bits are; want is the expected bit pattern. */
#define CHECK_FBITS(got, want)                                                                     \
    do {                                                                                           \
        const float g_ = (got);                                                                    \
        if (!check_count(check_fbits(g_) == (uint32_t)(want)))                                     \
            printf("%s:%d: %s = %.9g (0x%08x), want 0x%08x\n", __FILE__, __LINE__, #got,           \
                   (double)g_, (unsigned)check_fbits(g_), (unsigned)(want));                       \
    } while (0)

#define CHECK_STR(got, want)                                                                       \
    do {                                                                                           \
        const char *g_ = (got), *w_ = (want);                                                      \
        if (!check_count(g_ && !strcmp(g_, w_)))                                                   \
            printf("%s:%d: %s = \"%s\", want \"%s\"\n", __FILE__, __LINE__, #got,                  \
                   g_ ? g_ : "(null)", w_);                                                        \
    } while (0)

/* Print the closing line and return the exit code. */
static inline int check_report(const char *suite)
{
    printf("%s: %u passed, %u failed\n", suite, check_passed, check_failed);
    return check_failed ? 1 : 0;
}

#endif
