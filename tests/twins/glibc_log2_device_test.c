/* The device's ev_glibc_log2 (libm/glibc_log2.h) against this host's glibc log2, bit for bit:
 * every float argument (all 2^32 bit patterns, in chunks: device results copied back, host
 * comparison on all cores), then N seeded weight arguments (speed_weight_arg modes 3-6) and
 * N random positive doubles. Exit 77 without a device or without glibc's FMA build of log2.
 *   glibc_log2_device_test [N [seed [threads]]]   (default N = 10^8, seed 1, threads = cores)
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "libm/glibc_log2_check.h"
#include "cuda/runtime.h"
#include "unit/glibc_log2_inputs.h"

enum { CHUNK = 1 << 24, MAX_THREADS = 256 };

typedef struct Part {
    const double *arg, *got; /* arg NULL: float bits first + i */
    uint32_t first;
    size_t begin, end;
    uint64_t differ, first_bad;
} Part;

static void *compare(void *p_)
{
    Part *p = p_;
    for (size_t i = p->begin; i < p->end; i++) {
        const double x = p->arg ? p->arg[i] : (double)l2in_float_of(p->first + (uint32_t)i);
        if (ev_bits64(p->got[i]) != ev_bits64(log2(x)) && !p->differ++)
            p->first_bad = ev_bits64(x);
    }
    return NULL;
}

/* Compare got[0..n) (of arg, or of floats from first) on threads; returns the differences. */
static uint64_t compare_all(const double *arg, const double *got, uint32_t first, size_t n,
                            int threads)
{
    Part part[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    for (int t = 0; t < threads; t++) {
        part[t] = (Part){ arg, got, first, n * t / threads, n * (t + 1) / threads, 0, 0 };
        pthread_create(&tid[t], NULL, compare, &part[t]);
    }
    uint64_t differ = 0;
    for (int t = 0; t < threads; t++) {
        pthread_join(tid[t], NULL);
        if (part[t].differ && !differ)
            printf("first difference: log2 of 0x%016" PRIx64 "\n", part[t].first_bad);
        differ += part[t].differ;
    }
    return differ;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    char why[256];
    if (ev_cuda_probe(0, why, sizeof(why))) {
        printf("skipped: %s\n", why);
        return 77;
    }
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("fma") || !__builtin_cpu_supports("avx2")) {
        printf("skipped: glibc runs its non-FMA log2 on this CPU\n");
        return 77;
    }
#else
    printf("skipped: not x86-64\n");
    return 77;
#endif
    const size_t n = argc > 1 ? strtoull(argv[1], NULL, 0) : 100000000u;
    const uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = argc > 3 ? atoi(argv[3]) : (int)(cores > 0 ? cores : 2);
    threads = threads < 1 ? 1 : threads > MAX_THREADS ? MAX_THREADS : threads;
    double *got = malloc(CHUNK * sizeof(double)), *arg = malloc(CHUNK * sizeof(double));
    if (!got || !arg)
        return 1;
    double t0 = now();
    uint64_t differ = 0, checked = 0;
    for (uint64_t first = 0; first < (1ull << 32); first += CHUNK) {
        if (ev_cuda_glibc_log2_floats((uint32_t)first, CHUNK, got))
            return printf("device error\n"), 1;
        differ += compare_all(NULL, got, (uint32_t)first, CHUNK, threads);
        checked += CHUNK;
    }
    printf("device, all float arguments: %" PRIu64 " checked, %" PRIu64 " differ (%.1f s)\n",
           checked, differ, now() - t0);
    uint64_t s = seed;
    for (int kind = 0; kind < 2; kind++) {
        t0 = now();
        uint64_t kd = 0;
        for (size_t done = 0; done < n; done += CHUNK) {
            const size_t m = n - done < CHUNK ? n - done : CHUNK;
            for (size_t i = 0; i < m; i++)
                arg[i] = kind ? ev_double_of(l2in_next(&s) >> 1) : l2in_weight_arg(&s);
            if (ev_cuda_glibc_log2_doubles(arg, m, got))
                return printf("device error\n"), 1;
            kd += compare_all(arg, got, 0, m, threads);
        }
        printf("device, %s: %zu checked, %" PRIu64 " differ (seed %" PRIu64 ", %.1f s)\n",
               kind ? "random doubles" : "weight arguments", n, kd, seed, now() - t0);
        differ += kd;
    }
    free(got);
    free(arg);
    return differ ? 1 : 0;
}
