// Order-free integer sums over planes, the reduction the exact twins share: every term is an
// integer (or an integer number of units), so any order gives the CPU's sum.
//
// ev_segment_sums: one launch sums up to EV_MAX_SEGMENTS contiguous sample runs (a packed
// plane is one run), each into two totals (a, b). Threads read 16 bytes of each picture at a
// time; each block reduces and stores its partials; the last block to finish adds the partials
// and writes the totals straight into the worker's pinned host area, then re-arms the counter.
// No memset, no copy: one kernel per twin and frame.
//
// ev_row_sums: the 8-bit psnr case whose reference row accumulator (uint32) can wrap, rows
// wider than 66052 samples: one block per row, the row sum truncated to 32 bits.
#ifndef EV_CUDA_PLANE_SUMS_CUH
#define EV_CUDA_PLANE_SUMS_CUH

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "cuda/runtime.h"

struct EvTwoSums {
    unsigned long long a, b;
};

constexpr int EV_SUM_THREADS = 256;
constexpr int EV_MAX_SEGMENTS = 3;
constexpr int EV_MAX_SUM_BLOCKS = 2048;

struct EvSegments {
    const char *ref[EV_MAX_SEGMENTS];
    const char *dis[EV_MAX_SEGMENTS]; // unused for single-picture terms
    unsigned long long n[EV_MAX_SEGMENTS]; // samples
    int vector[EV_MAX_SEGMENTS];      // both runs 16-byte aligned: 16-byte loads
    int count;
};

// The device scratch a worker lends: per-block partials, then the arrival counter.
struct EvSumScratch {
    unsigned long long partial[EV_MAX_SUM_BLOCKS][2 * EV_MAX_SEGMENTS];
    unsigned int arrived;
};
static_assert(sizeof(EvSumScratch) <= EV_CUDA_SCRATCH_BYTES, "worker scratch too small");

