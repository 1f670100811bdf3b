/* gpu_mem.h on the CUDA runtime (statically linked, as the engine's: one primary context per
 * device for both). */
#include <cuda_runtime.h>
#include <errno.h>
#include <stdio.h>

extern "C" {
#include "io/gpu_mem.h"
}

static int gpu_failed(cudaError_t e, const char *what, char *why, size_t why_size)
{
    if (e == cudaSuccess)
        return 0;
    snprintf(why, why_size, "GPU frames: %s: %s", what, cudaGetErrorString(e));
    if (e == cudaErrorMemoryAllocation)
        return -ENOMEM;
    if (e == cudaErrorNoDevice || e == cudaErrorInvalidDevice || e == cudaErrorInsufficientDriver)
        return -ENODEV;
    return -EIO;
}

static int use(unsigned gpu, char *why, size_t why_size)
{
    return gpu_failed(cudaSetDevice((int)gpu), "select the device", why, why_size);
}

extern "C" int ev_gpu_use(unsigned gpu, char *why, size_t why_size)
{
    return use(gpu, why, why_size);
}

extern "C" int ev_gpu_mem_alloc(unsigned gpu, size_t bytes, void **p, char *why, size_t why_size)
{
    *p = NULL;
    const int r = use(gpu, why, why_size);
    return r ? r : gpu_failed(cudaMalloc(p, bytes), "allocate frames", why, why_size);
}

extern "C" void ev_gpu_mem_free(unsigned gpu, void *p)
{
    if (p && cudaSetDevice((int)gpu) == cudaSuccess)
        cudaFree(p);
}

extern "C" int ev_gpu_stream_open(unsigned gpu, void **stream, char *why, size_t why_size)
{
    *stream = NULL;
    cudaStream_t s = NULL;
    int r = use(gpu, why, why_size);
    if (!r)
        r = gpu_failed(cudaStreamCreate(&s), "create a stream", why, why_size);
    if (!r)
        *stream = s;
    return r;
}

extern "C" void ev_gpu_stream_close(unsigned gpu, void *stream)
{
    if (stream && cudaSetDevice((int)gpu) == cudaSuccess)
        cudaStreamDestroy((cudaStream_t)stream);
}

extern "C" int ev_gpu_stream_wait(unsigned gpu, void *stream, char *why, size_t why_size)
{
    const int r = use(gpu, why, why_size);
    return r ? r
             : gpu_failed(cudaStreamSynchronize((cudaStream_t)stream), "convert a frame", why,
                          why_size);
}

extern "C" int ev_gpu_upload_rows(unsigned gpu, void *dst, size_t dst_pitch, const void *src,
                                  size_t src_pitch, size_t row_bytes, size_t h, void *stream,
                                  char *why, size_t why_size)
{
    const int r = use(gpu, why, why_size);
    return r ? r
             : gpu_failed(cudaMemcpy2DAsync(dst, dst_pitch, src, src_pitch, row_bytes, h,
                                            cudaMemcpyHostToDevice, (cudaStream_t)stream),
                          "upload a frame", why, why_size);
}

extern "C" int ev_gpu_copy_rows(unsigned gpu, void *dst, size_t dst_pitch, const void *src,
                                size_t src_pitch, size_t row_bytes, size_t h, void *stream,
                                char *why, size_t why_size)
{
    const int r = use(gpu, why, why_size);
    return r ? r
             : gpu_failed(cudaMemcpy2DAsync(dst, dst_pitch, src, src_pitch, row_bytes, h,
                                            cudaMemcpyDeviceToDevice, (cudaStream_t)stream),
                          "copy a frame", why, why_size);
}
