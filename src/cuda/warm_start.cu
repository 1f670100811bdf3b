// The CUDA start on a thread of its own (runtime.h, "the warm start"): the driver's
// initialisation and the device's primary context, begun when an engine opens so that they
// overlap the caller's own set-up (opening and probing its inputs) instead of delaying the
// first frame.
#include <cerrno>
#include <cstdlib>
#include <ctime>

#include <pthread.h>

#include <cuda.h> // the driver's types only: its calls are reached through the runtime
#include <cuda_runtime.h>

#include "cuda/runtime.h"

// The primary-context calls, found through the runtime as runtime.cu finds its own (no link
// against libcuda).
struct PrimaryCalls {
    CUresult (*device_get)(CUdevice *, int);
    CUresult (*get_state)(CUdevice, unsigned *, int *);
    CUresult (*set_flags)(CUdevice, unsigned);
    CUresult (*retain)(CUcontext *, CUdevice);
    CUresult (*release)(CUdevice);
};

struct EvCudaWarm {
    pthread_t thread;
    int device;
    PrimaryCalls calls;
    int retained;   // the thread holds a reference on the primary context
    double seconds; // how long the thread took
    int joined;
};

static double seconds_now()
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static bool find_calls(PrimaryCalls *c)
{
    struct {
        const char *name;
        void **fn;
    } want[] = {
        { "cuDeviceGet", reinterpret_cast<void **>(&c->device_get) },
        { "cuDevicePrimaryCtxGetState", reinterpret_cast<void **>(&c->get_state) },
        { "cuDevicePrimaryCtxSetFlags", reinterpret_cast<void **>(&c->set_flags) },
        { "cuDevicePrimaryCtxRetain", reinterpret_cast<void **>(&c->retain) },
        { "cuDevicePrimaryCtxRelease", reinterpret_cast<void **>(&c->release) },
    };
    for (auto &w : want) {
        cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
        if (cudaGetDriverEntryPointByVersion(w.name, w.fn, 12000, cudaEnableDefault, &q) !=
                cudaSuccess ||
            q != cudaDriverEntryPointSuccess || !*w.fn)
            return false;
    }
    return true;
}

// Nothing here is reported: a failure leaves the work to the first frame, whose own calls
// name what is wrong (ev_select_backend, ev_cuda_enter).
static void *warm_main(void *arg)
{
    EvCudaWarm *w = static_cast<EvCudaWarm *>(arg);
    const double t0 = seconds_now();
    int n = 0;
    CUdevice dev = 0;
    if (cudaGetDeviceCount(&n) == cudaSuccess && w->device < n && find_calls(&w->calls) &&
        w->calls.device_get(&dev, w->device) == CUDA_SUCCESS) {
        // Made inactive, the context gets libavcodec's flags (blocking sync), so that its
        // NVDEC decoders, which share the primary context only when its flags are theirs, can
        // be opened after the engine as well as before it.
        unsigned flags = 0;
        int active = 0;
        if (w->calls.get_state(dev, &flags, &active) == CUDA_SUCCESS && !active &&
            (flags & CU_CTX_SCHED_MASK) == CU_CTX_SCHED_AUTO)
            w->calls.set_flags(dev, (flags & ~CU_CTX_SCHED_MASK) | CU_CTX_SCHED_BLOCKING_SYNC);
        CUcontext ctx = nullptr;
        w->retained = w->calls.retain(&ctx, dev) == CUDA_SUCCESS;
    }
    cudaGetLastError(); // this thread's error state: nothing for the engine's threads
    w->seconds = seconds_now() - t0;
    return nullptr;
}

extern "C" EvCudaWarm *ev_cuda_warm_start(int device)
{
    EvCudaWarm *w = static_cast<EvCudaWarm *>(calloc(1, sizeof(*w)));
    if (!w)
        return nullptr;
    w->device = device;
    if (pthread_create(&w->thread, nullptr, warm_main, w)) {
        free(w);
        return nullptr;
    }
    return w;
}

extern "C" double ev_cuda_warm_wait(EvCudaWarm *w)
{
    if (!w)
        return 0.0;
    if (!w->joined) {
        pthread_join(w->thread, nullptr);
        w->joined = 1;
    }
    return w->seconds;
}

extern "C" void ev_cuda_warm_close(EvCudaWarm **pw)
{
    if (!pw || !*pw)
        return;
    EvCudaWarm *w = *pw;
    ev_cuda_warm_wait(w);
    CUdevice dev = 0;
    if (w->retained && w->calls.device_get(&dev, w->device) == CUDA_SUCCESS)
        w->calls.release(dev); // the context ends here unless the runtime or others hold it
    free(w);
    *pw = nullptr;
}
