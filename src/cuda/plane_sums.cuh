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
constexpr int EV_MAX_SUM_BLOCKS = 1024;
#ifndef EV_SUM_SAMPLES_PER_THREAD
#define EV_SUM_SAMPLES_PER_THREAD 128
#endif

struct EvSegments {
    const char *ref[EV_MAX_SEGMENTS];
    const char *dis[EV_MAX_SEGMENTS];      // unused for single-picture terms
    unsigned long long n[EV_MAX_SEGMENTS]; // samples
    int vector[EV_MAX_SEGMENTS];           // both runs 16-byte aligned: 16-byte loads
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

template <typename Sample>
__device__ __forceinline__ uint32_t ev_lane(const uint4 &v, int k)
{
    constexpr int per_word = sizeof(uint32_t) / sizeof(Sample);
    const uint32_t w = (&v.x)[k / per_word];
    constexpr int bits = 8 * sizeof(Sample);
    return (w >> (bits * (k % per_word))) & ((1u << bits) - 1u);
}

// Term: `__device__ EvTwoSums operator()(uint32_t r, uint32_t d) const`. SINGLE: d is not read.
// A Term may also offer `__device__ void word(uint32_t r4, uint32_t d4, uint32_t &a,
// uint32_t &b) const` for 8-bit samples: the same terms of four packed bytes added to a and b
// (with byte-parallel instructions such as __dp4a); it must give the same integers, and 16 of
// its terms must fit 32 bits (one 16-byte vector is summed in 32 bits, then widened).
template <typename Term>
struct EvHasWord {
    template <typename T>
    static constexpr bool test(decltype(&T::word))
    {
        return true;
    }
    template <typename T>
    static constexpr bool test(...)
    {
        return false;
    }
    static constexpr bool value = test<Term>(nullptr);
};

template <typename Sample, bool SINGLE, typename Term>
__device__ __forceinline__ void ev_vector_terms(const uint4 &r, const uint4 &d, Term term,
                                                unsigned long long &a, unsigned long long &b)
{
    constexpr int per_vec = 16 / sizeof(Sample);
    if constexpr (sizeof(Sample) == 1 && EvHasWord<Term>::value) {
        uint32_t a32 = 0, b32 = 0;
#pragma unroll
        for (int k = 0; k < 4; k++)
            term.word((&r.x)[k], (&d.x)[k], a32, b32);
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

// Two single-picture runs of one length (float_moment's ref and dis luma), read side by side so
// that both pictures' loads are in flight together; the sums are those of ev_segment on each.
template <typename Sample, typename Term>
__device__ void ev_segment_pair(const EvSegments &segs, Term term, unsigned long long sum[4])
{
    const unsigned long long n_vec = segs.n[0] / (16 / sizeof(Sample));
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    const uint4 *p = reinterpret_cast<const uint4 *>(segs.ref[0]);
    const uint4 *q = reinterpret_cast<const uint4 *>(segs.ref[1]);
    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
         i < n_vec; i += stride) {
        const uint4 a = __ldg(p + i), b = __ldg(q + i);
        ev_vector_terms<Sample, true>(a, a, term, sum[0], sum[1]);
        ev_vector_terms<Sample, true>(b, b, term, sum[2], sum[3]);
    }
    const unsigned long long done = n_vec * (16 / sizeof(Sample));
    ev_segment<Sample, true>(segs.ref[0] + done * sizeof(Sample), nullptr, segs.n[0] - done, 0,
                             term, sum[0], sum[1]);
    ev_segment<Sample, true>(segs.ref[1] + done * sizeof(Sample), nullptr, segs.n[1] - done, 0,
                             term, sum[2], sum[3]);
}

template <typename Sample, bool SINGLE>
__device__ __forceinline__ bool ev_pairable(const EvSegments &segs)
{
    return SINGLE && segs.count == 2 && segs.n[0] == segs.n[1] && segs.vector[0] && segs.vector[1];
}

template <typename Sample, bool SINGLE, typename Term>
__global__ void __launch_bounds__(EV_SUM_THREADS)
    ev_segment_sums_kernel(EvSegments segs, Term term, EvSumScratch *scratch,
                           unsigned long long *out)
{
    __shared__ bool last;
    unsigned long long sum[2 * EV_MAX_SEGMENTS] = {};
    if (ev_pairable<Sample, SINGLE>(segs)) {
        ev_segment_pair<Sample>(segs, term, sum);
    } else {
#pragma unroll // constant indices keep sum[] in registers
        for (int s = 0; s < EV_MAX_SEGMENTS; s++)
            if (s < segs.count)
                ev_segment<Sample, SINGLE>(segs.ref[s], segs.dis[s], segs.n[s], segs.vector[s],
                                           term, sum[2 * s], sum[2 * s + 1]);
    }
#pragma unroll
    for (int k = 0; k < 2 * EV_MAX_SEGMENTS; k++) {
        if (k >= 2 * segs.count)
            break;
        const unsigned long long v = ev_block_sum(sum[k]);
        if (!threadIdx.x)
            scratch->partial[blockIdx.x][k] = v;
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
    /* EV_SUM_SAMPLES_PER_THREAD samples per thread and run; measured on an H200 (bench_twins):
     * fewer, fuller blocks beat many short ones, whose partials the last block must add */
    const unsigned long long per_block =
        (unsigned long long)EV_SUM_THREADS * EV_SUM_SAMPLES_PER_THREAD;
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
