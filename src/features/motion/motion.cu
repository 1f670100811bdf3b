// CUDA twin of motion (motion.c beside this file: integer_motion's pipelined v2 SAD).
//
// The reference is sequential: frame n's SAD needs the reference luma of frame n - depth (n - 1,
// or n - 2 with the five-frame window). Here frames run on every worker, so the lumas stay on
// the device in a ring of RING entries shared by the workers, and CUDA events order the
// streams, with no host round trip:
//   launch(n): wait for the SAD that last read entry n % RING (frame n - RING + depth), copy
//              the frame's luma there (device to device, from the worker's upload), record
//              luma_ready; then wait for frame n - depth's luma_ready and run the SAD kernel
//              (one block per row: the row's sum truncated to the reference's uint32, rows
//              added in uint64: integers, any order), record sad_done, copy the total back;
//   extract(n): wait for the stream, turn the total into the score (motion_math.h), keep it
//              by frame number and write the frame's outputs; motion2/motion3 at flush (motion.c).
// An event is waited for only after the host has seen it recorded for the right frame (a tag
// per entry, under a mutex); every launch is called in frame order of dequeueing, so a wait
// always concerns an earlier frame, which never waits for a later one.
#include <cerrno>
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

constexpr int RING = 64;             // lumas kept; far more than frames in flight
constexpr int TILE = EV_SUM_THREADS; // outputs of a row per pass of the block
constexpr long long NONE = -1;

// Entry e's tags: the frame whose luma was recorded there last, and whose SAD (reading its
// previous luma) was recorded; failed: the newest frame that was abandoned.
struct Tags {
    long long luma = NONE, sad = NONE;
};

} // namespace

struct MotionCuda {
    std::mutex lock;
    std::condition_variable changed;
    Tags tag[RING];
    long long failed = NONE;         // the first abandoned frame, or NONE
    bool ready = false;              // device resources made (first launch)
    int device = 0;
    char *ring = nullptr;            // RING lumas, packed rows
    cudaEvent_t luma_ready[RING] = {}, sad_done[RING] = {};
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

// The worker's kept memory: the frame's total on the device and its pinned copy.
struct Totals {
    unsigned long long *dev, *host;
};

int totals_of(const MotionState *s, EvCudaWorker *gpu, Totals &t)
{
    void *dev, *host;
    const int err = ev_cuda_worker_memory(gpu, s, sizeof(unsigned long long),
                                          sizeof(unsigned long long), &dev, &host);
    t.dev = static_cast<unsigned long long *>(dev);
    t.host = static_cast<unsigned long long *>(host);
    return err;
}

int cuda_error(MotionCuda *m, cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return 0;
    ev_log(m->log, EV_LOG_ERROR, "motion: cuda: %s: %s", what, cudaGetErrorString(e));
    return e == cudaErrorMemoryAllocation ? -ENOMEM : -EIO;
}

// The ring and its events, on the first launch (in a worker: its device is current).
int make_ready(MotionState *s, MotionCuda *m)
{
    if (m->ready)
        return 0;
    cudaError_t e = cudaGetDevice(&m->device);
    if (e == cudaSuccess)
        e = cudaMalloc(&m->ring, (size_t)RING * s->luma_bytes);
    for (int k = 0; k < RING && e == cudaSuccess; k++) {
        e = cudaEventCreateWithFlags(&m->luma_ready[k], cudaEventDisableTiming);
        if (e == cudaSuccess)
            e = cudaEventCreateWithFlags(&m->sad_done[k], cudaEventDisableTiming);
    }
    if (e == cudaSuccess)
        m->ready = true;
    return cuda_error(m, e, "set up the luma ring");
}

// Wait (host) until entry `frame % RING` holds field `which` of `frame`; -EIO once an earlier
// frame was abandoned (its work will never come).
int wait_tag(MotionCuda *m, std::unique_lock<std::mutex> &held, long long Tags::*which,
             long long frame)
{
    const Tags &t = m->tag[frame % RING];
    m->changed.wait(held, [&] {
        return t.*which == frame || (m->failed != NONE && m->failed <= frame);
    });
    if (t.*which == frame)
        return 0;
    ev_log(m->log, EV_LOG_ERROR, "motion: frame %lld failed; later frames need its luma",
           m->failed);
    return -EIO;
}

// Frame n will never record anything: wake whoever waits for it.
void mark_failed(MotionCuda *m, long long n)
{
    {
        std::lock_guard<std::mutex> hold(m->lock);
        if (m->failed == NONE || n < m->failed)
            m->failed = n;
    }
    m->changed.notify_all();
}

void set_tag(MotionCuda *m, long long Tags::*which, long long frame)
{
    {
        std::lock_guard<std::mutex> hold(m->lock);
        m->tag[frame % RING].*which = frame;
    }
    m->changed.notify_all();
}

} // namespace

