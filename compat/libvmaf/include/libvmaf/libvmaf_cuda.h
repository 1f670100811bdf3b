/*
 * libvmaf 3.x compatibility (exactvmaf): GPU frames in, libvmaf_cuda's API.
 * Same declarations, struct layouts and enum values as Netflix libvmaf's public
 * libvmaf/libvmaf_cuda.h (3.2.0), plus vmaf_cuda_state_free() of later releases. It needs no
 * CUDA header: a CUcontext travels as a void *.
 *
 * What ffmpeg's libvmaf_cuda filter does with it: vmaf_init(); vmaf_cuda_state_init() with its
 * CUDA device's context; vmaf_cuda_import_state(); vmaf_cuda_preallocate_pictures() with
 * VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE; then, per frame,
 * vmaf_cuda_fetch_preallocated_picture() twice, a device-to-device copy of each frame into a
 * picture, and vmaf_read_pictures(). exactvmaf scores those device pictures with its CUDA twins
 * where they are (exactvmaf/cuda.h's ev_lend_device_pictures), bit for bit its CPU's values.
 */
#ifndef __VMAF_CUDA_H__
#define __VMAF_CUDA_H__

#include "libvmaf/libvmaf.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VmafCudaState VmafCudaState; /* opaque */

typedef struct VmafCudaConfiguration {
    void *cu_ctx; /**< a CUcontext to run in; NULL: the primary context of device 0 */
} VmafCudaConfiguration;

/** A CUDA state for cfg's context (*cu_state is NULL on failure).
 *  @return 0, -EINVAL (no CUDA in this build, no device, or a context that is not valid),
 *          -ENOMEM. */
int vmaf_cuda_state_init(VmafCudaState **cu_state, VmafCudaConfiguration cfg);

/** Score vmaf's pictures on the GPU in the state's context. The state is copied: it may be
 *  freed afterwards. Call it before any feature or model is added to vmaf (exactvmaf opens
 *  its engine again for that context). @return 0, -EINVAL. */
int vmaf_cuda_import_state(VmafContext *vmaf, VmafCudaState *cu_state);

/** Free a state from vmaf_cuda_state_init(); NULL-safe. @return 0. */
int vmaf_cuda_state_free(VmafCudaState *cu_state);

enum VmafCudaPicturePreallocationMethod {
    VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE = 0,
    VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE,
    VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST,
    VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED,
};

typedef struct VmafCudaPictureConfiguration {
    struct {
        unsigned w, h;
        unsigned bpc;
        enum VmafPixelFormat pix_fmt;
    } pic_params;
    enum VmafCudaPicturePreallocationMethod pic_prealloc_method;
} VmafCudaPictureConfiguration;

/** Pictures of cfg's geometry for vmaf_cuda_fetch_preallocated_picture(): in device memory of
 *  the imported context (DEVICE; packed rows, stride[] = w[] times the sample's bytes; their
 *  planes start zeroed), or host pictures as
 *  vmaf_picture_alloc() makes them (HOST, HOST_PINNED). @return 0, -EINVAL, -ENOMEM. */
int vmaf_cuda_preallocate_pictures(VmafContext *vmaf, VmafCudaPictureConfiguration cfg);

/** A preallocated picture to fill (DEVICE: data[] are CUdeviceptr values, stride[] their
 *  pitches) and hand to vmaf_read_pictures(), which takes it over; vmaf_picture_unref() gives
 *  an unread one back. The pool grows while every picture is in flight.
 *  @return 0, -EINVAL (nothing preallocated), -ENOMEM. */
int vmaf_cuda_fetch_preallocated_picture(VmafContext *vmaf, VmafPicture *pic);

#ifdef __cplusplus
}
#endif

#endif /* __VMAF_CUDA_H__ */
