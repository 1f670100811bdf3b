// CUDA twins of float_ssim and float_ms_ssim (ssim.c, ms_ssim.c, ssim_core.c beside this file).
//
// Per frame, on the worker's stream, with every per-sample and per-window step taken from
// ssim_math.h in the reference's order:
//   1. decimation (float_ssim scale > 1: box; float_ms_ssim: 9/7 low-pass pyramid), one thread
//      per output sample, taps row-major as ssim_decimate;
//   2. the horizontal Gaussian pass of x, y, x*x, y*y, x*y, one thread per output sample;
//   3. the vertical pass, the window terms and, per raster row of windows, the exact
//      fixed-point sums of each needed term (ssim_exact_sum.h), one block per row;
//   4. one copy of the row sums to pinned host memory, then one wait.
// The host certifies each mean from its row sums. A mean that cannot be certified (its
// interval holds a float rounding boundary) is summed in the reference's order on the
// device: the terms of that sum are written out and one thread adds them in raster order.
// Buffers are the worker's (ev_cuda_worker_memory), allocated on its first frame; frames in
// flight are the scheduler's workers, each with its own stream, so one worker's host steps
// overlap the others' device work.
#include <atomic>
#include <cerrno>

#include <cuda_runtime.h>

#include "cuda/kept.cuh"
#include "cuda/runtime.h"
#include "features/common/sample_math.h"
#include "features/ssim/ssim.h"
#include "features/ssim/ssim_exact_sum.h"
#include "features/ssim/ssim_math.h"

namespace
{

// The four sums of ssim_accumulate, as bits of a mask.
enum SumId { SUM_SSIM, SUM_L, SUM_C, SUM_S, N_SUMS };
constexpr unsigned MASK_SSIM = 1u << SUM_SSIM;
constexpr unsigned MASK_LCS = 1u << SUM_L | 1u << SUM_C | 1u << SUM_S;
constexpr unsigned MASK_ALL = MASK_SSIM | MASK_LCS;

constexpr int H_THREADS = 128; // horizontal pass and decimation: threads per block (x)
constexpr int V_THREADS = 256; // vertical pass: threads of the block of one window row

std::atomic<unsigned long long> means_certified{ 0 }, means_in_order{ 0 };

// ---- sources: what the reference reads as floats ------------------------------------------

// A luma plane of 8-bit samples, converted as the reference's picture copy.
struct Luma8 {
    const uint8_t *p;
    ptrdiff_t stride;
    float scaler;
    __device__ float at(int x, int y) const
    {
        return sample_to_float(p[(ptrdiff_t)y * stride + x], scaler, 0);
    }
};

// A luma plane of 9- to 16-bit samples.
struct Luma16 {
    const uint8_t *p;
    ptrdiff_t stride;
    float scaler;
    __device__ float at(int x, int y) const
    {
        const uint16_t *row = reinterpret_cast<const uint16_t *>(p + (ptrdiff_t)y * stride);
        return sample_to_float(row[x], scaler, 0);
    }
};

// A packed float image (a decimated level).
struct Image {
    const float *p;
    int w;
    __device__ float at(int x, int y) const { return p[(size_t)y * w + x]; }
};

// ---- decimation -----------------------------------------------------------------------------

// One decimated sample per thread; blockIdx.z picks the picture. Reflection on both axes is
// the reference's: its inner path reads columns that reflect to themselves. The kernel travels
// by value (parameter space: one broadcast read per tap).
template <class Src>
__global__ void decimate_kernel(Src a, Src b, int w, int h, SsimKernel k, int dw, float *out_a,
                                float *out_b)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= dw)
        return;
    const Src src = blockIdx.z ? b : a;
    double sum = 0.0;
    for (int v = 0; v < k.n; v++) {
        const int yy = ssim_reflect(y * k.factor + k.first + v, h);
        for (int u = 0; u < k.n; u++)
            sum = ssim_tap(sum, src.at(ssim_reflect(x * k.factor + k.first + u, w), yy),
                           ssim_kernel_tap(&k, v, u));
    }
    (blockIdx.z ? out_b : out_a)[(size_t)y * dw + x] = ssim_tap_end(sum);
}

// ---- the Gaussian window ----------------------------------------------------------------------

// The five horizontally filtered planes of a w x h pair: planes of (w - 10) x h, in the order
// x, y, x*x, y*y, x*y (ssim_core.c's Q_*), plane after plane.
enum { Q_X, Q_Y, Q_XX, Q_YY, Q_XY, N_Q };

template <class Src>
__global__ void h_pass_kernel(Src a, Src b, int n, int h, float *hq)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= n)
        return;
    double s[N_Q] = { 0.0, 0.0, 0.0, 0.0, 0.0 };
