/* Shared by the CUDA benchmarks: timing, host-to-device bandwidth, frame contents and a
 * throughput run of a set of extractors through the public API (8-bit 4:2:0 frames already
 * in host memory). */
#ifndef EV_BENCH_CUDA_RUN_H
#define EV_BENCH_CUDA_RUN_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include "base/extractor.h"
#include "base/picture.h"
#include "cuda/runtime.h"
#include "exactvmaf/exactvmaf.h"

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline void bench_fill_noise(uint8_t *buf, size_t n, uint32_t seed)
{
    uint32_t x = seed;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        buf[i] = (uint8_t)(x >> 24);
    }
}

static inline int bench_cmp_float(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

/* The end of a twin's timed run: the median of its frames' times ms[frames], and the class's
 * state, its options, the times, the worker and the host slot all given back. */
static inline float bench_twin_finish(const EvExtractorClass *cls, void *state, void *opts,
                                      float *ms, unsigned frames, EvCudaWorker **gpu, void *slot)
{
    qsort(ms, frames, sizeof(*ms), bench_cmp_float);
    const float median = ms[frames / 2];
    if (cls->close)
        cls->close(state);
    free(ms);
    free(opts);
    free(state);
    ev_cuda_worker_close(gpu);
    ev_cuda_host_free(slot);
    return median;
}

/* Device bandwidth: bytes read + written by a large device-to-device copy, per second (the
 * best of 10 copies of 1 GiB). */
static inline double bench_device_bandwidth(void)
{
    const size_t n = (size_t)1 << 30;
    void *a, *b;
    if (cudaMalloc(&a, n) || cudaMalloc(&b, n))
        return 0;
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    cudaMemcpy(b, a, n, cudaMemcpyDeviceToDevice);
    float best = 1e30f;
    for (int i = 0; i < 10; i++) {
        cudaEventRecord(e0, 0);
        cudaMemcpy(b, a, n, cudaMemcpyDeviceToDevice);
        cudaEventRecord(e1, 0);
        cudaEventSynchronize(e1);
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        if (ms < best)
            best = ms;
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cudaFree(a);
    cudaFree(b);
    return 2.0 * n / (best * 1e-3);
}

/* Pinned host-to-device copy bandwidth, bytes per second (best of 10 copies of 256 MiB). */
static inline double bench_h2d_bandwidth(void)
{
    const size_t n = (size_t)256 << 20;
    void *h, *d;
    if (cudaMallocHost(&h, n) || cudaMalloc(&d, n))
        return 0;
    memset(h, 1, n);
    double best = 1e30;
    for (int i = 0; i < 10; i++) {
        const double t0 = bench_now();
        cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);
        const double dt = bench_now() - t0;
        if (dt < best)
            best = dt;
    }
    cudaFreeHost(h);
    cudaFree(d);
    return n / best;
}

/* A packed 4:2:0 picture of bpc bits at buf. */
static inline EvPicture bench_picture_depth(uint8_t *buf, unsigned w, unsigned h, unsigned bpc)
{
    const unsigned cw = (w + 1) / 2, ch = (h + 1) / 2, bytes = bpc > 8 ? 2 : 1;
    const size_t luma = (size_t)w * h * bytes, chroma = (size_t)cw * ch * bytes;
    return (
        EvPicture){ w,
                    h,
                    bpc,
                    EV_PIX_420,
                    { buf, buf + luma, buf + luma + chroma },
                    { (ptrdiff_t)(w * bytes), (ptrdiff_t)(cw * bytes), (ptrdiff_t)(cw * bytes) } };
}

static inline EvPicture bench_picture(uint8_t *buf, unsigned w, unsigned h)
{
    return bench_picture_depth(buf, w, h, 8);
}

/* The engine's view of a packed 4:2:0 picture of bpc bits at buf (for calling twins directly). */
static inline void bench_pic_from_packed(EvPic *p, uint8_t *buf, unsigned w, unsigned h,
                                         unsigned bpc)
{
    const unsigned bytes = bpc > 8 ? 2 : 1;
    memset(p, 0, sizeof(*p));
    p->bpc = bpc;
    p->layout = EV_PIX_420;
    for (unsigned i = 0; i < 3; i++) {
        ev_plane_size(w, h, EV_PIX_420, i, &p->w[i], &p->h[i]);
        p->stride[i] = (ptrdiff_t)(p->w[i] * bytes);
        p->data[i] = buf;
        buf += (size_t)p->stride[i] * p->h[i];
    }
}

/* Noise of bpc bits (16-bit samples above 8 bits) over n bytes. */
static inline void bench_fill_depth(uint8_t *buf, size_t n, unsigned bpc, uint32_t seed)
{
    bench_fill_noise(buf, n, seed);
    if (bpc > 8)
        for (size_t i = 0; i + 1 < n; i += 2)
            buf[i + 1] &= (uint8_t)((1u << (bpc - 8)) - 1);
}

/* A scene rather than noise, for extractors whose work depends on content (cambi's banding,
 * speed's variances): every plane of a packed 4:2:0 frame a smooth diagonal gradient over the
 * whole range, quantised to bpc bits, plus noise of +-amp codes (amp 0: bands, no noise). */
static inline void bench_fill_scene(uint8_t *buf, unsigned w, unsigned h, unsigned bpc,
                                    unsigned amp, uint32_t seed)
{
    const unsigned max = (1u << bpc) - 1, bytes = bpc > 8 ? 2 : 1;
    uint32_t x = seed;
    for (unsigned p = 0; p < 3; p++) {
        const unsigned pw = p ? (w + 1) / 2 : w, ph = p ? (h + 1) / 2 : h;
        for (unsigned i = 0; i < ph; i++)
            for (unsigned j = 0; j < pw; j++) {
                x = x * 1664525u + 1013904223u;
                const int noise = amp ? (int)(x >> 16) % (int)(2 * amp + 1) - (int)amp : 0;
                int v = (int)((double)(i + j + p * 97) / (double)(pw + ph) * max) + noise;
                v = v < 0 ? 0 : v > (int)max ? (int)max : v;
                if (bytes == 1)
                    *buf++ = (uint8_t)v;
                else {
                    const uint16_t u = (uint16_t)v;
                    memcpy(buf, &u, 2);
                    buf += 2;
                }
            }
    }
}

static inline size_t bench_frame_bytes(unsigned w, unsigned h)
{
    return (size_t)w * h + 2 * (size_t)((w + 1) / 2) * ((h + 1) / 2);
}

static inline size_t bench_frame_bytes_depth(unsigned w, unsigned h, unsigned bpc)
{
    return bench_frame_bytes(w, h) * (bpc > 8 ? 2 : 1);
}

/*
 * Frames per second of the extractors features[0 .. n_features - 1] ("name", "name=options",
 * or "model:SPEC" for a model) over `frames` timed frames of bpc bits, after `warmup` untimed
 * ones that fill every slot and allocate everything. host holds ref then dis
 * (bench_frame_bytes_depth each). The CPU run sends caller frames (ev_send_pictures, one copy
 * each); the CUDA run borrows pinned slots and fills each slot once, as a decoder writing in
 * place would. -1 on an error.
 */
static inline double bench_fps_depth(EvBackend backend, const char *const *features,
                                     unsigned n_features, const uint8_t *host, unsigned w,
                                     unsigned h, unsigned bpc, unsigned frames, unsigned warmup,
                                     unsigned threads)
{
    EvSettings s;
    ev_default_settings(&s);
    s.backend = backend;
    s.n_threads = threads;
    EvContext *c;
    if (ev_open(&c, &s))
        return -1;
    for (unsigned i = 0; i < n_features; i++) {
        if (!strncmp(features[i], "model:", 6)) {
            if (ev_use_model(c, features[i] + 6)) {
                ev_close(&c);
                return -1;
            }
            continue;
        }
        char name[64];
        const char *eq = strchr(features[i], '=');
        const size_t len = eq ? (size_t)(eq - features[i]) : strlen(features[i]);
        memcpy(name, features[i], len < 63 ? len : 63);
        name[len < 63 ? len : 63] = '\0';
        if (ev_use_feature(c, name, eq ? eq + 1 : NULL)) {
            ev_close(&c);
            return -1;
        }
    }
    const size_t frame = bench_frame_bytes_depth(w, h, bpc);
    const EvPicture ref = bench_picture_depth((uint8_t *)host, w, h, bpc);
    const EvPicture dis = bench_picture_depth((uint8_t *)host + frame, w, h, bpc);
    const void *filled[64] = { 0 };
    unsigned n_filled = 0;
    int err = 0;
    double t0 = bench_now();
    for (unsigned i = 0; i < warmup + frames && !err; i++) {
        if (i == warmup)
            t0 = bench_now();
        if (backend == EV_BACKEND_CPU) {
            err = ev_send_pictures(c, &ref, &dis);
            continue;
        }
        EvPicture br, bd;
        err = ev_borrow_pictures(c, w, h, bpc, EV_PIX_420, &br, &bd);
        if (err)
            break;
        int seen = 0;
        for (unsigned k = 0; k < n_filled; k++)
            seen |= filled[k] == br.data[0];
        if (!seen && n_filled < 64) {
            filled[n_filled++] = br.data[0];
            memcpy((void *)br.data[0], host, frame);
            memcpy((void *)bd.data[0], host + frame, frame);
        }
        err = ev_submit_pictures(c);
    }
    if (!err)
        err = ev_flush(c);
    const double dt = bench_now() - t0;
    ev_close(&c);
    return err ? -1 : frames / dt;
}

static inline double bench_fps(EvBackend backend, const char *const *features, unsigned n_features,
                               const uint8_t *host, unsigned w, unsigned h, unsigned frames,
                               unsigned warmup, unsigned threads)
{
    return bench_fps_depth(backend, features, n_features, host, w, h, 8, frames, warmup, threads);
}

#endif
