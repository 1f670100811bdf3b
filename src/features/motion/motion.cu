// CUDA twin of motion (motion.c beside this file: integer_motion's pipelined v2 SAD).
//
// The reference is sequential: frame n's SAD needs the reference luma of frame n - depth (n - 1,
// or n - 2 with the five-frame window). Here frames arrive on every worker, so the motion work
// of all frames runs on one stream of the twin's own, in frame order, with the lumas kept in a
// ring of RING entries on the device:
//   launch(n): record `uploaded` on the worker's stream (the frame's luma is on the device);
//              when frame n - 1 has queued its work, queue frame n's on the motion stream: wait
//              for `uploaded`, copy the luma into entry n % RING, run the SAD kernel against
//              entry (n - depth) % RING (one block per row: the row's sum truncated to the
//              reference's uint32, rows added in uint64: integers, any order), copy the total
//              to the entry's pinned slot, record `done`; the worker's stream waits for `done`
//              (so its next upload cannot overwrite the luma before the copy);
//   extract(n): wait for the worker's stream, read the total, free the entry's total slot,
//              turn the total into the score (motion_math.h), keep it by frame number and write
//              the frame's outputs; motion2/motion3 at flush (motion.c).
// One stream in frame order makes the ring safe by construction: every read of an entry is
// queued before the write that replaces it. The only host waits are for the previous frame's
// queueing and, RING frames later, for an entry's total to have been read.
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include <cuda_runtime.h>

#include "cuda/plane_sums.cuh"
#include "cuda/runtime.h"
#include "features/motion/motion.h"
#include "features/motion/motion_math.h"

namespace {

constexpr int RING = 64;             // lumas and totals kept; far more than frames in flight
constexpr int TILE = EV_SUM_THREADS; // outputs of a row per pass of the block
constexpr long long NONE = -1;
constexpr int WAIT_SECONDS = 60;     // an earlier frame that never comes: fail, do not hang

} // namespace

struct MotionCuda {
    std::mutex lock;
    std::condition_variable changed;
    long long queued = NONE;         // the last frame whose work is on the motion stream
    long long read[RING];            // the frame whose total was read from each slot
    long long failed = NONE;         // the first abandoned frame, or NONE
    bool ready = false;              // device resources made (first launch)
    int device = 0;
    cudaStream_t stream = nullptr;   // the motion stream
    char *ring = nullptr;            // RING lumas, packed rows
    unsigned long long *total_dev = nullptr, *total_host = nullptr;   // RING totals
    cudaEvent_t uploaded[RING] = {}, done[RING] = {};
    std::vector<double> score;       // by frame
    std::vector<char> have;
    const EvLog *log = nullptr;
};

namespace {

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

int cuda_error(MotionCuda *m, cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return 0;
    ev_log(m->log, EV_LOG_ERROR, "motion: cuda: %s: %s", what, cudaGetErrorString(e));
    return e == cudaErrorMemoryAllocation ? -ENOMEM : -EIO;
}

// The stream, ring, totals and events, on the first launch (in a worker: its device is
// current). Called with the lock held.
int make_ready(const MotionState *s, MotionCuda *m)
{
    if (m->ready)
        return 0;
    cudaError_t e = cudaGetDevice(&m->device);
    if (e == cudaSuccess)
        e = cudaStreamCreateWithFlags(&m->stream, cudaStreamNonBlocking);
    if (e == cudaSuccess)
        e = cudaMalloc(&m->ring, (size_t)RING * s->luma_bytes);
    if (e == cudaSuccess)
        e = cudaMalloc(&m->total_dev, RING * sizeof(unsigned long long));
    if (e == cudaSuccess)
        e = cudaMallocHost(&m->total_host, RING * sizeof(unsigned long long));
    for (int k = 0; k < RING && e == cudaSuccess; k++) {
        e = cudaEventCreateWithFlags(&m->uploaded[k], cudaEventDisableTiming);
        if (e == cudaSuccess)
            e = cudaEventCreateWithFlags(&m->done[k], cudaEventDisableTiming);
    }
    if (e == cudaSuccess)
        m->ready = true;
    return cuda_error(m, e, "set up the luma ring");
}

// Wait (lock held) until ok(); -EIO once an earlier frame was abandoned, or after
// WAIT_SECONDS (an earlier frame's work that never comes).
template <class Ok>
int wait_for(MotionCuda *m, std::unique_lock<std::mutex> &held, long long frame, Ok ok)
{
    const bool seen = m->changed.wait_for(held, std::chrono::seconds(WAIT_SECONDS), [&] {
        return ok() || (m->failed != NONE && m->failed < frame);
    });
    if (seen && ok())
        return 0;
    if (m->failed != NONE)
        ev_log(m->log, EV_LOG_ERROR, "motion: frame %lld failed; frame %lld needs it", m->failed,
               frame);
    else
        ev_log(m->log, EV_LOG_ERROR, "motion: frame %lld waited %d s for an earlier frame",
               frame, WAIT_SECONDS);
    return -EIO;
}

// Frame n will never queue its work: wake whoever waits for it.
void mark_failed(MotionCuda *m, long long n)
{
    {
        std::lock_guard<std::mutex> hold(m->lock);
        if (m->failed == NONE || n < m->failed)
            m->failed = n;
    }
    m->changed.notify_all();
}

// Queue frame n's work (lock held, frame n - 1 already queued).
int queue_frame(const MotionState *s, MotionCuda *m, const EvPic *ref, long long n,
                cudaStream_t worker)
{
    const long long depth = s->depth;
    const int e = (int)(n % RING);
    char *luma = m->ring + (size_t)e * s->luma_bytes;
    const size_t row = s->luma_bytes / s->h;
    int err = cuda_error(m, cudaEventRecord(m->uploaded[e], worker), "record the upload");
    if (!err)
        err = cuda_error(m, cudaStreamWaitEvent(m->stream, m->uploaded[e], 0), "wait for the upload");
    if (!err)
        err = cuda_error(m, cudaMemcpy2DAsync(luma, row, ref->dev[0], (size_t)ref->stride[0], row,
                                              s->h, cudaMemcpyDeviceToDevice, m->stream),
                         "keep the luma");
    if (!err && n >= depth) {
        const char *prev = m->ring + (size_t)((n - depth) % RING) * s->luma_bytes;
        err = cuda_error(m, cudaMemsetAsync(m->total_dev + e, 0, sizeof(*m->total_dev), m->stream),
                         "clear the total");
        if (!err) {
            sad_kernel<<<s->h, EV_SUM_THREADS, 0, m->stream>>>(prev, luma, (ptrdiff_t)row,
                                                                (int)s->w, (int)s->h, s->bpc,
                                                                m->total_dev + e);
            err = cuda_error(m, cudaGetLastError(), "SAD kernel");
        }
        if (!err)
            err = cuda_error(m, cudaMemcpyAsync(m->total_host + e, m->total_dev + e,
                                                sizeof(*m->total_dev), cudaMemcpyDeviceToHost,
                                                m->stream),
                             "read the total");
    }
    if (!err)
        err = cuda_error(m, cudaEventRecord(m->done[e], m->stream), "record the motion work");
    if (!err)
        err = cuda_error(m, cudaStreamWaitEvent(worker, m->done[e], 0), "wait for the motion work");
    return err;
}

int launch_frame(const MotionState *s, MotionCuda *m, const EvPic *ref, const long long n)
{
    const cudaStream_t worker = static_cast<cudaStream_t>(ev_cuda_stream(ref->gpu));
    std::unique_lock<std::mutex> held(m->lock);
    int err = make_ready(s, m);
    // the entry's total slot last served frame n - RING: wait until that frame read it
    if (!err && n >= RING)
        err = wait_for(m, held, n, [&] { return m->read[n % RING] == n - RING; });
    if (!err)
        err = wait_for(m, held, n, [&] { return m->queued == n - 1; });
    if (!err)
        err = queue_frame(s, m, ref, n, worker);
    if (!err)
        m->queued = n;
    held.unlock();
    m->changed.notify_all();
    return err;
}

} // namespace

