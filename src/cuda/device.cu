// CUDA device discovery for the backend: how many usable devices this process sees.
#include <cuda_runtime.h>

#include "cuda/runtime.h"

int ev_cuda_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError(); // clear the sticky "no device/driver" error
        return 0;
    }
    return n;
}
