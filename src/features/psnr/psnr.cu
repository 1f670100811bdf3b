// CUDA twins of psnr and float_psnr: the squared-error sums of psnr_math.h on the device
// (integers, or float_psnr's terms in exact units), the rest on the host as in psnr.c.
// References: psnr.c / float_psnr.c beside this file.
#include <cerrno>

#include "cuda/plane_sums.cuh"
#include "cuda/runtime.h"
#include "features/psnr/psnr.h"
#include "features/psnr/psnr_math.h"

namespace {

struct Sse8 {
    __device__ EvTwoSums operator()(uint32_t r, uint32_t d) const
    {
        return { psnr_sq_err8((uint8_t)r, (uint8_t)d), 0 };
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

// Launch the sum of plane p into totals[2p], totals[2p+1].
template <typename Term16, typename Term8, bool ROW_U32_8BIT>
void plane_sum(const EvPic *ref, const EvPic *dis, unsigned p, unsigned long long *totals,
               cudaStream_t stream)
{
    if (ref->bpc > 8)
        ev_plane_sums<uint16_t>(ref->dev[p], dis->dev[p], ref->stride[p], ref->w[p], ref->h[p],
                                Term16(), totals, stream);
    else
        ev_plane_sums<uint8_t, ROW_U32_8BIT>(ref->dev[p], dis->dev[p], ref->stride[p],
                                             ref->w[p], ref->h[p], Term8(), totals, stream);
}

} // namespace

extern "C" int ev_psnr_extract_cuda(const void *state, void *scratch, const EvPic *ref,
                                    const EvPic *dis, unsigned frame, EvSink *sink)
{
    (void)scratch;
    EvCudaWorker *w = ref->gpu;
    auto *stream = static_cast<cudaStream_t>(ev_cuda_stream(w));
    auto *dev = static_cast<unsigned long long *>(ev_cuda_scratch_device(w));
    auto *host = static_cast<unsigned long long *>(ev_cuda_scratch_host(w));
    const unsigned planes = ev_psnr_planes(state);
    cudaMemsetAsync(dev, 0, 6 * sizeof(*dev), stream);
    for (unsigned p = 0; p < planes; p++)
        plane_sum<Sse16, Sse8, true>(ref, dis, p, dev + 2 * p, stream);
    cudaMemcpyAsync(host, dev, 6 * sizeof(*dev), cudaMemcpyDeviceToHost, stream);
    int err = ev_cuda_finish(w, "psnr");
    for (unsigned p = 0; p < planes && !err; p++)
        err = ev_psnr_emit_plane(state, p, host[2 * p], ref->w[p] * ref->h[p], frame, sink);
    return err;
}

extern "C" int ev_float_psnr_extract_cuda(const void *state, void *scratch, const EvPic *ref,
                                          const EvPic *dis, unsigned frame, EvSink *sink)
{
    (void)scratch;
    EvCudaWorker *w = ref->gpu;
    auto *stream = static_cast<cudaStream_t>(ev_cuda_stream(w));
    auto *dev = static_cast<unsigned long long *>(ev_cuda_scratch_device(w));
    auto *host = static_cast<unsigned long long *>(ev_cuda_scratch_host(w));
    cudaMemsetAsync(dev, 0, 2 * sizeof(*dev), stream);
    plane_sum<FloatSseUnits, FloatSseUnits, false>(ref, dis, 0, dev, stream);
    cudaMemcpyAsync(host, dev, 2 * sizeof(*dev), cudaMemcpyDeviceToHost, stream);
    const int err = ev_cuda_finish(w, "float_psnr");
    if (err)
        return err;
    const double noise = ev_float_psnr_noise_from_units(ref, dis, host[0]);
    return ev_float_psnr_emit(state, noise, frame, ref, sink);
}
