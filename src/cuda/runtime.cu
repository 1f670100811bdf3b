// The shared CUDA runtime of the twins: workers (stream + device slot + result scratch),
// pinned slot memory, error mapping. See runtime.h.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <mutex>

#include <cuda.h> // the driver's types only: its calls are reached through the runtime
#include <cuda_runtime.h>

#include "cuda/runtime.h"

// Twins (registrations) that keep memory on one worker.
#define EV_CUDA_KEPT_MAX 32

struct EvCudaWorker {
    EvCudaPlace place;
    int device;
    cudaStream_t stream;
    void *slot;        // device copy of one frame slot
    size_t slot_bytes; // a packed slot's bytes (the host slot's)
    void *scratch_dev;
    void *scratch_host; // pinned
    const EvLog *log;
    struct Kept { // ev_cuda_worker_memory
        const void *owner;
        void *dev, *host;
        size_t dev_bytes, host_bytes;
    } kept[EV_CUDA_KEPT_MAX];
    unsigned n_kept;
};

static int map_error(cudaError_t e, const EvLog *log, const char *what)
{
    if (e == cudaSuccess)
        return 0;
    ev_log(log, EV_LOG_ERROR, "cuda: %s: %s", what, cudaGetErrorString(e));
    return e == cudaErrorMemoryAllocation ? -ENOMEM : -EIO;
}

// The four driver calls a caller's context needs, found through the runtime (no link against
// libcuda: the runtime loads the driver).
struct DriverCalls {
    CUresult (*get_current)(CUcontext *);
    CUresult (*set_current)(CUcontext);
    CUresult (*push)(CUcontext);
    CUresult (*pop)(CUcontext *);
    CUresult (*get_device)(CUdevice *);
    bool found;
};

static const DriverCalls &driver()
{
    static DriverCalls calls;
    static std::once_flag once;
    std::call_once(once, [] {
        struct {
            const char *name;
            void **fn;
        } want[] = {
            { "cuCtxGetCurrent", reinterpret_cast<void **>(&calls.get_current) },
            { "cuCtxSetCurrent", reinterpret_cast<void **>(&calls.set_current) },
            { "cuCtxPushCurrent", reinterpret_cast<void **>(&calls.push) },
            { "cuCtxPopCurrent", reinterpret_cast<void **>(&calls.pop) },
            { "cuCtxGetDevice", reinterpret_cast<void **>(&calls.get_device) },
        };
        calls.found = true;
        for (auto &w : want) {
            cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
            if (cudaGetDriverEntryPointByVersion(w.name, w.fn, 12000, cudaEnableDefault, &q) !=
                    cudaSuccess ||
                q != cudaDriverEntryPointSuccess || !*w.fn)
                calls.found = false;
        }
        cudaGetLastError();
    });
    return calls;
}

extern "C" void *ev_cuda_current_context(void)
{
    const DriverCalls &d = driver();
    CUcontext c = nullptr;
    if (!d.found || d.get_current(&c) != CUDA_SUCCESS)
        return nullptr;
    return c;
}

extern "C" int ev_cuda_enter(const EvCudaPlace *place, void **saved, const EvLog *log)
{
    const DriverCalls &d = driver();
    if (saved)
        *saved = ev_cuda_current_context();
    if (!place->context)
        return map_error(cudaSetDevice(place->device), log, "select device");
    if (!d.found || d.set_current(static_cast<CUcontext>(place->context)) != CUDA_SUCCESS) {
        ev_log(log, EV_LOG_ERROR, "cuda: the caller's CUDA context cannot be made current");
        return -EIO;
    }
    return 0;
}

extern "C" void ev_cuda_restore(void *saved)
{
    const DriverCalls &d = driver();
    if (d.found)
        d.set_current(static_cast<CUcontext>(saved));
}

extern "C" int ev_cuda_context_device(void *context, int *device, char *why, size_t why_size)
{
    const DriverCalls &d = driver();
    CUdevice dev = 0;
    CUcontext popped = nullptr;
    if (!d.found) {
        snprintf(why, why_size, "the CUDA driver's context calls are not available");
        return -ENODEV;
    }
    if (d.push(static_cast<CUcontext>(context)) != CUDA_SUCCESS) {
        snprintf(why, why_size, "the given CUDA context is not valid");
        return -EINVAL;
    }
    const CUresult r = d.get_device(&dev);
    d.pop(&popped);
    if (r != CUDA_SUCCESS) {
        snprintf(why, why_size, "the given CUDA context has no device");
        return -EINVAL;
    }
    *device = static_cast<int>(dev);
    return 0;
}

