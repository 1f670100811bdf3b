/*
 * The scaler's CUDA twin: scale_ref.c's two passes (scale_ref.h) on planes in device memory,
 * with the per-sample arithmetic of scale_math.h, so its bits are the reference's. The filters
 * are made on the host (scale_filter.c) and uploaded once per plan. For frames that stay on
 * the device (NVDEC's, converted to the reference's size there); the check against the
 * reference is tests/decode/scale_twin_test.c (label gpu). Without CUDA every call reports
 * -ENOSYS.
 */
#ifndef EV_IO_SCALE_TWIN_H
#define EV_IO_SCALE_TWIN_H

#include <stddef.h>

#include "io/scale_ref.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct EvScaleTwin EvScaleTwin;

/* Upload plan's filters (in the current CUDA context) and size the intermediate rows. The
 * plan may be freed afterwards. @return 0, or a negative code with one line in why. */
int ev_scale_twin_open(EvScaleTwin **out, const EvScalePlan *plan, char *why, size_t why_size);

/* Queue the scaling of plane `plane` (0 luma, 1 and 2 chroma) from src to dst, both device
 * memory (strides in bytes), on stream (a cudaStream_t; NULL: the legacy default stream).
 * Planes of one twin run one after another on one stream: they share the intermediate rows.
 * @return 0, or a negative code with one line in why (a launch error). */
int ev_scale_twin_plane(EvScaleTwin *t, int plane, const void *src, ptrdiff_t src_stride, void *dst,
                        ptrdiff_t dst_stride, void *stream, char *why, size_t why_size);

void ev_scale_twin_close(EvScaleTwin **t);

#ifdef __cplusplus
}
#endif

#endif
