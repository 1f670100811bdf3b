/*
 * The few CUDA runtime calls the readers need to keep frames in device memory (device_ring.c,
 * decode.c's NVDEC path): memory and a stream of the primary context of one device, the one
 * libavcodec's CUDA device is opened on (primary_ctx=1) and the one the engine uses when no
 * EvSettings.cuda_context is given. gpu_mem.cu; without CUDA every call reports -ENOSYS
 * (gpu_mem_none.c). Each call makes the device current on the calling thread first.
 */
#ifndef EV_IO_GPU_MEM_H
#define EV_IO_GPU_MEM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Make gpu's primary context current on the calling thread (before launching the io twins). */
int ev_gpu_use(unsigned gpu, char *why, size_t why_size);

/* bytes of device memory of gpu in *p. @return 0, -ENOMEM, -ENODEV, or -ENOSYS; why says. */
int ev_gpu_mem_alloc(unsigned gpu, size_t bytes, void **p, char *why, size_t why_size);
/* NULL-safe. */
void ev_gpu_mem_free(unsigned gpu, void *p);

/* A stream of gpu's primary context, ordered after the legacy default stream's work (libavcodec's
 * NVDEC copies its frames there): a blocking stream. */
int ev_gpu_stream_open(unsigned gpu, void **stream, char *why, size_t why_size);
void ev_gpu_stream_close(unsigned gpu, void *stream);
/* Wait for the work queued on stream. */
int ev_gpu_stream_wait(unsigned gpu, void *stream, char *why, size_t why_size);

/* Queue the copy of h rows of row_bytes from host src (pitch src_pitch) to device dst. */
int ev_gpu_upload_rows(unsigned gpu, void *dst, size_t dst_pitch, const void *src, size_t src_pitch,
                       size_t row_bytes, size_t h, void *stream, char *why, size_t why_size);

/* Queue the copy of h rows of row_bytes from device src (pitch src_pitch) to device dst. */
int ev_gpu_copy_rows(unsigned gpu, void *dst, size_t dst_pitch, const void *src, size_t src_pitch,
                     size_t row_bytes, size_t h, void *stream, char *why, size_t why_size);

#ifdef __cplusplus
}
#endif

#endif
