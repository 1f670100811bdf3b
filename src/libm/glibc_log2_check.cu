// ev_glibc_log2 (libm/glibc_log2.h) on the device, for tests/twins/glibc_log2_device_test.c.
#include <cerrno>
#include <cstring>

#include <cuda_runtime.h>

#include "libm/glibc_log2.h"
#include "libm/glibc_log2_check.h"

namespace
{

__global__ void floats_kernel(uint32_t first, uint32_t n, double *out)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const uint32_t u = first + i;
    float f;
    memcpy(&f, &u, sizeof(f));
    out[i] = ev_glibc_log2((double)f);
}

__global__ void doubles_kernel(const double *arg, size_t n, double *out)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = ev_glibc_log2(arg[i]);
}

int code(cudaError_t e)
{
    return e == cudaSuccess ? 0 : e == cudaErrorMemoryAllocation ? -ENOMEM : -EIO;
}

} // namespace

extern "C" int ev_cuda_glibc_log2_floats(uint32_t first, uint32_t n, double *out)
{
    double *dev = nullptr;
    cudaError_t e = cudaMalloc(&dev, (size_t)n * sizeof(double) + 8);
    if (e == cudaSuccess) {
        floats_kernel<<<(n + 255) / 256, 256>>>(first, n, dev);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cudaMemcpy(out, dev, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost);
    cudaFree(dev);
    return code(e);
}

extern "C" int ev_cuda_glibc_log2_doubles(const double *arg, size_t n, double *out)
{
    double *dev = nullptr;
    cudaError_t e = cudaMalloc(&dev, 2 * n * sizeof(double) + 8);
    if (e == cudaSuccess)
        e = cudaMemcpy(dev, arg, n * sizeof(double), cudaMemcpyHostToDevice);
    if (e == cudaSuccess) {
        doubles_kernel<<<(unsigned)((n + 255) / 256), 256>>>(dev, n, dev + n);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cudaMemcpy(out, dev + n, n * sizeof(double), cudaMemcpyDeviceToHost);
    cudaFree(dev);
    return code(e);
}
