/*
 * The scaler's CUDA twin (src/io/scale_twin.cu) against its C reference (src/io/scale_ref.c),
 * sample for sample: sizes up and down, odd and small, 4:2:0, 4:2:2, 4:4:4 and gray, 8 to 14
 * bits, the three kernels, the exact 8-bit path and the x86 default one, on device planes at
 * a pitch wider than the row. The reference is checked against libswscale by
 * tests/decode/scale_ref_test.c. Skips (77) without a CUDA device.
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/scale_ref.h"
#include "io/scale_twin.h"
#include "scale_cases.h"

static uint32_t seed = 77;
static uint32_t next_random(void)
{
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
}

static long failures, compared;

static int check_case(const Case *c, EvScaleKernel kernel, int x86_default)
{
    const EvScaleKernelSpec spec = { kernel, { NAN, NAN }, 0 };
    EvScalePlan plan;
    if (ev_scale_plan_make(&plan, &spec, c->sw, c->sh, c->dw, c->dh, c->ss_x, c->ss_y, c->planes,
                           c->bits, 4, 2)) {
        fprintf(stderr, "scale_twin: plan %dx%d -> %dx%d failed\n", c->sw, c->sh, c->dw, c->dh);
        return -1;
    }
    plan.x86_default = x86_default && c->bits == 8;
    char why[256] = "";
    EvScaleTwin *twin = NULL;
    if (ev_scale_twin_open(&twin, &plan, why, sizeof(why))) {
        fprintf(stderr, "scale_twin: %s\n", why);
        ev_scale_plan_free(&plan);
        return -1;
    }
    const int bytes = c->bits == 8 ? 1 : 2;
    const unsigned top = (1u << c->bits) - 1;
    for (int p = 0; p < c->planes; p++) {
        const int k = p ? 1 : 0;
        const int sw = plan.src_w[k], sh = plan.src_h[k], dw = plan.dst_w[k], dh = plan.dst_h[k];
        const size_t in_stride = (size_t)sw * bytes + 96, out_stride = (size_t)dw * bytes + 64;
        uint8_t *in = malloc(in_stride * sh), *want = malloc(out_stride * dh);
        uint8_t *got = malloc(out_stride * dh);
        void *d_in = NULL, *d_out = NULL;
        if (!in || !want || !got || cudaMalloc(&d_in, in_stride * sh) != cudaSuccess ||
            cudaMalloc(&d_out, out_stride * dh) != cudaSuccess) {
            fprintf(stderr, "scale_twin: out of memory\n");
            exit(1);
        }
        const int extremes = next_random() & 1;
        for (int y = 0; y < sh; y++)
            for (int x = 0; x < sw; x++) {
                unsigned v = extremes
                                 ? (((x / 3 + y / 2 + (int)(next_random() % 3)) & 1) ? top : 0)
                                 : (unsigned)((x * 7 + y * 5) + next_random() % 31) % (top + 1);
                if (bytes == 1)
                    in[y * in_stride + x] = (uint8_t)v;
                else
                    ((uint16_t *)(in + y * in_stride))[x] = (uint16_t)v;
            }
        ev_scale_plane_ref(&plan, p, in, (ptrdiff_t)in_stride, want, (ptrdiff_t)out_stride);
        memset(got, 0xa5, out_stride * dh);
        cudaMemcpy(d_in, in, in_stride * sh, cudaMemcpyHostToDevice);
        cudaMemset(d_out, 0x5a, out_stride * dh);
        if (ev_scale_twin_plane(twin, p, d_in, (ptrdiff_t)in_stride, d_out, (ptrdiff_t)out_stride,
                                NULL, why, sizeof(why)) ||
            cudaMemcpy(got, d_out, out_stride * dh, cudaMemcpyDeviceToHost) != cudaSuccess) {
            fprintf(stderr, "scale_twin: %s %s\n", why, cudaGetErrorString(cudaGetLastError()));
            exit(1);
        }
        long diff = 0;
        for (int y = 0; y < dh; y++)
            for (int x = 0; x < dw; x++) {
                const unsigned a = bytes == 1 ? want[y * out_stride + x]
                                              : ((uint16_t *)(want + y * out_stride))[x];
                const unsigned b =
                    bytes == 1 ? got[y * out_stride + x] : ((uint16_t *)(got + y * out_stride))[x];
                if (a != b && diff++ < 3)
                    fprintf(stderr,
                            "scale_twin: %dx%d -> %dx%d %d-bit kernel %d x86 %d plane %d (%d,%d): "
                            "reference %u, twin %u\n",
                            c->sw, c->sh, c->dw, c->dh, c->bits, (int)kernel, plan.x86_default, p,
                            x, y, a, b);
            }
        compared++;
        failures += diff != 0;
        cudaFree(d_in);
        cudaFree(d_out);
        free(in);
        free(want);
        free(got);
    }
    ev_scale_twin_close(&twin);
    ev_scale_plan_free(&plan);
    return 0;
}

int main(void)
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < 1) {
        printf("scale_twin: no CUDA device, skipped\n");
        return 77;
    }
    const EvScaleKernel kernels[] = { EV_SCALE_BICUBIC, EV_SCALE_BILINEAR, EV_SCALE_LANCZOS };
    for (size_t i = 0; i < SCALE_FIXED_CASES; i++)
        for (size_t k = 0; k < 3; k++)
            for (int x86 = 0; x86 < 2; x86++)
                if (check_case(&scale_fixed_cases[i], kernels[k], x86))
                    failures++;
    for (int i = 0; i < 200; i++) { /* random small sizes, as scale_ref_test sweeps them */
        const Case c = scale_random_case(next_random);
        EvScalePlan probe;
        const EvScaleKernelSpec spec = { kernels[i % 3], { NAN, NAN }, 0 };
        if (ev_scale_plan_make(&probe, &spec, c.sw, c.sh, c.dw, c.dh, c.ss_x, c.ss_y, c.planes,
                               c.bits, 4, 2) == -2)
            continue; /* a filter the reference refuses */
        ev_scale_plan_free(&probe);
        if (check_case(&c, kernels[i % 3], (int)(i & 1)))
            failures++;
    }
    printf("scale_twin: %ld planes compared with the C reference, %ld differ\n", compared,
           failures);
    return failures ? 1 : 0;
}
