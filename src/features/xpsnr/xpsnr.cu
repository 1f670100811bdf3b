// CUDA twin of xpsnr (xpsnr.c beside this file; the arithmetic is xpsnr_math.h's).
//
// The device makes a frame's block sums (XpsnrSums: integers, so any order gives the C's), the
// host scores them with the C's own code (xpsnr_frame.c). The temporal activity needs the two
// previous reference lumas, so the device work runs in frame order on the stream of an ordered
// frame ring (cuda/frame_ring.cuh):
//   launch(n): queue on the ring: the reference luma as the filter's int16 into luma n % 3, one
//              CUDA block per XPSNR block summing its squared errors, spatial and temporal terms
//              (against lumas (n - 1) % 3, (n - 2) % 3, or zeros before the first frames), the
//              chroma blocks' squared errors, and the sums copied into the slot's pinned area;
//   extract(n): wait for the worker's stream, score the slot's sums (xpsnr_frame.c), release
//              the slot, write the values and keep the weighted SSEs by frame for the averages,
//              which the flush adds in frame order.
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

#include <cuda_runtime.h>

#include "cuda/frame_ring.cuh"
#include "cuda/kept.cuh"
#include "cuda/plane_sums.cuh"
#include "cuda/runtime.h"
#include "features/xpsnr/xpsnr_frame.h"
#include "features/xpsnr/xpsnr_math.h"
#include "features/xpsnr/xpsnr_twin.h"

namespace
{

constexpr int RING = EvFrameRing::SLOTS;
constexpr int THREADS = EV_SUM_THREADS;
constexpr int N_SUMS = 5; // per block: sse y, u, v, spatial, temporal

} // namespace

struct XpsnrCuda {
    explicit XpsnrCuda(const EvLog *l) : order("xpsnr", l), log(l) {}
    EvFrameRing order;
    const EvLog *log;
    int16_t *luma = nullptr;                 // 4 lumas: frames n % 3, and zeros
    unsigned long long *sums_dev = nullptr;  // one frame's N_SUMS x blocks
    unsigned long long *sums_host = nullptr; // RING frames' (pinned)
    std::mutex lock;                         // the weighted SSEs by frame, for the flush
    std::vector<uint64_t> wsse;
    std::vector<char> have;
};

namespace
{

struct Geometry { // what the kernels need of XpsnrGeom
    int w, h, b, w_blk, bpc, downsample, second_order;
};

Geometry geometry_of(const XpsnrGeom &g)
{
    return {
        (int)g.w, (int)g.h, (int)g.b, (int)g.w_blk, (int)g.depth, g.downsample, g.second_order
    };
}

__global__ void to_int16_kernel(const char *src, ptrdiff_t stride, int w, int h, int bpc,
                                int16_t *dst)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= w)
        return;
    const char *row = src + (ptrdiff_t)y * stride;
    dst[(size_t)y * w + x] = bpc > 8
                                 ? (int16_t)xpsnr_s16(reinterpret_cast<const uint16_t *>(row)[x])
                                 : (int16_t) reinterpret_cast<const uint8_t *>(row)[x];
}

// One luma block per CUDA block: its squared errors, spatial and temporal terms
// (xpsnr_math.h's shares, one per thread, added in any order: integers).
__global__ void __launch_bounds__(THREADS)
    luma_kernel(Geometry g, const char *ref, const char *dis, ptrdiff_t stride, const int16_t *c,
                const int16_t *p1, const int16_t *p2, int n_blk, unsigned long long *sums)
{
    const int bx = blockIdx.x, by = blockIdx.y, idx = by * g.w_blk + bx;
    const int x0 = bx * g.b, y0 = by * g.b;
    const int bw = x0 + g.b > g.w ? g.w - x0 : g.b, bh = y0 + g.b > g.h ? g.h - y0 : g.b;
    const int t = threadIdx.x, n = blockDim.x;
    const unsigned long long sse = xpsnr_sse_share(ref, dis, stride, g.bpc, x0, y0, bw, bh, t, n);
    const XpsnrLuma l = { g.w, g.h, g.downsample, g.second_order, c, p1, p2 };
    uint64_t sa, ta;
    xpsnr_activity_share(&l, x0, y0, bw, bh, t, n, &sa, &ta);
    const unsigned long long v[3] = { ev_block_sum(sse), ev_block_sum(sa), ev_block_sum(ta) };
    if (!threadIdx.x) {
        sums[idx] = v[0];
        sums[3 * n_blk + idx] = v[1];
        sums[4 * n_blk + idx] = v[2];
    }
}

