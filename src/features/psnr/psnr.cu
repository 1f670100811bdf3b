// CUDA twins of psnr and float_psnr: the squared-error sums of psnr_math.h on the device
// (integers, or float_psnr's terms in exact units), the rest on the host as in psnr.c.
// References: psnr.c / float_psnr.c beside this file.
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

// The reference's 8-bit row accumulator is a uint32: rows of more than 66052 samples can wrap
// it, and then only the row-by-row kernel reproduces the sum.
bool rows_can_wrap(const EvPic *p, unsigned planes)
{
    for (unsigned i = 0; i < planes; i++)
        if ((unsigned long long)p->w[i] * 255 * 255 > 0xffffffffull)
            return p->bpc == 8;
    return false;
}

void sse_by_rows(const EvPic *ref, const EvPic *dis, unsigned planes, const Gpu &g)
{
    auto *totals = static_cast<unsigned long long *>(g.dev);
    cudaMemsetAsync(totals, 0, 2 * EV_MAX_SEGMENTS * sizeof(*totals), g.stream);
    for (unsigned p = 0; p < planes; p++)
        if (ref->w[p] && ref->h[p])
            ev_row_sums_u32_kernel<<<ref->h[p], EV_SUM_THREADS, 0, g.stream>>>(
                static_cast<const uint8_t *>(ref->dev[p]),
                static_cast<const uint8_t *>(dis->dev[p]), ref->stride[p], ref->w[p], Sse8(),
                totals + 2 * p);
    cudaMemcpyAsync(g.host, totals, 2 * EV_MAX_SEGMENTS * sizeof(*totals),
                    cudaMemcpyDeviceToHost, g.stream);
}

} // namespace

extern "C" void ev_psnr_launch_cuda(const void *state, const EvPic *ref, const EvPic *dis)
{
    const Gpu g = gpu_of(ref);
    const unsigned planes = ev_psnr_planes(state);
    if (rows_can_wrap(ref, planes)) {
        sse_by_rows(ref, dis, planes, g);
        return;
    }
    EvSegments segs = {};
    for (unsigned p = 0; p < planes; p++)
        add_plane(segs, ref, dis, p);
    if (ref->bpc > 8)
        ev_segment_sums<uint16_t>(segs, Sse16(), g.dev, g.host, g.stream);
    else
        ev_segment_sums<uint8_t>(segs, Sse8(), g.dev, g.host, g.stream);
}

extern "C" int ev_psnr_extract_cuda(const void *state, void *scratch, const EvPic *ref,
                                    const EvPic *dis, unsigned frame, EvSink *sink)
{
    (void)scratch;
    const Gpu g = gpu_of(ref);
    ev_psnr_launch_cuda(state, ref, dis);
    int err = ev_cuda_finish(g.w, "psnr");
    for (unsigned p = 0; p < ev_psnr_planes(state) && !err; p++)
        err = ev_psnr_emit_plane(state, p, g.host[2 * p], ref->w[p] * ref->h[p], frame, sink);
    return err;
}

extern "C" void ev_float_psnr_launch_cuda(const void *state, const EvPic *ref,
                                          const EvPic *dis)
{
    (void)state;
    const Gpu g = gpu_of(ref);
    EvSegments segs = {};
    add_plane(segs, ref, dis, 0);
    if (ref->bpc > 8)
        ev_segment_sums<uint16_t>(segs, FloatSseUnits(), g.dev, g.host, g.stream);
    else
        ev_segment_sums<uint8_t>(segs, FloatSseUnits8(), g.dev, g.host, g.stream);
}

extern "C" int ev_float_psnr_extract_cuda(const void *state, void *scratch, const EvPic *ref,
                                          const EvPic *dis, unsigned frame, EvSink *sink)
{
    (void)scratch;
    const Gpu g = gpu_of(ref);
    ev_float_psnr_launch_cuda(state, ref, dis);
    const int err = ev_cuda_finish(g.w, "float_psnr");
    if (err)
        return err;
    const double noise = ev_float_psnr_noise_from_units(ref, dis, g.host[0]);
    return ev_float_psnr_emit(state, noise, frame, ref, sink);
}
