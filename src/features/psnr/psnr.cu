// CUDA twin of psnr: the squared-error sums of psnr_math.h on the device (integers), the rest
// on the host as in psnr.c. Reference: psnr.c beside this file.
#include "features/psnr/psnr.h"
#include "features/psnr/psnr_twin.cuh"

namespace
{

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
    cudaMemcpyAsync(g.host, totals, 2 * EV_MAX_SEGMENTS * sizeof(*totals), cudaMemcpyDeviceToHost,
                    g.stream);
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

extern "C" EV_EXTRACT_FN(ev_psnr_extract_cuda)
{
    const Gpu g = gpu_of(ref);
    ev_psnr_launch_cuda(state, ref, dis);
    int err = ev_cuda_finish(g.w, "psnr");
    for (unsigned p = 0; p < ev_psnr_planes(state) && !err; p++)
        err = ev_psnr_emit_plane(state, p, g.host[2 * p], ref->w[p] * ref->h[p], frame, sink);
    return err;
}
