/*
 * The device libm of the ciede twin (glibc_exp_pow.h) against this host's glibc,
 * bit for bit, on the arguments ciede produces: ciede_math.h is compiled here with its host
 * libm calls wrapped (CIEDE_HOST_*), each wrapper calling glibc and the replica and counting
 * the calls whose bits differ or which the replica refuses (NaN: outside its proven range).
 *
 *   exactvmaf-ciede-libm-check                    CI (ctest unit_libm): a few seconds of
 *                                                 each mode below, seeded
 *   exactvmaf-ciede-libm-check pow7 [threads]     every float c in [0, FLT_MAX]: powf(c, 7)
 *                                                 and pow(c, 7) (2^31 - 2^23 inputs)
 *   exactvmaf-ciede-libm-check lab BPC [threads [N]]
 *                                                 ciede_lab_of (pow(x, 2.4), pow(t, 1/3)) of
 *                                                 every YCbCr triple of BPC bits, or of N
 *                                                 random ones
 *   exactvmaf-ciede-libm-check de BPC N [threads [seed]]
 *                                                 ciede2000 of N random pairs of colours of
 *                                                 random triples (every libm call of
 *                                                 ciede2000)
 *   exactvmaf-ciede-libm-check sincos N [threads] sin and cos of N random x, |x| < 32
 *   exactvmaf-ciede-libm-check atan2 N [threads]  atan2 of N random pairs of floats
 *
 * Exit status 0 when every call matched and none was refused, 1 otherwise (the first
 * mismatches printed with their bits), 77 on a CPU without FMA (glibc then runs other code).
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libm/glibc_exp_pow.h"
#include "libm/glibc_ibm_tables.h"

/* Through volatile pointers so that the compiler cannot fold or expand glibc's calls. */
static float (*volatile glibc_powf)(float, float) = powf;
static double (*volatile glibc_pow)(double, double) = pow;
static double (*volatile glibc_exp)(double) = exp;
static double (*volatile glibc_sin)(double) = sin;
static double (*volatile glibc_cos)(double) = cos;
static double (*volatile glibc_atan2)(double, double) = atan2;

/* glibc's tables, read from this process's libm (main). */
static EvGlibcTables tables;

enum { FN_POW, FN_POWF7, FN_EXP, FN_SIN, FN_COS, FN_ATAN2, FN_COUNT };
static const char *const fn_names[FN_COUNT] = { "pow", "powf(c, 7)", "exp", "sin", "cos", "atan2" };

typedef struct Tally {
    uint64_t calls[FN_COUNT], bad[FN_COUNT], refused[FN_COUNT];
} Tally;

static _Thread_local Tally *tally;
static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned printed;

static void report(const int fn, const double x, const double y, const double want,
                   const double got)
{
    pthread_mutex_lock(&print_lock);
    if (printed++ < 20)
        fprintf(stderr,
                "%s(%a, %a): glibc %.17g (0x%016" PRIx64 "), replica %.17g (0x%016" PRIx64 ")\n",
                fn_names[fn], x, y, want, ev_bits64(want), got, ev_bits64(got));
    pthread_mutex_unlock(&print_lock);
}

static void count(const int fn, const double x, const double y, const double want, const double got)
{
    tally->calls[fn]++;
    if (ev_bits64(want) == ev_bits64(got))
        return;
    if (isnan(got) && !isnan(want))
        tally->refused[fn]++;
    else
        tally->bad[fn]++;
    report(fn, x, y, want, got);
}

static double wrap_pow(const double x, const double y)
{
    const double want = glibc_pow(x, y);
    count(FN_POW, x, y, want, ev_glibc_pow(x, y));
    return want;
}

static float wrap_powf7(const float c)
{
    const float want = glibc_powf(c, 7.0f), got = ev_glibc_powf(c, 7.0f);
    count(FN_POWF7, c, 7, want, got);
    return want;
}

static double wrap_exp(const double x)
{
    const double want = glibc_exp(x);
    count(FN_EXP, x, 0, want, ev_glibc_exp(x));
    return want;
}

