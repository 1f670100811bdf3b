/* The device unpack (unpack_twin.h): one thread per output sample of each plane. */
#include <cuda_runtime.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>

extern "C" {
#include "io/unpack_twin.h"
}
#include "io/unpack_math.h"

/* Plane `plane` of the output (0 luma, 1 U, 2 V) from in. */
__global__ void unpack_plane(EvUnpackFrame in, int plane, unsigned w, unsigned h, unsigned bytes,
                             unsigned shift, uint8_t *out, ptrdiff_t out_pitch)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y;
    if (x >= w || y >= h)
        return;
    const int from = plane == 0 ? 0 : in.semi ? 1 : plane;
    const uint8_t *row = (const uint8_t *)in.plane[from] + (ptrdiff_t)y * in.pitch[from];
    uint8_t *dst = out + (ptrdiff_t)y * out_pitch;
    if (plane && in.semi) {
        if (bytes == 1)
            dst[x] = ev_unpack_pair8(row, x, (unsigned)plane - 1);
        else
            ((uint16_t *)dst)[x] =
                ev_unpack_pair16((const uint16_t *)row, x, (unsigned)plane - 1, shift);
    } else if (bytes == 1) {
        dst[x] = row[x];
    } else {
        ((uint16_t *)dst)[x] = ev_unpack_sample16((const uint16_t *)row, x, shift);
    }
}

extern "C" int ev_unpack_twin(const EvUnpackFrame *in, unsigned width, unsigned height,
                              unsigned chroma_w, unsigned chroma_h, unsigned bytes, unsigned shift,
                              void *const out[3], const ptrdiff_t out_pitch[3], void *stream,
                              char *why, size_t why_size)
{
    const unsigned block = 128;
    for (int p = 0; p < 3; p++) {
        const unsigned w = p ? chroma_w : width, h = p ? chroma_h : height;
        if (!w || !h)
            continue;
        const dim3 grid((w + block - 1) / block, h);
        unpack_plane<<<grid, block, 0, (cudaStream_t)stream>>>(*in, p, w, h, bytes, shift,
                                                               (uint8_t *)out[p], out_pitch[p]);
        const cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) {
            snprintf(why, why_size, "unpack twin: plane %d: %s", p, cudaGetErrorString(e));
            return -EIO;
        }
    }
    return 0;
}
