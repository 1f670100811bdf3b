/* gpu_mem.h in a build without CUDA: every call reports -ENOSYS. An object of its own, apart
 * from twins_none.c, so that a test may link its own gpu_mem.h over host memory instead
 * (tests/decode/upload_frames.c). */
#ifndef EV_HAVE_CUDA
#include <errno.h>
#include <stdio.h>

#include "io/gpu_mem.h"

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

int ev_gpu_copy_rows(unsigned gpu, void *dst, size_t dst_pitch, const void *src, size_t src_pitch,
                     size_t row_bytes, size_t h, void *stream, char *why, size_t why_size)
{
    (void)gpu, (void)dst, (void)dst_pitch, (void)src, (void)src_pitch, (void)row_bytes, (void)h;
    (void)stream;
    return no_cuda(why, why_size);
}
#endif
