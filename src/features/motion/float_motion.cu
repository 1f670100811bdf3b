// CUDA twin of float_motion (float_motion.c beside this file).
//
// The reference is sequential: frame n's SAD needs frame n - 1's blurred planes. Frames arrive
// on every worker, so (as motion.cu) the work of all frames runs in frame order on the stream
// of an ordered frame ring (cuda/frame_ring.cuh):
//   launch(n): queue frame n's work on the ring: blur each plane
//              (vertical then horizontal pass, fmotion_taps per output, borders by
//              motion_mirror) into blur[n & 1] (and its bilinear half with motion_add_scale1),
//              then for n >= 1 the SAD totals of blur[(n - 1) & 1] and blur[n & 1] in the CPU's
//              order (cuda/float_rows.cuh): each row's |a - b| in column order from 0, then the
//              rows in row order from 0 (float, as mean_abs_diff); copy the
//              totals to the frame's pinned slot;
//   extract(n): wait for the worker's stream, read the totals, release the slot, form the score
//              as frame_motion does (fmotion_mean, float then double), keep it by frame number;
//              motion2/motion3 at flush (float_motion.c).
// One stream in frame order: blur[(n - 1) & 1] is read by frame n before frame n + 1 replaces it.
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>

#include <cuda_runtime.h>

#include "cuda/float_rows.cuh"
#include "cuda/frame_ring.cuh"
#include "cuda/runtime.h"
#include "features/common/sample_math.h"
#include "features/motion/float_motion.h"
#include "features/motion/motion_math.h"

namespace
{

constexpr int RING = EvFrameRing::SLOTS; // total slots
constexpr int THREADS = 256;
constexpr int SLOT = 6; // per frame: plane p's totals at scale 0 and 1

struct Taps {
    float t[5];
};

} // namespace

struct FloatMotionCuda {
    explicit FloatMotionCuda(const EvLog *l) : order("float_motion", l), log(l) {}
    EvFrameRing order;
    const EvLog *log;
    cudaStream_t stream = nullptr; // the ring's, once made
    float *blur[2][3] = {}, *half[2][3] = {};
    float *vtmp = nullptr, *rows = nullptr;
    float *total_dev = nullptr, *total_host = nullptr; // RING slots of SLOT floats
    EvFrameScores scores;                              // by frame, for the flush
};

namespace
{

#define GRID_STRIDE(k, n)                                                                          \
    for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < (n);                  \
         k += (long long)gridDim.x * blockDim.x)

unsigned grid_of(long long n)
{
    const long long b = (n + THREADS - 1) / THREADS;
    return (unsigned)(b < 65535 ? (b > 0 ? b : 1) : 65535);
}

// The vertical pass of a plane's floats (sample / scaler - 128) into tmp.
__global__ void vblur_kernel(const char *plane, ptrdiff_t stride, int is_u8, int w, int h,
                             Taps taps, int n_taps, float scaler, float *tmp)
{
    const int r = n_taps / 2;
    GRID_STRIDE(k, (long long)w * h)
    {
        const int i = (int)(k / w), j = (int)(k % w);
        float v[5];
        for (int q = 0; q < n_taps; q++) {
            const char *row = plane + (ptrdiff_t)motion_mirror(i - r + q, h) * stride;
            const uint32_t x = is_u8 ? reinterpret_cast<const uint8_t *>(row)[j]
                                     : reinterpret_cast<const uint16_t *>(row)[j];
            v[q] = sample_to_float(x, scaler, -128);
        }
        tmp[k] = fmotion_taps(taps.t, n_taps, v);
    }
}

__global__ void hblur_kernel(const float *tmp, int w, int h, Taps taps, int n_taps, float *out)
{
    const int r = n_taps / 2;
    GRID_STRIDE(k, (long long)w * h)
    {
        const int i = (int)(k / w), j = (int)(k % w);
        const float *row = tmp + (size_t)i * w;
        float v[5];
        for (int q = 0; q < n_taps; q++)
            v[q] = row[motion_mirror(j - r + q, w)];
        out[k] = fmotion_taps(taps.t, n_taps, v);
    }
}

