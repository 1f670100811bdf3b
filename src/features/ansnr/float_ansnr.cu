// CUDA twin of float_ansnr (float_ansnr.c beside this file).
//
// Per frame, on the worker's stream: each pixel's filtered ref (3x3) and dis (5x5) values by
// ansnr_filter_at (the reference's own sum order; where its window is inside, the reference's
// ansnr_filter_inside reads the same operands in the same order) and its signal and noise
// terms, into two planes; then the float sums in the CPU's order (cuda/float_rows.cuh): each
// row's terms in column order from 0, then the rows in row order from 0. The two float
// totals come back; log10 (libm) and the outputs on the host (ev_ansnr_emit), as the CPU.
#include <cerrno>

#include <cuda_runtime.h>

#include "cuda/float_rows.cuh"
#include "cuda/kept.cuh"
#include "cuda/runtime.h"
#include "features/ansnr/ansnr_math.h"
#include "features/ansnr/float_ansnr.h"
#include "features/common/sample_math.h"

namespace
{

constexpr int THREADS = 256;
__constant__ float ref_kernel[ANSNR_REF_WIDTH * ANSNR_REF_WIDTH] = ANSNR_REF_KERNEL;
__constant__ float dis_kernel[ANSNR_DIS_WIDTH * ANSNR_DIS_WIDTH] = ANSNR_DIS_KERNEL;

unsigned grid_of(long long n)
{
    const long long b = (n + THREADS - 1) / THREADS;
    return (unsigned)(b < 65535 ? (b > 0 ? b : 1) : 65535);
}

#define GRID_STRIDE(k, n)                                                                          \
    for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < (n);                  \
         k += (long long)gridDim.x * blockDim.x)

// Both lumas as floats (sample / scaler - 128): blockIdx.y picks the picture.
__global__ void load_kernel(const char *ref, ptrdiff_t ref_stride, const char *dis,
                            ptrdiff_t dis_stride, int is_u8, int w, int h, float scaler,
                            float *out_ref, float *out_dis)
{
    const char *p = blockIdx.y ? dis : ref;
    const ptrdiff_t stride = blockIdx.y ? dis_stride : ref_stride;
    float *out = blockIdx.y ? out_dis : out_ref;
    GRID_STRIDE(k, (long long)w * h)
    {
        const int y = (int)(k / w), x = (int)(k % w);
        const char *row = p + (ptrdiff_t)y * stride;
        const uint32_t v = is_u8 ? reinterpret_cast<const uint8_t *>(row)[x]
                                 : reinterpret_cast<const uint16_t *>(row)[x];
        out[k] = sample_to_float(v, scaler, -128);
    }
}

// Each pixel's signal term terms[k] and noise term terms[n + k].
__global__ void terms_kernel(const float *ref, const float *dis, int w, int h, float *terms)
{
    const long long n = (long long)w * h;
    GRID_STRIDE(k, n)
    {
        const int i = (int)(k / w), j = (int)(k % w);
        const float r = ansnr_filter_at(ref_kernel, ANSNR_REF_WIDTH, ref, w, w, h, i, j);
        const float d = ansnr_filter_at(dis_kernel, ANSNR_DIS_WIDTH, dis, w, w, h, i, j);
        terms[k] = ansnr_signal_term(r);
        terms[n + k] = ansnr_noise_term(r, d);
    }
}

struct Bufs {
    float *ref, *dis, *terms, *rows, *totals_dev;
    float *host; // signal, noise
};

void lay_out(const AnsnrState *s, char *dev, char *host, Bufs &b, size_t &dev_bytes,
             size_t &host_bytes)
{
    dev_bytes = host_bytes = 0;
    const size_t n = (size_t)s->w * (size_t)s->h;
    b.ref = ev_take<float>(dev, dev_bytes, n);
    b.dis = ev_take<float>(dev, dev_bytes, n);
    b.terms = ev_take<float>(dev, dev_bytes, 2 * n);
    b.rows = ev_take<float>(dev, dev_bytes, 2 * (size_t)s->h);
    b.totals_dev = ev_take<float>(dev, dev_bytes, 2);
    b.host = ev_take<float>(host, host_bytes, 2);
}

} // namespace

extern "C" EV_LAUNCH_FN(ev_ansnr_launch_cuda)
{
    return ev_kept_launch<AnsnrState, Bufs>(
        state, ref, ref, lay_out, [&](const AnsnrState *s, Bufs &b, cudaStream_t stream) {
            const long long n = (long long)s->w * s->h;
            load_kernel<<<dim3(grid_of(n), 2), THREADS, 0, stream>>>(
                static_cast<const char *>(ref->dev[0]), ref->stride[0],
                static_cast<const char *>(dis->dev[0]), dis->stride[0], ref->bpc == 8, s->w, s->h,
                s->scaler, b.ref, b.dis);
            terms_kernel<<<grid_of(n), THREADS, 0, stream>>>(b.ref, b.dis, s->w, s->h, b.terms);
            for (int q = 0; q < 2; q++)
                ev_float_row_sums(stream, EvPlaneTerm{ b.terms + q * n, s->w }, 0, s->h, s->w,
                                  ev_span_range(0, s->w), b.rows + q * s->h);
            ev_float_rows_total_kernel<<<1, 32, 0, stream>>>(
                b.rows, s->h, s->h, ev_span_range(0, s->h), 2, b.totals_dev);
            cudaMemcpyAsync(b.host, b.totals_dev, 2 * sizeof(float), cudaMemcpyDeviceToHost,
                            stream);
            return 0;
        });
}

extern "C" EV_EXTRACT_FN(ev_ansnr_extract_cuda)
{
    return ev_kept_extract<AnsnrState, Bufs>(
        state, ref, "float_ansnr", lay_out, [&](const AnsnrState *s, Bufs &b) {
            return ev_ansnr_emit(s, b.host[0], b.host[1], frame, sink);
        });
}
