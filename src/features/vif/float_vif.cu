// CUDA twin of float_vif (float_vif.c, float_vif_scale.c, float_vif_rows_tmpl.h beside it).
//
// Per frame, on the worker's stream: the luma as floats (prescaled by nearest neighbour as
// float_vif.c's load_luma), then per scale: the decimated images (vertical pass at every input
// column of the output rows, then the even columns), the statistic's vertical lines at every
// pixel, the horizontal pass and vif_float_pixel per pixel into num/den planes, and the float
// sums in the CPU's order (cuda/float_rows.cuh): each row's terms in column order from 0 (the
// reference's row sum), then the row sums in row order from 0 (its total). Each output
// is computed by float_vif_twin.h's functions, which tests/unit/float_vif_twin_test.c checks
// against the C row kernels. One copy of the eight float totals back; scores on the host.
#include <cerrno>

#include <cuda_runtime.h>

#include "cuda/float_rows.cuh"
#include "cuda/kept.cuh"
#include "cuda/runtime.h"
#include "features/common/sample_math.h"
#include "features/vif/float_vif.h"
#include "features/vif/float_vif_twin.h"

namespace
{

constexpr int THREADS = 256;

struct Luma {
    const void *p;
    ptrdiff_t stride;
    int is_u8;
};

__device__ __forceinline__ uint32_t luma_at(const Luma &l, unsigned y, unsigned x)
{
    const char *row = static_cast<const char *>(l.p) + (ptrdiff_t)y * l.stride;
    return l.is_u8 ? reinterpret_cast<const uint8_t *>(row)[x]
                   : reinterpret_cast<const uint16_t *>(row)[x];
}

// Scale 0 of ref (blockIdx.y 0) or dis (1): sample / scaler - 128 at the (prescaled) source.
__global__ void load_kernel(Luma ref, Luma dis, int w, int h, int same, float ratio_x,
                            float ratio_y, float scaler, float *out_ref, float *out_dis)
{
    const long long n = (long long)w * h;
    const Luma &l = blockIdx.y ? dis : ref;
    float *out = blockIdx.y ? out_dis : out_ref;
    for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < n;
         k += (long long)gridDim.x * blockDim.x) {
        const int y = (int)(k / w), x = (int)(k % w);
        const unsigned sy = same ? (unsigned)y : vif_float_nn_index(y, ratio_y);
        const unsigned sx = same ? (unsigned)x : vif_float_nn_index(x, ratio_x);
        out[k] = sample_to_float(luma_at(l, sy, sx), scaler, -128);
    }
}

// The decimation's vertical lines: tmp[z] (w_in x h_out) of ref/dis (blockIdx.y).
__global__ void down_vert_kernel(const float *in_ref, const float *in_dis, int w_in, int h_in,
                                 int h_out, const VifFloatFilter *f, float *tmp_ref, float *tmp_dis)
{
    const long long n = (long long)w_in * h_out;
    const float *in = blockIdx.y ? in_dis : in_ref;
    float *tmp = blockIdx.y ? tmp_dis : tmp_ref;
    for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < n;
         k += (long long)gridDim.x * blockDim.x) {
        const int i = (int)(k / w_in), x = (int)(k % w_in);
        tmp[k] = vif_float_twin_down_vert(in, w_in, h_in, i, x, f);
    }
}

__global__ void down_horiz_kernel(const float *tmp_ref, const float *tmp_dis, int w_in, int w_out,
                                  int h_out, const VifFloatFilter *f, float *out_ref,
                                  float *out_dis)
{
    const long long n = (long long)w_out * h_out;
    const float *tmp = blockIdx.y ? tmp_dis : tmp_ref;
    float *out = blockIdx.y ? out_dis : out_ref;
    for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < n;
         k += (long long)gridDim.x * blockDim.x) {
        const int i = (int)(k / w_out), j = (int)(k % w_out);
        out[k] = vif_float_twin_down_horiz(tmp + (size_t)i * w_in, w_in, j, f);
    }
}

// The statistic's five vertical lines at every pixel: lines[l * n + k].
__global__ void stat_vert_kernel(const float *ref, const float *dis, int w, int h,
                                 const VifFloatFilter *f, float *lines)
{
    const long long n = (long long)w * h;
    for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < n;
         k += (long long)gridDim.x * blockDim.x) {
        const int i = (int)(k / w), j = (int)(k % w);
        float v[VIF_FLOAT_LINES];
        vif_float_twin_stat_vert(ref, dis, w, h, i, j, f, v);
        for (int l = 0; l < VIF_FLOAT_LINES; l++)
            lines[l * n + k] = v[l];
    }
}

// Each pixel's horizontal pass and statistic: terms[k] (num) and terms[n + k] (den).
__global__ void stat_pixel_kernel(const float *lines, int w, int h, const VifFloatFilter *f,
                                  VifFloatParams p, float *terms)
{
    const long long n = (long long)w * h;
    for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < n;
         k += (long long)gridDim.x * blockDim.x) {
        const int i = (int)(k / w), j = (int)(k % w);
        float o[VIF_FLOAT_LINES];
        for (int l = 0; l < VIF_FLOAT_LINES; l++)
            o[l] = vif_float_twin_horiz(lines + l * n + (long long)i * w, w, j, f);
        vif_float_pixel(o[0], o[1], o[2], o[3], o[4], &p, &terms[k], &terms[n + k]);
    }
}

unsigned grid_of(long long n)
{
    const long long b = (n + THREADS - 1) / THREADS;
    return (unsigned)(b < 65535 ? (b > 0 ? b : 1) : 65535);
}

