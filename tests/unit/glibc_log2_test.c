/* ev_glibc_log2 (src/libm/glibc_log2.h) against this host's glibc log2, bit for bit, on a
 * bounded seeded sample: 10^7 random floats widened to double (SpEED's entropy arguments),
 * every binade boundary and its neighbours, every subnormal binade, the near-1 path and its
 * edges, powers of two, specials, 10^6 weight arguments (speed_weight_arg modes 3-6) and 10^6
 * random doubles. The exhaustive proof over all 2^32 floats is glibc_log2_exhaustive.c. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "unit/check.h"
#include "unit/glibc_log2_inputs.h"

static unsigned long long n_checked, n_failed;

static void check_arg(const double x)
{
    uint64_t got, want;
    n_checked++;
    if (l2in_same(x, &got, &want))
        return;
    if (n_failed++ < 10)
        printf("log2(%a) [0x%016" PRIx64 "]: got 0x%016" PRIx64 " (%.17g), glibc 0x%016" PRIx64
               " (%.17g)\n",
               x, ev_bits64(x), got, ev_double_of(got), want, ev_double_of(want));
}

static void check_neighbours(const uint64_t u, const int radius)
{
    for (int d = -radius; d <= radius; d++)
        check_arg(ev_double_of(u + (uint64_t)(int64_t)d));
}

static void test_structured(void)
{
    for (uint64_t e = 0; e <= 0x7ff; e++) { /* binade edges, both signs */
        check_neighbours(e << 52, 3);
        check_neighbours(e << 52 | 1ull << 63, 1);
    }
    for (int e = -1074; e <= 1023; e++) /* powers of two, subnormals included */
        check_arg(ldexp(1.0, e));
    /* the near-1 path [1 - 0x1.5b51p-5, 1 + 0x1.6ab2p-5) and its edges */
    check_neighbours(ev_bits64(1.0 - 0x1.5b51p-5), 64);
    check_neighbours(ev_bits64(1.0 + 0x1.6ab2p-5), 64);
    check_neighbours(ev_bits64(1.0), 4096);
    for (uint32_t u = 0x3f700000u; u < 0x3f860000u; u += 7) /* every 7th float around 1 */
        check_arg((double)l2in_float_of(u));
    /* the table's subinterval edges: z = 0x1.6p-1 + i/64 in each of a few binades */
    for (int k = -3; k <= 3; k++)
        for (int i = 0; i <= 64; i++)
            check_neighbours(ev_bits64(ldexp(0x1.6p-1 + i * (0x1.6p0 - 0x1.6p-1) / 64, k)), 2);
    for (uint32_t u = 1; u < 0x00800000u; u = u * 3 + 1) /* float subnormals, as doubles */
        check_arg((double)l2in_float_of(u));
    check_arg(INFINITY);
    check_arg(-INFINITY);
    check_arg(NAN);
    check_arg(-NAN);
    check_arg(ev_double_of(0x7ff0000000000001ull)); /* signalling NaN */
    check_arg(-1.0);
    check_arg(-0x1p-1074);
}

static void test_random(const uint64_t seed)
{
    uint64_t s = seed;
    for (long i = 0; i < 10000000; i++)
        check_arg((double)l2in_float_of((uint32_t)l2in_next(&s)));
    for (long i = 0; i < 1000000; i++)
        check_arg(l2in_weight_arg(&s));
    for (long i = 0; i < 1000000; i++)
        check_arg(ev_double_of(l2in_next(&s) >> 1)); /* positive doubles */
}

/* glibc picks its FMA build of log2 on x86-64 CPUs with FMA and AVX2; others: skip (77). */
static int host_has_glibc_fma_log2(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

int main(int argc, char **argv)
{
    if (!host_has_glibc_fma_log2()) {
        printf("skipped: not an x86-64 CPU with FMA and AVX2 (glibc runs another log2 build)\n");
        return 77;
    }
    const uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 20261201;
    printf("seed %" PRIu64 "\n", seed);
    test_structured();
    test_random(seed);
    CHECK(n_failed == 0);
    CHECK(n_checked > 11000000);
    printf("%llu arguments, %llu differ\n", n_checked, n_failed);
    return check_failed ? 1 : 0;
}