static double wrap_sin(const double x)
{
    const double want = glibc_sin(x);
    count(FN_SIN, x, 0, want, ev_glibc_sin(x, tables.sincos));
    return want;
}

static double wrap_cos(const double x)
{
    const double want = glibc_cos(x);
    count(FN_COS, x, 0, want, ev_glibc_cos(x, tables.sincos));
    return want;
}

static double wrap_atan2(const double y, const double x)
{
    const double want = glibc_atan2(y, x);
    count(FN_ATAN2, y, x, want, ev_glibc_atan2(y, x, tables.atan2));
    return want;
}

#define CIEDE_HOST_ATAN2 wrap_atan2
#define CIEDE_HOST_SIN wrap_sin
#define CIEDE_HOST_COS wrap_cos
#define CIEDE_HOST_POW wrap_pow
#define CIEDE_HOST_POWF7 wrap_powf7
#define CIEDE_HOST_EXP wrap_exp
#include "features/ciede/ciede_math.h"

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

typedef enum Mode {
    MODE_POW7,
    MODE_LAB_ALL,
    MODE_LAB_RANDOM,
    MODE_DE,
    MODE_SINCOS,
    MODE_ATAN2
} Mode;

typedef struct Job {
    Mode mode;
    unsigned bpc;
    uint64_t begin, end, seed;
    Tally t;
} Job;

static float float_of(const uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof(x));
    return x;
}

/* The triple number n of bpc bits each: y in the low bits, then u, then v. */
static CiedeLab lab_of_index(const uint64_t n, const unsigned bpc, const CiedeRange rg)
{
    const uint64_t mask = (1ull << bpc) - 1;
    return ciede_lab_of((double)(n & mask), (double)(n >> bpc & mask),
                        (double)(n >> 2 * bpc & mask), rg);
}

static void *run_job(void *arg)
{
    Job *j = arg;
    tally = &j->t;
    const CiedeRange rg = ciede_range(j->bpc ? j->bpc : 8);
    uint64_t seed = j->seed;
    for (uint64_t n = j->begin; n < j->end; n++) {
        switch (j->mode) {
        case MODE_POW7: {
            const float c = float_of((uint32_t)n);
            wrap_powf7(c);
            wrap_pow((double)c, 7.0);
            break;
        }
        case MODE_SINCOS: {
            /* |x| < 32 uniformly, and 1/8 of the draws below 2^-20 (every path of both) */
            const uint64_t r = splitmix(&seed);
            double x = ((double)(r >> 11) * 0x1p-53) * 64.0 - 32.0;
            if ((r & 7) == 0)
                x = ldexp(x, -25 - (int)(r >> 3 & 31));
            wrap_sin(x);
            wrap_cos(x);
            break;
        }
        case MODE_ATAN2: {
            /* two random floats of random magnitude in [2^-30, 2^10) and sign (ciede's
             * atan2(b, a') takes floats), an eighth of them with one zero */
            const uint64_t r = splitmix(&seed), q = splitmix(&seed);
            float fy = ldexpf((float)(r >> 40) * 0x1p-24f + 1.0f, (int)(r >> 8 & 31) - 30);
            float fx = ldexpf((float)(q >> 40) * 0x1p-24f + 1.0f, (int)(q >> 8 & 31) - 30);
            if ((r & 7) == 0)
                fy = 0.0f;
            else if ((r & 7) == 1)
                fx = 0.0f;
            fy = (r & 16) ? -fy : fy;
            fx = (q & 16) ? -fx : fx;
            wrap_atan2((double)fy, (double)fx);
            break;
        }
        case MODE_LAB_ALL: lab_of_index(n, j->bpc, rg); break;
        case MODE_LAB_RANDOM: lab_of_index(splitmix(&seed), j->bpc, rg); break;
        case MODE_DE: {
            const CiedeLab p = lab_of_index(splitmix(&seed), j->bpc, rg);
            uint64_t r = splitmix(&seed);
            /* half the pairs near each other (the usual case of a distorted video) */
            if (r & 1) {
                const CiedeLab q = lab_of_index(splitmix(&seed), j->bpc, rg);
                ciede2000(p, q);
            } else {
                const uint64_t mask = (1ull << j->bpc) - 1;
                const uint64_t n0 = splitmix(&seed);
                uint64_t n1 = 0;
                for (unsigned c = 0; c < 3; c++) {
                    const int64_t s0 = (int64_t)(n0 >> c * j->bpc & mask);
                    int64_t s1 = s0 + (int64_t)((r >> (8 + 8 * c)) & 15) - 8;
                    s1 = s1 < 0 ? 0 : s1 > (int64_t)mask ? (int64_t)mask : s1;
                    n1 |= (uint64_t)s1 << c * j->bpc;
                }
                ciede2000(lab_of_index(n0, j->bpc, rg), lab_of_index(n1, j->bpc, rg));
            }
            break;
        }
        }
    }
    return NULL;
}

