/* The picture extractors see: three planes of one frame, read-only, sizes as libvmaf's. */
#ifndef EV_BASE_PICTURE_H
#define EV_BASE_PICTURE_H

#include <stddef.h>
#include <stdint.h>

#include "exactvmaf/exactvmaf.h"

typedef struct EvPic {
    unsigned bpc; /* 8..16; bpc > 8 stores uint16 samples */
    EvPixelLayout layout;
    unsigned w[3], h[3];      /* per plane, chroma floor-sized as libvmaf */
    ptrdiff_t stride[3];      /* bytes; the same for the device copy */
    const void *data[3];      /* host samples */
    const void *dev[3];       /* device copy of the samples (CUDA backend), else NULL */
    struct EvCudaWorker *gpu; /* the worker that uploaded dev (CUDA backend), else NULL */
} EvPic;

/* Geometry an extractor is initialised with (the first frame's). */
typedef struct EvPicInfo {
    unsigned width, height, bpc;
    EvPixelLayout layout;
    unsigned cpu; /* EV_CPU_* levels the extractor's kernels may use (core/cpu.h) */
} EvPicInfo;

/* Width and height of plane p (0..2) of a picture of this geometry, as libvmaf sizes them:
 * chroma floor-sized, 0 x 0 for planes 1 and 2 of EV_PIX_400 (the public ev_plane_size). */
static inline void ev_pic_plane_size(const unsigned width, const unsigned height,
                                     const EvPixelLayout layout, const unsigned p,
                                     unsigned *const plane_w, unsigned *const plane_h)
{
    const unsigned ss_x = p && layout != EV_PIX_444;
    const unsigned ss_y = p && layout == EV_PIX_420;
    const unsigned absent = p && layout == EV_PIX_400;
    *plane_w = absent ? 0 : width >> ss_x;
    *plane_h = absent ? 0 : height >> ss_y;
}

/* "4:2:0", "4:2:2", "4:4:4", "4:0:0", or "unknown" (the public ev_layout_name). */
static inline const char *ev_pic_layout_name(const EvPixelLayout layout)
{
    switch (layout) {
    case EV_PIX_420: return "4:2:0";
    case EV_PIX_422: return "4:2:2";
    case EV_PIX_444: return "4:4:4";
    case EV_PIX_400: return "4:0:0";
    }
    return "unknown";
}

static inline const uint8_t *ev_pic_row8(const EvPic *p, unsigned plane, unsigned y)
{
    return (const uint8_t *)p->data[plane] + (ptrdiff_t)y * p->stride[plane];
}

static inline const uint16_t *ev_pic_row16(const EvPic *p, unsigned plane, unsigned y)
{
    return (const uint16_t *)((const uint8_t *)p->data[plane] + (ptrdiff_t)y * p->stride[plane]);
}

#endif