extern "C" int ev_cuda_probe(int index, char *why, size_t why_size)
{
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        cudaGetLastError();
        /* the runtime reports a missing driver as an "insufficient" one: tell them apart */
        int driver = 0, runtime = 0;
        cudaDriverGetVersion(&driver);
        cudaRuntimeGetVersion(&runtime);
        if (!driver)
            snprintf(why, why_size, "no CUDA device: no NVIDIA driver is installed");
        else if (e == cudaErrorInsufficientDriver)
            snprintf(why, why_size,
                     "the NVIDIA driver (CUDA %d.%d) is older than this build's "
                     "CUDA runtime (%d.%d)",
                     driver / 1000, driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10);
        else
            snprintf(why, why_size, "no CUDA device (%s)",
                     e != cudaSuccess ? cudaGetErrorString(e) : "none found");
        return -ENODEV;
    }
    if (index < 0 || index >= n) {
        snprintf(why, why_size, "CUDA device %d does not exist (%d found)", index, n);
        return -ENODEV;
    }
    return 0;
}

extern "C" int ev_cuda_worker_open(EvCudaWorker **out, const EvCudaPlace *place, size_t slot_bytes,
                                   const EvLog *log)
{
    *out = nullptr;
    EvCudaWorker *w = static_cast<EvCudaWorker *>(calloc(1, sizeof(*w)));
    if (!w)
        return -ENOMEM;
    w->place = *place;
    w->device = place->device;
    w->slot_bytes = slot_bytes;
    w->log = log;
    int err = ev_cuda_enter(place, nullptr, log);
    if (!err)
        err = map_error(cudaStreamCreateWithFlags(&w->stream, cudaStreamNonBlocking), log,
                        "create stream");
    if (!err)
        err =
            map_error(cudaMalloc(&w->scratch_dev, EV_CUDA_SCRATCH_BYTES), log, "allocate scratch");
    // On the worker's own stream, waited for: a plain cudaMemset goes to the legacy default
    // stream, which this non-blocking stream does not wait for, so the first frame's kernels
    // could run before (or while) it cleared the sum counters (ev_segment_sums read a garbage
    // counter and never wrote their totals: stale sums on the first frame of a worker).
    if (!err)
        err = map_error(cudaMemsetAsync(w->scratch_dev, 0, EV_CUDA_SCRATCH_BYTES, w->stream), log,
                        "clear scratch");
    if (!err)
        err = map_error(cudaStreamSynchronize(w->stream), log, "clear scratch");
    if (!err)
        err = map_error(cudaMallocHost(&w->scratch_host, EV_CUDA_SCRATCH_BYTES), log,
                        "allocate pinned scratch");
    if (err) {
        ev_cuda_worker_close(&w);
        return err;
    }
    *out = w;
    return 0;
}

extern "C" void ev_cuda_worker_close(EvCudaWorker **pw)
{
    if (!pw || !*pw)
        return;
    EvCudaWorker *w = *pw;
    ev_cuda_enter(&w->place, nullptr, w->log);
    if (w->stream)
        cudaStreamSynchronize(w->stream);
    for (unsigned i = 0; i < w->n_kept; i++) {
        cudaFree(w->kept[i].dev);
        cudaFreeHost(w->kept[i].host);
    }
    cudaFree(w->slot);
    cudaFree(w->scratch_dev);
    cudaFreeHost(w->scratch_host);
    if (w->stream)
        cudaStreamDestroy(w->stream);
    free(w);
    *pw = nullptr;
}

static void point_at_device(const EvCudaWorker *w, const void *slot, EvPic *p)
{
    for (unsigned i = 0; i < 3; i++) {
        if (!p->data[i]) { // an absent plane (4:0:0 chroma)
            p->dev[i] = nullptr;
            continue;
        }
        const ptrdiff_t offset =
            static_cast<const char *>(p->data[i]) - static_cast<const char *>(slot);
        p->dev[i] = static_cast<const char *>(w->slot) + offset;
    }
    p->gpu = const_cast<EvCudaWorker *>(w);
}