/* Runs [0, total) of a mode over nthreads; prints the tally. @return 0 if all matched. */
static int run_mode(const Mode mode, const unsigned bpc, const uint64_t total, const int nthreads,
                    const uint64_t seed, const char *what)
{
    enum { MAX_THREADS = 256 };
    pthread_t th[MAX_THREADS];
    static Job jobs[MAX_THREADS];
    const time_t start = time(NULL);
    for (int i = 0; i < nthreads; i++) {
        memset(&jobs[i], 0, sizeof(jobs[i]));
        jobs[i].mode = mode;
        jobs[i].bpc = bpc;
        jobs[i].begin = total * (uint64_t)i / (uint64_t)nthreads;
        jobs[i].end = total * (uint64_t)(i + 1) / (uint64_t)nthreads;
        jobs[i].seed = seed + 0x100000001b3ull * (uint64_t)i;
        if (pthread_create(&th[i], NULL, run_job, &jobs[i])) {
            fprintf(stderr, "libm_check: cannot start thread %d\n", i);
            return 1;
        }
    }
    Tally sum = { { 0 }, { 0 }, { 0 } };
    for (int i = 0; i < nthreads; i++) {
        pthread_join(th[i], NULL);
        for (int f = 0; f < FN_COUNT; f++) {
            sum.calls[f] += jobs[i].t.calls[f];
            sum.bad[f] += jobs[i].t.bad[f];
            sum.refused[f] += jobs[i].t.refused[f];
        }
    }
    int fail = 0;
    printf("%s (%" PRIu64 " inputs, %lld s):", what, total, (long long)(time(NULL) - start));
    for (int f = 0; f < FN_COUNT; f++) {
        if (!sum.calls[f])
            continue;
        printf(" %s %" PRIu64 " calls %" PRIu64 " differ %" PRIu64 " refused;", fn_names[f],
               sum.calls[f], sum.bad[f], sum.refused[f]);
        fail |= sum.bad[f] || sum.refused[f];
    }
    printf("\n");
    return fail;
}

static int ci_sample(void)
{
    int fail = 0;
    /* pow7: the floats ciede can see densely (below 2^9), then a spread over all */
    /* pow7: the first 2^20 floats (0 and subnormals: results 0, subnormal or tiny) */
    fail |= run_mode(MODE_POW7, 0, 1u << 20, 1, 0, "pow7 floats [0, 2^-126 * 2^-3)");
    {
        /* every 1021st float of [2^-20, 2^9): the range of ciede's chroma */
        Tally t = { { 0 }, { 0 }, { 0 } };
        tally = &t;
        const uint32_t lo = 0x35800000u, hi = 0x44000000u;
        for (uint32_t u = lo; u < hi; u += 1021u) {
            wrap_powf7(float_of(u));
            wrap_pow((double)float_of(u), 7.0);
        }
        printf("pow7 floats [2^-20, 2^9) step 1021: powf %" PRIu64 " calls %" PRIu64
               " differ %" PRIu64 " refused; pow %" PRIu64 " calls %" PRIu64 " differ %" PRIu64
               " refused\n",
               t.calls[FN_POWF7], t.bad[FN_POWF7], t.refused[FN_POWF7], t.calls[FN_POW],
               t.bad[FN_POW], t.refused[FN_POW]);
        fail |= t.bad[FN_POWF7] || t.refused[FN_POWF7] || t.bad[FN_POW] || t.refused[FN_POW];
    }
    fail |= run_mode(MODE_SINCOS, 0, 1u << 20, 1, 20261200, "sin/cos |x| < 32");
    fail |= run_mode(MODE_ATAN2, 0, 1u << 20, 1, 20261209, "atan2 of random floats");
    fail |= run_mode(MODE_LAB_RANDOM, 8, 1u << 19, 1, 20261201, "lab 8-bit random");
    fail |= run_mode(MODE_LAB_RANDOM, 10, 1u << 18, 1, 20261202, "lab 10-bit random");
    fail |= run_mode(MODE_LAB_RANDOM, 16, 1u << 18, 1, 20261203, "lab 16-bit random");
    fail |= run_mode(MODE_DE, 8, 1u << 18, 1, 20261204, "de 8-bit random pairs");
    fail |= run_mode(MODE_DE, 12, 1u << 17, 1, 20261205, "de 12-bit random pairs");
    return fail;
}

