// CUDA twin of ssimulacra2 (ssimulacra2.c and ssimulacra2_frame.c beside this file; the
// arithmetic is ssimulacra2_math.h's, split into per-output steps in ssimulacra2_steps.h).
//
// Per frame, on the worker's stream:
//   1. the pyramid: one thread per output, both pictures (blockIdx.z): scale 0's XYB from the
//      samples; scale 1's linear RGB (the 2x2 box of the frame's linear RGB, made again from
//      the samples) and its XYB; each further scale's linear RGB boxed from the one before,
//      and its XYB;
//   2. per scale: one thread per row of each of the 15 blurs (3 channels x 5) for the
//      horizontal recursion, then one thread per column of each for the vertical one;
//   3. per scale and channel: one CUDA block makes the maps' six terms of 256 samples at a
//      time (warps 1..8, one sample each) while warp 0's lanes 0..5 add the 256 before to the
//      six running doubles, one sum per lane, sample by sample in raster order;
//   4. the sums copied to pinned host memory.
// The host then makes the norms and the score with the C's own code (ssimu2_norms,
// ssimu2_score: sqrt, pow from glibc).
//
// Why the bits are the CPU's: every float and double is made by the same EV_HD functions in
// the same order from the same inputs (IEEE operations, correctly rounded division and sqrt,
// no contraction: cmake/cuda.cmake's flags); the C's rings and tiles only store what the steps
// store in whole planes; and each of the 108 sums is the C's one running double from 0 over
// the same terms in the same (raster) order: it is never split (double addition is not
// associative), only its terms are made in parallel.
#include <cerrno>
#include <cstdint>

#include <cuda_runtime.h>

#include "cuda/kept.cuh"
#include "cuda/runtime.h"
#include "features/ssimulacra2/ssimulacra2_frame.h"
#include "features/ssimulacra2/ssimulacra2_steps.h"
#include "features/ssimulacra2/ssimulacra2_twin.h"

namespace
{

constexpr int THREADS = 128;                 // pyramid and blur kernels
constexpr int CHUNK = 256;                   // sums_kernel: samples per step (warps 1..8)
constexpr int N_SUMS = 6;                    // per channel and scale
constexpr int N_PLANES = 3 * SSIMU2_N_BLURS; // blurred planes per scale
constexpr int MAX_SUMS = SSIMU2_SCALES * 3 * N_SUMS;

struct Bufs {
    double *sums_dev, *sums_host; // [scale][channel][sum]
    float *xyb;                   // the pyramid of XYB (ssimu2_plane_at)
    float *lin;                   // the pyramid of linear RGB from scale 1 (ssimu2_lin_at)
    float *hout, *vout;           // N_PLANES planes of scale 0's size, per scale
};

struct Pics {
    Ssimu2Src src[2];
};

// The planes of scale s: xyb[k][c] and lin[k][c] of both pictures.
struct Level {
    float *xyb[2][3], *lin[2][3];
    unsigned w, h;
};

Level level_of(const Bufs &b, const Ssimu2Pyramid &p, unsigned s)
{
    Level l = {};
    l.w = p.w[s];
    l.h = p.h[s];
    for (unsigned k = 0; k < 2; k++)
        for (unsigned c = 0; c < 3; c++) {
            l.xyb[k][c] = b.xyb + ssimu2_plane_at(&p, s, k, c);
            l.lin[k][c] = s ? b.lin + ssimu2_lin_at(&p, s, k, c) : nullptr;
        }
    return l;
}

// The pyramid's kernels: column x of rows blockIdx.y, + gridDim.y... of picture blockIdx.z.
__global__ void first_kernel(Ssimu2Fmt f, Pics p, Level l)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, k = blockIdx.z;
    for (unsigned y = blockIdx.y; x < l.w && y < l.h; y += gridDim.y)
        ssimu2_first_step(&f, &p.src[k], x, y, l.xyb[k]);
}

__global__ void scale1_kernel(Ssimu2Fmt f, Pics p, Level l)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, k = blockIdx.z;
    for (unsigned y = blockIdx.y; x < l.w && y < l.h; y += gridDim.y)
        ssimu2_scale1_step(&f, &p.src[k], x, y, l.lin[k], l.xyb[k]);
}

// l: the scale made; prev: the one before.
__global__ void down_kernel(Level prev, Level l)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, k = blockIdx.z;
    const float *const in[3] = { prev.lin[k][0], prev.lin[k][1], prev.lin[k][2] };
    for (unsigned y = blockIdx.y; x < l.w && y < l.h; y += gridDim.y)
        ssimu2_down_step(in, prev.w, prev.h, x, y, l.lin[k], l.xyb[k]);
}

