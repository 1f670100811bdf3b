// CUDA twin of psnr_hvs (psnr_hvs.c beside this file: libvmaf's Xiph.Org PSNR-HVS).
//
// Per frame, on the worker's stream, the three planes' 8x8 blocks (every 7 samples) numbered
// one after another, each plane's in raster order:
//   1. one thread per block: the pair loaded, its masking threshold (psnr_hvs_block_threshold:
//      variance ratios, Daala's integer DCT, masked AC energies, sqrt), and its terms that are
//      not zero, in coefficient order (psnr_hvs_block_nonzero_terms), with their count;
//   2. an exclusive prefix sum of the counts (integers: exact in any order) and a copy of
//      every block's terms to its place in one dense list: each plane's nonzero terms in the
//      order the reference adds them;
//   3. one thread per plane adds that plane's part of the list to one float, from 0, in order;
//   4. one copy of the three floats to pinned host memory.
// The host then forms the scores and the dB values (log10: glibc) as psnr_hvs.c does.
//
// Why the bits are the CPU's: every term is computed by the same EV_HD functions the CPU
// calls, on the same ints, with IEEE float/double operations, correctly rounded sqrt and
// division and no contraction (cmake/cuda.cmake's flags); each plane's sum is the reference's
// one running float over the same terms in the same order (float addition is not associative,
// so it is never split), less its +0 terms, which leave a sum >= +0 unchanged (the proof is at
// psnr_hvs_block_nonzero_terms; the +0 padding of step 3's loads is the same identity).
// Nothing else of the frame is a float. Real video leaves most terms at 0 (80-97% of the
// corpus's luma terms), so step 3, the one sequential step, is much shorter than 64 additions
// per block.
#include <cerrno>
#include <cstdint>

#include <cuda_runtime.h>

#include "cuda/kept.cuh"
#include "cuda/runtime.h"
#include "features/psnr_hvs/psnr_hvs.h"
#include "features/psnr_hvs/psnr_hvs_math.h"

namespace
{

constexpr int TERMS = 64;    // terms per 8x8 block
constexpr int THREADS = 128; // step 1: blocks per CUDA block; step 2's copy: terms per block
constexpr int SCAN = 1024;   // step 2: counts per scan chunk (threads of a scan block)
constexpr int GROUP = 16;    // step 3: float4 loads in flight ahead of the additions
constexpr unsigned FULL = 0xffffffffu;

// The frame's planes and their blocks: plane p's block b is block first[p] + b of the frame.
struct Planes {
    const void *ref[3], *dis[3];
    ptrdiff_t stride_ref[3], stride_dis[3];
    int nx[3];
    long long first[4]; // first[3]: the frame's blocks
    int wide;
};

// The planes' tables, by value (kernel parameters), copied to shared memory by each block.
struct Weights {
    float mask[3][TERMS], csf[3][TERMS];
};

__device__ int plane_of(const Planes &pl, long long g)
{
    return g < pl.first[1] ? 0 : g < pl.first[2] ? 1 : 2;
}

// Step 1: block g's nonzero terms to terms[g * 64 ...], their count to counts[g].
__global__ void __launch_bounds__(THREADS)
    block_terms_kernel(Planes pl, Weights wt, float *terms, unsigned *counts)
{
    __shared__ float mask[3][TERMS], csf[3][TERMS];
    for (int k = threadIdx.x; k < 3 * TERMS; k += blockDim.x) {
        mask[k / TERMS][k % TERMS] = wt.mask[k / TERMS][k % TERMS];
        csf[k / TERMS][k % TERMS] = wt.csf[k / TERMS][k % TERMS];
    }
    __syncthreads();
    const long long g = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= pl.first[3])
        return;
    const int p = plane_of(pl, g);
    const long long b = g - pl.first[p];
    const int by = (int)(b / pl.nx[p]), bx = (int)(b - (long long)by * pl.nx[p]);
    const int x = bx * PSNR_HVS_STEP, y = by * PSNR_HVS_STEP;
    int32_t bs[TERMS], bd[TERMS];
    psnr_hvs_load_block(pl.ref[p], pl.stride_ref[p], pl.wide, x, y, bs);
    psnr_hvs_load_block(pl.dis[p], pl.stride_dis[p], pl.wide, x, y, bd);
    const float threshold = psnr_hvs_block_threshold(bs, bd, mask[p]);
    counts[g] = (unsigned)psnr_hvs_block_nonzero_terms(bs, bd, threshold, mask[p], csf[p],
                                                       terms + g * TERMS);
}