// The worker's device copy of a frame slot, made at its first upload: a worker fed only
// device pictures holds none (at 4K 10-bit it is 50 MB a worker).
static int device_slot(EvCudaWorker *w)
{
    return w->slot ? 0 : map_error(cudaMalloc(&w->slot, w->slot_bytes), w->log, "allocate frame");
}

// One plane of each picture, at its offset in the slot.
static cudaError_t upload_luma(EvCudaWorker *w, const void *slot, const EvPic *p)
{
    const size_t offset = static_cast<size_t>(static_cast<const char *>(p->data[0]) -
                                              static_cast<const char *>(slot));
    const size_t bytes = static_cast<size_t>(p->stride[0]) * p->h[0];
    return cudaMemcpyAsync(static_cast<char *>(w->slot) + offset,
                           static_cast<const char *>(slot) + offset, bytes, cudaMemcpyHostToDevice,
                           w->stream);
}

extern "C" int ev_cuda_upload(EvCudaWorker *w, const void *slot, EvPic *ref, EvPic *dis,
                              int luma_only)
{
    // the worker's thread runs in the engine's context (a scheduler thread may run frames of
    // several passes; the calling thread, without workers, may have another one current)
    int err = ev_cuda_enter(&w->place, nullptr, w->log);
    if (!err)
        err = device_slot(w);
    if (err)
        return err;
    cudaError_t e;
    if (luma_only) {
        e = upload_luma(w, slot, ref);
        if (e == cudaSuccess)
            e = upload_luma(w, slot, dis);
    } else {
        e = cudaMemcpyAsync(w->slot, slot, w->slot_bytes, cudaMemcpyHostToDevice, w->stream);
    }
    if (e != cudaSuccess)
        return map_error(e, w->log, "upload frame");
    point_at_device(w, slot, ref);
    point_at_device(w, slot, dis);
    return 0;
}

// Lent host planes, uploaded packed (a row after another, as a frame slot's): the twins read
// packed planes (the plane sums take a plane as one run of samples).
extern "C" int ev_cuda_upload_planes(EvCudaWorker *w, EvPic *ref, EvPic *dis, int luma_only)
{
    int err = ev_cuda_enter(&w->place, nullptr, w->log);
    if (!err)
        err = device_slot(w);
    if (err)
        return err;
    char *at = static_cast<char *>(w->slot);
    EvPic *pics[2] = { ref, dis };
    for (EvPic *p : pics) {
        for (unsigned i = 0; i < 3; i++) {
            const size_t row = static_cast<size_t>(p->w[i]) * (p->bpc > 8 ? 2 : 1);
            if (!p->data[i] || (luma_only && i)) {
                p->dev[i] = p->data[i] ? w->slot : nullptr; // stale, as ev_cuda_upload's luma_only
                continue;
            }
            if (at + row * p->h[i] > static_cast<char *>(w->slot) + w->slot_bytes) {
                ev_log(w->log, EV_LOG_ERROR, "cuda: a lent frame is larger than the slot");
                return -EINVAL;
            }
            const cudaError_t e =
                cudaMemcpy2DAsync(at, row, p->data[i], static_cast<size_t>(p->stride[i]), row,
                                  p->h[i], cudaMemcpyHostToDevice, w->stream);
            if (e != cudaSuccess)
                return map_error(e, w->log, "upload frame");
            p->dev[i] = at;
            p->stride[i] = static_cast<ptrdiff_t>(row); // the device copy's (this pass's view)
            at += row * p->h[i];
        }
        p->gpu = w;
    }
    return 0;
}

extern "C" int ev_cuda_adopt(EvCudaWorker *w, EvPic *ref, EvPic *dis, void *ready)
{
    int err = ev_cuda_enter(&w->place, nullptr, w->log);
    if (!err && ready)
        err = map_error(cudaStreamWaitEvent(w->stream, static_cast<cudaEvent_t>(ready), 0), w->log,
                        "wait for the caller's frame");
    ref->gpu = dis->gpu = w;
    return err;
}

extern "C" int ev_cuda_event_record(void **event, void *stream, const EvLog *log)
{
    if (!*event) {
        cudaEvent_t e = nullptr;
        const int err =
            map_error(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), log, "create an event");
        if (err)
            return err;
        *event = e;
    }
    return map_error(
        cudaEventRecord(static_cast<cudaEvent_t>(*event), static_cast<cudaStream_t>(stream)), log,
        "record the caller's frame");
}

