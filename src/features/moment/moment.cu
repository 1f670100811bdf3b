// CUDA twin of float_moment: each picture's sums of x and x*x in exact integer units
// (moment_math.h) on the device; past 2^53 units the reference loop runs on the host copy.
// Reference: moment.c beside this file.
#include "cuda/plane_sums.cuh"
#include "cuda/runtime.h"
#include "features/moment/moment.h"
#include "features/moment/moment_math.h"

namespace
{

// Both sums of one sample (a single-picture term: the second argument is not read).
struct MomentUnits {
    __device__ EvTwoSums operator()(uint32_t v, uint32_t) const
    {
        return { moment_first_units(v), moment_square_units(v) };
    }
};

// 8 bits: x * x of a sample below 256 is exact, so the units are v * v (16 of them fit 32
// bits, and so do 16 samples, so one 16-byte vector sums in 32 bits).
struct MomentUnits8 {
    __device__ EvTwoSums operator()(uint32_t v, uint32_t) const
    {
        return { moment_first_units(v), moment_square_units_small(v) };
    }
    // four bytes at once: the byte sum and the byte dot product with itself
    __device__ void word(uint32_t v4, uint32_t, uint32_t &a, uint32_t &b) const
    {
        a = __dp4a(v4, 0x01010101u, a);
        b = __dp4a(v4, v4, b);
    }
};

} // namespace

extern "C" void ev_moment_launch_cuda(const void *state, const EvPic *ref, const EvPic *dis)
{
    EvCudaWorker *w = ref->gpu;
    auto stream = static_cast<cudaStream_t>(ev_cuda_stream(w));
    auto *host = static_cast<unsigned long long *>(ev_cuda_scratch_host(w));
    const unsigned long long n = (unsigned long long)ref->w[0] * ref->h[0];
    EvSegments segs = {};
    ev_add_segment(segs, ref->dev[0], ref->dev[0], n);
    ev_add_segment(segs, dis->dev[0], dis->dev[0], n);
    if (ref->bpc > 8)
        ev_segment_sums<uint16_t, true>(segs, MomentUnits(), ev_cuda_scratch_device(w), host,
                                        stream);
    else
        ev_segment_sums<uint8_t, true>(segs, MomentUnits8(), ev_cuda_scratch_device(w), host,
                                       stream);
}

extern "C" EV_EXTRACT_FN(ev_moment_extract_cuda)
{
    ev_moment_launch_cuda(state, ref, dis);
    const int err = ev_cuda_finish(ref->gpu, "float_moment");
    if (err)
        return err;
    const unsigned long long *host =
        static_cast<unsigned long long *>(ev_cuda_scratch_host(ref->gpu));
    double r[2], d[2];
    ev_moment_sums_from_units(ref, host[0], host[1], r);
    ev_moment_sums_from_units(dis, host[2], host[3], d);
    return ev_moment_emit(ref, r, d, frame, sink);
}
