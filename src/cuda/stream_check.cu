// Adverse device conditions for the stream-ordering test (stream_check.h).
#include <cerrno>

#include <cuda_runtime.h>

#include "cuda/stream_check.h"

namespace
{

__global__ void spin_kernel(long long cycles)
{
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
}

} // namespace

extern "C" int ev_cuda_test_adverse(unsigned mib, unsigned ms)
{
    void *dirty = nullptr;
    const size_t bytes = static_cast<size_t>(mib) << 20;
    if (cudaMalloc(&dirty, bytes) != cudaSuccess)
        return -ENOMEM;
    cudaError_t e = cudaMemset(dirty, 0xff, bytes);
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    cudaFree(dirty);
    int rate_khz = 0;
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&rate_khz, cudaDevAttrClockRate, 0);
    if (e != cudaSuccess)
        return -EIO;
    spin_kernel<<<1, 1, 0, 0>>>(static_cast<long long>(rate_khz) * ms); // legacy stream
    return cudaGetLastError() == cudaSuccess ? 0 : -EIO;
}

extern "C" int ev_cuda_test_settle(void)
{
    return cudaStreamSynchronize(0) == cudaSuccess ? 0 : -EIO;
}
