// CUDA twin of psnr_hvs (psnr_hvs.c beside this file: libvmaf's Xiph.Org PSNR-HVS).
//
// Per frame, on the worker's stream, for each of the three planes:
//   1. one thread per 8x8 block (blocks every 7 samples): the block pair loaded, its masking
//      threshold (psnr_hvs_block_threshold: variance ratios, Daala's integer DCT, masked AC
//      energies, sqrt) and its 64 terms (psnr_hvs_coeff_term), written at the block's raster
//      index: the plane's terms in the order the reference adds them;
//   2. one thread per plane adds that plane's terms to one float, from 0, in that order;
//   3. one copy of the three floats to pinned host memory.
// The host then forms the scores and the dB values (log10: glibc) as psnr_hvs.c does.
//
// Why the bits are the CPU's: every term is computed by the same EV_HD functions the CPU
// calls, on the same ints, with IEEE float/double operations, correctly rounded sqrt and
// division and no contraction (cmake/cuda.cmake's flags); the plane's sum is the reference's
// one running float over the same terms in the same order (float addition is not
// associative, so it is not split). Nothing else of the frame is a float.
#include <cerrno>

#include <cuda_runtime.h>

#include "cuda/kept.cuh"
#include "cuda/runtime.h"
#include "features/psnr_hvs/psnr_hvs.h"
#include "features/psnr_hvs/psnr_hvs_math.h"

namespace {

constexpr int THREADS = 128;    // block-term kernel: threads (8x8 blocks) per CUDA block
constexpr int TERMS = 64;       // terms per 8x8 block

// A plane's tables, by value (kernel parameters), copied to shared memory by each block.
struct Weights {
    float mask[TERMS], csf[TERMS];
};

struct PlaneIn {
    const void *ref, *dis;
    ptrdiff_t stride_ref, stride_dis;
    int nx, ny, wide;
};

__global__ void __launch_bounds__(THREADS) block_terms_kernel(PlaneIn in, Weights wt,
                                                              float *terms)
{
    __shared__ float mask[TERMS], csf[TERMS];
    for (int k = threadIdx.x; k < TERMS; k += blockDim.x) {
        mask[k] = wt.mask[k];
        csf[k] = wt.csf[k];
    }
    __syncthreads();
    const long long b = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= (long long)in.nx * in.ny)
        return;
    const int by = (int)(b / in.nx), bx = (int)(b - (long long)by * in.nx);
    const int x = bx * PSNR_HVS_STEP, y = by * PSNR_HVS_STEP;
    int32_t bs[TERMS], bd[TERMS];
    psnr_hvs_load_block(in.ref, in.stride_ref, in.wide, x, y, bs);
    psnr_hvs_load_block(in.dis, in.stride_dis, in.wide, x, y, bd);
    const float threshold = psnr_hvs_block_threshold(bs, bd, mask);
    float4 *out = reinterpret_cast<float4 *>(terms + b * TERMS);
#pragma unroll 4
    for (int k = 0; k < TERMS; k += 4)
        out[k / 4] = make_float4(psnr_hvs_coeff_term(bs, bd, k, threshold, mask, csf),
                                 psnr_hvs_coeff_term(bs, bd, k + 1, threshold, mask, csf),
                                 psnr_hvs_coeff_term(bs, bd, k + 2, threshold, mask, csf),
                                 psnr_hvs_coeff_term(bs, bd, k + 3, threshold, mask, csf));
}

struct PlaneTerms {
    const float4 *terms[3];
    long long blocks[3];
};

// Block p: plane p's running float, term after term in raster block order (the reference's
// psnr_hvs_block_error chain). Loads are independent of the sum and run ahead of it.
__global__ void plane_sum_kernel(PlaneTerms t, float *out)
{
    const int p = blockIdx.x;
    const float4 *v = t.terms[p];
    const long long n = t.blocks[p] * (TERMS / 4);
    float sum = 0.0f;
#pragma unroll 16
    for (long long i = 0; i < n; i++) {
        const float4 q = v[i];
        sum += q.x;
        sum += q.y;
        sum += q.z;
        sum += q.w;
    }
    out[p] = sum;
}

