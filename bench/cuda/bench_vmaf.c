/*
 * bench_vmaf [frames [streams...]]: VMAF on the GPU (built with CUDA only);
 * bench_vmaf --twins W H BITS FRAMES: part 1 at one size (short, for a profiler).
 *  1. Device time per frame of each twin of the v0.6.x models (vif, adm, motion: CUDA events
 *     around the twin's launch on the worker's stream, frames queued back to back in batches
 *     of 32, median of `frames`)
 *     at 1920x1080 and 3840x2160, 8 and 10 bits, next to the time to read its input planes
 *     once at the device memory bandwidth measured here.
 *  2. End-to-end frames per second of vmaf_v0.6.1 through the public API: CPU (all cores)
 *     against CUDA with each stream count given (default 4 8 16), frames already in pinned host
 *     memory (borrowed slots, each filled once), next to the rate the host-to-device copy of
 *     the luma pair alone allows.
 */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_run.h"
#include "core/collector.h"
#include "core/extractor.h"
#include "cuda/runtime.h"
#include "exactvmaf/exactvmaf.h"

/* The twins timed, with their options (cambi: the v1 models' options, on a banded gradient:
 * every pixel in its mask, its costly case; the others on noise). */
static const char *const twins[] = { "vif", "adm", "motion", "cambi" };
static const char *const twin_options[] = {
    "", "", "", "cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:cambi_max_val=17"
};
#define N_TWINS (sizeof(twins) / sizeof(twins[0]))

/* Luma of both pictures: a diagonal 10-bit ramp quantised to 8-bit steps (wide flat bands). */
static void fill_banded(uint8_t *slot, size_t frame, unsigned w, unsigned h, unsigned bpc)
{
    for (int side = 0; side < 2; side++)
        for (unsigned i = 0; i < h; i++)
            for (unsigned j = 0; j < w; j++) {
                const unsigned r10 = 200 + (unsigned)(600.0 * (i + 2.0 * j) / (h + 2.0 * w));
                const unsigned v = (r10 + 2) >> 2 << (bpc - 8);
                uint8_t *p = slot + side * frame;
                if (bpc > 8)
                    ((uint16_t *)p)[(size_t)i * w + j] = (uint16_t)v;
                else
                    p[(size_t)i * w + j] = (uint8_t)v;
            }
}

