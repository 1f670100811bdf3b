/* The scaler twin's entry points in a build without CUDA: nothing is available. */
#ifndef EV_HAVE_CUDA
#include <errno.h>
#include <stdio.h>

#include "io/scale_twin.h"

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
#endif