#pragma unroll
    for (int k = 0; k < SSIM_WINDOW; k++) {
        const float xa = a.at(x + k, y), xb = b.at(x + k, y), g = ssim_gauss_tap(k);
        s[Q_X] = ssim_tap(s[Q_X], xa, g);
        s[Q_Y] = ssim_tap(s[Q_Y], xb, g);
        s[Q_XX] = ssim_tap(s[Q_XX], ssim_product(xa, xa), g);
        s[Q_YY] = ssim_tap(s[Q_YY], ssim_product(xb, xb), g);
        s[Q_XY] = ssim_tap(s[Q_XY], ssim_product(xa, xb), g);
    }
    const size_t plane = (size_t)n * h;
#pragma unroll
    for (int q = 0; q < N_Q; q++)
        hq[q * plane + (size_t)y * n + x] = ssim_tap_end(s[q]);
}

// Window (x, y): the vertical pass of the five planes, then ssim_window_terms.
__device__ void window_terms(const float *hq, int n, int h, int x, int y, double *l, double *c,
                             float *s)
{
    const size_t plane = (size_t)n * h;
    float stat[N_Q];
#pragma unroll
    for (int q = 0; q < N_Q; q++) {
        double sum = 0.0;
#pragma unroll
        for (int k = 0; k < SSIM_WINDOW; k++)
            sum = ssim_tap(sum, hq[q * plane + (size_t)(y + k) * n + x], ssim_gauss_tap(k));
        stat[q] = ssim_tap_end(sum);
    }
    ssim_window_terms(stat[Q_X], stat[Q_Y], stat[Q_XX], stat[Q_YY], stat[Q_XY], l, c, s);
}

__device__ double term_of(int sum, double l, double c, float s)
{
    return sum == SUM_SSIM ? ssim_window_ssim(l, c, s)
           : sum == SUM_L  ? l
           : sum == SUM_C  ? c
                           : (double)s;
}

__device__ long long warp_total(long long v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

// Sum each field of acc over the block (integers: the order does not matter) into out.
template <unsigned Mask>
__device__ void block_total(const SsimFixed (&acc)[N_SUMS], SsimFixed *out)
{
    constexpr int warps = V_THREADS / 32, words = 5;
    __shared__ long long part[warps][N_SUMS][words];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
    for (int q = 0; q < N_SUMS; q++) {
        if (!(Mask >> q & 1))
            continue;
        const long long v[words] = { acc[q].c0, acc[q].c1, acc[q].c2, acc[q].abs, acc[q].bad };
#pragma unroll
        for (int i = 0; i < words; i++) {
            const long long t = warp_total(v[i]);
            if (lane == 0)
                part[warp][q][i] = t;
        }
    }
    __syncthreads();
    if (threadIdx.x != 0)
        return;
    for (int q = 0; q < N_SUMS; q++) {
        if (!(Mask >> q & 1))
            continue;
        long long t[words] = { 0, 0, 0, 0, 0 };
        for (int wp = 0; wp < warps; wp++)
            for (int i = 0; i < words; i++)
                t[i] += part[wp][q][i];
        out[q] = SsimFixed{ t[0], t[1], t[2], t[3], t[4] };
    }
}

// One block per window row y: the row's exact sums of the terms in Mask, to rows[y * N_SUMS].
template <unsigned Mask>
__global__ void __launch_bounds__(V_THREADS)
    v_pass_kernel(const float *hq, int n, int h, SsimFixed *rows)
{
    const int y = blockIdx.x;
    SsimFixed acc[N_SUMS];
#pragma unroll
    for (int q = 0; q < N_SUMS; q++)
        ssim_fixed_zero(&acc[q]);
    for (int x = threadIdx.x; x < n; x += V_THREADS) {
        double l, c;
        float s;
        window_terms(hq, n, h, x, y, &l, &c, &s);
#pragma unroll
        for (int q = 0; q < N_SUMS; q++)
            if (Mask >> q & 1)
                ssim_fixed_add(&acc[q], term_of(q, l, c, s));
    }
    block_total<Mask>(acc, rows + (size_t)y * N_SUMS);
}

// ---- the reference's order, when certification declines ---------------------------------------

__global__ void terms_kernel(const float *hq, int n, int h, int sum, double *terms)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= n)
        return;
    double l, c;
    float s;
    window_terms(hq, n, h, x, y, &l, &c, &s);
    terms[(size_t)y * n + x] = term_of(sum, l, c, s);
}

// ssim_accumulate's running double: one thread, raster order.
__global__ void sequential_sum_kernel(const double *terms, size_t count, double *out)
{
    double sum = 0.0;
    for (size_t i = 0; i < count; i++)
        sum += terms[i];
    *out = sum;
}

// ---- memory -----------------------------------------------------------------------------------

