/* Inputs for the checks of ev_glibc_log2 (src/libm/glibc_log2.h) against the host's glibc log2:
 * a seeded generator, the float widened to double that SpEED's entropies take, and the double
 * forms of its variance weights (speed_weight_arg, modes 3-6, of two floats). */
#ifndef EV_TESTS_UNIT_GLIBC_LOG2_INPUTS_H
#define EV_TESTS_UNIT_GLIBC_LOG2_INPUTS_H

#include <stdint.h>
#include <string.h>

#include "libm/glibc_log2.h"
#include "features/speed/speed_math.h"

static inline uint64_t l2in_next(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline float l2in_float_of(const uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

/* A variance as SpEED's solver leaves it: any float bits half the time, else a value of
 * random sign and magnitude 2^-30 .. 2^30 (where the weights of real frames lie). */
static inline float l2in_variance(uint64_t *s)
{
    const uint64_t r = l2in_next(s);
    if (r & 1)
        return l2in_float_of((uint32_t)(r >> 32));
    const uint32_t exp = 97 + (uint32_t)((r >> 1) % 61);
    const uint32_t bits = (uint32_t)((r >> 8) & 0x7fffffu) | exp << 23 | ((r >> 7) & 1) << 31;
    return l2in_float_of(bits);
}

/* 1 when log2 of x agrees bit for bit on both; else 0 with *got and *want. */
static inline int l2in_same(const double x, uint64_t *got, uint64_t *want)
{
    *got = ev_bits64(ev_glibc_log2(x));
    *want = ev_bits64(log2(x));
    return *got == *want;
}

/* The argument of speed_weight_arg's double modes for draw number n. */
static inline double l2in_weight_arg(uint64_t *s)
{
    const int mode = 3 + (int)(l2in_next(s) % 4);
    const float rv = l2in_variance(s), dv = l2in_variance(s);
    return speed_weight_arg(mode, 1, rv, dv);
}

#endif
