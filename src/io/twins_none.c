/* The io twins' entry points (scale_twin.h, unpack_twin.h) in a build without CUDA: nothing is
 * available (gpu_mem_none.c: the device memory). */
#ifndef EV_HAVE_CUDA
#include <errno.h>
#include <stdio.h>

#include "io/scale_twin.h"
#include "io/unpack_twin.h"

int ev_scale_twin_open(EvScaleTwin **out, const EvScalePlan *plan, char *why, size_t why_size)
{
    (void)plan;
    *out = NULL;
    snprintf(why, why_size, "this build has no CUDA backend");
    return -ENOSYS;
}

int ev_scale_twin_plane(EvScaleTwin *t, int plane, const void *src, ptrdiff_t src_stride, void *dst,
                        ptrdiff_t dst_stride, void *stream, char *why, size_t why_size)
{
    (void)t, (void)plane, (void)src, (void)src_stride, (void)dst, (void)dst_stride, (void)stream;
    snprintf(why, why_size, "this build has no CUDA backend");
    return -ENOSYS;
}

void ev_scale_twin_close(EvScaleTwin **t)
{
    *t = NULL;
}

int ev_unpack_twin(const EvUnpackFrame *in, unsigned width, unsigned height, unsigned chroma_w,
                   unsigned chroma_h, unsigned bytes, unsigned shift, void *const out[3],
                   const ptrdiff_t out_pitch[3], void *stream, char *why, size_t why_size)
{
    (void)in, (void)width, (void)height, (void)chroma_w, (void)chroma_h, (void)bytes, (void)shift;
    (void)out, (void)out_pitch, (void)stream;
    snprintf(why, why_size, "this build has no CUDA backend");
    return -ENOSYS;
}
#endif
