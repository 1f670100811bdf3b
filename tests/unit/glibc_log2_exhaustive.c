/*
 * Exhaustive proof that ev_glibc_log2 (src/libm/glibc_log2.h) equals this host's glibc log2 on
 * every float argument widened to double (all 2^32 bit patterns: SpEED's entropy arguments),
 * plus seeded samples of its double arguments. Run by hand on every host whose glibc the CPU
 * reference runs on (scripts/glibc_log2_check.sh runs it and the device check); not a ctest
 * (it takes a minute).
 *
 *   cc -std=c11 -O2 -pthread -ffp-contract=off -Isrc -Itests \
 *      tests/unit/glibc_log2_exhaustive.c -lm -o /tmp/l2x
 *   /tmp/l2x [threads]                      all 2^32 floats
 *   /tmp/l2x --weights N [seed [threads]]   N weight arguments (speed_weight_arg modes 3-6)
 *   /tmp/l2x --doubles N [seed [threads]]   N random positive doubles (any bits)
 *
 * Exit status: 0 when every input matches, 1 otherwise. Prints the counts and the time.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "unit/glibc_log2_inputs.h"

enum { MODE_FLOATS, MODE_WEIGHTS, MODE_DOUBLES, MAX_THREADS = 256 };

typedef struct Job {
    int mode;
    uint64_t begin, end; /* float bits, or draw numbers */
    uint64_t seed;
    uint64_t checked, differ, first_arg, first_got, first_want;
} Job;

static void note(Job *j, const double x, const uint64_t got, const uint64_t want)
{
    if (!j->differ++) {
        j->first_arg = ev_bits64(x);
        j->first_got = got;
        j->first_want = want;
    }
}

static void *run(void *arg)
{
    Job *j = arg;
    uint64_t s = j->seed ^ (j->begin * 0x9e3779b97f4a7c15ull);
    for (uint64_t n = j->begin; n < j->end; n++) {
        double x;
        if (j->mode == MODE_FLOATS)
            x = (double)l2in_float_of((uint32_t)n);
        else if (j->mode == MODE_WEIGHTS)
            x = l2in_weight_arg(&s);
        else
            x = ev_double_of(l2in_next(&s) >> 1);
        uint64_t got, want;
        if (!l2in_same(x, &got, &want))
            note(j, x, got, want);
        j->checked++;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int mode = MODE_FLOATS, a = 1;
    uint64_t total = 1ull << 32, seed = 1;
    if (argc > 1 && !strcmp(argv[1], "--weights"))
        mode = MODE_WEIGHTS;
    else if (argc > 1 && !strcmp(argv[1], "--doubles"))
        mode = MODE_DOUBLES;
    if (mode != MODE_FLOATS) {
        if (argc < 3)
            return fprintf(stderr, "usage: %s --weights|--doubles N [seed [threads]]\n", argv[0]),
                   2;
        total = strtoull(argv[2], NULL, 0);
        seed = argc > 3 ? strtoull(argv[3], NULL, 0) : 1;
        a = 4;
    }
    int threads = argc > a ? atoi(argv[a]) : 2;
    if (threads < 1 || threads > MAX_THREADS)
        threads = 2;
    static Job job[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int t = 0; t < threads; t++) {
        job[t] = (Job){ .mode = mode,
                        .seed = seed,
                        .begin = total * t / threads,
                        .end = total * (t + 1) / threads };
        pthread_create(&tid[t], NULL, run, &job[t]);
    }
    uint64_t checked = 0, differ = 0;
    for (int t = 0; t < threads; t++) {
        pthread_join(tid[t], NULL);
        checked += job[t].checked;
        differ += job[t].differ;
        if (job[t].differ)
            printf("first difference (thread %d): log2 of 0x%016" PRIx64 ": ours 0x%016" PRIx64
                   ", glibc 0x%016" PRIx64 "\n",
                   t, job[t].first_arg, job[t].first_got, job[t].first_want);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    const double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    static const char *const what[] = { "all float arguments", "weight arguments",
                                        "random doubles" };
    printf("%s: %" PRIu64 " checked, %" PRIu64 " differ (seed %" PRIu64 ", %d threads, %.1f s)\n",
           what[mode], checked, differ, seed, threads, secs);
    return differ || checked != total ? 1 : 0;
}
