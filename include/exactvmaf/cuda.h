/*
 * exactvmaf/cuda.h: pictures already in GPU memory (NVDEC's frames, ffmpeg's CUDA frames, torch
 * or cupy tensors), scored by the CUDA twins where they are, with no copy through the host.
 *
 * A device picture is an EvPicture whose data[] are device addresses (CUdeviceptr values) in
 * the context's CUDA context: the one given in EvSettings.cuda_context (a CUcontext of the CUDA
 * driver API, e.g. the one of an ffmpeg CUDA device), or, when that is NULL, the primary context
 * of EvSettings.gpu_index (the CUDA runtime's, torch's and cupy's). The samples are those of
 * exactvmaf.h: one byte at bitdepth 8, a little-endian LSB-aligned uint16 at 9..16 (so a
 * 16-bit sample's address and the strides are even).
 *
 * The library makes its context current on the calling thread for the calls below and gives the
 * thread back the context it had. Every call returns 0 or a negative errno value, as in
 * exactvmaf.h, and -ENOSYS in a build without CUDA.
 */
#ifndef EXACTVMAF_CUDA_H
#define EXACTVMAF_CUDA_H

#include "exactvmaf/exactvmaf.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Push a pair of device pictures as the next frame (the rules of ev_send_pictures() and of
 * ev_lend_pictures() apply). stream (a CUstream / cudaStream_t of the context's CUDA context,
 * or NULL for none) is the stream on which the caller wrote the planes: the library's reads
 * are ordered after the work queued on it by the time of the call, so the caller need not
 * wait for its writes. The planes are read in place by the twins when their rows are packed
 * (every stride is the plane's width times the sample's bytes, as in a contiguous tensor);
 * else they are copied on the device into packed planes (and released before the call
 * returns). On the CPU backend (EV_BACKEND_CPU, or AUTO choosing it) the pair is copied to the
 * host and released before the call returns: the same bits, more slowly.
 * release(user) is called exactly once, as in ev_lend_pictures(). With release NULL the pair
 * is copied on the device before the call returns (a device-to-device copy: the caller may
 * reuse its planes at once).
 * @return as ev_send_pictures(); -EINVAL also for a picture that is not device memory of the
 *         context, or whose 16-bit samples are not 2-byte aligned.
 */
EV_API int ev_lend_device_pictures(EvContext *c, const EvPicture *ref, const EvPicture *dis,
                                   void *stream, EvReleaseCallback release, void *user);

/**
 * Device memory in the context's CUDA context (its first call fixes nothing: pictures may be
 * allocated before the first frame): bytes of it, uninitialised, in *out. A pool for
 * ev_lend_device_pictures() (libvmaf_cuda's preallocated pictures are made with it).
 * @return 0, -ENOMEM, -ENODEV (no usable device), -ENOSYS.
 */
EV_API int ev_device_alloc(EvContext *c, size_t bytes, void **out);

/** Set bytes of device memory from ev_device_alloc() to zero, and wait for it. */
EV_API int ev_device_zero(EvContext *c, void *p, size_t bytes);

/** Free memory from ev_device_alloc(); NULL-safe. Only once no lent pair reads it. */
EV_API void ev_device_free(EvContext *c, void *p);

#ifdef __cplusplus
}
#endif

#endif /* EXACTVMAF_CUDA_H */
