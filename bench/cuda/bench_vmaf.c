/*
 * bench_vmaf [--model NAME] [--scene] [frames [streams...]]: a VMAF model on the GPU (built
 * with CUDA only); NAME is vmaf_v0.6.1 (default) or vmaf_v1.0.16_3d0h (see `models` below),
 * or "other": part 1 only, for the twins outside these models (one stream: latency).
 * bench_vmaf [--model NAME] --twins W H BITS FRAMES: part 1 at one size (short, for a profiler).
 *  1. Device time per frame of each twin of the model (CUDA events around the twin's launch on
 *     the worker's stream, with the model's options, frames queued back to back in batches
 *     of 32, median of `frames`) at 1920x1080 and 3840x2160, 8 and 10 bits, next to the time
 *     to read its input planes once at the device memory bandwidth measured here (the
 *     roofline time of a twin that reads each input sample once).
 *  2. End-to-end frames per second of the model through the public API: CPU (all cores)
 *     against CUDA with each stream count given (default 4 8 16), frames already in pinned host
 *     memory (borrowed slots, each filled once), next to the rate the host-to-device copy of
 *     the planes alone allows.
 * Frames are noise, or with --scene (the default for v1, whose cambi and speed depend on
 * content) a smooth gradient with light noise, the distorted one banded (no noise).
 */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_run.h"
#include "core/collector.h"
#include "base/extractor.h"
#include "features/registry.h"
#include "cuda/runtime.h"
#include "exactvmaf/exactvmaf.h"

/* A model's twins with the model's options; `ordered` twins keep per-frame state in frame
 * order on the device and must be extracted after each batch (their ring of kept frames). */
typedef struct TwinSpec {
    const char *name, *options;
    int ordered;
} TwinSpec;

typedef struct ModelSpec {
    const char *model;
    int scene; /* content frames by default */
    unsigned n;
    TwinSpec twin[6];
} ModelSpec;

static const ModelSpec models[] = {
    { "vmaf_v0.6.1", 0, 3, { { "vif", "", 0 }, { "adm", "", 0 }, { "motion", "", 1 } } },
    { "vmaf_v1.0.16_3d0h",
      1,
      4,
      { { "cambi", "cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:cambi_max_val=17", 0 },
        { "speed_chroma",
          "speed_kernelscale=1.0:speed_nn_floor=0.1:speed_sigma_nn=0.19:"
          "speed_weight_var_mode=5:speed_max_val=45",
          0 },
        { "adm",
          "adm_dlm_weight=0.7:adm_enhn_gain_limit=1.0:adm_noise_weight=0.02:"
          "adm_norm_view_dist=3.0:adm_ref_display_height=1080:adm_min_val=0.5:"
          "adm_csf_mode=2",
          0 },
        { "motion", "motion_max_val=18", 1 } } },
    /* not a model: the other twins' device times only (no end-to-end part) */
    { "other",
      0,
      6,
      { { "psnr_hvs", "", 0 },
        { "ciede", "", 0 },
        { "float_vif", "", 0 },
        { "float_adm", "", 0 },
        { "float_motion", "", 1 },
        { "float_ansnr", "", 0 } } },
};

/* ref then dis of one frame: noise, or the scene (dis banded: the scene without noise). */
static void fill_pair(uint8_t *pair, unsigned w, unsigned h, unsigned bpc, int scene, uint32_t seed)
{
    const size_t frame = bench_frame_bytes_depth(w, h, bpc);
    if (!scene) {
        bench_fill_depth(pair, 2 * frame, bpc, seed);
        return;
    }
    bench_fill_scene(pair, w, h, bpc, 2, seed);
    bench_fill_scene(pair + frame, w, h, bpc, 0, seed);
}

/* Median device time of one twin's launch on an uploaded frame (-1: no such twin, or an error;
 * the planes it reads: luma only for EV_FEX_CUDA_LUMA twins). */