static int threads_arg(const int argc, char **argv, const int i)
{
    const int n = argc > i ? atoi(argv[i]) : 2;
    if (n < 1 || n > 256) {
        fprintf(stderr, "libm_check: threads must be 1..256\n");
        exit(2);
    }
    return n;
}

static unsigned bpc_arg(const char *s)
{
    const unsigned b = (unsigned)atoi(s);
    if (b != 8 && b != 10 && b != 12 && b != 16) {
        fprintf(stderr, "libm_check: bpc must be 8, 10, 12 or 16\n");
        exit(2);
    }
    return b;
}

int main(int argc, char **argv)
{
    /* glibc picks its FMA builds of pow, exp, sin, cos and atan2 on CPUs with FMA; the
     * replicas follow those (glibc_exp_pow.h). Elsewhere there is nothing to compare. */
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("fma")) {
        printf("skipped: this CPU has no FMA, so glibc runs its builds without FMA, which the "
               "replicas do not follow\n");
        return 77;
    }
    char err[512];
    if (ev_glibc_tables_from_libm(&tables, err, sizeof(err))) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    if (argc == 1)
        return ci_sample();
    if (!strcmp(argv[1], "pow7"))
        return run_mode(MODE_POW7, 0, 0x7f800000u, threads_arg(argc, argv, 2), 0,
                        "pow7 all floats [0, FLT_MAX]");
    if (!strcmp(argv[1], "sincos") && argc >= 3)
        return run_mode(MODE_SINCOS, 0, strtoull(argv[2], NULL, 10), threads_arg(argc, argv, 3),
                        20261208, "sin/cos random |x| < 32");
    if (!strcmp(argv[1], "atan2") && argc >= 3)
        return run_mode(MODE_ATAN2, 0, strtoull(argv[2], NULL, 10), threads_arg(argc, argv, 3),
                        20261210, "atan2 of random floats");
    if (!strcmp(argv[1], "lab") && argc >= 3) {
        const unsigned bpc = bpc_arg(argv[2]);
        const int n = threads_arg(argc, argv, 3);
        if (argc > 4)
            return run_mode(MODE_LAB_RANDOM, bpc, strtoull(argv[4], NULL, 10), n, 20261206,
                            "lab random triples");
        if (bpc > 10) {
            fprintf(stderr, "libm_check: all triples of %u bits are too many; give N\n", bpc);
            return 2;
        }
        return run_mode(MODE_LAB_ALL, bpc, 1ull << 3 * bpc, n, 0, "lab all triples");
    }
    if (!strcmp(argv[1], "de") && argc >= 4) {
        const unsigned bpc = bpc_arg(argv[2]);
        const uint64_t n = strtoull(argv[3], NULL, 10);
        const uint64_t seed = argc > 5 ? strtoull(argv[5], NULL, 10) : 20261207;
        return run_mode(MODE_DE, bpc, n, threads_arg(argc, argv, 4), seed, "de random pairs");
    }
    fprintf(stderr,
            "usage: %s [pow7 [threads] | lab BPC [threads [N]] | de BPC N [threads "
            "[seed]] | sincos N [threads] | atan2 N [threads]]\n",
            argv[0]);
    return 2;
}
