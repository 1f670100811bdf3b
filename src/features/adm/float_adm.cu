// CUDA twin of float_adm (float_adm.c, float_adm_dwt.c, float_adm_cm.c beside this file).
//
// Per frame, on the worker's stream, per scale: the db2 DWT of both pictures (one thread per
// output: fadm_dwt_at on its 4 x 4 mirrored inputs; scale 0 reads the samples as
// sample / scaler - 128), the decoupling and the CSF per coefficient, and the three float
// sums the reference forms per band (denominator, DLM numerator, AIM numerator) in its order:
// per-coefficient terms, then (cuda/float_rows.cuh) each row's terms of a band in column order
// from 0 (the reference's inner[b]), then the rows in row order from 0 (its acc[b]). Only the 36 float sums come back; powf(., 1/3) (libm), the noise floors and the
// scores run on the host (fadm_sum_bands, fadm_emit), as the CPU. The division's rcpss estimate
// is the vendor table of the CPU reference (adm_rcp.h, rcp_estimate), so the bits are the CPU's.
#include <cerrno>

#include <cuda_runtime.h>

#include "cuda/float_rows.cuh"
#include "cuda/kept.cuh"
#include "cuda/runtime.h"
#include "features/adm/adm_math.h"
#include "features/adm/float_adm_internal.h"
#include "features/adm/float_adm_math.h"
#include "features/common/sample_math.h"

namespace
{

constexpr int THREADS = 256;
enum { Q_DEN, Q_NUM, Q_AIM };

struct Luma {
    const void *p;
    ptrdiff_t stride;
    int is_u8;
};

struct Bands {
    float *b[3]; // h, v, d
};

__device__ __forceinline__ float luma_at(const Luma &l, int y, int x, float scaler)
{
    const char *row = static_cast<const char *>(l.p) + (ptrdiff_t)y * l.stride;
    const uint32_t v = l.is_u8 ? reinterpret_cast<const uint8_t *>(row)[x]
                               : reinterpret_cast<const uint16_t *>(row)[x];
    return sample_to_float(v, scaler, -128);
}

#define GRID_STRIDE(k, n)                                                                          \
    for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < (n);                  \
         k += (long long)gridDim.x * blockDim.x)

// The DWT of picture blockIdx.y: scale 0 from the luma (in == nullptr), else from the float
// low band `in` (in_w x in_h); outputs w x h: a, and bands h, v, d.
__global__ void dwt_kernel(Luma l0, Luma l1, const float *in0, const float *in1, float scaler,
                           int in_w, int in_h, int w, int h, float *a0, float *a1, Bands o0,
                           Bands o1)
{
    const int z = blockIdx.y;
    const Luma &l = z ? l1 : l0;
    const float *in = z ? in1 : in0;
    float *a = z ? a1 : a0;
    const Bands &o = z ? o1 : o0;
    GRID_STRIDE(k, (long long)w * h)
    {
        const int i = (int)(k / w), j = (int)(k % w);
        float x[4][4];
        for (int t = 0; t < 4; t++) {
            const int y = adm_dwt_index(2 * i - 1 + t, in_h);
            for (int u = 0; u < 4; u++) {
                const int c = adm_dwt_index(2 * j - 1 + u, in_w);
                x[t][u] = in ? in[(size_t)y * in_w + c] : luma_at(l, y, c, scaler);
            }
        }
        fadm_dwt_at(x, &a[k], &o.b[0][k], &o.b[1][k], &o.b[2][k]);
    }
}

// Decoupling over the CSF rectangle (fadm_decouple).
__global__ void decouple_kernel(Bands o, Bands t, int w, AdmRect rc, float cos_1deg_sq, double egl,
                                int vendor, Bands r, Bands a)
{
    const int rw = rc.right - rc.left;
    const uint16_t *const rcp = adm_rcp_vendor_table(vendor);
    GRID_STRIDE(k, (long long)rw * (rc.bottom - rc.top))
    {
        const size_t x = (size_t)(rc.top + k / rw) * w + rc.left + k % rw;
        const int flag = fadm_angle_flag(o.b[0][x], o.b[1][x], t.b[0][x], t.b[1][x], cos_1deg_sq);
        for (int b = 0; b < 3; b++)
            fadm_decouple_coef(o.b[b][x], t.b[b][x], flag, egl, rcp, &r.b[b][x], &a.b[b][x]);
    }
}

