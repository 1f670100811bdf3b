// Order-free integer sums over a plane pair, the reduction the exact twins share: every term
// is an integer (or an integer number of units), so any order gives the CPU's sum.
// One block per row; each thread adds its samples, the block reduces, thread 0 adds the row
// into the totals with a 64-bit atomic. Row sums can be truncated to uint32 first, as the
// 8-bit psnr reference does (its row accumulator is a uint32 that wraps).
#ifndef EV_CUDA_PLANE_SUMS_CUH
#define EV_CUDA_PLANE_SUMS_CUH

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

struct EvTwoSums {
    unsigned long long a, b;
};

constexpr int EV_SUM_THREADS = 256;

__device__ __forceinline__ unsigned long long ev_warp_sum(unsigned long long v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

// Term: struct with `__device__ EvTwoSums operator()(uint32_t r, uint32_t d) const`.
template <typename Sample, typename Term, bool ROW_U32>
__global__ void ev_plane_sums_kernel(const char *ref, const char *dis, ptrdiff_t stride,
                                     unsigned w, Term term, unsigned long long *totals)
{
    const Sample *r = reinterpret_cast<const Sample *>(ref + blockIdx.x * stride);
    const Sample *d = reinterpret_cast<const Sample *>(dis + blockIdx.x * stride);
    unsigned long long a = 0, b = 0;
    for (unsigned x = threadIdx.x; x < w; x += blockDim.x) {
        const EvTwoSums t = term(r[x], d[x]);
        a += t.a;
        b += t.b;
    }
    __shared__ unsigned long long part[2][EV_SUM_THREADS / 32];
    a = ev_warp_sum(a);
    b = ev_warp_sum(b);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (!lane) {
        part[0][warp] = a;
        part[1][warp] = b;
    }
    __syncthreads();
    if (threadIdx.x)
        return;
    a = b = 0;
    for (int i = 0; i < EV_SUM_THREADS / 32; i++) {
        a += part[0][i];
        b += part[1][i];
    }
    if (ROW_U32)
        a = (uint32_t)a; // the reference's row accumulator wraps modulo 2^32
    atomicAdd(&totals[0], a);
    atomicAdd(&totals[1], b);
}

// Sum a plane (h rows of w samples) into totals[0..1] (zeroed by the caller) on stream.
template <typename Sample, bool ROW_U32 = false, typename Term>
void ev_plane_sums(const void *ref, const void *dis, ptrdiff_t stride, unsigned w, unsigned h,
                   Term term, unsigned long long *totals, cudaStream_t stream)
{
    if (!w || !h)
        return;
    ev_plane_sums_kernel<Sample, Term, ROW_U32><<<h, EV_SUM_THREADS, 0, stream>>>(
        static_cast<const char *>(ref), static_cast<const char *>(dis), stride, w, term, totals);
}

#endif
