// The ordered frame ring: for a CUDA twin whose frame n needs earlier frames' device work (a
// temporal extractor: motion, float_motion, speed_temporal). Frames arrive on every worker's
// stream in any order; the ring runs each frame's work on one stream of its own, in frame
// order, and gives each frame a slot of SLOTS for its results:
//   queue(n) (from the twin's launch): waits until frame n - 1 has queued its work and until
//            frame n - SLOTS has read its slot; records `uploaded` on the worker's stream (the
//            frame is on the device), makes the ring's stream wait for it, runs work(slot,
//            stream), records `done`, and makes the worker's stream wait for `done` (so the
//            worker's next upload cannot overwrite the frame before the work read it);
//   release(n) (from the twin's extract, once it read slot n % SLOTS): frees the slot;
//   fail(n) (a launch that failed, or a frame the engine abandoned): later frames that wait
//            for it fail instead of hanging.
// One stream in frame order makes the twin's own device buffers safe by construction: every
// read of a buffer is queued before the write that replaces it. The only host waits are for
// the previous frame's queueing and, SLOTS frames later, for a slot to have been read; a wait
// longer than WAIT_SECONDS fails (a frame that never comes).
#ifndef EV_CUDA_FRAME_RING_CUH
#define EV_CUDA_FRAME_RING_CUH

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

#include <cuda_runtime.h>

#include "base/log.h"
#include "cuda/runtime.h"

class EvFrameRing
{
  public:
    static constexpr int SLOTS = 64; // far more than frames in flight
    static constexpr int WAIT_SECONDS = 60;

    EvFrameRing(const char *name, const EvLog *log) : name_(name), log_(log)
    {
        for (int k = 0; k < SLOTS; k++)
            read_[k] = NONE;
    }
    EvFrameRing(const EvFrameRing &) = delete;
    EvFrameRing &operator=(const EvFrameRing &) = delete;

    // The slot of frame n.
    static int slot(long long n) { return (int)(n % SLOTS); }

    // The twin's error line for a CUDA call: "<name>: cuda: <what>: <error>"; 0 on success,
    // else -ENOMEM or -EIO.
    int check(cudaError_t e, const char *what) const
    {
        if (e == cudaSuccess)
            return 0;
        ev_log(log_, EV_LOG_ERROR, "%s: cuda: %s: %s", name_, what, cudaGetErrorString(e));
        return e == cudaErrorMemoryAllocation ? -ENOMEM : -EIO;
    }

    // Queue frame n (see above). On the first frame the ring makes its stream and events on
    // the current device (the worker's), then calls prepare(stream), where the twin makes its
    // own buffers. prepare and work run with the ring's lock held and return 0 or a negative
    // code (logged by them).
    template <class Prepare, class Work>
    int queue(long long n, cudaStream_t worker, Prepare prepare, Work work)
    {
        std::unique_lock<std::mutex> held(lock_);
        int err = ready_ ? 0 : make_ready(prepare);
        if (!err && n >= SLOTS)
            err = wait_for(held, n, [&] { return read_[slot(n)] == n - SLOTS; });
        if (!err)
            err = wait_for(held, n, [&] { return queued_ == n - 1; });
        const int s = slot(n);
        if (!err)
            err = check(cudaEventRecord(uploaded_[s], worker), "record the upload");
        if (!err)
            err = check(cudaStreamWaitEvent(stream_, uploaded_[s], 0), "wait for the upload");
        if (!err)
            err = work(s, stream_);
        if (!err)
            err = check(cudaEventRecord(done_[s], stream_), "record the frame's work");
        if (!err)
            err = check(cudaStreamWaitEvent(worker, done_[s], 0), "wait for the frame's work");
        if (!err)
            queued_ = n;
        held.unlock();
        changed_.notify_all();
        return err;
    }

    // A twin's launch() of frame n (base/extractor.h): fail(n) for a frame the engine
    // abandoned (ref == NULL) or whose queueing failed; else queue() on ref's worker stream.
    template <class Prepare, class Work>
    int launch(const EvPic *ref, long long n, Prepare prepare, Work work)
    {
        if (!ref) {
            fail(n);
            return 0;
        }
        const cudaStream_t worker = static_cast<cudaStream_t>(ev_cuda_stream(ref->gpu));
        const int err = queue(n, worker, prepare, work);
        if (err)
            fail(n);
        return err;
    }

    // Frame n has read its slot.
    void release(long long n)
    {
        {
            std::lock_guard<std::mutex> hold(lock_);
            read_[slot(n)] = n;
        }
        changed_.notify_all();
    }

    // Frame n will never queue its work: wake whoever waits for it.
    void fail(long long n)
    {
        {
            std::lock_guard<std::mutex> hold(lock_);
            if (failed_ == NONE || n < failed_)
                failed_ = n;
        }
        changed_.notify_all();
    }