// The inclusive prefix sum of v over a block of SCAN threads; *total: the block's sum.
__device__ unsigned long long block_scan(unsigned long long v, unsigned long long *total)
{
    __shared__ unsigned long long warp_sums[SCAN / 32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int o = 1; o < 32; o <<= 1) {
        const unsigned long long u = __shfl_up_sync(FULL, v, o);
        if (lane >= o)
            v += u;
    }
    if (lane == 31)
        warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        unsigned long long w = warp_sums[lane];
        for (int o = 1; o < 32; o <<= 1) {
            const unsigned long long u = __shfl_up_sync(FULL, w, o);
            if (lane >= o)
                w += u;
        }
        warp_sums[lane] = w;
    }
    __syncthreads();
    const unsigned long long out = v + (warp ? warp_sums[warp - 1] : 0);
    *total = warp_sums[SCAN / 32 - 1];
    __syncthreads(); // warp_sums is free for the next call
    return out;
}

// Step 2a: each chunk of SCAN counts: offsets within the chunk, and the chunk's total.
__global__ void __launch_bounds__(SCAN)
    scan_chunks_kernel(const unsigned *counts, long long n, unsigned long long *offsets,
                       unsigned long long *chunks)
{
    const long long i = (long long)blockIdx.x * SCAN + threadIdx.x;
    const unsigned long long c = i < n ? counts[i] : 0;
    unsigned long long total;
    const unsigned long long inclusive = block_scan(c, &total);
    if (i < n)
        offsets[i] = inclusive - c;
    if (threadIdx.x == 0)
        chunks[blockIdx.x] = total;
}

// Step 2b: the chunks' totals to their exclusive prefix sums, in place (one block).
__global__ void __launch_bounds__(SCAN)
    scan_totals_kernel(unsigned long long *chunks, long long n_chunks)
{
    unsigned long long carry = 0;
    for (long long base = 0; base < n_chunks; base += SCAN) {
        const long long i = base + threadIdx.x;
        const unsigned long long c = i < n_chunks ? chunks[i] : 0;
        unsigned long long total;
        const unsigned long long inclusive = block_scan(c, &total);
        if (i < n_chunks)
            chunks[i] = carry + inclusive - c;
        carry += total;
    }
}

// Where block g's terms start in the dense list (g == n: the list's length).
__device__ unsigned long long dense_at(const unsigned *counts, const unsigned long long *offsets,
                                       const unsigned long long *chunks, long long g, long long n)
{
    if (g < n)
        return chunks[g / SCAN] + offsets[g];
    return n ? chunks[(n - 1) / SCAN] + offsets[n - 1] + counts[n - 1] : 0;
}

// Step 2c: one thread per term slot; the kept ones to their place in the dense list.
__global__ void __launch_bounds__(THREADS)
    gather_kernel(const float *terms, const unsigned *counts, const unsigned long long *offsets,
                  const unsigned long long *chunks, long long n, float *dense)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long g = i / TERMS;
    const int k = (int)(i % TERMS);
    if (g >= n || k >= (int)counts[g])
        return;
    dense[dense_at(counts, offsets, chunks, g, n) + k] = terms[i];
}

struct Lists {
    const unsigned *counts;
    const unsigned long long *offsets, *chunks;
    long long first[4];
};

