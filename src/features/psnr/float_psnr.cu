// CUDA twin of float_psnr: float_psnr's terms in exact units summed on the device
// (psnr_math.h), the rest on the host as in float_psnr.c. Reference: float_psnr.c beside this
// file.
#include "features/psnr/float_psnr.h"
#include "features/psnr/psnr_twin.cuh"

extern "C" void ev_float_psnr_launch_cuda(const void *state, const EvPic *ref, const EvPic *dis)
{
    const Gpu g = gpu_of(ref);
    EvSegments segs = {};
    add_plane(segs, ref, dis, 0);
    if (ref->bpc > 8)
        ev_segment_sums<uint16_t>(segs, FloatSseUnits(), g.dev, g.host, g.stream);
    else
        ev_segment_sums<uint8_t>(segs, FloatSseUnits8(), g.dev, g.host, g.stream);
}

extern "C" EV_EXTRACT_FN(ev_float_psnr_extract_cuda)
{
    const Gpu g = gpu_of(ref);
    ev_float_psnr_launch_cuda(state, ref, dis);
    const int err = ev_cuda_finish(g.w, "float_psnr");
    if (err)
        return err;
    const double noise = ev_float_psnr_noise_from_units(ref, dis, g.host[0]);
    return ev_float_psnr_emit(state, noise, frame, ref, sink);
}
