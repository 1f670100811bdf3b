/* The C library's CPU rate on frames in memory, for the Python package's CPU benchmark
 * (tests/python/bench_cpu.py): N 8-bit 4:2:0 frame pairs of raw files, read into memory, then
 * scored with vmaf_v0.6.1, lent in place (ev_lend_pictures) as the numpy path lends them.
 * usage: bench_cpu REF.yuv DIS.yuv WIDTH HEIGHT FRAMES THREADS
 * prints: seconds, CPU seconds, the pooled mean's %.17g. Built by bench_cpu.py, not CMake. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "exactvmaf/exactvmaf.h"

static void nop(void *u)
{
    (void)u;
}

static double now(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static unsigned char *load(const char *path, size_t frame, unsigned n)
{
    unsigned char *h = malloc(frame * n);
    FILE *f = fopen(path, "rb");
    if (!h || !f || fread(h, frame, n, f) != n)
        exit(2);
    fclose(f);
    return h;
}

int main(int argc, char **argv)
{
    if (argc != 7)
        return 1;
    const unsigned w = (unsigned)atoi(argv[3]), h = (unsigned)atoi(argv[4]);
    const unsigned n = (unsigned)atoi(argv[5]);
    const size_t frame = (size_t)w * h * 3 / 2;
    const unsigned char *r = load(argv[1], frame, n), *d = load(argv[2], frame, n);
    const double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
    EvSettings s;
    ev_default_settings(&s);
    s.n_threads = (unsigned)atoi(argv[6]);
    EvContext *c;
    if (ev_open(&c, &s) || ev_use_model(c, "version=vmaf_v0.6.1"))
        return 3;
    for (unsigned i = 0; i < n; i++) {
        const size_t at = i * frame;
        EvPicture a = { w,
                        h,
                        8,
                        EV_PIX_420,
                        { r + at, r + at + w * h, r + at + w * h * 5 / 4 },
                        { w, w / 2, w / 2 } };
        EvPicture b = a;
        for (int p = 0; p < 3; p++)
            b.data[p] = d + ((const unsigned char *)a.data[p] - r);
        if (ev_lend_pictures(c, &a, &b, nop, NULL))
            return 4;
    }
    double v = 0;
    if (ev_flush(c) || ev_get_pooled(c, "vmaf", EV_POOL_MEAN, &v))
        return 5;
    ev_close(&c);
    printf("%.4f %.4f %.17g\n", now(CLOCK_MONOTONIC) - t0, now(CLOCK_PROCESS_CPUTIME_ID) - c0, v);
    return 0;
}
