/*
 * The device unpack of NVDEC's layouts (src/io/unpack_twin.cu) against the host's arithmetic
 * (src/io/unpack_math.h, which decode.c's unpack uses), sample for sample: NV12, P010, P016 and
 * 16-bit planar 4:4:4 laid out at NVDEC-like pitches, even and odd sizes. Skips (77) without a
 * CUDA device.
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/unpack_math.h"
#include "io/unpack_twin.h"

static uint32_t seed = 5;
static uint32_t next_random(void)
{
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
}

typedef struct Layout {
    const char *name;
    unsigned bytes, shift, semi, ss; /* ss: 4:2:0 chroma */
} Layout;

/* Plane p's expected sample (x, y) from the host frame. */
static unsigned expected(const Layout *l, uint8_t *const in[3], const ptrdiff_t pitch[3], int p,
                         unsigned x, unsigned y)
{
    const int from = p == 0 ? 0 : l->semi ? 1 : p;
    const uint8_t *row = in[from] + (ptrdiff_t)y * pitch[from];
    if (p && l->semi)
        return l->bytes == 1
                   ? ev_unpack_pair8(row, x, (unsigned)p - 1)
                   : ev_unpack_pair16((const uint16_t *)row, x, (unsigned)p - 1, l->shift);
    return l->bytes == 1 ? row[x] : ev_unpack_sample16((const uint16_t *)row, x, l->shift);
}

static long check(const Layout *l, unsigned w, unsigned h)
{
    const unsigned cw = l->ss ? (w + 1) / 2 : w, ch = l->ss ? (h + 1) / 2 : h;
    const unsigned in_w[3] = { w, l->semi ? 2 * cw : cw, l->semi ? 0 : cw };
    const unsigned in_h[3] = { h, ch, l->semi ? 0 : ch };
    uint8_t *host_in[3] = { NULL, NULL, NULL };
    void *dev_in[3] = { NULL, NULL, NULL }, *dev_out[3] = { NULL, NULL, NULL };
    ptrdiff_t pitch[3] = { 0, 0, 0 }, out_pitch[3];
    EvUnpackFrame frame = { { NULL, NULL, NULL }, { 0, 0, 0 }, (int)l->semi };
    for (int p = 0; p < 3; p++) {
        const unsigned pw = p ? cw : w, ph = p ? ch : h;
        out_pitch[p] = (ptrdiff_t)pw * l->bytes + 32;
        if (cudaMalloc(&dev_out[p], (size_t)out_pitch[p] * ph) != cudaSuccess)
            return -1;
        if (!in_h[p])
            continue;
        pitch[p] = ((ptrdiff_t)in_w[p] * l->bytes + 511) / 512 * 512; /* NVDEC-like pitch */
        host_in[p] = malloc((size_t)pitch[p] * in_h[p]);
        if (!host_in[p] || cudaMalloc(&dev_in[p], (size_t)pitch[p] * in_h[p]) != cudaSuccess)
            return -1;
        for (size_t i = 0; i < (size_t)pitch[p] * in_h[p]; i++)
            host_in[p][i] = (uint8_t)next_random();
        cudaMemcpy(dev_in[p], host_in[p], (size_t)pitch[p] * in_h[p], cudaMemcpyHostToDevice);
        frame.plane[p] = dev_in[p];
        frame.pitch[p] = pitch[p];
    }
    char why[256] = "";
    if (ev_unpack_twin(&frame, w, h, cw, ch, l->bytes, l->shift, dev_out, out_pitch, NULL, why,
                       sizeof(why))) {
        fprintf(stderr, "unpack_twin: %s\n", why);
        return -1;
    }
    long diff = 0;
    for (int p = 0; p < 3; p++) {
        const unsigned pw = p ? cw : w, ph = p ? ch : h;
        uint8_t *got = malloc((size_t)out_pitch[p] * ph);
        if (!got || cudaMemcpy(got, dev_out[p], (size_t)out_pitch[p] * ph,
                               cudaMemcpyDeviceToHost) != cudaSuccess)
            return -1;
        for (unsigned y = 0; y < ph; y++)
            for (unsigned x = 0; x < pw; x++) {
                const uint8_t *row = got + (ptrdiff_t)y * out_pitch[p];
                const unsigned g = l->bytes == 1 ? row[x] : ((const uint16_t *)row)[x];
                const unsigned e = expected(l, host_in, pitch, p, x, y);
                if (g != e && diff++ < 3)
                    fprintf(stderr, "unpack_twin: %s %ux%u plane %d (%u,%u): device %u, host %u\n",
                            l->name, w, h, p, x, y, g, e);
            }
        free(got);
    }
    /* Freed only now: a semi-planar frame's U and V planes both read host_in[1]. */
    for (int p = 0; p < 3; p++) {
        cudaFree(dev_out[p]);
        cudaFree(dev_in[p]);
        free(host_in[p]);
    }
    return diff;
}

int main(void)
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < 1) {
        printf("unpack_twin: no CUDA device, skipped\n");
        return 77;
    }
    const Layout layouts[] = {
        { "nv12", 1, 0, 1, 1 },           { "p010", 2, 6, 1, 1 },
        { "p016 as 12-bit", 2, 4, 1, 1 }, { "yuv444p16 as 10-bit", 2, 6, 0, 0 },
        { "yuv444p", 1, 0, 0, 0 },
    };
    const unsigned sizes[][2] = { { 1920, 1080 }, { 3840, 2160 }, { 575, 323 }, { 64, 2 } };
    long failures = 0, checked = 0;
    for (size_t l = 0; l < sizeof(layouts) / sizeof(layouts[0]); l++)
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
            const long d = check(&layouts[l], sizes[s][0], sizes[s][1]);
            checked++;
            failures += d != 0;
        }
    printf("unpack_twin: %ld frames unpacked on the device, %ld differ from the host\n", checked,
           failures);
    return failures ? 1 : 0;
}