struct ChromaPlane {
    const char *ref, *dis;
    ptrdiff_t stride;
    int pw, ph, bx, by;
};

// One chroma block per CUDA block (blockIdx.z: plane 1 or 2): its squared errors.
__global__ void __launch_bounds__(THREADS)
    chroma_kernel(ChromaPlane u, ChromaPlane v, int bpc, int w_blk, int n_blk,
                  unsigned long long *sums)
{
    const ChromaPlane &p = blockIdx.z ? v : u;
    const int x0 = blockIdx.x * p.bx, y0 = blockIdx.y * p.by;
    const int bw = x0 + p.bx > p.pw ? p.pw - x0 : p.bx, bh = y0 + p.by > p.ph ? p.ph - y0 : p.by;
    const unsigned long long sse = ev_block_sum(
        xpsnr_sse_share(p.ref, p.dis, p.stride, bpc, x0, y0, bw, bh, threadIdx.x, blockDim.x));
    if (!threadIdx.x)
        sums[(1 + blockIdx.z) * n_blk + blockIdx.y * w_blk + blockIdx.x] = sse;
}

size_t n_blocks(const XpsnrGeom &g)
{
    return (size_t)g.w_blk * g.h_blk;
}

// The lumas and the sums, on the first frame (the ring's device is current).
int make_buffers(const XpsnrTwinState *s, XpsnrCuda *m, cudaStream_t stream)
{
    const size_t luma = (size_t)s->g.w * s->g.h, n = N_SUMS * n_blocks(s->g);
    cudaError_t e = cudaMalloc(&m->luma, 4 * luma * sizeof(int16_t));
    if (e == cudaSuccess) // the zeros stand for the lumas before frame 0
        e = cudaMemsetAsync(m->luma + 3 * luma, 0, luma * sizeof(int16_t), stream);
    if (e == cudaSuccess)
        e = cudaMalloc(&m->sums_dev, n * sizeof(unsigned long long));
    if (e == cudaSuccess)
        e = cudaMallocHost(&m->sums_host, RING * n * sizeof(unsigned long long));
    return m->order.check(e, "set up the lumas and sums");
}

// Frame n's work on the ring's stream (its upload already waited for).
int queue_frame(const XpsnrTwinState *s, XpsnrCuda *m, const EvPic *ref, const EvPic *dis,
                long long n, int slot, cudaStream_t stream)
{
    const XpsnrGeom &g = s->g;
    const size_t luma = (size_t)g.w * g.h, n_blk = n_blocks(g);
    int16_t *c = m->luma + (n % 3) * luma;
    const int16_t *zero = m->luma + 3 * luma;
    const int16_t *p1 = n >= 1 ? m->luma + ((n - 1) % 3) * luma : zero;
    const int16_t *p2 = n >= 2 ? m->luma + ((n - 2) % 3) * luma : zero;
    to_int16_kernel<<<dim3(ev_blocks((int)g.w, THREADS), g.h), THREADS, 0, stream>>>(
        static_cast<const char *>(ref->dev[0]), ref->stride[0], (int)g.w, (int)g.h, (int)g.depth,
        c);
    int err = m->order.check(cudaGetLastError(), "int16 luma");
    if (err)
        return err;
    luma_kernel<<<dim3(g.w_blk, g.h_blk), THREADS, 0, stream>>>(
        geometry_of(g), static_cast<const char *>(ref->dev[0]),
        static_cast<const char *>(dis->dev[0]), ref->stride[0], c, p1, p2, (int)n_blk, m->sums_dev);
    err = m->order.check(cudaGetLastError(), "luma blocks");
    if (!err && g.n_planes > 1) {
        ChromaPlane p[2];
        for (int k = 0; k < 2; k++)
            p[k] = { static_cast<const char *>(ref->dev[1 + k]),
                     static_cast<const char *>(dis->dev[1 + k]),
                     ref->stride[1 + k],
                     (int)g.pw[1 + k],
                     (int)g.ph[1 + k],
                     (int)g.bx[1 + k],
                     (int)g.by[1 + k] };
        chroma_kernel<<<dim3(g.w_blk, g.h_blk, 2), THREADS, 0, stream>>>(
            p[0], p[1], (int)g.depth, (int)g.w_blk, (int)n_blk, m->sums_dev);
        err = m->order.check(cudaGetLastError(), "chroma blocks");
    }
    if (!err)
        err = m->order.check(cudaMemcpyAsync(m->sums_host + (size_t)slot * N_SUMS * n_blk,
                                             m->sums_dev, N_SUMS * n_blk * sizeof(*m->sums_dev),
                                             cudaMemcpyDeviceToHost, stream),
                             "read the sums");
    return err;
}

} // namespace