// One SSIM evaluation's device buffers: the horizontal planes (kept until the frame's means
// are known, for a sum in order) and the row sums.
struct Level {
    int w, h, n, m;       // input size, window grid n x m
    float *img_a, *img_b; // the decimated pair (nullptr when read from the picture)
    float *hq;
    SsimFixed *rows_dev, *rows_host;
};

struct Frame {
    EvCudaWorker *gpu;
    cudaStream_t stream;
    Level level[MS_SCALES];
    int levels;
    double *terms, *sum_dev, *sum_host;
};

// Lay out levels (sizes already set) plus the terms of the largest grid, in dev (and host,
// for the row sums and the one double of a sum in order); returns the bytes each needs.
void lay_out(Frame &f, char *dev, char *host, size_t &dev_bytes, size_t &host_bytes,
             bool decimated_first)
{
    dev_bytes = host_bytes = 0;
    size_t most = 0;
    for (int k = 0; k < f.levels; k++) {
        Level &L = f.level[k];
        L.n = L.w - (SSIM_WINDOW - 1);
        L.m = L.h - (SSIM_WINDOW - 1);
        const bool own = k > 0 || decimated_first;
        L.img_a = own ? ev_take<float>(dev, dev_bytes, (size_t)L.w * L.h) : nullptr;
        L.img_b = own ? ev_take<float>(dev, dev_bytes, (size_t)L.w * L.h) : nullptr;
        L.hq = ev_take<float>(dev, dev_bytes, (size_t)N_Q * L.n * L.h);
        L.rows_dev = ev_take<SsimFixed>(dev, dev_bytes, (size_t)L.m * N_SUMS);
        L.rows_host = ev_take<SsimFixed>(host, host_bytes, (size_t)L.m * N_SUMS);
        if ((size_t)L.n * L.m > most)
            most = (size_t)L.n * L.m;
    }
    f.terms = ev_take<double>(dev, dev_bytes, most);
    f.sum_dev = ev_take<double>(dev, dev_bytes, 1);
    f.sum_host = ev_take<double>(host, host_bytes, 1);
}

int open_frame(Frame &f, const void *owner, const EvPic *ref, bool decimated_first)
{
    f.gpu = ref->gpu;
    f.stream = static_cast<cudaStream_t>(ev_cuda_stream(f.gpu));
    size_t dev_bytes, host_bytes;
    lay_out(f, nullptr, nullptr, dev_bytes, host_bytes, decimated_first);
    void *dev, *host;
    const int err = ev_cuda_worker_memory(f.gpu, owner, dev_bytes, host_bytes, &dev, &host);
    if (!err)
        lay_out(f, static_cast<char *>(dev), static_cast<char *>(host), dev_bytes, host_bytes,
                decimated_first);
    return err;
}

// ---- launches ---------------------------------------------------------------------------------

// Decimate the pair a, b (w x h) into L's images.
template <class Src>
void decimate(const Frame &f, const Src &a, const Src &b, int w, int h, const SsimKernel &k,
              const Level &L)
{
    const dim3 grid(ev_blocks(L.w, H_THREADS), (unsigned)L.h, 2);
    decimate_kernel<<<grid, H_THREADS, 0, f.stream>>>(a, b, w, h, k, L.w, L.img_a, L.img_b);
}

// Steps 2 and 3 on the pair a, b (L.w x L.h): row sums of the terms in mask.
template <class Src>
void evaluate(const Frame &f, const Src &a, const Src &b, const Level &L, unsigned mask)
{
    h_pass_kernel<<<dim3(ev_blocks(L.n, H_THREADS), (unsigned)L.h), H_THREADS, 0, f.stream>>>(
        a, b, L.n, L.h, L.hq);
    if (mask == MASK_SSIM)
        v_pass_kernel<MASK_SSIM><<<L.m, V_THREADS, 0, f.stream>>>(L.hq, L.n, L.h, L.rows_dev);
    else if (mask == MASK_LCS)
        v_pass_kernel<MASK_LCS><<<L.m, V_THREADS, 0, f.stream>>>(L.hq, L.n, L.h, L.rows_dev);
    else
        v_pass_kernel<MASK_ALL><<<L.m, V_THREADS, 0, f.stream>>>(L.hq, L.n, L.h, L.rows_dev);
    cudaMemcpyAsync(L.rows_host, L.rows_dev, (size_t)L.m * N_SUMS * sizeof(SsimFixed),
                    cudaMemcpyDeviceToHost, f.stream);
}

