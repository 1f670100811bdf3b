// The shared CUDA runtime of the twins: workers (stream + device slot + result scratch),
// pinned slot memory, error mapping. See runtime.h.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda_runtime.h>

#include "cuda/runtime.h"

// Twins (registrations) that keep memory on one worker.
#define EV_CUDA_KEPT_MAX 32

struct EvCudaWorker {
    int device;
    cudaStream_t stream;
    void *slot; // device copy of one frame slot
    size_t slot_bytes;
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

extern "C" int ev_cuda_worker_open(EvCudaWorker **out, int device, size_t slot_bytes,
                                   const EvLog *log)
{
    *out = nullptr;
    EvCudaWorker *w = static_cast<EvCudaWorker *>(calloc(1, sizeof(*w)));
    if (!w)
        return -ENOMEM;
    w->device = device;
    w->slot_bytes = slot_bytes;
    w->log = log;
    int err = map_error(cudaSetDevice(device), log, "select device");
    if (!err)
        err = map_error(cudaStreamCreateWithFlags(&w->stream, cudaStreamNonBlocking), log,
                        "create stream");
    if (!err)
        err = map_error(cudaMalloc(&w->slot, slot_bytes), log, "allocate frame");
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
    cudaSetDevice(w->device);
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
    cudaFreeHost(p);
}
