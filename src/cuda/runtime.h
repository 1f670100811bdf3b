/*
 * The CUDA runtime every twin shares, seen from C: a worker (one per scheduler thread) owns a
 * stream, a device copy of the frame slot it is working on (both pictures, uploaded once per
 * frame and read by every twin), and a small device + pinned host area for per-frame results.
 * Slot buffers are pinned host memory, so the upload is one asynchronous copy. The device
 * copy is made at a worker's first upload: a worker fed device pictures only holds none.
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

/* Where an engine's CUDA work runs: the caller's context (a CUcontext, EvSettings.cuda_context)
 * when it gave one, else the primary context of device. */
typedef struct EvCudaPlace {
    int device;
    void *context;
} EvCudaPlace;

/* Bytes of device scratch (and its pinned host mirror) each worker offers the twins. */
#define EV_CUDA_SCRATCH_BYTES (128 * 1024)

/* CUDA devices this process sees: -1 in a build without CUDA, else the count (0 when no device
 * or driver is present). */
int ev_cuda_device_count(void);

/* 0 when device `index` can be used; else a negative code and one line in why. */
int ev_cuda_probe(int index, char *why, size_t why_size);

/* The warm start (warm_start.cu): the driver's initialisation and device's primary context
 * brought up on a thread of its own, for an engine that may use the device, so that the first
 * frame does not wait for them. A primary context it finds inactive gets libavcodec's flags
 * (blocking sync), so that NVDEC decoders can share it whichever opens first. It reports
 * nothing: a failure leaves the work, and its message, to the first frame. start returns NULL
 * when no thread could start (or without CUDA); wait joins it and returns the seconds it took;
 * close waits and drops its reference on the primary context (which ends there unless the
 * runtime or another holder has it). */
typedef struct EvCudaWarm EvCudaWarm;
EvCudaWarm *ev_cuda_warm_start(int device);
double ev_cuda_warm_wait(EvCudaWarm *w);
void ev_cuda_warm_close(EvCudaWarm **w);

/* Make place's context current on the calling thread. *saved (when not NULL) gets the context
 * that was current, for ev_cuda_restore(): the calls made on a caller's thread give it back its
 * context. Returns 0, or a negative code and a log line. */
int ev_cuda_enter(const EvCudaPlace *place, void **saved, const EvLog *log);
void ev_cuda_restore(void *saved);
/* The context current on the calling thread (a CUcontext), or NULL. */
void *ev_cuda_current_context(void);
/* The device ordinal of a caller's context; 0, or a negative code and one line in why. */
int ev_cuda_context_device(void *context, int *device, char *why, size_t why_size);

/* A worker for frames whose slot (ref then dis, packed) is slot_bytes long, in place's context
 * (which it makes current on the calling thread). */
int ev_cuda_worker_open(EvCudaWorker **out, const EvCudaPlace *place, size_t slot_bytes,
                        const EvLog *log);
void ev_cuda_worker_close(EvCudaWorker **w);

/* Upload a slot (host base, slot_bytes) and point ref/dis's dev fields at the device copy;
 * with luma_only, only plane 0 of each picture is copied (the other dev planes are stale). */
int ev_cuda_upload(EvCudaWorker *w, const void *slot, EvPic *ref, EvPic *dis, int luma_only);

/* Lent host pictures (planes anywhere, at any stride): each plane is uploaded packed into the
 * worker's device frame, and ref/dis's dev fields and strides (the pass's copies) describe that
 * packed copy; luma_only as above. */
int ev_cuda_upload_planes(EvCudaWorker *w, EvPic *ref, EvPic *dis, int luma_only);

/* Lent device pictures (their dev fields are the caller's planes): the worker's stream waits
 * for ready (an event recorded on the caller's stream, or NULL) and ref/dis are the worker's. */
int ev_cuda_adopt(EvCudaWorker *w, EvPic *ref, EvPic *dis, void *ready);

/* Record *event (made on the first call) on a caller's stream (a cudaStream_t; NULL: the
 * legacy default stream); ev_cuda_event_free() frees it. */
int ev_cuda_event_record(void **event, void *stream, const EvLog *log);
void ev_cuda_event_free(void *event);

/* Copy the planes of a device picture src (ref and dis of one frame: its dev fields) into
 * dst's planes (dst->dev when to_device, else dst->data), in stream order after the work on
 * `stream`, and wait for the copy. */
int ev_cuda_copy_device_picture(const EvPic *src, EvPic *dst, int to_device, void *stream,
                                const EvLog *log);

/* Device memory in the current context. */
int ev_cuda_device_alloc(size_t bytes, void **out, const EvLog *log);
int ev_cuda_device_zero(void *p, size_t bytes, const EvLog *log);
void ev_cuda_device_free(void *p);

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
