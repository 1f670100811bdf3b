/*
 * ADM's AVX2 int64 -> float (src/features/adm/adm_float_avx2.h) against the reference's
 * `(float)` of an int64 (one rounding), on the values where a conversion through a rounded
 * double goes wrong: sums just off a float's midpoint, for every bit length from 2^53 to 2^62,
 * both signs, and random values of every length below 2^62. The test also counts the cases where
 * (float)(double) differs from (float), and fails if there are none (the cases would not test
 * the step that matters). Skips (77) off x86-64 or without AVX2.
 */
#include <stdint.h>
#include <stdio.h>

#include "unit/check.h"

#if defined(__x86_64__) || defined(_M_X64)
void adm_float_lanes_avx2(const int64_t in[4], double out[4]);

static long double_rounded; /* cases where (float)(double)s != (float)s */

static void check_lanes(const int64_t s[4])
{
    double got[4];
    adm_float_lanes_avx2(s, got);
    for (int k = 0; k < 4; k++) {
        const float want = (float)s[k];
        if (check_fbits((float)(double)s[k]) != check_fbits(want))
            double_rounded++;
        if (!check_count(check_bits(got[k]) == check_bits((double)want)))
            printf("adm_float_avx2: %lld: got %.9g (0x%08x), want %.9g (0x%08x)\n", (long long)s[k],
                   got[k], (unsigned)check_fbits((float)got[k]), (double)want,
                   (unsigned)check_fbits(want));
    }
}

static uint64_t state = 0x9e3779b97f4a7c15u;
static uint64_t next(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

int main(void)
{
    if (!__builtin_cpu_supports("avx2")) {
        printf("adm_float_avx2: no AVX2, skipped\n");
        return 77;
    }
    int64_t lanes[4];
    int n = 0;
#define PUT(v)                                                                                     \
    do {                                                                                           \
        lanes[n++] = (v);                                                                          \
        if (n == 4) {                                                                              \
            check_lanes(lanes);                                                                    \
            n = 0;                                                                                 \
        }                                                                                          \
    } while (0)
    /* around the midpoints of floats with their top bit at 2^e, e = 53..61 */
    for (int e = 53; e <= 61; e++)
        for (int i = 0; i < 200; i++) {
            const int64_t m = (int64_t)((1u << 23) | (next() & 0x7FFFFF)); /* 24-bit significand */
            const int64_t ulp = INT64_C(1) << (e - 23), mid = m * ulp + ulp / 2;
            const int64_t offsets[] = { 0,
                                        1,
                                        -1,
                                        2,
                                        2047,
                                        -2047,
                                        2048,
                                        -2048,
                                        2049,
                                        4095,
                                        4097,
                                        (INT64_C(1) << (e - 53)) - 1,
                                        (int64_t)(next() % 4096),
                                        -(int64_t)(next() % 4096) };
            for (size_t k = 0; k < sizeof(offsets) / sizeof(offsets[0]); k++) {
                PUT(mid + offsets[k]);
                PUT(-(mid + offsets[k]));
            }
            PUT(m * ulp); /* floats themselves, and one below */
            PUT(m * ulp - 1);
        }
    /* random values of every bit length below 2^62, both signs */
    for (int bits = 1; bits <= 62; bits++)
        for (int i = 0; i < 400; i++) {
            const int64_t v = (int64_t)(next() >> (64 - bits));
            PUT((i & 1) ? -v : v);
        }
    PUT((INT64_C(1) << 62) - 1);
    PUT(-((INT64_C(1) << 62) - 1));
    PUT(INT64_C(1) << 53);
    PUT((INT64_C(1) << 53) + 1);
    while (n)
        PUT(0);
    printf("adm_float_avx2: %ld cases where a double rounded first would differ\n", double_rounded);
    CHECK(double_rounded > 0);
    return check_report("adm_float_avx2");
}
#else
int main(void)
{
    printf("adm_float_avx2: not x86-64, skipped\n");
    return 77;
}
#endif