// The bilinear half-size copy (half_plane).
__global__ void half_kernel(const float *src, int w, int h, int hw, int hh, float *dst)
{
    GRID_STRIDE(k, (long long)hw * hh)
    {
        const int y = (int)(k / hw), x = (int)(k % hw);
        int y1, y2, lo, hi;
        const float dy = fmotion_bilinear_coord(y, h, hh, &y1, &y2);
        const float dx = fmotion_bilinear_coord(x, w, hw, &lo, &hi);
        const float *r1 = src + (size_t)y1 * w, *r2 = src + (size_t)y2 * w;
        dst[k] = fmotion_bilinear(dx, dy, r1[lo], r1[hi], r2[lo], r2[hi]);
    }
}

// One SAD term: |prev - cur| at (i, j) (mean_abs_diff's operands in its order).
struct AbsDiffTerm {
    const float *prev, *cur;
    int w;
    __device__ float operator()(int i, int j) const
    {
        const size_t k = (size_t)i * w + j;
        return fmotion_abs_diff(prev[k], cur[k]);
    }
};

// Planes and totals, on the first frame (the ring's device is current).
int make_buffers(const FloatMotionState *s, FloatMotionCuda *m, cudaStream_t stream)
{
    m->stream = stream;
    cudaError_t e = cudaSuccess;
    size_t most = 0;
    int most_h = 0;
    for (unsigned p = 0; p < s->n_planes && e == cudaSuccess; p++) {
        const FmPlane &pl = s->plane[p];
        const size_t n = (size_t)pl.w * pl.h;
        most = n > most ? n : most;
        most_h = pl.h > most_h ? pl.h : most_h;
        for (int k = 0; k < 2 && e == cudaSuccess; k++) {
            e = cudaMalloc(&m->blur[k][p], n * sizeof(float));
            if (e == cudaSuccess && s->opts.add_scale1)
                e = cudaMalloc(&m->half[k][p], (size_t)pl.hw * pl.hh * sizeof(float));
        }
    }
    if (e == cudaSuccess)
        e = cudaMalloc(&m->vtmp, most * sizeof(float));
    if (e == cudaSuccess)
        e = cudaMalloc(&m->rows, (size_t)most_h * sizeof(float));
    if (e == cudaSuccess)
        e = cudaMalloc(&m->total_dev, RING * SLOT * sizeof(float));
    if (e == cudaSuccess)
        e = cudaMallocHost(&m->total_host, RING * SLOT * sizeof(float));
    return m->order.check(e, "set up the blurred frames");
}

// The SAD total of two w x h planes into *total (on the twin's stream).
void queue_sad(FloatMotionCuda *m, const float *prev, const float *cur, int w, int h, float *total)
{
    ev_float_row_sums(m->stream, AbsDiffTerm{ prev, cur, w }, 0, h, w, ev_span_range(0, w),
                      m->rows);
    ev_float_rows_total_kernel<<<1, 32, 0, m->stream>>>(m->rows, h, h, ev_span_range(0, h), 1,
                                                        total);
}