// A worker's buffers: the four scales of both pictures, the vertical lines (also the
// decimation's), the per-pixel terms, the row sums, the totals.
struct Bufs {
    VifFloatFilter *filters; // the state's four filters, uploaded on the worker's first frame
    int *uploaded;           // pinned: set once they are queued
    float *img[4][2];
    float *lines, *terms, *rows, *totals_dev;
    float *host; // the eight totals: num, den of scale 0..3
};

void lay_out(const FloatVifState *s, char *dev, char *host, Bufs &b, size_t &dev_bytes,
             size_t &host_bytes)
{
    dev_bytes = host_bytes = 0;
    const size_t n = (size_t)s->w * (size_t)s->h;
    b.filters = ev_take<VifFloatFilter>(dev, dev_bytes, 4);
    b.uploaded = ev_take<int>(host, host_bytes, 1);
    for (int k = 0; k < 4; k++)
        for (int p = 0; p < 2; p++)
            b.img[k][p] = ev_take<float>(dev, dev_bytes, (size_t)(s->w >> k) * (size_t)(s->h >> k));
    b.lines = ev_take<float>(dev, dev_bytes, VIF_FLOAT_LINES * n);
    b.terms = ev_take<float>(dev, dev_bytes, 2 * n);
    b.rows = ev_take<float>(dev, dev_bytes, 2 * (size_t)s->h);
    b.totals_dev = ev_take<float>(dev, dev_bytes, 8);
    b.host = ev_take<float>(host, host_bytes, 8);
}

void launch_stat(const FloatVifState *s, const Bufs &b, int scale, cudaStream_t stream)
{
    const int w = s->w >> scale, h = s->h >> scale;
    const long long n = (long long)w * h;
    const VifFloatFilter *f = b.filters + scale;
    stat_vert_kernel<<<grid_of(n), THREADS, 0, stream>>>(b.img[scale][0], b.img[scale][1], w, h, f,
                                                         b.lines);
    stat_pixel_kernel<<<grid_of(n), THREADS, 0, stream>>>(b.lines, w, h, f, s->params, b.terms);
    for (int q = 0; q < 2; q++)
        ev_float_row_sums(stream, EvPlaneTerm{ b.terms + q * n, w }, 0, h, w, ev_span_range(0, w),
                          b.rows + q * h);
    ev_float_rows_total_kernel<<<1, 32, 0, stream>>>(b.rows, h, h, ev_span_range(0, h), 2,
                                                     b.totals_dev + 2 * scale);
}

void launch_down(const FloatVifState *s, const Bufs &b, int scale, cudaStream_t stream)
{
    const int w_in = s->w >> (scale - 1), h_in = s->h >> (scale - 1);
    const int w_out = s->w >> scale, h_out = s->h >> scale;
    const VifFloatFilter *f = b.filters + scale;
    float *tmp_ref = b.lines, *tmp_dis = b.lines + (size_t)w_in * h_out;
    down_vert_kernel<<<dim3(grid_of((long long)w_in * h_out), 2), THREADS, 0, stream>>>(
        b.img[scale - 1][0], b.img[scale - 1][1], w_in, h_in, h_out, f, tmp_ref, tmp_dis);
    down_horiz_kernel<<<dim3(grid_of((long long)w_out * h_out), 2), THREADS, 0, stream>>>(
        tmp_ref, tmp_dis, w_in, w_out, h_out, f, b.img[scale][0], b.img[scale][1]);
}

} // namespace

extern "C" EV_LAUNCH_FN(ev_float_vif_launch_cuda)
{
    return ev_kept_launch<FloatVifState, Bufs>(
        state, ref, ref, lay_out, [&](const FloatVifState *s, Bufs &b, cudaStream_t stream) {
            if (!*b.uploaded) {
                cudaMemcpyAsync(b.filters, s->filter, sizeof(s->filter), cudaMemcpyHostToDevice,
                                stream);
                *b.uploaded = 1;
            }
            const int same = s->w == s->src_w && s->h == s->src_h;
            const float ratio_x = (float)s->src_w / s->w, ratio_y = (float)s->src_h / s->h;
            const Luma r = { ref->dev[0], ref->stride[0], ref->bpc == 8 };
            const Luma d = { dis->dev[0], dis->stride[0], dis->bpc == 8 };
            load_kernel<<<dim3(grid_of((long long)s->w * s->h), 2), THREADS, 0, stream>>>(
                r, d, s->w, s->h, same, ratio_x, ratio_y, s->scaler, b.img[0][0], b.img[0][1]);
            cudaMemsetAsync(b.totals_dev, 0, 8 * sizeof(float), stream);
            for (int scale = 0; scale < 4; scale++) {
                if (scale > 0)
                    launch_down(s, b, scale, stream);
                if (scale > 0 || !s->opts.skip_scale0)
                    launch_stat(s, b, scale, stream);
            }
            cudaMemcpyAsync(b.host, b.totals_dev, 8 * sizeof(float), cudaMemcpyDeviceToHost,
                            stream);
            return 0;
        });
}

extern "C" EV_EXTRACT_FN(ev_float_vif_extract_cuda)
{
    return ev_kept_extract<FloatVifState, Bufs>(state, ref, "float_vif", lay_out,
                                                [&](const FloatVifState *s, Bufs &b) {
                                                    VifScaleScores v = {};
                                                    for (int scale = 0; scale < 4; scale++) {
                                                        v.num[scale] = b.host[2 * scale];
                                                        v.den[scale] = b.host[2 * scale + 1];
                                                    }
                                                    return ev_float_vif_emit(s, &v, frame, sink);
                                                });
}