// Thread t: row t % h of blur (t / h) % 5 of channel t / (5 h); into plane c * 5 + j of out.
__global__ void hblur_kernel(Level l, size_t plane, float *out)
{
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (size_t)N_PLANES * l.h)
        return;
    const unsigned y = (unsigned)(t % l.h), j = (unsigned)(t / l.h % SSIMU2_N_BLURS);
    const unsigned c = (unsigned)(t / ((size_t)l.h * SSIMU2_N_BLURS));
    const float *a, *b;
    ssimu2_blur_inputs(l.xyb[0][c], l.xyb[1][c], j, &a, &b);
    const size_t row = (size_t)y * l.w;
    ssimu2_hblur_step(a + row, b ? b + row : nullptr, l.w,
                      out + (c * SSIMU2_N_BLURS + j) * plane + row);
}

// Column x of plane blockIdx.y.
__global__ void vblur_kernel(unsigned w, unsigned h, size_t plane, const float *in, float *out)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x < w)
        ssimu2_vblur_step(in + blockIdx.y * plane, w, h, x, out + blockIdx.y * plane);
}

struct Maps {
    const float *x1[3], *x2[3]; // per channel: the pictures' XYB
    const float *v;             // the blurred planes, N_PLANES of `plane` floats
    size_t plane, n;            // n: samples of the scale
};

__device__ void make_terms(const Maps &m, unsigned c, size_t chunk, double (*t)[CHUNK + 1])
{
    const unsigned j = threadIdx.x - 32;
    const size_t i = chunk * CHUNK + j;
    if (i >= m.n)
        return;
    const float *v[SSIMU2_N_BLURS];
    for (int b = 0; b < SSIMU2_N_BLURS; b++)
        v[b] = m.v + (c * SSIMU2_N_BLURS + b) * m.plane;
    double d[N_SUMS];
    ssimu2_terms_step(m.x1[c], m.x2[c], v, i, d);
    for (int k = 0; k < N_SUMS; k++)
        t[k][j] = d[k];
}

// Block c: channel c's six sums into out[c * 6 + k], each a running double from 0 in raster
// order (lane k of warp 0 adds sum k; the other warps make the next chunk's terms meanwhile,
// into the other half of t). The rows of t are padded so that the six lanes' reads fall into
// different banks.
__global__ void __launch_bounds__(32 + CHUNK) sums_kernel(Maps m, double *out)
{
    __shared__ double t[2][N_SUMS][CHUNK + 1];
    const unsigned c = blockIdx.x, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const size_t chunks = (m.n + CHUNK - 1) / CHUNK;
    if (warp)
        make_terms(m, c, 0, t[0]);
    __syncthreads();
    double sum = 0.0;
    for (size_t ch = 0; ch < chunks; ch++) {
        if (!warp) {
            if (lane < N_SUMS) {
                const size_t left = m.n - ch * CHUNK;
                const int n = left < (size_t)CHUNK ? (int)left : CHUNK;
                const double *row = t[ch & 1][lane];
                for (int k = 0; k < n; k++)
                    sum += row[k];
            }
        } else if (ch + 1 < chunks) {
            make_terms(m, c, ch + 1, t[(ch + 1) & 1]);
        }
        __syncthreads();
    }
    if (!warp && lane < N_SUMS)
        out[c * N_SUMS + lane] = sum;
}

// ---- memory and the frame ---------------------------------------------------------------------

void lay_out(const Ssimu2State *s, char *dev, char *host, Bufs &b, size_t &dev_bytes,
             size_t &host_bytes)
{
    Ssimu2Pyramid p;
    ssimu2_pyramid(s->w, s->h, &p);
    const size_t n0 = (size_t)s->w * s->h;
    dev_bytes = host_bytes = 0;
    b.sums_dev = ev_take<double>(dev, dev_bytes, MAX_SUMS);
    b.xyb = ev_take<float>(dev, dev_bytes, p.at[p.n_scales]);
    b.lin = ev_take<float>(dev, dev_bytes, p.at[p.n_scales] - p.at[1]);
    b.hout = ev_take<float>(dev, dev_bytes, N_PLANES * n0);
    b.vout = ev_take<float>(dev, dev_bytes, N_PLANES * n0);
    b.sums_host = ev_take<double>(host, host_bytes, MAX_SUMS);
}

// The frame's pictures are the stream's (init's) size: the buffers were laid out for it.
bool geometry_matches(const Ssimu2State *s, const EvPic *ref, const EvPic *dis)
{
    const int planes = ref->layout == EV_PIX_400 ? 1 : 3;
    if (ref->w[0] != s->w || ref->h[0] != s->h || dis->layout != ref->layout ||
        dis->bpc != ref->bpc)
        return false;
    for (int k = 0; k < planes; k++)
        if (dis->w[k] != ref->w[k] || dis->h[k] != ref->h[k] || !ref->dev[k] || !dis->dev[k])
            return false;
    return true;
}