// A mean of L (after the wait for its row sums): certified, or summed in order.
int mean_of(const Frame &f, const Level &L, int sum, const char *what, float *mean)
{
    if (ssim_certify_mean(L.rows_host + sum, N_SUMS, L.n, L.m, mean)) {
        means_certified++;
        return 0;
    }
    means_in_order++;
    terms_kernel<<<dim3(ev_blocks(L.n, H_THREADS), (unsigned)L.m), H_THREADS, 0, f.stream>>>(
        L.hq, L.n, L.h, sum, f.terms);
    sequential_sum_kernel<<<1, 1, 0, f.stream>>>(f.terms, (size_t)L.n * L.m, f.sum_dev);
    cudaMemcpyAsync(f.sum_host, f.sum_dev, sizeof(double), cudaMemcpyDeviceToHost, f.stream);
    const int err = ev_cuda_finish(f.gpu, what);
    if (!err)
        *mean = ssim_mean(*f.sum_host, L.n, L.m);
    return err;
}

// The means of L in mask (the others stay 0).
int means_of(const Frame &f, const Level &L, unsigned mask, const char *what, SsimMeans *m)
{
    *m = SsimMeans{ 0.0f, 0.0f, 0.0f, 0.0f };
    float *out[N_SUMS] = { &m->ssim, &m->l, &m->c, &m->s };
    int err = 0;
    for (int q = 0; q < N_SUMS && !err; q++)
        if (mask >> q & 1)
            err = mean_of(f, L, q, what, out[q]);
    return err;
}

// Run body(a, b) with the pair's luma as a typed source.
template <class Body>
void with_luma(const EvPic *ref, const EvPic *dis, Body body)
{
    const float scaler = sample_scaler(ref->bpc);
    const uint8_t *pr = static_cast<const uint8_t *>(ref->dev[0]);
    const uint8_t *pd = static_cast<const uint8_t *>(dis->dev[0]);
    if (ref->bpc > 8)
        body(Luma16{ pr, ref->stride[0], scaler }, Luma16{ pd, dis->stride[0], scaler });
    else
        body(Luma8{ pr, ref->stride[0], scaler }, Luma8{ pd, dis->stride[0], scaler });
}

Image image_a(const Level &L)
{
    return Image{ L.img_a, L.w };
}
Image image_b(const Level &L)
{
    return Image{ L.img_b, L.w };
}

} // namespace

extern "C" EV_EXTRACT_FN(ev_float_ssim_extract_cuda)
{
    const SsimState *s = static_cast<const SsimState *>(state);
    Frame f = {};
    f.levels = 1;
    f.level[0].w = s->sw;
    f.level[0].h = s->sh;
    const bool decimated = s->scale > 1;
    int err = open_frame(f, state, ref, decimated);
    if (err)
        return err;
    const Level &L = f.level[0];
    const unsigned mask = s->opts.enable_lcs ? MASK_ALL : MASK_SSIM;
    with_luma(ref, dis, [&](auto a, auto b) {
        if (decimated) {
            SsimKernel box;
            ssim_kernel_box(&box, s->scale);
            decimate(f, a, b, s->w, s->h, box, L);
            evaluate(f, image_a(L), image_b(L), L, mask);
        } else {
            evaluate(f, a, b, L, mask);
        }
    });
    err = ev_cuda_finish(f.gpu, "float_ssim");
    SsimMeans m;
    if (!err)
        err = means_of(f, L, mask, "float_ssim", &m);
    return err ? err : ev_float_ssim_emit(s, &m, frame, sink);
}

extern "C" EV_EXTRACT_FN(ev_float_ms_ssim_extract_cuda)
{
    const MsSsimState *s = static_cast<const MsSsimState *>(state);
    Frame f = {};
    f.levels = MS_SCALES;
    for (int k = 0; k < MS_SCALES; k++) {
        f.level[k].w = s->w[k];
        f.level[k].h = s->h[k];
    }
    int err = open_frame(f, state, ref, false);
    if (err)
        return err;
    SsimKernel lpf;
    ssim_kernel_lpf(&lpf);
    with_luma(ref, dis, [&](auto a, auto b) {
        decimate(f, a, b, s->w[0], s->h[0], lpf, f.level[1]);
        for (int k = 2; k < MS_SCALES; k++)
            decimate(f, image_a(f.level[k - 1]), image_b(f.level[k - 1]), s->w[k - 1], s->h[k - 1],
                     lpf, f.level[k]);
        evaluate(f, a, b, f.level[0], MASK_LCS);
    });
    for (int k = 1; k < MS_SCALES; k++)
        evaluate(f, image_a(f.level[k]), image_b(f.level[k]), f.level[k], MASK_LCS);
    err = ev_cuda_finish(f.gpu, "float_ms_ssim");
    SsimMeans m[MS_SCALES];
    for (int k = 0; k < MS_SCALES && !err; k++)
        err = means_of(f, f.level[k], MASK_LCS, "float_ms_ssim", &m[k]);
    return err ? err : ev_float_ms_ssim_emit(s, m, frame, sink);
}

extern "C" void ev_ssim_cuda_mean_counts(unsigned long long *certified,
                                         unsigned long long *in_order)
{
    *certified = means_certified.load();
    *in_order = means_in_order.load();
}