// ---- memory -----------------------------------------------------------------------------------

struct Bufs {
    float *terms[3];
    float *sums_dev, *sums_host;
};

long long plane_blocks(const PsnrHvsState *s, int p)
{
    return (long long)psnr_hvs_blocks(s->w[p]) * psnr_hvs_blocks(s->h[p]);
}

void lay_out(const PsnrHvsState *s, char *dev, char *host, Bufs &b, size_t &dev_bytes,
             size_t &host_bytes)
{
    dev_bytes = host_bytes = 0;
    for (int p = 0; p < 3; p++)
        b.terms[p] = ev_take<float>(dev, dev_bytes, (size_t)plane_blocks(s, p) * TERMS);
    b.sums_dev = ev_take<float>(dev, dev_bytes, 3);
    b.sums_host = ev_take<float>(host, host_bytes, 3);
}

// The frame's planes are the stream's (init's) sizes: the buffers were laid out for them.
bool geometry_matches(const PsnrHvsState *s, const EvPic *ref, const EvPic *dis)
{
    for (int p = 0; p < 3; p++)
        if ((int)ref->w[p] != s->w[p] || (int)ref->h[p] != s->h[p] || dis->w[p] != ref->w[p] ||
            dis->h[p] != ref->h[p] || !ref->dev[p] || !dis->dev[p])
            return false;
    return true;
}

} // namespace

extern "C" int ev_psnr_hvs_launch_cuda(const void *state, void *scratch, const EvPic *ref,
                                       const EvPic *dis, unsigned frame)
{
    (void)scratch;
    (void)frame;
    if (!ref)
        return 0;
    const PsnrHvsState *s = static_cast<const PsnrHvsState *>(state);
    if (!geometry_matches(s, ref, dis))
        return -EINVAL;
    Bufs b;
    const int err = ev_kept_layout(s, ref->gpu, b, lay_out);
    if (err)
        return err;
    const cudaStream_t stream = static_cast<cudaStream_t>(ev_cuda_stream(ref->gpu));
    PlaneTerms t;
    for (int p = 0; p < 3; p++) {
        PlaneIn in = { ref->dev[p], dis->dev[p], ref->stride[p], dis->stride[p],
                       psnr_hvs_blocks(s->w[p]), psnr_hvs_blocks(s->h[p]), s->bpc > 8 };
        Weights wt;
        for (int k = 0; k < TERMS; k++) {
            wt.mask[k] = s->mask[p][k];
            wt.csf[k] = s->csf[p][k];
        }
        t.terms[p] = reinterpret_cast<const float4 *>(b.terms[p]);
        t.blocks[p] = plane_blocks(s, p);
        if (t.blocks[p])
            block_terms_kernel<<<(unsigned)((t.blocks[p] + THREADS - 1) / THREADS), THREADS, 0,
                                 stream>>>(in, wt, b.terms[p]);
    }
    plane_sum_kernel<<<3, 1, 0, stream>>>(t, b.sums_dev);
    cudaMemcpyAsync(b.sums_host, b.sums_dev, 3 * sizeof(float), cudaMemcpyDeviceToHost, stream);
    return 0;
}

extern "C" int ev_psnr_hvs_extract_cuda(const void *state, void *scratch, const EvPic *ref,
                                        const EvPic *dis, unsigned frame, EvSink *sink)
{
    (void)scratch;
    (void)dis;
    const PsnrHvsState *s = static_cast<const PsnrHvsState *>(state);
    Bufs b;
    int err = ev_kept_layout(s, ref->gpu, b, lay_out);
    if (!err)
        err = ev_cuda_finish(ref->gpu, "psnr_hvs");
    if (err)
        return err;
    return ev_psnr_hvs_emit(s, b.sums_host, s->w, s->h, frame, sink);
}
