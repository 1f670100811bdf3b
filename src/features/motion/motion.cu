// CUDA twin of motion (motion.c beside this file: integer_motion's pipelined v2 SAD).
//
// The reference is sequential: frame n's SAD needs the reference luma of frame n - depth (n - 1,
// or n - 2 with the five-frame window). Frames arrive on every worker, so the motion work runs
// in frame order on the stream of an ordered frame ring (cuda/frame_ring.cuh), which keeps the
// lumas in its slots:
//   launch(n): queue on the ring: copy the luma into entry n % SLOTS, run the SAD kernel against
//              entry (n - depth) % SLOTS (one block per row: the row's sum truncated to the
//              reference's uint32, rows added in uint64: integers, any order), copy the total
//              to the entry's pinned slot;
//   extract(n): wait for the worker's stream, read the total, release the slot, turn the total
//              into the score (motion_math.h), keep it by frame number and write the frame's
//              outputs; motion2/motion3 at flush (motion.c).
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>

#include <cuda_runtime.h>

#include "cuda/frame_ring.cuh"
#include "cuda/plane_sums.cuh"
#include "cuda/runtime.h"
#include "features/motion/motion.h"
#include "features/motion/motion_math.h"

namespace
{

constexpr int RING = EvFrameRing::SLOTS; // lumas and totals kept
constexpr int TILE = EV_SUM_THREADS;     // outputs of a row per pass of the block

} // namespace

struct MotionCuda {
    explicit MotionCuda(const EvLog *l) : order("motion", l), log(l) {}
    EvFrameRing order;
    const EvLog *log;
    char *ring = nullptr;                                           // RING lumas, packed rows
    unsigned long long *total_dev = nullptr, *total_host = nullptr; // RING totals
    EvFrameScores scores;                                           // by frame, for the flush
};

namespace
{

// One block per luma row i: the vertical pass of prev - cur at the columns a tile of outputs
// reads (mirrored), then the horizontal pass and |.| per output; the row's sum, truncated to
// uint32 as the reference's row accumulator, is added to *total.
__global__ void __launch_bounds__(EV_SUM_THREADS)
    sad_kernel(const char *prev, const char *cur, ptrdiff_t stride, int w, int h, unsigned bpc,
               unsigned long long *total)
{
    __shared__ int32_t ys[TILE + 2 * MOTION_RADIUS];
    const int i = blockIdx.x;
    unsigned long long row = 0;
    for (int j0 = 0; j0 < w; j0 += TILE) {
        const int n = w - j0 < TILE ? w - j0 : TILE;
        for (int s = threadIdx.x; s < n + 2 * MOTION_RADIUS; s += blockDim.x)
            ys[s] = motion_vblur_at(prev, cur, stride, h, bpc, i,
                                    motion_mirror(j0 - MOTION_RADIUS + s, w));
        __syncthreads();
        if ((int)threadIdx.x < n)
            row += motion_hblur_abs(ys + threadIdx.x);
        __syncthreads();
    }
    row = ev_block_sum(row);
    if (threadIdx.x == 0)
        atomicAdd(total, (unsigned long long)(uint32_t)row);
}

// The luma ring and the totals, on the first frame (the ring's device is current).
int make_buffers(const MotionState *s, MotionCuda *m)
{
    cudaError_t e = cudaMalloc(&m->ring, (size_t)RING * s->luma_bytes);
    if (e == cudaSuccess)
        e = cudaMalloc(&m->total_dev, RING * sizeof(unsigned long long));
    if (e == cudaSuccess)
        e = cudaMallocHost(&m->total_host, RING * sizeof(unsigned long long));
    return m->order.check(e, "set up the luma ring");
}

// Frame n's work on the ring's stream (its upload already waited for).
int queue_frame(const MotionState *s, MotionCuda *m, const EvPic *ref, long long n, int e,
                cudaStream_t stream)
{
    const long long depth = s->depth;
    char *luma = m->ring + (size_t)e * s->luma_bytes;
    const size_t row = s->luma_bytes / s->h;
    int err = m->order.check(cudaMemcpy2DAsync(luma, row, ref->dev[0], (size_t)ref->stride[0], row,
                                               s->h, cudaMemcpyDeviceToDevice, stream),
                             "keep the luma");
    if (!err && n >= depth) {
        const char *prev = m->ring + (size_t)((n - depth) % RING) * s->luma_bytes;
        err = m->order.check(cudaMemsetAsync(m->total_dev + e, 0, sizeof(*m->total_dev), stream),
                             "clear the total");
        if (!err) {
            sad_kernel<<<s->h, EV_SUM_THREADS, 0, stream>>>(prev, luma, (ptrdiff_t)row, (int)s->w,
                                                            (int)s->h, s->bpc, m->total_dev + e);
            err = m->order.check(cudaGetLastError(), "SAD kernel");
        }
        if (!err)
            err = m->order.check(cudaMemcpyAsync(m->total_host + e, m->total_dev + e,
                                                 sizeof(*m->total_dev), cudaMemcpyDeviceToHost,
                                                 stream),
                                 "read the total");
    }
    return err;
}

} // namespace

extern "C" int ev_motion_cuda_open(MotionState *s, const EvLog *log)
{
    return ev_ring_twin_open<MotionCuda>(s, log);
}

extern "C" void ev_motion_cuda_close(MotionState *s)
{
    ev_ring_twin_close(s, [](MotionCuda *m) {
        cudaFree(m->ring);
        cudaFree(m->total_dev);
        cudaFreeHost(m->total_host);
    });
}

extern "C" EV_LAUNCH_FN(ev_motion_launch_cuda)
{
    const MotionState *s = static_cast<const MotionState *>(state);
    MotionCuda *m = s->cuda;
    if (s->opts.force_zero)
        return 0; // nothing on the ring
    return m->order.launch(
        ref, frame, [&](cudaStream_t) { return make_buffers(s, m); },
        [&](int e, cudaStream_t stream) { return queue_frame(s, m, ref, frame, e, stream); });
}

extern "C" EV_EXTRACT_FN(ev_motion_extract_cuda)
{
    const MotionState *s = static_cast<const MotionState *>(state);
    MotionCuda *m = s->cuda;
    double score = 0.;
    // every frame: the upload (and the luma copy) must be done before the slot is reused
    const int err = ev_cuda_finish(ref->gpu, "motion");
    if (err)
        return err;
    if (!s->opts.force_zero) {
        if (frame >= s->depth)
            score = motion_sad_score(m->total_host[frame % RING], s->w, s->h, s->opts.fps_weight,
                                     s->opts.max_val);
    }
    m->order.release(frame);
    m->scores.put(frame, score);
    return ev_motion_put_frame(s, frame, score, sink);
}

extern "C" int ev_motion_cuda_scores(MotionState *s, unsigned n_frames, double **score, unsigned *n)
{
    double *v = nullptr;
    const int err = s->cuda->scores.take(n_frames, &v, "motion", s->cuda->log);
    if (err)
        return err;
    free(*score);
    *score = v;
    *n = n_frames;
    return 0;
}
