// What the psnr and float_psnr CUDA twins (psnr.cu, float_psnr.cu) share: the squared-error
// functors of psnr_math.h for the device sums, and a picture's worker, stream and scratch.
#ifndef EV_FEATURES_PSNR_TWIN_CUH
#define EV_FEATURES_PSNR_TWIN_CUH

#include "cuda/plane_sums.cuh"
#include "cuda/runtime.h"
#include "features/psnr/psnr_math.h"

namespace
{

struct Sse8 {
    __device__ EvTwoSums operator()(uint32_t r, uint32_t d) const
    {
        return { psnr_sq_err8((uint8_t)r, (uint8_t)d), 0 };
    }
    // four bytes at once: psnr_sq_err8 is |r - d|^2, a byte dot product of |r - d| with itself
    __device__ void word(uint32_t r4, uint32_t d4, uint32_t &a, uint32_t &) const
    {
        const uint32_t e = __vabsdiffu4(r4, d4);
        a = __dp4a(e, e, a);
    }
};

struct Sse16 {
    __device__ EvTwoSums operator()(uint32_t r, uint32_t d) const
    {
        return { psnr_sq_err16((uint16_t)r, (uint16_t)d), 0 };
    }
};

struct FloatSseUnits {
    __device__ EvTwoSums operator()(uint32_t r, uint32_t d) const
    {
        return { psnr_float_sq_err_units(r, d), 0 };
    }
};

// 8 bits: the float square of a difference below 256 is exact, so the units are e * e: the
// 8-bit psnr term.
using FloatSseUnits8 = Sse8;

struct Gpu {
    EvCudaWorker *w;
    cudaStream_t stream;
    void *dev;
    unsigned long long *host;
};

Gpu gpu_of(const EvPic *p)
{
    return { p->gpu, static_cast<cudaStream_t>(ev_cuda_stream(p->gpu)),
             ev_cuda_scratch_device(p->gpu),
             static_cast<unsigned long long *>(ev_cuda_scratch_host(p->gpu)) };
}

// A plane's samples as one run (the slot packs planes: stride == width * bytes).
void add_plane(EvSegments &segs, const EvPic *ref, const EvPic *dis, unsigned p)
{
    ev_add_segment(segs, ref->dev[p], dis->dev[p], (unsigned long long)ref->w[p] * ref->h[p]);
}

} // namespace

#endif