__device__ __forceinline__ unsigned long long ev_warp_sum(unsigned long long v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

// Sum v over the block; the result is valid in thread 0.
__device__ __forceinline__ unsigned long long ev_block_sum(unsigned long long v)
{
    __shared__ unsigned long long warp_part[EV_SUM_THREADS / 32];
    v = ev_warp_sum(v);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads(); // warp_part may still be read from a previous call
    if (!lane)
        warp_part[warp] = v;
    __syncthreads();
    v = threadIdx.x < EV_SUM_THREADS / 32 ? warp_part[threadIdx.x] : 0;
    return warp < 1 ? ev_warp_sum(v) : 0;
}

template <typename Sample> __device__ __forceinline__ uint32_t ev_lane(const uint4 &v, int k)
{
    constexpr int per_word = sizeof(uint32_t) / sizeof(Sample);
    const uint32_t w = (&v.x)[k / per_word];
    constexpr int bits = 8 * sizeof(Sample);
    return (w >> (bits * (k % per_word))) & ((1u << bits) - 1u);
}

// Term: `__device__ EvTwoSums operator()(uint32_t r, uint32_t d) const`. SINGLE: d is not read.
// A Term with `static constexpr bool kFits32 = true` promises that 16 of its terms fit 32 bits:
// each 16-byte vector is then summed in 32-bit registers before widening (same integers).
template <typename Term> struct EvFits32 {
    template <typename T> static constexpr bool test(decltype(T::kFits32) *) { return T::kFits32; }
    template <typename T> static constexpr bool test(...) { return false; }
    static constexpr bool value = test<Term>(nullptr);
};

template <typename Sample, bool SINGLE, typename Term>
__device__ __forceinline__ void ev_vector_terms(const uint4 &r, const uint4 &d, Term term,
                                                unsigned long long &a, unsigned long long &b)
{
    constexpr int per_vec = 16 / sizeof(Sample);
    if constexpr (EvFits32<Term>::value) {
        uint32_t a32 = 0, b32 = 0;
#pragma unroll
        for (int k = 0; k < per_vec; k++) {
            const EvTwoSums t = term(ev_lane<Sample>(r, k), ev_lane<Sample>(d, k));
            a32 += (uint32_t)t.a;
            b32 += (uint32_t)t.b;
        }
        a += a32;
        b += b32;
    } else {
#pragma unroll
        for (int k = 0; k < per_vec; k++) {
            const EvTwoSums t = term(ev_lane<Sample>(r, k), ev_lane<Sample>(d, k));
            a += t.a;
            b += t.b;
        }
    }
}

template <typename Sample, bool SINGLE, typename Term>
__device__ void ev_segment(const char *ref, const char *dis, unsigned long long n, int vector,
                           Term term, unsigned long long &a, unsigned long long &b)
{
    constexpr int per_vec = 16 / sizeof(Sample);
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    const unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long done = 0;
    if (vector) {
        const unsigned long long n_vec = n / per_vec;
        const uint4 *rv = reinterpret_cast<const uint4 *>(ref);
        const uint4 *dv = reinterpret_cast<const uint4 *>(dis);
        unsigned long long i = tid;
        for (; i + stride < n_vec; i += 2 * stride) { // two loads in flight per picture
            const uint4 r0 = __ldg(rv + i), r1 = __ldg(rv + i + stride);
            const uint4 d0 = SINGLE ? r0 : __ldg(dv + i), d1 = SINGLE ? r1 : __ldg(dv + i + stride);
            ev_vector_terms<Sample, SINGLE>(r0, d0, term, a, b);
            ev_vector_terms<Sample, SINGLE>(r1, d1, term, a, b);
        }
        if (i < n_vec) {
            const uint4 r0 = __ldg(rv + i);
            ev_vector_terms<Sample, SINGLE>(r0, SINGLE ? r0 : __ldg(dv + i), term, a, b);
        }
        done = n_vec * per_vec;
    }
    const Sample *rs = reinterpret_cast<const Sample *>(ref);
    const Sample *ds = reinterpret_cast<const Sample *>(dis);
    for (unsigned long long i = done + tid; i < n; i += stride) {
        const EvTwoSums t = term(rs[i], SINGLE ? rs[i] : ds[i]);
        a += t.a;
        b += t.b;
    }
}

template <typename Sample, bool SINGLE, typename Term>
__global__ void __launch_bounds__(EV_SUM_THREADS)
    ev_segment_sums_kernel(EvSegments segs, Term term, EvSumScratch *scratch,
                           unsigned long long *out)
{
    __shared__ bool last;
    for (int s = 0; s < segs.count; s++) {
        unsigned long long a = 0, b = 0;
        ev_segment<Sample, SINGLE>(segs.ref[s], segs.dis[s], segs.n[s], segs.vector[s], term,
                                   a, b);
        a = ev_block_sum(a);
        b = ev_block_sum(b);
        if (!threadIdx.x) {
            scratch->partial[blockIdx.x][2 * s] = a;
            scratch->partial[blockIdx.x][2 * s + 1] = b;
        }
    }
    if (!threadIdx.x) {
        __threadfence();
        last = atomicAdd(&scratch->arrived, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last)
        return;
    __threadfence();
    for (int k = 0; k < 2 * segs.count; k++) {
        unsigned long long v = 0;
        for (unsigned i = threadIdx.x; i < gridDim.x; i += blockDim.x)
            v += *(volatile unsigned long long *)&scratch->partial[i][k];
        v = ev_block_sum(v);
        if (!threadIdx.x)
            out[k] = v;
    }
    if (!threadIdx.x)
        scratch->arrived = 0;
}

static inline int ev_aligned16(const void *p)
{
    return !(reinterpret_cast<uintptr_t>(p) & 15);
}

static inline void ev_add_segment(EvSegments &segs, const void *ref, const void *dis,
                                  unsigned long long n)
{
    const int s = segs.count++;
    segs.ref[s] = static_cast<const char *>(ref);
    segs.dis[s] = static_cast<const char *>(dis);
    segs.n[s] = n;
    segs.vector[s] = ev_aligned16(ref) && ev_aligned16(dis);
}

// Sum every segment into out[2s] (a) and out[2s+1] (b): host-visible memory, valid once the
// stream is synchronised. scratch: the worker's device scratch (EvSumScratch).
template <typename Sample, bool SINGLE = false, typename Term>
void ev_segment_sums(const EvSegments &segs, Term term, void *scratch, unsigned long long *out,
                     cudaStream_t stream)
{
    unsigned long long most = 0;
    for (int s = 0; s < segs.count; s++)
        most = segs.n[s] > most ? segs.n[s] : most;
    /* about one 2x16-byte step per thread and picture: as many loads in flight as possible */
    const unsigned long long per_block = (unsigned long long)EV_SUM_THREADS * 32;
    unsigned long long blocks = (most + per_block - 1) / per_block;
    blocks = blocks < 1 ? 1 : blocks > EV_MAX_SUM_BLOCKS ? EV_MAX_SUM_BLOCKS : blocks;
    ev_segment_sums_kernel<Sample, SINGLE, Term><<<(unsigned)blocks, EV_SUM_THREADS, 0, stream>>>(
        segs, term, static_cast<EvSumScratch *>(scratch), out);
}

// The 8-bit psnr rows that can wrap: one block per row, each row sum truncated to uint32 and
// added into totals[0] (device memory the caller zeroed).
template <typename Term>
__global__ void __launch_bounds__(EV_SUM_THREADS)
    ev_row_sums_u32_kernel(const uint8_t *ref, const uint8_t *dis, ptrdiff_t stride, unsigned w,
                           Term term, unsigned long long *totals)
{
    const uint8_t *r = ref + blockIdx.x * stride, *d = dis + blockIdx.x * stride;
    unsigned long long a = 0;
    for (unsigned x = threadIdx.x; x < w; x += blockDim.x)
        a += term(r[x], d[x]).a;
    a = ev_block_sum(a);
    if (!threadIdx.x)
        atomicAdd(totals, (unsigned long long)(uint32_t)a); // the reference's uint32 row sum
}

#endif