static float twin_device_ms(const TwinSpec *t, unsigned w, unsigned h, unsigned bpc, int scene,
                            unsigned frames)
{
    const char *name = t->name;
    const EvExtractorClass *cls = ev_find_twin(name);
    const size_t frame = bench_frame_bytes_depth(w, h, bpc);
    uint8_t *slot = ev_cuda_host_alloc(2 * frame);
    EvCudaWorker *gpu = NULL;
    EvLog log = { 0 };
    if (!cls || !cls->launch || !slot || ev_cuda_worker_open(&gpu, 0, 2 * frame, &log))
        return -1;
    fill_pair(slot, w, h, bpc, scene, 7);
    EvPic ref, dis;
    bench_pic_from_packed(&ref, slot, w, h, bpc);
    bench_pic_from_packed(&dis, slot + frame, w, h, bpc);
    void *opts = calloc(1, cls->opts_size + 1), *state = calloc(1, cls->state_size + 1);
    ev_options_defaults(cls, opts);
    if (t->options[0] && ev_options_parse(cls, opts, t->options, &log))
        return -1;
    const EvPicInfo info = { w, h, bpc, EV_PIX_420, 0 };
    if (cls->init(state, opts, &info, &log))
        return -1;
    ev_cuda_upload(gpu, slot, &ref, &dis, (cls->flags & EV_FEX_CUDA_LUMA) != 0);
    ev_cuda_finish(gpu, "upload");
    /* Frames are queued back to back in batches shorter than motion's ring of kept lumas;
     * after each batch motion's frames are extracted (its ring entry's total must be read
     * before the entry serves a later frame; float_motion's likewise). The others stand alone. */
    enum { BATCH = 32 };
    const int extracts = t->ordered;
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
        EvCollectorSink sink = ev_sink(&sink_store, 0, 0);
        err = cls->extract(state, NULL, &ref, &dis, 0, &sink.base);
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
            EvCollectorSink sink = ev_sink(&sink_store, i + 1, 0);
            err = cls->extract(state, NULL, &ref, &dis, i + 1, &sink.base);
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
    const float median = bench_twin_finish(cls, state, opts, ms, frames, &gpu, slot);
    return err ? -1 : median;
}