Ssimu2Src src_of(const EvPic *pic)
{
    Ssimu2Src s = {};
    for (int k = 0; k < 3; k++) {
        s.p[k] = pic->dev[k];
        s.stride[k] = pic->stride[k];
        s.pw[k] = pic->w[k];
        s.ph[k] = pic->h[k];
    }
    return s;
}

dim3 grid_of(const Level &l)
{
    return dim3(ev_blocks((int)l.w, THREADS), l.h < 65535 ? l.h : 65535, 2);
}

void queue_pyramid(const Ssimu2State *s, const Bufs &b, const Ssimu2Pyramid &p, const EvPic *ref,
                   const EvPic *dis, cudaStream_t stream)
{
    const Ssimu2Fmt f = { s->w, s->h, ref->bpc, (int)ref->layout, s->m };
    const Pics pics = { { src_of(ref), src_of(dis) } };
    const Level l0 = level_of(b, p, 0), l1 = level_of(b, p, 1);
    first_kernel<<<grid_of(l0), THREADS, 0, stream>>>(f, pics, l0);
    scale1_kernel<<<grid_of(l1), THREADS, 0, stream>>>(f, pics, l1);
    for (unsigned sc = 2; sc < p.n_scales; sc++) {
        const Level l = level_of(b, p, sc);
        down_kernel<<<grid_of(l), THREADS, 0, stream>>>(level_of(b, p, sc - 1), l);
    }
}

void queue_scale(const Bufs &b, const Ssimu2Pyramid &p, unsigned sc, size_t plane,
                 cudaStream_t stream)
{
    const Level l = level_of(b, p, sc);
    const int rows = N_PLANES * (int)l.h;
    hblur_kernel<<<ev_blocks(rows, THREADS), THREADS, 0, stream>>>(l, plane, b.hout);
    vblur_kernel<<<dim3(ev_blocks((int)l.w, THREADS), N_PLANES), THREADS, 0, stream>>>(
        l.w, l.h, plane, b.hout, b.vout);
    Maps m = {};
    for (int c = 0; c < 3; c++) {
        m.x1[c] = l.xyb[0][c];
        m.x2[c] = l.xyb[1][c];
    }
    m.v = b.vout;
    m.plane = plane;
    m.n = (size_t)l.w * l.h;
    sums_kernel<<<3, 32 + CHUNK, 0, stream>>>(m, b.sums_dev + sc * 3 * N_SUMS);
}

int cuda_fail(const Ssimu2State *s, cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return 0;
    ev_log(s->log, EV_LOG_ERROR, "ssimulacra2 (CUDA): %s: %s", what, cudaGetErrorString(e));
    return -EIO;
}

} // namespace

extern "C" EV_LAUNCH_FN(ev_ssimu2_launch_cuda)
{
    return ev_kept_launch<Ssimu2State, Bufs>(
        state, ref, ref, lay_out, [&](const Ssimu2State *s, Bufs &b, cudaStream_t stream) {
            if (!geometry_matches(s, ref, dis))
                return -EINVAL;
            Ssimu2Pyramid p;
            ssimu2_pyramid(s->w, s->h, &p);
            queue_pyramid(s, b, p, ref, dis, stream);
            for (unsigned sc = 0; sc < p.n_scales; sc++)
                queue_scale(b, p, sc, (size_t)s->w * s->h, stream);
            int err = cuda_fail(s, cudaGetLastError(), "kernels");
            if (!err)
                err = cuda_fail(s,
                                cudaMemcpyAsync(b.sums_host, b.sums_dev,
                                                p.n_scales * 3 * N_SUMS * sizeof(double),
                                                cudaMemcpyDeviceToHost, stream),
                                "sums copy");
            return err;
        });
}

extern "C" EV_EXTRACT_FN(ev_ssimu2_extract_cuda)
{
    return ev_kept_extract<Ssimu2State, Bufs>(
        state, ref, "ssimulacra2", lay_out, [&](const Ssimu2State *s, Bufs &b) {
            Ssimu2Pyramid p;
            ssimu2_pyramid(s->w, s->h, &p);
            Ssimu2Result r = {};
            r.n_scales = p.n_scales;
            for (unsigned sc = 0; sc < p.n_scales; sc++)
                for (unsigned c = 0; c < 3; c++)
                    ssimu2_norms(b.sums_host + (sc * 3 + c) * N_SUMS, p.w[sc], p.h[sc], c,
                                 &r.scale[sc]);
            return ev_sink_put(sink, s->name, frame, ssimu2_score(&r));
        });
}
