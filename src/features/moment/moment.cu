// CUDA twin of float_moment: each picture's sums of x and x*x in exact integer units
// (moment_math.h) on the device; past 2^53 units the reference loop runs on the host copy.
// Reference: moment.c beside this file.
#include "cuda/plane_sums.cuh"
#include "cuda/runtime.h"
#include "features/moment/moment.h"
#include "features/moment/moment_math.h"

namespace {

// Both sums of one picture: the second argument is unused.
struct MomentUnits {
    __device__ EvTwoSums operator()(uint32_t v, uint32_t) const
    {
        return { moment_first_units(v), moment_square_units(v) };
    }
};

void picture_sums(const EvPic *p, unsigned long long *totals, cudaStream_t stream)
{
    if (p->bpc > 8)
        ev_plane_sums<uint16_t>(p->dev[0], p->dev[0], p->stride[0], p->w[0], p->h[0],
                                MomentUnits(), totals, stream);
    else
        ev_plane_sums<uint8_t>(p->dev[0], p->dev[0], p->stride[0], p->w[0], p->h[0],
                               MomentUnits(), totals, stream);
}

} // namespace

extern "C" int ev_moment_extract_cuda(const void *state, void *scratch, const EvPic *ref,
                                      const EvPic *dis, unsigned frame, EvSink *sink)
{
    (void)state;
    (void)scratch;
    EvCudaWorker *w = ref->gpu;
    auto *stream = static_cast<cudaStream_t>(ev_cuda_stream(w));
    auto *dev = static_cast<unsigned long long *>(ev_cuda_scratch_device(w));
    auto *host = static_cast<unsigned long long *>(ev_cuda_scratch_host(w));
    cudaMemsetAsync(dev, 0, 4 * sizeof(*dev), stream);
    picture_sums(ref, dev, stream);
    picture_sums(dis, dev + 2, stream);
    cudaMemcpyAsync(host, dev, 4 * sizeof(*dev), cudaMemcpyDeviceToHost, stream);
    const int err = ev_cuda_finish(w, "float_moment");
    if (err)
        return err;
    double r[2], d[2];
    ev_moment_sums_from_units(ref, host[0], host[1], r);
    ev_moment_sums_from_units(dis, host[2], host[3], d);
    return ev_moment_emit(ref, r, d, frame, sink);
}
