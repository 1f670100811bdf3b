/* checkasm driver: options, levels, seeds, the filter, failures and bench lines. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "checkasm/checkasm.h"
#include "base/cpu.h"

static struct {
    uint32_t seed, state;
    const char *filter, *plant;
    int bench, list;
    const char *fn_name, *fn_level;
    int fn_failed;
    int n_checked, n_failed;
    const void *passed[256];
    int n_passed;
} g;

static CheckLevel levels[3];
static int n_levels;

int check_n_levels(void)
{
    return n_levels;
}

const CheckLevel *check_level(const int i)
{
    return &levels[i];
}

static void *must_alloc(const size_t bytes)
{
    void *p = malloc(bytes);
    if (!p) {
        fprintf(stderr, "checkasm: out of memory\n");
        exit(2);
    }
    return p;
}

void check_each_level(const size_t size, CheckInitTable *const init, CheckLevelRun *const run,
                      void *const arg)
{
    void *c = must_alloc(size), *d = must_alloc(size);
    init(c, 0);
    for (int i = 0; i < n_levels; i++) {
        init(d, levels[i].cpu);
        run(c, d, levels[i].name, arg);
    }
    free(c);
    free(d);
}

static uint32_t hash_str(const char *s, uint32_t h)
{
    while (*s)
        h = (h ^ (unsigned char)*s++) * 16777619u;
    return h;
}

static void end_func(void)
{
    if (!g.fn_name)
        return;
    if (g.fn_failed)
        g.n_failed++;
    else if (g.n_passed < 256)
        g.n_passed++; /* keeps the pointer check_func stored: later levels skip it */
    g.fn_name = NULL;
}

int check_func(const void *fn, const void *ref, const char *name, const char *lvl)
{
    end_func();
    if (fn == ref)
        return 0;
    if (g.filter && strncmp(name, g.filter, strlen(g.filter)))
        return 0;
    for (int i = 0; i < g.n_passed; i++)
        if (g.passed[i] == fn)
            return 0;
    if (g.list) {
        printf("%s_%s\n", name, lvl);
        return 0;
    }
    g.fn_name = name;
    g.fn_level = lvl;
    g.fn_failed = 0;
    g.n_checked++;
    g.state = hash_str(name, g.seed * 2654435761u + 1) | 1;
    if (g.n_passed < 256)
        g.passed[g.n_passed] = fn; /* remembered if it passes */
    return 1;
}

int check_fail(const char *fmt, ...)
{
    if (g.fn_failed)
        return 0;
    g.fn_failed = 1;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL %s_%s (seed %u): ", g.fn_name, g.fn_level, g.seed);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 1;
}

int check_planted(void)
{
    return g.plant && g.fn_name && !strncmp(g.fn_name, g.plant, strlen(g.plant));
}

int check_benching(void)
{
    return g.bench;
}

double check_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

void check_bench_report(const char *what, const double ns_new, const double ns_ref)
{
    printf("  bench %-36s %-10s %10.1f ns  (C %10.1f ns, %5.2fx)\n", what, g.fn_level, ns_new,
           ns_ref, ns_ref / ns_new);
}

uint32_t check_rand(void)
{
    uint32_t x = g.state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return g.state = x;
}

void check_fill(void *buf, const size_t n, const int bytes, const unsigned bits, const int pattern)
{
    const uint32_t max = bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1;
    const uint32_t base = check_rand() & max;
    for (size_t i = 0; i < n; i++) {
        uint32_t v;
        switch (pattern) {
        case 1: v = 0; break;
        case 2: v = max; break;
        case 3: v = (i & 1) ? max : 0; break;
        case 4: v = max - (check_rand() & (max >> 4)); break;
        case 5: v = (uint32_t)((base + i * 7) & max); break;
        default: v = check_rand() & max; break;
        }
        if (bytes == 1)
            ((uint8_t *)buf)[i] = (uint8_t)v;
        else if (bytes == 2)
            ((uint16_t *)buf)[i] = (uint16_t)v;
        else
            ((uint32_t *)buf)[i] = v;
    }
}

void check_fill_floats(float *const p, const size_t n, const unsigned bits, const int pattern,
                       const float offset)
{
    static uint16_t *v;
    static size_t cap;
    if (n > cap) {
        free(v);
        v = must_alloc(n * sizeof(*v));
        cap = n;
    }
    check_fill(v, n, 2, bits, pattern);
    const float scaler = (float)(1u << (bits - 8));
    for (size_t j = 0; j < n; j++)
        p[j] = v[j] / scaler + offset;
}

int check_next_width(const int w)
{
    if (w < 67)
        return w + 1;
    static const int big[] = { 127, 128, 255, 256, 511, 1023, 1920, 1921, 4097, 0 };
    for (int i = 0; big[i]; i++)
        if (big[i] > w)
            return big[i];
    return 0;
}

int main(int argc, char **argv)
{
    g.seed = (uint32_t)time(NULL);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            g.seed = (uint32_t)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--function") && i + 1 < argc)
            g.filter = argv[++i];
        else if (!strcmp(argv[i], "--plant") && i + 1 < argc)
            g.plant = argv[++i];
        else if (!strcmp(argv[i], "--bench"))
            g.bench = 1;
        else if (!strcmp(argv[i], "--list"))
            g.list = 1;
        else {
            fprintf(stderr,
                    "usage: %s [--seed N] [--function PATTERN] [--bench] "
                    "[--plant PATTERN] [--list]\n",
                    argv[0]);
            return 2;
        }
    }
    const unsigned cpu = ev_cpu_detect();
    static const CheckLevel all[3] = {
        { "avx2", EV_CPU_SSE2 | EV_CPU_SSSE3 | EV_CPU_SSE41 | EV_CPU_AVX2 },
        { "avx512", EV_CPU_SSE2 | EV_CPU_SSSE3 | EV_CPU_SSE41 | EV_CPU_AVX2 | EV_CPU_AVX512 },
        { "avx512icl", EV_CPU_ALL },
    };
    for (int i = 0; i < 3; i++)
        if ((cpu & all[i].cpu) == all[i].cpu)
            levels[n_levels++] = all[i];
    if (!g.list) {
        printf("checkasm: seed %u, levels:", g.seed);
        for (int i = 0; i < n_levels; i++)
            printf(" %s", levels[i].name);
        printf("%s\n", n_levels ? "" : " none (no SIMD on this CPU: nothing to check)");
    }
    checkasm_vif();
    checkasm_adm();
    checkasm_motion();
    checkasm_psnr();
    checkasm_float_vif();
    checkasm_ssim();
    checkasm_xpsnr();
    checkasm_cambi();
    checkasm_speed();
    end_func();
    if (g.list)
        return 0;
    printf("checkasm: %d kernels checked, %d failed (seed %u)\n", g.n_checked, g.n_failed, g.seed);
    return g.n_failed ? 1 : 0;
}