/* Bytes of the input planes a twin reads (both pictures): luma, or all three planes. */
static double twin_input_bytes(const TwinSpec *t, unsigned w, unsigned h, unsigned bpc)
{
    const EvExtractorClass *cls = ev_find_twin(t->name);
    const int luma = cls && (cls->flags & EV_FEX_CUDA_LUMA);
    return 2.0 *
           (luma ? (double)w * h * (bpc > 8 ? 2 : 1) : (double)bench_frame_bytes_depth(w, h, bpc));
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* a run cut short by a time limit keeps its lines */
    if (ev_gpu_count() <= 0) {
        printf("bench_vmaf: no CUDA device\n");
        return 77;
    }
    const ModelSpec *m = &models[0];
    int scene = -1, a = 1;
    for (; a < argc && argv[a][0] == '-' && strcmp(argv[a], "--twins"); a++) {
        if (!strcmp(argv[a], "--scene"))
            scene = 1;
        else if (!strcmp(argv[a], "--model") && a + 1 < argc) {
            const char *want = argv[++a];
            m = NULL;
            for (size_t k = 0; k < sizeof(models) / sizeof(models[0]); k++)
                if (!strcmp(models[k].model, want))
                    m = &models[k];
            if (!m) {
                fprintf(stderr, "bench_vmaf: unknown model %s\n", want);
                return 2;
            }
        } else {
            fprintf(stderr, "bench_vmaf: unknown option %s\n", argv[a]);
            return 2;
        }
    }
    if (scene < 0)
        scene = m->scene;
    /* bench_vmaf --twins W H BITS FRAMES: part 1 at one size only (for a profiler) */
    if (argc - a == 5 && !strcmp(argv[a], "--twins")) {
        for (unsigned t = 0; t < m->n; t++)
            printf("%s: %.4f ms\n", m->twin[t].name,
                   twin_device_ms(&m->twin[t], (unsigned)atoi(argv[a + 1]),
                                  (unsigned)atoi(argv[a + 2]), (unsigned)atoi(argv[a + 3]), scene,
                                  (unsigned)atoi(argv[a + 4])));
        return 0;
    }
    const unsigned frames = argc > a ? (unsigned)atoi(argv[a]) : 300;
    unsigned streams[8] = { 4, 8, 16 }, n_streams = 3;
    if (argc > a + 1) {
        n_streams = 0;
        for (int i = a + 1; i < argc && n_streams < 8; i++)
            streams[n_streams++] = (unsigned)atoi(argv[i]);
    }
    const double dev_bw = bench_device_bandwidth(), h2d_bw = bench_h2d_bandwidth();
    printf("model %s, %s frames\n", m->model, scene ? "scene" : "noise");
    printf("device memory bandwidth (D2D copy, read+write): %.0f GB/s\n", dev_bw / 1e9);
    printf("pinned host-to-device bandwidth: %.1f GB/s\n\n", h2d_bw / 1e9);
    const unsigned sizes[2][2] = { { 1920, 1080 }, { 3840, 2160 } }, depths[2] = { 8, 10 };
    printf("| twin | size | bits | device ms/frame (median of %u) | input planes read at "
           "bandwidth (roofline), ms | ratio |\n",
           frames);
    printf("|---|---|---|---|---|---|\n");
    for (unsigned k = 0; k < 2; k++)
        for (unsigned d = 0; d < 2; d++) {
            const unsigned w = sizes[k][0], h = sizes[k][1], bpc = depths[d];
            const double all_ms = 1e3 * 2.0 * (double)bench_frame_bytes_depth(w, h, bpc) / dev_bw;
            float total = 0;
            for (unsigned t = 0; t < m->n; t++) {
                const float ms = twin_device_ms(&m->twin[t], w, h, bpc, scene, frames);
                const double mem_ms = 1e3 * twin_input_bytes(&m->twin[t], w, h, bpc) / dev_bw;
                total += ms;
                printf("| %s | %ux%u | %u | %.4f | %.4f | %.1fx |\n", m->twin[t].name, w, h, bpc,
                       ms, mem_ms, ms / mem_ms);
            }
            printf("| all %u | %ux%u | %u | %.4f | %.4f | %.1fx |\n", m->n, w, h, bpc, total,
                   all_ms, total / all_ms);
        }
    if (!strcmp(m->model, "other"))
        return 0;
    const unsigned cores = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    char model_spec[96];
    snprintf(model_spec, sizeof(model_spec), "model:version=%s", m->model);
    const char *const model[] = { model_spec };
    printf("\nend to end, %s, 4:2:0, frames in pinned host memory\n", m->model);
    printf("| size | bits | CPU fps (%u threads) |", cores);
    for (unsigned s = 0; s < n_streams; s++)
        printf(" CUDA fps (%u streams) |", streams[s]);
    printf(" H2D-bound fps (all planes) |\n|---|---|---|");
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
            fill_pair(host, w, h, bpc, scene, 11);
            const unsigned n = k ? frames * 4 : frames * 10;
            const double cpu =
                bench_fps_depth(EV_BACKEND_CPU, model, 1, host, w, h, bpc, k ? 24 : 96, 16, cores);
            printf("| %ux%u | %u | %.1f |", w, h, bpc, cpu);
            for (unsigned s = 0; s < n_streams; s++)
                printf(" %.1f |", bench_fps_depth(EV_BACKEND_CUDA, model, 1, host, w, h, bpc, n, 64,
                                                  streams[s]));
            printf(" %.1f |\n", h2d_bw / (2.0 * (double)frame));
            fflush(stdout);
            free(host);
        }
    return 0;
}
