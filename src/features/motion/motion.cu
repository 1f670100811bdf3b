// CUDA twin of motion (motion.c beside this file: integer_motion's pipelined v2 SAD).
//
// The reference is sequential: frame n's SAD needs the reference luma of frame n - depth (n - 1,
// or n - 2 with the five-frame window). Here frames run on every worker, so the lumas stay on
// the device in a ring of RING entries shared by the workers, and CUDA events order the
// streams, with no host round trip:
//   launch(n): wait for the SAD that last read entry n % RING (frame n - RING + depth), copy
//              the frame's luma there (device to device, from the worker's upload), record
//              luma_ready; then wait for frame n - depth's luma_ready and run the SAD kernels
//              (tiles of outputs adding to their rows' sums; then each row's sum truncated to
//              the reference's uint32 and the rows added in uint64: integers, any order),
//              record sad_done, copy the total back;
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

// A block: a tile of TH rows x TW outputs, its threads as TY rows of TX. The vertical pass of
// prev - cur at the tile's columns and their mirrored margins, then each output's horizontal
// pass and |.|; each row's partial sum added to its row's total (a row's sum must be whole
// before the reference truncates it to uint32: fold_kernel does that).
constexpr int TW = 128, TH = 8, TX = 64, TY = EV_SUM_THREADS / TX;

__global__ void __launch_bounds__(EV_SUM_THREADS)
    sad_kernel(const char *prev, const char *cur, ptrdiff_t stride, int w, int h, unsigned bpc,
               unsigned long long *rows_sum)
{
    __shared__ int32_t ys[TH][TW + 2 * MOTION_RADIUS];
    __shared__ unsigned long long part[TY][TH / TY][TX / 32];
    const int tx = threadIdx.x % TX, ty = threadIdx.x / TX;
    const int i0 = blockIdx.y * TH, j0 = blockIdx.x * TW;
    const int rows = min(TH, h - i0), cols = min(TW, w - j0), span = cols + 2 * MOTION_RADIUS;
    for (int q = ty; q < rows; q += TY)
        for (int s = tx; s < span; s += TX)
            ys[q][s] = motion_vblur_at(prev, cur, stride, h, bpc, i0 + q,
                                       motion_mirror(j0 - MOTION_RADIUS + s, w));
    __syncthreads();
    // thread (tx, ty) adds rows ty, ty + TY, ...: one sum per row it visits
    for (int r = 0; r < TH / TY; r++) {
        const int q = ty + r * TY;
        unsigned long long row = 0;
        if (q < rows)
            for (int x = tx; x < cols; x += TX)
                row += motion_hblur_abs(&ys[q][x]);
        for (int o = 16; o > 0; o >>= 1)
            row += __shfl_down_sync(0xffffffffu, row, o);
        if ((threadIdx.x & 31) == 0)
            part[ty][r][tx / 32] = row;
    }
    __syncthreads();
    if (threadIdx.x < TH) {
        const int q = threadIdx.x, t = q % TY, r = q / TY;
        if (q < rows)
            atomicAdd(rows_sum + i0 + q, part[t][r][0] + part[t][r][1]);
    }
}

// The frame's SAD: each row's sum truncated to the reference's uint32, the rows added.
__global__ void __launch_bounds__(EV_SUM_THREADS)
    fold_kernel(const unsigned long long *rows_sum, int h, unsigned long long *total)
{
    unsigned long long v = 0;
    for (int i = threadIdx.x; i < h; i += EV_SUM_THREADS)
        v += (uint32_t)rows_sum[i];
    v = ev_block_sum(v);
    if (threadIdx.x == 0)
        *total = v;
}

// The worker's kept memory: the frame's total and row sums on the device, the total's pinned
// copy.
struct Totals {
    unsigned long long *dev, *rows, *host;
};

int totals_of(const MotionState *s, EvCudaWorker *gpu, Totals &t)
{
    void *dev, *host;
    const int err = ev_cuda_worker_memory(gpu, s, (1 + (size_t)s->h) * sizeof(unsigned long long),
                                          sizeof(unsigned long long), &dev, &host);
    t.dev = static_cast<unsigned long long *>(dev);
    t.rows = t.dev + 1;
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
        err = cuda_error(m, cudaMemsetAsync(t.rows, 0, s->h * sizeof(*t.rows), stream),
                         "clear the row sums");
    if (!err) {
        const dim3 grid((s->w + TW - 1) / TW, (s->h + TH - 1) / TH);
        sad_kernel<<<grid, EV_SUM_THREADS, 0, stream>>>(prev, luma, (ptrdiff_t)row, (int)s->w,
                                                       (int)s->h, s->bpc, t.rows);
        fold_kernel<<<1, EV_SUM_THREADS, 0, stream>>>(t.rows, (int)s->h, t.dev);
        err = cuda_error(m, cudaGetLastError(), "SAD kernels");
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
