/*
 * The CUDA runtime every twin shares, seen from C: a worker (one per scheduler thread) owns a
 * stream, a device copy of the frame slot it is working on (both pictures, uploaded once per
 * frame and read by every twin), and a small device + pinned host area for per-frame results.
 * Slot buffers are pinned host memory, so the upload is one asynchronous copy.
 * Without CUDA in the build every call reports -ENOSYS.
 */
#ifndef EV_CUDA_RUNTIME_H
#define EV_CUDA_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "base/log.h"
#include "base/picture.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct EvCudaWorker EvCudaWorker;

/* Bytes of device scratch (and its pinned host mirror) each worker offers the twins. */
#define EV_CUDA_SCRATCH_BYTES (128 * 1024)

/* CUDA devices this process sees: -1 in a build without CUDA, else the count (0 when no device
 * or driver is present). */
int ev_cuda_device_count(void);

/* 0 when device `index` can be used; else a negative code and one line in why. */
int ev_cuda_probe(int index, char *why, size_t why_size);

/* A worker for frames whose slot (ref then dis, packed) is slot_bytes long. */
int ev_cuda_worker_open(EvCudaWorker **out, int device, size_t slot_bytes, const EvLog *log);
void ev_cuda_worker_close(EvCudaWorker **w);

/* Upload a slot (host base, slot_bytes) and point ref/dis's dev fields at the device copy;
 * with luma_only, only plane 0 of each picture is copied (the other dev planes are stale). */
int ev_cuda_upload(EvCudaWorker *w, const void *slot, EvPic *ref, EvPic *dis, int luma_only);

/* Memory a twin keeps on a worker from frame to frame: dev_bytes of device memory and
 * host_bytes of pinned host memory (zeroed when allocated, so a twin can keep a "set up" flag
 * there), allocated on the first call for `owner` (the twin's state) and returned as they are
 * on later calls; freed with the worker. Returns -ENOMEM
 * (logged) when it cannot be had, or when a later call asks for more. */
int ev_cuda_worker_memory(EvCudaWorker *w, const void *owner, size_t dev_bytes, size_t host_bytes,
                          void **dev, void **host);

/* The worker's result areas and stream (a cudaStream_t) for twins. The device area starts
 * zeroed, and twins leave it as they found it (plane_sums.cuh re-arms its counter). */
void *ev_cuda_scratch_device(EvCudaWorker *w);
void *ev_cuda_scratch_host(EvCudaWorker *w);
void *ev_cuda_stream(EvCudaWorker *w);
/* Wait for the worker's stream; maps a CUDA error to a code and a log line naming what. */
int ev_cuda_finish(EvCudaWorker *w, const char *what);

/* Pinned host memory for frame slots (falls back to malloc without CUDA). */
void *ev_cuda_host_alloc(size_t bytes);
void ev_cuda_host_free(void *p);

#ifdef __cplusplus
}
#endif

#endif
