/* GPU availability, whether or not this build has the CUDA backend. */
#include "exactvmaf/exactvmaf.h"

#ifdef EV_HAVE_CUDA
int ev_cuda_device_count(void);
#endif

int ev_gpu_count(void)
{
#ifdef EV_HAVE_CUDA
    return ev_cuda_device_count();
#else
    return -1;
#endif
}
