/*
 * bench_twins [frames [streams [kernels]]]: the CUDA twins on the GPU (built with CUDA only);
 * "kernels" stops after part 1.
 *  1. Device time per frame of each twin (CUDA events around the twin's launcher, median of
 *     --frames runs) at 1920x1080, 3840x2160 and 7680x4320, next to the time to read its input
 *     planes once at the device memory bandwidth measured here (device-to-device copy).
 *  2. End-to-end frames per second of float_moment + psnr + float_psnr together through the
 *     public API, CPU (all cores) against CUDA, next to the measured pinned host-to-device copy
 *     bandwidth and the frame rate that copy alone allows. The CUDA run uses borrowed (pinned)
 *     frame slots, each filled once: frames already in host memory, as a decoder would leave
 *     them; the CPU run copies caller frames (ev_send_pictures).
 */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/extractor.h"
#include "features/registry.h"
#include "cuda/runtime.h"
#include "bench_run.h"
#include "exactvmaf/exactvmaf.h"
#include "features/moment/moment.h"
#include "features/psnr/psnr.h"

typedef void (*LaunchFn)(const void *state, const EvPic *ref, const EvPic *dis);
static const char *const twins[] = { "float_moment", "psnr", "float_psnr" };
static const LaunchFn launchers[] = { ev_moment_launch_cuda, ev_psnr_launch_cuda,
                                      ev_float_psnr_launch_cuda };

/* Median device time of one twin's kernels (CUDA events around its launcher, nothing else in
 * between) on an uploaded 8-bit 4:2:0 frame. */
static float twin_device_ms(unsigned t, unsigned w, unsigned h, unsigned frames)
{
    const EvExtractorClass *cls = ev_find_twin(twins[t]);
    const size_t frame = (size_t)w * h * 3 / 2;
    uint8_t *slot = ev_cuda_host_alloc(2 * frame);
    EvCudaWorker *gpu = NULL;
    EvLog log = { 0 };
    if (!cls || !slot || ev_cuda_worker_open(&gpu, 0, 2 * frame, &log))
        return -1;
    bench_fill_noise(slot, 2 * frame, 7);
    EvPic ref, dis;
    bench_pic_from_packed(&ref, slot, w, h, 8);
    bench_pic_from_packed(&dis, slot + frame, w, h, 8);
    void *opts = calloc(1, cls->opts_size + 1), *state = calloc(1, cls->state_size + 1);
    ev_options_defaults(cls, opts);
    const EvPicInfo info = { w, h, 8, EV_PIX_420, 0 };
    cls->init(state, opts, &info, &log);
    ev_cuda_upload(gpu, slot, &ref, &dis, 0);
    ev_cuda_finish(gpu, "upload");
    /* every launch is queued behind an event, with no host wait in between, so an interval
     * is one launch's device time (the GPU never waits for the host) */
    float *ms = calloc(frames, sizeof(*ms));
    cudaEvent_t *ev = calloc(frames + 1, sizeof(*ev));
    for (unsigned i = 0; i <= frames; i++)
        cudaEventCreate(&ev[i]);
    cudaStream_t stream = (cudaStream_t)ev_cuda_stream(gpu);
    launchers[t](state, &ref, &dis); /* warm-up */
    for (unsigned i = 0; i < frames; i++) {
        cudaEventRecord(ev[i], stream);
        launchers[t](state, &ref, &dis);
    }
    cudaEventRecord(ev[frames], stream);
    cudaEventSynchronize(ev[frames]);
    for (unsigned i = 0; i < frames; i++)
        cudaEventElapsedTime(&ms[i], ev[i], ev[i + 1]);
    for (unsigned i = 0; i <= frames; i++)
        cudaEventDestroy(ev[i]);
    free(ev);
    return bench_twin_finish(cls, state, opts, ms, frames, &gpu, slot);
}

/* Bytes of input planes each twin reads (8-bit 4:2:0, both pictures). */
static double twin_bytes(const char *name, unsigned w, unsigned h)
{
    const double luma = (double)w * h;
    return 2 * (strcmp(name, "psnr") ? luma : luma * 1.5);
}

int main(int argc, char **argv)
{
    const unsigned frames = argc > 1 ? (unsigned)atoi(argv[1]) : 200;
    if (ev_gpu_count() <= 0) {
        printf("bench_twins: no CUDA device\n");
        return 77;
    }
    const double dev_bw = bench_device_bandwidth(), h2d_bw = bench_h2d_bandwidth();
    printf("device memory bandwidth (D2D copy, read+write): %.0f GB/s\n", dev_bw / 1e9);
    printf("pinned host-to-device bandwidth: %.1f GB/s\n\n", h2d_bw / 1e9);
    const unsigned sizes[3][2] = { { 1920, 1080 }, { 3840, 2160 }, { 7680, 4320 } };
    printf(
        "| twin | size | device ms/frame (median of %u) | input read at bandwidth, ms | ratio |\n",
        frames);
    printf("|---|---|---|---|---|\n");
    for (unsigned t = 0; t < 3; t++)
        for (unsigned k = 0; k < 3; k++) {
            const unsigned w = sizes[k][0], h = sizes[k][1];
            const float ms = twin_device_ms(t, w, h, frames);
            const double mem_ms = 1e3 * twin_bytes(twins[t], w, h) / dev_bw;
            printf("| %s | %ux%u | %.4f | %.4f | %.2fx |\n", twins[t], w, h, ms, mem_ms,
                   ms / mem_ms);
        }
    if (argc > 3 && !strcmp(argv[3], "kernels"))
        return 0;
    const unsigned cores = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    const unsigned streams = argc > 2 ? (unsigned)atoi(argv[2]) : 4;
    printf("\nend to end, float_moment + psnr + float_psnr, 8-bit 4:2:0, frames in host memory\n");
    printf("| size | CPU fps (%u threads) | CUDA fps (%u streams) | H2D-bound fps | CUDA / H2D |\n",
           cores, streams);
    printf("|---|---|---|---|---|\n");
    for (unsigned k = 0; k < 3; k++) {
        const unsigned w = sizes[k][0], h = sizes[k][1];
        const unsigned n = k == 2 ? frames / 4 : frames;
        uint8_t *host = malloc(2 * bench_frame_bytes(w, h));
        if (!host)
            return 1;
        bench_fill_noise(host, 2 * bench_frame_bytes(w, h), 11);
        const double cpu = bench_fps(EV_BACKEND_CPU, twins, 3, host, w, h, n / 4 + 4, 24, cores);
        const double gpu = bench_fps(EV_BACKEND_CUDA, twins, 3, host, w, h, n, 24, streams);
        free(host);
        const double bound = h2d_bw / (2.0 * w * h * 1.5);
        printf("| %ux%u | %.1f | %.1f | %.1f | %.0f%% |\n", w, h, cpu, gpu, bound,
               100 * gpu / bound);
    }
    return 0;
}