extern "C" int ev_xpsnr_cuda_open(XpsnrTwinState *s, const EvLog *log)
{
    return ev_ring_twin_open<XpsnrCuda>(s, log);
}

extern "C" void ev_xpsnr_cuda_close(XpsnrTwinState *s)
{
    ev_ring_twin_close(s, [](XpsnrCuda *m) {
        cudaFree(m->luma);
        cudaFree(m->sums_dev);
        cudaFreeHost(m->sums_host);
    });
}

extern "C" size_t ev_xpsnr_cuda_scratch_size(const void *state)
{
    return n_blocks(static_cast<const XpsnrTwinState *>(state)->g) * sizeof(double);
}

extern "C" EV_LAUNCH_FN(ev_xpsnr_launch_cuda)
{
    const XpsnrTwinState *s = static_cast<const XpsnrTwinState *>(state);
    XpsnrCuda *m = s->cuda;
    return m->order.launch(
        ref, frame, [&](cudaStream_t stream) { return make_buffers(s, m, stream); },
        [&](int slot, cudaStream_t stream) {
            return queue_frame(s, m, ref, dis, frame, slot, stream);
        });
}

extern "C" EV_EXTRACT_FN(ev_xpsnr_extract_cuda)
{
    const XpsnrTwinState *s = static_cast<const XpsnrTwinState *>(state);
    XpsnrCuda *m = s->cuda;
    const int err = ev_cuda_finish(ref->gpu, "xpsnr");
    if (err)
        return err;
    const size_t n_blk = n_blocks(s->g);
    auto *v = reinterpret_cast<uint64_t *>(m->sums_host +
                                           (size_t)EvFrameRing::slot(frame) * N_SUMS * n_blk);
    const XpsnrSums sums = { { v, v + n_blk, v + 2 * n_blk }, v + 3 * n_blk, v + 4 * n_blk };
    uint64_t wsse[3] = { 0, 0, 0 };
    ev_xpsnr_frame_wsse(&s->g, &sums, static_cast<double *>(scratch), wsse);
    m->order.release(frame);
    {
        std::lock_guard<std::mutex> hold(m->lock);
        if (m->wsse.size() < 3 * ((size_t)frame + 1)) {
            m->wsse.resize(3 * ((size_t)frame + 1), 0);
            m->have.resize((size_t)frame + 1, 0);
        }
        memcpy(&m->wsse[3 * (size_t)frame], wsse, sizeof(wsse));
        m->have[frame] = 1;
    }
    return ev_xpsnr_put_values(&s->g, wsse, frame, sink);
}

extern "C" int ev_xpsnr_cuda_totals(XpsnrTwinState *s, unsigned n_frames, XpsnrTotals *t)
{
    XpsnrCuda *m = s->cuda;
    std::lock_guard<std::mutex> hold(m->lock);
    *t = XpsnrTotals{};
    for (unsigned i = 0; i < n_frames; i++) {
        if (i >= m->have.size() || !m->have[i]) {
            ev_log(m->log, EV_LOG_ERROR, "xpsnr: frame %u was not scored", i);
            return -EIO;
        }
        ev_xpsnr_add_totals(&s->g, &m->wsse[3 * (size_t)i], t);
    }
    return 0;
}
