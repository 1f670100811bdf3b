/*
 * bench_ssim [frames [streams]]: the float_ssim and float_ms_ssim CUDA twins against the CPU on
 * all cores, in ms per frame of throughput (many frames in flight), at 1920x1080 and
 * 3840x2160, auto scale and scale=1, with and without enable_lcs. Built with CUDA only.
 *
 * Content: 8-bit 4:2:0, a textured reference (smooth gradients plus noise) and a distorted
 * copy (the reference plus small noise), SSIM about 0.9 like an encode. The frames are in host
 * memory; the twins upload only the luma. Also printed: the time to upload one luma pair at
 * the measured pinned host-to-device bandwidth (the floor for any twin that reads frames
 * from the host), and how many means each twin certified or summed in the reference's order.
 */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_run.h"
#include "features/ssim/ssim.h"

/* ref: gradients and ripples plus noise; dis: ref plus noise of +-6; chroma flat. */
static void fill_content(uint8_t *buf, unsigned w, unsigned h)
{
    const size_t frame = bench_frame_bytes(w, h);
    memset(buf, 128, 2 * frame);
    uint32_t x = 12345;
    for (unsigned y = 0; y < h; y++)
        for (unsigned i = 0; i < w; i++) {
            x = x * 1664525u + 1013904223u;
            const double v =
                128 + 60 * sin(i / 37.0) * cos(y / 23.0) + 30.0 * i / w + (double)(x >> 28) - 8;
            const int r = v < 0 ? 0 : v > 255 ? 255 : (int)v;
            x = x * 1664525u + 1013904223u;
            const int d = r + (int)(x >> 28) % 13 - 6;
            buf[(size_t)y * w + i] = (uint8_t)r;
            buf[frame + (size_t)y * w + i] = (uint8_t)(d < 0 ? 0 : d > 255 ? 255 : d);
        }
}

int main(int argc, char **argv)
{
    const unsigned frames = argc > 1 ? (unsigned)atoi(argv[1]) : 300;
    const unsigned streams = argc > 2 ? (unsigned)atoi(argv[2]) : 8;
    if (ev_gpu_count() <= 0) {
        printf("bench_ssim: no CUDA device\n");
        return 77;
    }
    const unsigned cores = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    const double h2d = bench_h2d_bandwidth();
    printf("pinned host-to-device bandwidth: %.1f GB/s\n\n", h2d / 1e9);
    static const char *const configs[] = {
        "float_ssim",         "float_ssim=enable_lcs=true",
        "float_ssim=scale=1", "float_ssim=scale=1:enable_lcs=true",
        "float_ms_ssim",      "float_ms_ssim=enable_lcs=true"
    };
    const unsigned sizes[2][2] = { { 1920, 1080 }, { 3840, 2160 } };
    printf("ms per frame (throughput): CPU on %u threads, CUDA with %u frames in flight\n", cores,
           streams);
    printf("| extractor | size | CPU ms | CUDA ms | CPU / CUDA | luma upload ms | "
           "means certified | summed in order |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    for (unsigned k = 0; k < 2; k++) {
        const unsigned w = sizes[k][0], h = sizes[k][1];
        uint8_t *host = malloc(2 * bench_frame_bytes(w, h));
        if (!host)
            return 1;
        fill_content(host, w, h);
        const double upload_ms = 1e3 * 2.0 * w * h / h2d;
        for (unsigned c = 0; c < sizeof(configs) / sizeof(configs[0]); c++) {
            unsigned long long c0, o0, c1, o1;
            const double cpu =
                bench_fps(EV_BACKEND_CPU, &configs[c], 1, host, w, h, 3 * cores, cores, cores);
            ev_ssim_cuda_mean_counts(&c0, &o0);
            const double gpu =
                bench_fps(EV_BACKEND_CUDA, &configs[c], 1, host, w, h, frames, 24, streams);
            ev_ssim_cuda_mean_counts(&c1, &o1);
            printf("| %s | %ux%u | %.3f | %.4f | %.0fx | %.4f | %llu | %llu |\n", configs[c], w, h,
                   1e3 / cpu, 1e3 / gpu, gpu / cpu, upload_ms, c1 - c0, o1 - o0);
            fflush(stdout);
        }
        free(host);
    }
    return 0;
}
