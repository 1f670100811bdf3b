// CUDA twin of ciede: one thread per pixel computes dE00 with ciede_math.h's own functions,
// whose libm calls run on the device replicas of glibc's (glibc_exp_pow.h: the same operations,
// fusions and tables, proven equal by tests/unit/libm_check.c), and writes it as a
// float. The floats come back to the host, which adds them in raster order into one double as
// the reference does (the sum of the reference is a running double: no order-free form), then
// 45 - 20 log10(sum / (w h)). A dE00 that is NaN means a replica met an argument outside its
// proven range (glibc never gives NaN here): the frame fails, naming the pixel.
// Reference: ciede.c beside this file.
#include <cmath>
#include <cstring>
#include <mutex>

#include <cerrno>

#include "cuda/kept.cuh"
#include "cuda/runtime.h"
#include "libm/glibc_ibm_tables.h"
#include "libm/glibc_exp_pow.h"
#include "features/ciede/ciede_twin.h"

namespace
{

constexpr int THREADS = 128;

// glibc's tables, read once per process from the host's libm, uploaded by each worker once (a
// context, the primary one of a device or a caller's, has its own copy of the device symbols;
// a worker lives in one context, and a new worker in a context made anew uploads them again).
std::mutex tables_lock;
bool tables_read;
EvGlibcTables tables;

struct Pics {
    CiedePlane r[3], d[3];
};

__global__ void de00_kernel(const CiedeGeom g, const Pics p, float *out)
{
    const unsigned j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (j >= g.w)
        return;
    const CiedeLab a = ciede_lab_at(&g, p.r[0], p.r[1], p.r[2], i, j);
    const CiedeLab b = ciede_lab_at(&g, p.d[0], p.d[1], p.d[2], i, j);
    out[(size_t)i * g.w + j] = ciede2000(a, b);
}

// The worker's kept buffers of the twin (owner: its state): the frame's dE00 on the device
// and their pinned host copy, followed by the worker's "tables uploaded" flag (kept host
// memory starts zeroed).
struct Bufs {
    float *de_dev;
    float *de_host;
    unsigned char *tables_uploaded;
};

int bufs_of(const void *state, const CiedeGeom &g, EvCudaWorker *gpu, Bufs &b)
{
    const size_t bytes = (size_t)g.w * g.h * sizeof(float);
    void *dev = nullptr, *host = nullptr;
    const int err = ev_cuda_worker_memory(gpu, state, bytes, bytes + 16, &dev, &host);
    b.de_dev = static_cast<float *>(dev);
    b.de_host = static_cast<float *>(host);
    b.tables_uploaded = static_cast<unsigned char *>(host) + bytes;
    return err;
}

int cuda_fail(const void *state, cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return 0;
    ev_log(ciede_log(state), EV_LOG_ERROR, "ciede (CUDA): %s: %s", what, cudaGetErrorString(e));
    return -EIO;
}

// The tables in the worker's context, once per worker: uploaded on its stream and waited for
// (the only host wait outside extract, at a worker's first frame). Workers of one context
// may write them at once: the same bytes.
int tables_to_device(cudaStream_t stream, unsigned char *uploaded)
{
    if (*uploaded)
        return 0;
    std::lock_guard<std::mutex> hold(tables_lock);
    if (!tables_read)
        return -EINVAL;
    cudaError_t e =
        cudaMemcpyToSymbolAsync(libm_sincos_table_dev, tables.sincos, sizeof(tables.sincos), 0,
                                cudaMemcpyHostToDevice, stream);
    if (e == cudaSuccess)
        e = cudaMemcpyToSymbolAsync(libm_atan2_table_dev, tables.atan2, sizeof(tables.atan2), 0,
                                    cudaMemcpyHostToDevice, stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(stream);
    if (e != cudaSuccess)
        return -EIO;
    *uploaded = 1;
    return 0;
}

} // namespace

extern "C" int ev_ciede_cuda_init(const void *state, const EvLog *log)
{
    std::lock_guard<std::mutex> hold(tables_lock);
    if (tables_read)
        return 0;
    char err[512];
    if (ev_glibc_tables_from_libm(&tables, err, sizeof(err)) ||
        ev_libm_selftest(&tables, 20000, err, sizeof(err))) {
        ev_log(log, EV_LOG_ERROR, "%s (the CUDA twin of ciede needs them; use the CPU)", err);
        return -EINVAL;
    }
    tables_read = true;
    return 0;
}

extern "C" EV_LAUNCH_FN(ev_ciede_launch_cuda)
{
    if (!ref)
        return 0;
    const CiedeGeom g = ciede_geom(state);
    Bufs b;
    int err = bufs_of(state, g, ref->gpu, b);
    if (err)
        return err;
    const cudaStream_t stream = static_cast<cudaStream_t>(ev_cuda_stream(ref->gpu));
    err = tables_to_device(stream, b.tables_uploaded);
    if (err) {
        ev_log(ciede_log(state), EV_LOG_ERROR, "ciede (CUDA): cannot upload glibc's tables");
        return err;
    }
    Pics p;
    for (int k = 0; k < 3; k++) {
        p.r[k] = CiedePlane{ ref->dev[k], ref->stride[k] };
        p.d[k] = CiedePlane{ dis->dev[k], dis->stride[k] };
    }
    de00_kernel<<<dim3(ev_blocks((int)g.w, THREADS), g.h), THREADS, 0, stream>>>(g, p, b.de_dev);
    err = cuda_fail(state, cudaGetLastError(), "dE00 kernel");
    if (!err)
        err = cuda_fail(state,
                        cudaMemcpyAsync(b.de_host, b.de_dev, (size_t)g.w * g.h * sizeof(float),
                                        cudaMemcpyDeviceToHost, stream),
                        "dE00 copy");
    return err;
}

extern "C" EV_EXTRACT_FN(ev_ciede_extract_cuda)
{
    const CiedeGeom g = ciede_geom(state);
    Bufs b;
    int err = bufs_of(state, g, ref->gpu, b);
    if (!err)
        err = ev_cuda_finish(ref->gpu, "ciede");
    if (err)
        return err;
    // the reference's sum: every pixel's dE00 into one double, in raster order
    double sum = 0.;
    const size_t n = (size_t)g.w * g.h;
    for (size_t k = 0; k < n; k++) {
        const float de = b.de_host[k];
        if (std::isnan(de)) {
            ev_log(ciede_log(state), EV_LOG_ERROR,
                   "ciede (CUDA): frame %u pixel (%zu, %zu): an argument outside the proven "
                   "range of the device's glibc replicas (glibc_exp_pow.h); use the CPU",
                   frame, k % g.w, k / g.w);
            return -EDOM;
        }
        sum += de;
    }
    const double score = ciede_score(sum, (double)(g.w * g.h));
    return ev_sink_put(sink, "ciede2000", frame, score);
}