// GROUP float4 from q[at ...], +0 past n4 (adding +0 leaves the sum's bits: see the top).
__device__ __forceinline__ void load_group(float4 (&r)[GROUP], const float4 *q, long long at,
                                           long long n4)
{
#pragma unroll
    for (int j = 0; j < GROUP; j++)
        r[j] = at + j < n4 ? q[at + j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
}

// Step 3, block p: plane p's running float over its part of the dense list, in order. The
// next group's loads are issued before the current group's additions.
__global__ void plane_sum_kernel(const float *dense, Lists l, float *out)
{
    const int p = blockIdx.x;
    const long long n = l.first[3];
    const unsigned long long start = dense_at(l.counts, l.offsets, l.chunks, l.first[p], n);
    const unsigned long long end = dense_at(l.counts, l.offsets, l.chunks, l.first[p + 1], n);
    const float *v = dense + start;
    long long left = (long long)(end - start);
    float sum = 0.0f;
    for (; left > 0 && (reinterpret_cast<uintptr_t>(v) & 15); left--)
        sum += *v++;
    const float4 *q = reinterpret_cast<const float4 *>(v);
    const long long n4 = left / 4;
    float4 cur[GROUP], next[GROUP];
    load_group(cur, q, 0, n4);
    for (long long at = 0; at < n4; at += GROUP) {
        load_group(next, q, at + GROUP, n4);
#pragma unroll
        for (int j = 0; j < GROUP; j++) {
            sum += cur[j].x;
            sum += cur[j].y;
            sum += cur[j].z;
            sum += cur[j].w;
        }
#pragma unroll
        for (int j = 0; j < GROUP; j++)
            cur[j] = next[j];
    }
    for (long long k = n4 * 4; k < left; k++)
        sum += v[k];
    out[p] = sum;
}

// ---- memory -----------------------------------------------------------------------------------

struct Bufs {
    float *terms, *dense;
    unsigned *counts;
    unsigned long long *offsets, *chunks;
    float *sums_dev, *sums_host;
};

long long frame_blocks(const PsnrHvsState *s)
{
    long long n = 0;
    for (int p = 0; p < 3; p++)
        n += (long long)psnr_hvs_blocks(s->w[p]) * psnr_hvs_blocks(s->h[p]);
    return n;
}

void lay_out(const PsnrHvsState *s, char *dev, char *host, Bufs &b, size_t &dev_bytes,
             size_t &host_bytes)
{
    const size_t n = (size_t)frame_blocks(s);
    dev_bytes = host_bytes = 0;
    b.terms = ev_take<float>(dev, dev_bytes, n * TERMS);
    b.dense = ev_take<float>(dev, dev_bytes, n * TERMS);
    b.counts = ev_take<unsigned>(dev, dev_bytes, n);
    b.offsets = ev_take<unsigned long long>(dev, dev_bytes, n);
    b.chunks = ev_take<unsigned long long>(dev, dev_bytes, (n + SCAN - 1) / SCAN);
    b.sums_dev = ev_take<float>(dev, dev_bytes, 3);
    b.sums_host = ev_take<float>(host, host_bytes, 3);
}

// The frame's planes are the stream's (init's) sizes: the buffers were laid out for them.
// A plane without blocks is never read (a 0x0 chroma plane may have no samples at all).
bool geometry_matches(const PsnrHvsState *s, const EvPic *ref, const EvPic *dis)
{
    for (int p = 0; p < 3; p++) {
        const bool read = psnr_hvs_blocks(s->w[p]) && psnr_hvs_blocks(s->h[p]);
        if ((int)ref->w[p] != s->w[p] || (int)ref->h[p] != s->h[p] || dis->w[p] != ref->w[p] ||
            dis->h[p] != ref->h[p] || (read && (!ref->dev[p] || !dis->dev[p])))
            return false;
    }
    return true;
}

Planes planes_of(const PsnrHvsState *s, const EvPic *ref, const EvPic *dis)
{
    Planes pl = {};
    pl.wide = s->bpc > 8;
    for (int p = 0; p < 3; p++) {
        pl.ref[p] = ref->dev[p];
        pl.dis[p] = dis->dev[p];
        pl.stride_ref[p] = ref->stride[p];
        pl.stride_dis[p] = dis->stride[p];
        pl.nx[p] = psnr_hvs_blocks(s->w[p]);
        pl.first[p + 1] = pl.first[p] + (long long)pl.nx[p] * psnr_hvs_blocks(s->h[p]);
    }
    return pl;
}

unsigned grid_of(long long n, int per)
{
    return (unsigned)((n + per - 1) / per);
}

} // namespace

extern "C" EV_LAUNCH_FN(ev_psnr_hvs_launch_cuda)
{
    return ev_kept_launch<PsnrHvsState, Bufs>(
        state, ref, ref, lay_out, [&](const PsnrHvsState *s, Bufs &b, cudaStream_t stream) {
            if (!geometry_matches(s, ref, dis))
                return -EINVAL;
            const Planes pl = planes_of(s, ref, dis);
            const long long n = pl.first[3];
            if (n) { // else every plane is under 8x8: the sums stay 0
                Weights wt;
                for (int p = 0; p < 3; p++)
                    for (int k = 0; k < TERMS; k++) {
                        wt.mask[p][k] = s->mask[p][k];
                        wt.csf[p][k] = s->csf[p][k];
                    }
                const long long n_chunks = (n + SCAN - 1) / SCAN;
                block_terms_kernel<<<grid_of(n, THREADS), THREADS, 0, stream>>>(pl, wt, b.terms,
                                                                                b.counts);
                scan_chunks_kernel<<<(unsigned)n_chunks, SCAN, 0, stream>>>(b.counts, n, b.offsets,
                                                                            b.chunks);
                scan_totals_kernel<<<1, SCAN, 0, stream>>>(b.chunks, n_chunks);
                gather_kernel<<<grid_of(n * TERMS, THREADS), THREADS, 0, stream>>>(
                    b.terms, b.counts, b.offsets, b.chunks, n, b.dense);
            }
            const Lists l = { b.counts,
                              b.offsets,
                              b.chunks,
                              { pl.first[0], pl.first[1], pl.first[2], pl.first[3] } };
            plane_sum_kernel<<<3, 1, 0, stream>>>(b.dense, l, b.sums_dev);
            cudaMemcpyAsync(b.sums_host, b.sums_dev, 3 * sizeof(float), cudaMemcpyDeviceToHost,
                            stream);
            return 0;
        });
}

extern "C" EV_EXTRACT_FN(ev_psnr_hvs_extract_cuda)
{
    return ev_kept_extract<PsnrHvsState, Bufs>(
        state, ref, "psnr_hvs", lay_out, [&](const PsnrHvsState *s, Bufs &b) {
            return ev_psnr_hvs_emit(s, b.sums_host, s->w, s->h, frame, sink);
        });
}