// CSF weighting and masking values over the CSF rectangle (fadm_csf).
__global__ void csf_kernel(Bands src, float rf0, float rf1, float rf2, int w, AdmRect rc, Bands csf,
                           Bands flt)
{
    const int rw = rc.right - rc.left;
    const float rf[3] = { rf0, rf1, rf2 };
    GRID_STRIDE(k, (long long)rw * (rc.bottom - rc.top))
    {
        const size_t x = (size_t)(rc.top + k / rw) * w + rc.left + k % rw;
        for (int b = 0; b < 3; b++) {
            const float v = rf[b] * src.b[b][x];
            csf.b[b][x] = v;
            flt.b[b][x] = fadm_flt(v);
        }
    }
}

// The masked energies of every visited coefficient (fadm_cm_row's terms) into term.
__global__ void cm_terms_kernel(Bands src, Bands csf, Bands flt, float rf0, float rf1, float rf2,
                                int w, int h, AdmSpan rows, AdmSpan cols, Bands term)
{
    const float rf[3] = { rf0, rf1, rf2 };
    GRID_STRIDE(k, (long long)w * h)
    {
        const int i = (int)(k / w), j = (int)(k % w);
        if (!adm_span_visits(&rows, i) || !adm_span_visits(&cols, j))
            continue;
        const size_t up = (size_t)adm_cm_prev(i) * w, mid = (size_t)i * w;
        const size_t dn = (size_t)adm_cm_next(i, h) * w;
        const float *const c[3] = { csf.b[0], csf.b[1], csf.b[2] };
        const float *const f[3] = { flt.b[0], flt.b[1], flt.b[2] };
        const float thr = fadm_thr_at(c, f, up, mid, dn, adm_cm_prev(j), j, adm_cm_next(j, w));
        for (int b = 0; b < 3; b++)
            term.b[b][k] = fadm_cm_cube(src.b[b][k], rf[b], thr);
    }
}

// A denominator term: fadm_den_cube of a band coefficient.
struct DenTerm {
    const float *band;
    int w;
    float rf;
    __device__ float operator()(int i, int j) const
    {
        return fadm_den_cube(band[(size_t)i * w + j], rf);
    }
};

EvFloatSpan span_of(const AdmSpan &s)
{
    return EvFloatSpan{ s.first, s.start, s.end, s.last };
}

unsigned grid_of(long long n)
{
    const long long b = (n + THREADS - 1) / THREADS;
    return (unsigned)(b < 65535 ? (b > 0 ? b : 1) : 65535);
}

// A worker's buffers (each plane sized for scale 0): the low bands (two per picture, one per
// scale parity), the bands of both pictures, r, a, csf, flt, the terms, the row sums, the sums.
struct Bufs {
    float *low[2][2];
    Bands o, t, r, a, csf, flt, term;
    float *partial, *sums_dev;
    float *host; // [scale][Q_DEN, Q_NUM, Q_AIM][band]
};

void lay_out(const FadmState *s, char *dev, char *host, Bufs &b, size_t &dev_bytes,
             size_t &host_bytes)
{
    dev_bytes = host_bytes = 0;
    const size_t n = (size_t)s->geom[0].w * (size_t)s->geom[0].h;
    for (int p = 0; p < 2; p++)
        for (int q = 0; q < 2; q++)
            b.low[p][q] = ev_take<float>(dev, dev_bytes, n);
    Bands *all[7] = { &b.o, &b.t, &b.r, &b.a, &b.csf, &b.flt, &b.term };
    for (Bands *x : all)
        for (int k = 0; k < 3; k++)
            x->b[k] = ev_take<float>(dev, dev_bytes, n);
    b.partial = ev_take<float>(dev, dev_bytes, 3 * (size_t)s->geom[0].h);
    b.sums_dev = ev_take<float>(dev, dev_bytes, 36);
    b.host = ev_take<float>(host, host_bytes, 36);
}

