/* The CUDA runtime's entry points in a build without CUDA: nothing is available. */
#ifndef EV_HAVE_CUDA
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda/runtime.h"

int ev_cuda_device_count(void)
{
    return -1;
}

int ev_cuda_probe(int index, char *why, size_t why_size)
{
    snprintf(why, why_size, "this build has no CUDA backend");
    return -ENOSYS;
}

EvCudaWarm *ev_cuda_warm_start(int device)
{
    return NULL;
}
double ev_cuda_warm_wait(EvCudaWarm *w)
{
    return 0.0;
}
void ev_cuda_warm_close(EvCudaWarm **w)
{
    if (w)
        *w = NULL;
}

int ev_cuda_enter(const EvCudaPlace *place, void **saved, const EvLog *log)
{
    if (saved)
        *saved = NULL;
    return -ENOSYS;
}
void ev_cuda_restore(void *saved) {}
void *ev_cuda_current_context(void)
{
    return NULL;
}
int ev_cuda_context_device(void *context, int *device, char *why, size_t why_size)
{
    snprintf(why, why_size, "this build has no CUDA backend");
    return -ENOSYS;
}

int ev_cuda_worker_open(EvCudaWorker **out, const EvCudaPlace *place, size_t slot_bytes,
                        const EvLog *log)
{
    *out = NULL;
    return -ENOSYS;
}

void ev_cuda_worker_close(EvCudaWorker **w)
{
    if (w)
        *w = NULL;
}

int ev_cuda_upload(EvCudaWorker *w, const void *slot, EvPic *ref, EvPic *dis, int luma_only)
{
    return -ENOSYS;
}

int ev_cuda_upload_planes(EvCudaWorker *w, EvPic *ref, EvPic *dis, int luma_only)
{
    return -ENOSYS;
}
int ev_cuda_adopt(EvCudaWorker *w, EvPic *ref, EvPic *dis, void *ready)
{
    return -ENOSYS;
}
int ev_cuda_event_record(void **event, void *stream, const EvLog *log)
{
    return -ENOSYS;
}
void ev_cuda_event_free(void *event) {}
int ev_cuda_copy_device_picture(const EvPic *src, EvPic *dst, int to_device, void *stream,
                                const EvLog *log)
{
    return -ENOSYS;
}
int ev_cuda_device_alloc(size_t bytes, void **out, const EvLog *log)
{
    *out = NULL;
    return -ENOSYS;
}
int ev_cuda_device_zero(void *p, size_t bytes, const EvLog *log)
{
    return -ENOSYS;
}
void ev_cuda_device_free(void *p) {}

int ev_cuda_worker_memory(EvCudaWorker *w, const void *owner, size_t dev_bytes, size_t host_bytes,
                          void **dev, void **host)
{
    *dev = *host = NULL;
    return -ENOSYS;
}

void *ev_cuda_scratch_device(EvCudaWorker *w)
{
    return NULL;
}
void *ev_cuda_scratch_host(EvCudaWorker *w)
{
    return NULL;
}
void *ev_cuda_stream(EvCudaWorker *w)
{
    return NULL;
}
int ev_cuda_finish(EvCudaWorker *w, const char *what)
{
    return -ENOSYS;
}
void *ev_cuda_host_alloc(size_t bytes)
{
    return malloc(bytes);
}
void ev_cuda_host_free(void *p)
{
    free(p);
}
#else
typedef int ev_runtime_none_unused; /* ISO C: a translation unit is not empty */
#endif
