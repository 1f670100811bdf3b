/* The C library's rate on device pictures, for the Python package's GPU benchmark
 * (tests/python/bench_gpu.py): N 8-bit 4:2:0 frame pairs of a raw file, uploaded once with one
 * pitch, then scored with vmaf_v0.6.1 (or the one extractor FEATURE, no model) by
 * ev_lend_device_pictures on the CUDA backend: the twins' rate with no input path around them.
 * usage: bench_gpu REF.yuv DIS.yuv WIDTH HEIGHT FRAMES ROUNDS THREADS [FEATURE]
 * prints per round: seconds to ev_flush, fps, the pooled mean's %.17g (0 with FEATURE), the
 * backend, seconds to ev_close, fps. Built by bench_gpu.py and the device runs, not CMake. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "exactvmaf/cuda.h"
#include "exactvmaf/exactvmaf.h"

static void nop(void *u)
{
    (void)u;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static unsigned char *upload(const char *path, size_t frame, unsigned n)
{
    unsigned char *h = malloc(frame * n), *d = NULL;
    FILE *f = fopen(path, "rb");
    if (!h || !f || fread(h, frame, n, f) != n || cudaMalloc((void **)&d, frame * n) ||
        cudaMemcpy(d, h, frame * n, cudaMemcpyHostToDevice))
        exit(2);
    fclose(f);
    free(h);
    return d;
}

int main(int argc, char **argv)
{
    if (argc != 8 && argc != 9)
        return 1;
    const char *feature = argc == 9 ? argv[8] : NULL;
    const unsigned w = (unsigned)atoi(argv[3]), h = (unsigned)atoi(argv[4]);
    const unsigned n = (unsigned)atoi(argv[5]), rounds = (unsigned)atoi(argv[6]);
    const size_t frame = (size_t)w * h * 3 / 2;
    unsigned char *r = upload(argv[1], frame, n), *d = upload(argv[2], frame, n);
    for (unsigned k = 0; k < rounds; k++) {
        EvSettings s;
        ev_default_settings(&s);
        s.backend = EV_BACKEND_CUDA;
        s.n_threads = (unsigned)atoi(argv[7]);
        EvContext *c;
        const double t0 = now();
        if (ev_open(&c, &s) ||
            (feature ? ev_use_feature(c, feature, NULL) : ev_use_model(c, "version=vmaf_v0.6.1")))
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
            if (ev_lend_device_pictures(c, &a, &b, NULL, nop, NULL))
                return 4;
        }
        double v = 0;
        if (ev_flush(c) || (!feature && ev_get_pooled(c, "vmaf", EV_POOL_MEAN, &v)))
            return 5;
        const double dt = now() - t0;
        const char *backend = ev_backend_name(c);
        ev_close(&c);
        /* exactvmaf.score() closes its context before it returns: the rate with ev_close is
         * the one to compare it with */
        const double dt_closed = now() - t0;
        printf("%.4f %.2f %.17g %s %.4f %.2f\n", dt, n / dt, v, backend, dt_closed, n / dt_closed);
    }
    return 0;
}