extern "C" void ev_cuda_event_free(void *event)
{
    if (event)
        cudaEventDestroy(static_cast<cudaEvent_t>(event));
}

extern "C" int ev_cuda_copy_device_picture(const EvPic *src, EvPic *dst, int to_device,
                                           void *stream, const EvLog *log)
{
    const cudaStream_t s = static_cast<cudaStream_t>(stream);
    for (unsigned i = 0; i < 3; i++) {
        if (!src->dev[i] || !src->h[i])
            continue;
        void *out = to_device ? const_cast<void *>(dst->dev[i]) : const_cast<void *>(dst->data[i]);
        const size_t row = static_cast<size_t>(src->w[i]) * (src->bpc > 8 ? 2 : 1);
        const cudaError_t e =
            cudaMemcpy2DAsync(out, static_cast<size_t>(dst->stride[i]), src->dev[i],
                              static_cast<size_t>(src->stride[i]), row, src->h[i],
                              to_device ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost, s);
        if (e != cudaSuccess)
            return map_error(e, log, "copy the caller's frame");
    }
    return map_error(cudaStreamSynchronize(s), log, "copy the caller's frame");
}

extern "C" int ev_cuda_device_alloc(size_t bytes, void **out, const EvLog *log)
{
    *out = nullptr;
    return map_error(cudaMalloc(out, bytes ? bytes : 1), log, "allocate device memory");
}

extern "C" int ev_cuda_device_zero(void *p, size_t bytes, const EvLog *log)
{
    int err = map_error(cudaMemset(p, 0, bytes), log, "clear device memory");
    return err ? err : map_error(cudaDeviceSynchronize(), log, "clear device memory");
}

/* Nothing to free is no CUDA call: cudaFree(NULL) would start the runtime (a context, about
 * 0.2 s on an H200 host) in a CPU-only run or at the close of a context that never scored. */
extern "C" void ev_cuda_device_free(void *p)
{
    if (p)
        cudaFree(p);
}

extern "C" int ev_cuda_worker_memory(EvCudaWorker *w, const void *owner, size_t dev_bytes,
                                     size_t host_bytes, void **dev, void **host)
{
    for (unsigned i = 0; i < w->n_kept; i++) {
        const EvCudaWorker::Kept &k = w->kept[i];
        if (k.owner != owner)
            continue;
        if (dev_bytes > k.dev_bytes || host_bytes > k.host_bytes) {
            ev_log(w->log, EV_LOG_ERROR, "cuda: a twin's kept memory cannot grow");
            return -ENOMEM;
        }
        *dev = k.dev;
        *host = k.host;
        return 0;
    }
    if (w->n_kept == EV_CUDA_KEPT_MAX) {
        ev_log(w->log, EV_LOG_ERROR, "cuda: more than %d twins keep memory on one worker",
               EV_CUDA_KEPT_MAX);
        return -ENOMEM;
    }
    EvCudaWorker::Kept k = { owner, nullptr, nullptr, dev_bytes, host_bytes };
    int err =
        map_error(cudaMalloc(&k.dev, dev_bytes ? dev_bytes : 1), w->log, "allocate twin memory");
    if (!err)
        err = map_error(cudaMallocHost(&k.host, host_bytes ? host_bytes : 1), w->log,
                        "allocate pinned twin memory");
    if (err) {
        cudaFree(k.dev);
        return err;
    }
    memset(k.host, 0, host_bytes ? host_bytes : 1);
    w->kept[w->n_kept++] = k;
    *dev = k.dev;
    *host = k.host;
    return 0;
}

extern "C" void *ev_cuda_scratch_device(EvCudaWorker *w)
{
    return w->scratch_dev;
}
extern "C" void *ev_cuda_scratch_host(EvCudaWorker *w)
{
    return w->scratch_host;
}
extern "C" void *ev_cuda_stream(EvCudaWorker *w)
{
    return w->stream;
}

extern "C" int ev_cuda_finish(EvCudaWorker *w, const char *what)
{
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(w->stream);
    return map_error(e, w->log, what);
}

extern "C" void *ev_cuda_host_alloc(size_t bytes)
{
    void *p = nullptr;
    return cudaMallocHost(&p, bytes) == cudaSuccess ? p : nullptr;
}

extern "C" void ev_cuda_host_free(void *p)
{
    if (p)
        cudaFreeHost(p);
}