extern "C" int ev_motion_cuda_open(MotionState *s, const EvLog *log)
{
    MotionCuda *m = new (std::nothrow) MotionCuda;
    if (!m)
        return -ENOMEM;
    m->log = log;
    s->cuda = m;
    return 0;
}

extern "C" void ev_motion_cuda_close(MotionState *s)
{
    MotionCuda *m = s->cuda;
    if (!m)
        return;
    if (m->ready) {
        cudaSetDevice(m->device);
        cudaDeviceSynchronize();
        for (int k = 0; k < RING; k++) {
            if (m->luma_ready[k])
                cudaEventDestroy(m->luma_ready[k]);
            if (m->sad_done[k])
                cudaEventDestroy(m->sad_done[k]);
        }
        cudaFree(m->ring);
    }
    delete m;
    s->cuda = nullptr;
}

namespace {

int launch_frame(const MotionState *s, MotionCuda *m, const EvPic *ref, const long long n)
{
    const long long depth = s->depth;
    const cudaStream_t stream = static_cast<cudaStream_t>(ev_cuda_stream(ref->gpu));
    std::unique_lock<std::mutex> held(m->lock);
    int err = make_ready(const_cast<MotionState *>(s), m);
    // entry n % RING last held frame n - RING, read by the SAD of frame n - RING + depth
    if (!err && n >= RING)
        err = wait_tag(m, held, &Tags::sad, n - RING + depth);
    held.unlock();
    if (err)
        return err;
    const int e = (int)(n % RING);
    char *luma = m->ring + (size_t)e * s->luma_bytes;
    const size_t row = s->luma_bytes / s->h;
    if (n >= RING)
        err = cuda_error(m, cudaStreamWaitEvent(stream, m->sad_done[(n - RING + depth) % RING], 0),
                         "wait for the ring");
    if (!err)
        err = cuda_error(m, cudaMemcpy2DAsync(luma, row, ref->dev[0], (size_t)ref->stride[0], row,
                                              s->h, cudaMemcpyDeviceToDevice, stream),
                         "keep the luma");
    if (!err)
        err = cuda_error(m, cudaEventRecord(m->luma_ready[e], stream), "record the luma");
    if (err)
        return err;
    set_tag(m, &Tags::luma, n);
    if (n < depth)
        return 0;
    held.lock();
    err = wait_tag(m, held, &Tags::luma, n - depth);
    held.unlock();
    if (err)
        return err;
    Totals t;
    if ((err = totals_of(s, ref->gpu, t)))
        return err;
    const char *prev = m->ring + (size_t)((n - depth) % RING) * s->luma_bytes;
    err = cuda_error(m, cudaStreamWaitEvent(stream, m->luma_ready[(n - depth) % RING], 0),
                     "wait for the previous luma");
    if (!err)
        err = cuda_error(m, cudaMemsetAsync(t.dev, 0, sizeof(*t.dev), stream), "clear the total");
    if (!err) {
        sad_kernel<<<s->h, EV_SUM_THREADS, 0, stream>>>(prev, luma, (ptrdiff_t)row, (int)s->w,
                                                          (int)s->h, s->bpc, t.dev);
        err = cuda_error(m, cudaGetLastError(), "SAD kernel");
    }
    if (!err)
        err = cuda_error(m, cudaEventRecord(m->sad_done[e], stream), "record the SAD");
    if (!err)
        err = cuda_error(m, cudaMemcpyAsync(t.host, t.dev, sizeof(*t.dev),
                                            cudaMemcpyDeviceToHost, stream),
                         "read the total");
    if (!err)
        set_tag(m, &Tags::sad, n);
    return err;
}

} // namespace

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
    if (!s->opts.force_zero && frame >= s->depth) {
        Totals t;
        int err = totals_of(s, ref->gpu, t);
        if (!err)
            err = ev_cuda_finish(ref->gpu, "motion");
        if (err)
            return err;
        score = motion_sad_score(*t.host, s->w, s->h, s->opts.fps_weight, s->opts.max_val);
    }
    {
        std::lock_guard<std::mutex> hold(m->lock);
        if (m->score.size() <= frame) {
            m->score.resize((size_t)frame + 1, 0.);
            m->have.resize((size_t)frame + 1, 0);
        }
        m->score[frame] = score;
        m->have[frame] = 1;
    }
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