    // Wait for every queued frame, call free_buffers() (the twin frees its device buffers; the
    // ring's device is current), then destroy the events and the stream. Once, at the close.
    template <class Free>
    void close(Free free_buffers)
    {
        if (!ready_ && !stream_)
            return;
        void *const saved = ev_cuda_current_context();
        ev_cuda_restore(context_); // the context the ring was made in
        cudaDeviceSynchronize();
        free_buffers();
        for (int k = 0; k < SLOTS; k++) {
            if (uploaded_[k])
                cudaEventDestroy(uploaded_[k]);
            if (done_[k])
                cudaEventDestroy(done_[k]);
        }
        if (stream_)
            cudaStreamDestroy(stream_);
        stream_ = nullptr;
        ready_ = false;
        ev_cuda_restore(saved);
    }

    // Whether the first frame made the ring (the twin's buffers exist).
    bool ready() const { return ready_; }

  private:
    static constexpr long long NONE = -1;

    template <class Prepare>
    int make_ready(Prepare prepare)
    {
        context_ = ev_cuda_current_context(); // the worker's: the engine's context
        cudaError_t e = cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
        for (int k = 0; k < SLOTS && e == cudaSuccess; k++) {
            e = cudaEventCreateWithFlags(&uploaded_[k], cudaEventDisableTiming);
            if (e == cudaSuccess)
                e = cudaEventCreateWithFlags(&done_[k], cudaEventDisableTiming);
        }
        int err = check(e, "set up the frame ring");
        if (!err)
            err = prepare(stream_);
        if (!err)
            ready_ = true;
        return err;
    }

    // Wait (lock held) until ok(); -EIO once an earlier frame failed, or after WAIT_SECONDS.
    template <class Ok>
    int wait_for(std::unique_lock<std::mutex> &held, long long frame, Ok ok)
    {
        const bool seen = changed_.wait_for(held, std::chrono::seconds(WAIT_SECONDS), [&] {
            return ok() || (failed_ != NONE && failed_ < frame);
        });
        if (seen && ok())
            return 0;
        if (failed_ != NONE)
            ev_log(log_, EV_LOG_ERROR, "%s: frame %lld failed; frame %lld needs it", name_, failed_,
                   frame);
        else
            ev_log(log_, EV_LOG_ERROR, "%s: frame %lld waited %d s for an earlier frame", name_,
                   frame, WAIT_SECONDS);
        return -EIO;
    }

    const char *name_;
    const EvLog *log_;
    std::mutex lock_;
    std::condition_variable changed_;
    long long queued_ = NONE; // the last frame whose work is on the stream
    long long read_[SLOTS];   // the frame that last read each slot
    long long failed_ = NONE; // the first abandoned frame, or NONE
    bool ready_ = false;
    void *context_ = nullptr; // the CUcontext the ring was made in
    cudaStream_t stream_ = nullptr;
    cudaEvent_t uploaded_[SLOTS] = {}, done_[SLOTS] = {};
};

// A ring twin's device state T (constructed with the log; its ring is T::order) on s->cuda:
// 0, or -ENOMEM.
template <class T, class S>
int ev_ring_twin_open(S *s, const EvLog *log)
{
    T *m = new (std::nothrow) T(log);
    if (!m)
        return -ENOMEM;
    s->cuda = m;
    return 0;
}

// Its end (NULL-safe): every queued frame waited for, free_buffers(m) (the twin's device
// buffers), the ring's stream and events, then T itself.
template <class S, class Free>
void ev_ring_twin_close(S *s, Free free_buffers)
{
    auto *m = s->cuda;
    if (!m)
        return;
    m->order.close([&] { free_buffers(m); });
    delete m;
    s->cuda = nullptr;
}

// A twin's per-frame scores, kept by frame number for the flush (the motion twins' moving
// sums need every frame's score): put() from the extracts, in any order; take() at the flush.
class EvFrameScores
{
  public:
    void put(unsigned frame, double score)
    {
        std::lock_guard<std::mutex> hold(lock_);
        if (score_.size() <= frame) {
            score_.resize((size_t)frame + 1, 0.);
            have_.resize((size_t)frame + 1, 0);
        }
        score_[frame] = score;
        have_[frame] = 1;
    }

    // A malloc'd copy of the scores of frames 0..n_frames-1 into *out; -EIO (logged with
    // name) when a frame has none, -ENOMEM.
    int take(unsigned n_frames, double **out, const char *name, const EvLog *log)
    {
        std::lock_guard<std::mutex> hold(lock_);
        if (score_.size() < n_frames) {
            ev_log(log, EV_LOG_ERROR, "%s: %u frames sent, %zu scored", name, n_frames,
                   score_.size());
            return -EIO;
        }
        for (unsigned i = 0; i < n_frames; i++)
            if (!have_[i]) {
                ev_log(log, EV_LOG_ERROR, "%s: frame %u was not scored", name, i);
                return -EIO;
            }
        double *v = static_cast<double *>(malloc((n_frames ? n_frames : 1) * sizeof(double)));
        if (!v)
            return -ENOMEM;
        if (n_frames)
            memcpy(v, score_.data(), n_frames * sizeof(double));
        *out = v;
        return 0;
    }

  private:
    std::mutex lock_;
    std::vector<double> score_;
    std::vector<char> have_;
};

#endif