extern "C" int ev_motion_cuda_open(MotionState *s, const EvLog *log)
{
    MotionCuda *m = new (std::nothrow) MotionCuda;
    if (!m)
        return -ENOMEM;
    m->log = log;
    for (int k = 0; k < RING; k++)
        m->read[k] = NONE;
    s->cuda = m;
    return 0;
}

extern "C" void ev_motion_cuda_close(MotionState *s)
{
    MotionCuda *m = s->cuda;
    if (!m)
        return;
    if (m->ready || m->stream) {
        cudaSetDevice(m->device);
        cudaDeviceSynchronize();
        for (int k = 0; k < RING; k++) {
            if (m->uploaded[k])
                cudaEventDestroy(m->uploaded[k]);
            if (m->done[k])
                cudaEventDestroy(m->done[k]);
        }
        cudaFree(m->ring);
        cudaFree(m->total_dev);
        cudaFreeHost(m->total_host);
        if (m->stream)
            cudaStreamDestroy(m->stream);
    }
    delete m;
    s->cuda = nullptr;
}

extern "C" int ev_motion_launch_cuda(const void *state, void *scratch, const EvPic *ref,
                                     const EvPic *dis, unsigned frame)
{
    (void)scratch;
    (void)dis;
    const MotionState *s = static_cast<const MotionState *>(state);
    MotionCuda *m = s->cuda;
    if (!ref) {   // abandoned by the engine
        mark_failed(m, frame);
        return 0;
    }
    if (s->opts.force_zero)
        return 0;
    const int err = launch_frame(s, m, ref, frame);
    if (err)
        mark_failed(m, frame);
    return err;
}

extern "C" int ev_motion_extract_cuda(const void *state, void *scratch, const EvPic *ref,
                                      const EvPic *dis, unsigned frame, EvSink *sink)
{
    (void)scratch;
    (void)dis;
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
    {
        std::lock_guard<std::mutex> hold(m->lock);
        m->read[frame % RING] = frame;
        if (m->score.size() <= frame) {
            m->score.resize((size_t)frame + 1, 0.);
            m->have.resize((size_t)frame + 1, 0);
        }
        m->score[frame] = score;
        m->have[frame] = 1;
    }
    m->changed.notify_all();
    return ev_motion_put_frame(s, frame, score, sink);
}

extern "C" int ev_motion_cuda_scores(MotionState *s, unsigned n_frames, double **score,
                                     unsigned *n)
{
    MotionCuda *m = s->cuda;
    std::lock_guard<std::mutex> hold(m->lock);
    if (m->score.size() < n_frames) {
        ev_log(m->log, EV_LOG_ERROR, "motion: %u frames sent, %zu scored", n_frames,
               m->score.size());
        return -EIO;
    }
    for (unsigned i = 0; i < n_frames; i++)
        if (!m->have[i]) {
            ev_log(m->log, EV_LOG_ERROR, "motion: frame %u was not scored", i);
            return -EIO;
        }
    double *v = static_cast<double *>(malloc((n_frames ? n_frames : 1) * sizeof(double)));
    if (!v)
        return -ENOMEM;
    if (n_frames)
        memcpy(v, m->score.data(), n_frames * sizeof(double));
    free(*score);
    *score = v;
    *n = n_frames;
    return 0;
}
