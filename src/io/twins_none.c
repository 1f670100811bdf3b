/* The io twins' entry points (scale_twin.h, unpack_twin.h) and the device memory of gpu_mem.h
 * in a build without CUDA: nothing is available. */
#ifndef EV_HAVE_CUDA
#include <errno.h>
#include <stdio.h>

#include "io/gpu_mem.h"
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

static int no_cuda(char *why, size_t why_size)
{
    snprintf(why, why_size, "this build has no CUDA backend");
    return -ENOSYS;
}

int ev_gpu_use(unsigned gpu, char *why, size_t why_size)
{
    (void)gpu;
    return no_cuda(why, why_size);
}

int ev_gpu_mem_alloc(unsigned gpu, size_t bytes, void **p, char *why, size_t why_size)
{
    (void)gpu, (void)bytes;
    *p = NULL;
    return no_cuda(why, why_size);
}

void ev_gpu_mem_free(unsigned gpu, void *p)
{
    (void)gpu, (void)p;
}

int ev_gpu_stream_open(unsigned gpu, void **stream, char *why, size_t why_size)
{
    (void)gpu;
    *stream = NULL;
    return no_cuda(why, why_size);
}

void ev_gpu_stream_close(unsigned gpu, void *stream)
{
    (void)gpu, (void)stream;
}

int ev_gpu_stream_wait(unsigned gpu, void *stream, char *why, size_t why_size)
{
    (void)gpu, (void)stream;
    return no_cuda(why, why_size);
}

int ev_gpu_upload_rows(unsigned gpu, void *dst, size_t dst_pitch, const void *src, size_t src_pitch,
                       size_t row_bytes, size_t h, void *stream, char *why, size_t why_size)
{
    (void)gpu, (void)dst, (void)dst_pitch, (void)src, (void)src_pitch, (void)row_bytes, (void)h;
    (void)stream;
    return no_cuda(why, why_size);
}
#endif