// Frame n's work on the ring's stream (its upload already waited for).
int queue_frame(const FloatMotionState *s, FloatMotionCuda *m, const EvPic *ref, long long n, int e)
{
    const int cur = (int)(n & 1), prev = cur ^ 1;
    Taps taps;
    for (int k = 0; k < 5; k++)
        taps.t[k] = k < s->n_taps ? s->taps[k] : 0.0f;
    int err = 0;
    for (unsigned p = 0; p < s->n_planes && !err; p++) {
        const FmPlane &pl = s->plane[p];
        const long long np = (long long)pl.w * pl.h;
        vblur_kernel<<<grid_of(np), THREADS, 0, m->stream>>>(
            static_cast<const char *>(ref->dev[p]), ref->stride[p], ref->bpc == 8, pl.w, pl.h, taps,
            s->n_taps, s->scaler, m->vtmp);
        hblur_kernel<<<grid_of(np), THREADS, 0, m->stream>>>(m->vtmp, pl.w, pl.h, taps, s->n_taps,
                                                             m->blur[cur][p]);
        if (s->opts.add_scale1)
            half_kernel<<<grid_of((long long)pl.hw * pl.hh), THREADS, 0, m->stream>>>(
                m->blur[cur][p], pl.w, pl.h, pl.hw, pl.hh, m->half[cur][p]);
        if (n >= 1) {
            float *t = m->total_dev + e * SLOT + 2 * p;
            queue_sad(m, m->blur[prev][p], m->blur[cur][p], pl.w, pl.h, t);
            if (s->opts.add_scale1)
                queue_sad(m, m->half[prev][p], m->half[cur][p], pl.hw, pl.hh, t + 1);
        }
        err = m->order.check(cudaGetLastError(), "blur and SAD kernels");
    }
    if (!err && n >= 1)
        err =
            m->order.check(cudaMemcpyAsync(m->total_host + e * SLOT, m->total_dev + e * SLOT,
                                           SLOT * sizeof(float), cudaMemcpyDeviceToHost, m->stream),
                           "read the totals");
    return err;
}

// frame_motion of the frame's totals t (plane p: t[2p] full size, t[2p + 1] half size).
double frame_score(const FloatMotionState *s, const float *t)
{
    double score = 0;
    for (unsigned p = 0; p < s->n_planes; p++) {
        const FmPlane &pl = s->plane[p];
        float m = fmotion_mean(t[2 * p], pl.w, pl.h);
        if (s->opts.add_scale1)
            m = m + fmotion_mean(t[2 * p + 1], pl.hw, pl.hh);
        score = p ? score + m : m;
    }
    return score;
}

} // namespace

extern "C" int ev_float_motion_cuda_open(FloatMotionState *s, const EvLog *log)
{
    return ev_ring_twin_open<FloatMotionCuda>(s, log);
}

extern "C" void ev_float_motion_cuda_close(FloatMotionState *s)
{
    ev_ring_twin_close(s, [](FloatMotionCuda *m) {
        for (int k = 0; k < 2; k++)
            for (int p = 0; p < 3; p++) {
                cudaFree(m->blur[k][p]);
                cudaFree(m->half[k][p]);
            }
        cudaFree(m->vtmp);
        cudaFree(m->rows);
        cudaFree(m->total_dev);
        cudaFreeHost(m->total_host);
    });
}

extern "C" EV_LAUNCH_FN(ev_float_motion_launch_cuda)
{
    const FloatMotionState *s = static_cast<const FloatMotionState *>(state);
    if (s->opts.force_zero)
        return 0;
    FloatMotionCuda *m = s->cuda;
    return m->order.launch(
        ref, frame, [&](cudaStream_t stream) { return make_buffers(s, m, stream); },
        [&](int e, cudaStream_t) { return queue_frame(s, m, ref, frame, e); });
}

extern "C" EV_EXTRACT_FN(ev_float_motion_extract_cuda)
{
    const FloatMotionState *s = static_cast<const FloatMotionState *>(state);
    const int err = ev_cuda_finish(ref->gpu, "float_motion");
    if (err)
        return err;
    if (s->opts.force_zero)
        return ev_float_motion_put_zeros(s, frame, sink);
    FloatMotionCuda *m = s->cuda;
    const double score = frame ? frame_score(s, m->total_host + (frame % RING) * SLOT) : 0.;
    m->order.release(frame);
    m->scores.put(frame, score);
    if (!s->opts.debug)
        return 0;
    return ev_sink_put(sink, s->name[NAME_MOTION], frame,
                       frame ? ev_float_motion_weighted(s, score) : 0.);
}

extern "C" int ev_float_motion_cuda_scores(FloatMotionState *s, unsigned n_frames, double **score)
{
    return s->cuda->scores.take(n_frames, score, "float_motion", s->cuda->log);
}