/* Median device time of one twin's launch on an uploaded frame (luma planes). */
static float twin_device_ms(const char *name, const char *options, unsigned w, unsigned h,
                            unsigned bpc, unsigned frames)
{
    const EvExtractorClass *cls = ev_find_twin(name);
    const size_t frame = bench_frame_bytes_depth(w, h, bpc);
    uint8_t *slot = ev_cuda_host_alloc(2 * frame);
    EvCudaWorker *gpu = NULL;
    EvLog log = { 0 };
    if (!cls || !cls->launch || !slot || ev_cuda_worker_open(&gpu, 0, 2 * frame, &log))
        return -1;
    bench_fill_depth(slot, 2 * frame, bpc, 7);
    if (!strcmp(name, "cambi"))
        fill_banded(slot, frame, w, h, bpc);
    EvPic ref, dis;
    bench_pic_from_packed(&ref, slot, w, h, bpc);
    bench_pic_from_packed(&dis, slot + frame, w, h, bpc);
    void *opts = calloc(1, cls->opts_size + 1), *state = calloc(1, cls->state_size + 1);
    ev_options_defaults(cls, opts);
    if (ev_options_parse(cls, opts, options, &log))
        return -1;
    const EvPicInfo info = { w, h, bpc, EV_PIX_420, 0 };
    if (cls->init(state, opts, &info, &log))
        return -1;
    ev_cuda_upload(gpu, slot, &ref, &dis, 1);
    ev_cuda_finish(gpu, "upload");
    /* Frames are queued back to back in batches shorter than motion's ring of kept lumas;
     * after each batch motion's frames are extracted (its ring entry's total must be read
     * before the entry serves a later frame). vif's, adm's and cambi's launches stand alone
     * (cambi's extract adds only host work, and a copy where the CPU takes libvmaf's order). */
    enum { BATCH = 32 };
    const int extracts = !strcmp(name, "motion");
    EvCollector sink_store;
    if (ev_collector_init(&sink_store, &log))
        return -1;
    float *ms = calloc(frames, sizeof(*ms));
    cudaEvent_t *start = calloc(frames, sizeof(*start)), *end = calloc(frames, sizeof(*end));
    for (unsigned i = 0; i < frames; i++) {
        cudaEventCreate(&start[i]);
        cudaEventCreate(&end[i]);
    }
    cudaStream_t stream = (cudaStream_t)ev_cuda_stream(gpu);
    int err = cls->launch(state, NULL, &ref, &dis, 0); /* warm-up: buffers, tables */
    ev_cuda_finish(gpu, name);
    if (!err && extracts) {
        EvSink sink = ev_sink(&sink_store, 0, 0);
        err = cls->extract(state, NULL, &ref, &dis, 0, &sink);
    }
    for (unsigned b = 0; b < frames && !err; b += BATCH) {
        const unsigned n = frames - b < BATCH ? frames - b : BATCH;
        for (unsigned i = b; i < b + n && !err; i++) {
            cudaEventRecord(start[i], stream);
            err = cls->launch(state, NULL, &ref, &dis, i + 1);
            cudaEventRecord(end[i], stream);
        }
        cudaEventSynchronize(end[b + n - 1]);
        for (unsigned i = b; i < b + n && !err && extracts; i++) {
            EvSink sink = ev_sink(&sink_store, i + 1, 0);
            err = cls->extract(state, NULL, &ref, &dis, i + 1, &sink);
        }
    }
    for (unsigned i = 0; i < frames; i++) {
        cudaEventElapsedTime(&ms[i], start[i], end[i]);
        cudaEventDestroy(start[i]);
        cudaEventDestroy(end[i]);
    }
    free(start);
    free(end);
    ev_collector_free(&sink_store);
    qsort(ms, frames, sizeof(*ms), bench_cmp_float);
    const float median = err ? -1 : ms[frames / 2];
    if (cls->close)
        cls->close(state);
    free(ms);
    free(opts);
    free(state);
    ev_cuda_worker_close(&gpu);
    ev_cuda_host_free(slot);
    return median;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* a run cut short by a time limit keeps its lines */
    if (ev_gpu_count() <= 0) {
        printf("bench_vmaf: no CUDA device\n");
        return 77;
    }
    /* bench_vmaf --twins W H BITS FRAMES: part 1 at one size only (for a profiler) */
    if (argc == 6 && !strcmp(argv[1], "--twins")) {
        for (unsigned t = 0; t < N_TWINS; t++)
            printf("%s: %.4f ms\n", twins[t],
                   twin_device_ms(twins[t], twin_options[t], (unsigned)atoi(argv[2]),
                                  (unsigned)atoi(argv[3]), (unsigned)atoi(argv[4]),
                                  (unsigned)atoi(argv[5])));
        return 0;
    }
    const unsigned frames = argc > 1 ? (unsigned)atoi(argv[1]) : 300;
    unsigned streams[8] = { 4, 8, 16 }, n_streams = 3;
    if (argc > 2) {
        n_streams = 0;
        for (int i = 2; i < argc && n_streams < 8; i++)
            streams[n_streams++] = (unsigned)atoi(argv[i]);
    }
    const double dev_bw = bench_device_bandwidth(), h2d_bw = bench_h2d_bandwidth();
    printf("device memory bandwidth (D2D copy, read+write): %.0f GB/s\n", dev_bw / 1e9);
    printf("pinned host-to-device bandwidth: %.1f GB/s\n\n", h2d_bw / 1e9);
    const unsigned sizes[2][2] = { { 1920, 1080 }, { 3840, 2160 } }, depths[2] = { 8, 10 };
    printf("| twin | size | bits | device ms/frame (median of %u) | luma pair read at bandwidth, ms | ratio |\n",
           frames);
    printf("|---|---|---|---|---|---|\n");
    for (unsigned k = 0; k < 2; k++)
        for (unsigned d = 0; d < 2; d++) {
            const unsigned w = sizes[k][0], h = sizes[k][1], bpc = depths[d];
            const double mem_ms = 1e3 * 2.0 * w * h * (bpc > 8 ? 2 : 1) / dev_bw;
            float total = 0;
            for (unsigned t = 0; t < N_TWINS; t++) {
                const float ms = twin_device_ms(twins[t], twin_options[t], w, h, bpc, frames);
                total += ms;
                printf("| %s | %ux%u | %u | %.4f | %.4f | %.1fx |\n", twins[t], w, h, bpc, ms,
                       mem_ms, ms / mem_ms);
            }
            printf("| all | %ux%u | %u | %.4f | %.4f | %.1fx |\n", w, h, bpc, total, mem_ms,
                   total / mem_ms);
        }
    const unsigned cores = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    const char *const model[] = { "model:version=vmaf_v0.6.1" };
    printf("\nend to end, vmaf_v0.6.1, 4:2:0, frames in pinned host memory\n");
    printf("| size | bits | CPU fps (%u threads) |", cores);
    for (unsigned s = 0; s < n_streams; s++)
        printf(" CUDA fps (%u streams) |", streams[s]);
    printf(" luma H2D-bound fps |\n|---|---|---|");
    for (unsigned s = 0; s <= n_streams; s++)
        printf("---|");
    printf("\n");
    for (unsigned k = 0; k < 2; k++)
        for (unsigned d = 0; d < 2; d++) {
            const unsigned w = sizes[k][0], h = sizes[k][1], bpc = depths[d];
            const size_t frame = bench_frame_bytes_depth(w, h, bpc);
            uint8_t *host = malloc(2 * frame);
            if (!host)
                return 1;
            bench_fill_depth(host, 2 * frame, bpc, 11);
            const unsigned n = k ? frames * 4 : frames * 10;
            const double cpu = bench_fps_depth(EV_BACKEND_CPU, model, 1, host, w, h, bpc,
                                               k ? 24 : 96, 16, cores);
            printf("| %ux%u | %u | %.1f |", w, h, bpc, cpu);
            for (unsigned s = 0; s < n_streams; s++)
                printf(" %.1f |", bench_fps_depth(EV_BACKEND_CUDA, model, 1, host, w, h, bpc, n,
                                                  64, streams[s]));
            printf(" %.1f |\n", h2d_bw / (2.0 * w * h * (bpc > 8 ? 2 : 1)));
            fflush(stdout);
            free(host);
        }
    return 0;
}