// One CM sum (fadm_cm): src masked by the csf/flt of mask, into out[3].
void launch_cm(const FadmState *s, const Bufs &b, int scale, const Bands &src, const Bands &mask,
               float *out, cudaStream_t stream)
{
    const int w = s->geom[scale].w, h = s->geom[scale].h;
    const float *rf = s->rfactor[scale];
    const AdmRect csf = adm_rect_csf(w, h), cm = adm_rect_cm(w, h);
    const AdmSpan rows = adm_span(cm.top, cm.bottom, h), cols = adm_span(cm.left, cm.right, w);
    const long long n_csf = (long long)(csf.right - csf.left) * (csf.bottom - csf.top);
    csf_kernel<<<grid_of(n_csf), THREADS, 0, stream>>>(mask, rf[0], rf[1], rf[2], w, csf, b.csf,
                                                       b.flt);
    cm_terms_kernel<<<grid_of((long long)w * h), THREADS, 0, stream>>>(
        src, b.csf, b.flt, rf[0], rf[1], rf[2], w, h, rows, cols, b.term);
    const int stride = s->geom[0].h;
    for (int k = 0; k < 3; k++)
        ev_float_row_sums(stream, EvPlaneTerm{ b.term.b[k], w }, 0, h, w, span_of(cols),
                          b.partial + k * stride);
    ev_float_rows_total_kernel<<<1, 32, 0, stream>>>(b.partial, stride, h, span_of(rows), 3, out);
}

// One scale after its DWT (score_scale): decouple, den, DLM num, AIM num.
void launch_scale(const FadmState *s, const Bufs &b, int scale, cudaStream_t stream)
{
    const int w = s->geom[scale].w, h = s->geom[scale].h;
    const float *rf = s->rfactor[scale];
    const AdmRect csf = adm_rect_csf(w, h), cm = adm_rect_cm(w, h);
    const long long n_csf = (long long)(csf.right - csf.left) * (csf.bottom - csf.top);
    float *out = b.sums_dev + 9 * scale;
    decouple_kernel<<<grid_of(n_csf), THREADS, 0, stream>>>(
        b.o, b.t, w, csf, s->cos_1deg_sq, s->opts.enhn_gain_limit, s->opts.rcp_estimate, b.r, b.a);
    const int n_rows = cm.bottom - cm.top, stride = s->geom[0].h;
    for (int k = 0; k < 3; k++)
        ev_float_row_sums(stream, DenTerm{ b.o.b[k], w, rf[k] }, cm.top, n_rows, w,
                          ev_span_range(cm.left, cm.right), b.partial + k * stride);
    ev_float_rows_total_kernel<<<1, 32, 0, stream>>>(b.partial, stride, n_rows,
                                                     ev_span_range(0, n_rows), 3, out + 3 * Q_DEN);
    launch_cm(s, b, scale, b.r, b.a, out + 3 * Q_NUM, stream);
    launch_cm(s, b, scale, b.a, b.r, out + 3 * Q_AIM, stream);
}

} // namespace

extern "C" EV_LAUNCH_FN(ev_float_adm_launch_cuda)
{
    return ev_kept_launch<FadmState, Bufs>(
        state, ref, ref, lay_out, [&](const FadmState *s, Bufs &b, cudaStream_t stream) {
            const Luma r = { ref->dev[0], ref->stride[0], ref->bpc == 8 };
            const Luma d = { dis->dev[0], dis->stride[0], dis->bpc == 8 };
            for (int scale = 0; scale < 4; scale++) {
                const AdmScaleGeom &g = s->geom[scale];
                const int in_q = (scale + 1) & 1, out_q = scale & 1;
                dwt_kernel<<<dim3(grid_of((long long)g.w * g.h), 2), THREADS, 0, stream>>>(
                    r, d, scale ? b.low[0][in_q] : nullptr, scale ? b.low[1][in_q] : nullptr,
                    s->scaler, g.in_w, g.in_h, g.w, g.h, b.low[0][out_q], b.low[1][out_q], b.o,
                    b.t);
                launch_scale(s, b, scale, stream);
            }
            cudaMemcpyAsync(b.host, b.sums_dev, 36 * sizeof(float), cudaMemcpyDeviceToHost, stream);
            return 0;
        });
}

extern "C" EV_EXTRACT_FN(ev_float_adm_extract_cuda)
{
    return ev_kept_extract<FadmState, Bufs>(
        state, ref, "float_adm", lay_out, [&](const FadmState *s, Bufs &b) {
            AdmScaleScore sc[4];
            for (int scale = 0; scale < 4; scale++) {
                const AdmRect cm = adm_rect_cm(s->geom[scale].w, s->geom[scale].h);
                const float *q = b.host + 9 * scale;
                sc[scale].den = fadm_sum_bands(q + 3 * Q_DEN, &cm, s->noise_weight);
                sc[scale].num = fadm_sum_bands(q + 3 * Q_NUM, &cm, s->noise_weight);
                sc[scale].aim = fadm_sum_bands(q + 3 * Q_AIM, &cm, 0.0);
            }
            return fadm_emit(s, sc, frame, sink);
        });
}
