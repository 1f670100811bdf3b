/*
 * SSIM image plumbing: a luma plane seen as libvmaf's floats, the decimation kernels (float_ssim
 * box, MS-SSIM 9/7 low-pass) and their decimation through a kernel table (ssim_kernels.h).
 * Reference: libvmaf feature/iqa/decimate.c, convolve.c, feature/ssim.c, feature/ms_ssim.c.
 */
#ifndef EV_FEATURES_SSIM_FILTER_H
#define EV_FEATURES_SSIM_FILTER_H

#include <stddef.h>

#include "base/picture.h"
#include "features/ssim/ssim_kernels.h"

/* A luma plane as floats: the luma of pic, converted row by row as libvmaf's picture_copy
 * (offset 0), or a packed w x h float image. */
typedef struct SsimPlane {
    const EvPic *pic;
    const float *img;
    int w, h;
} SsimPlane;

SsimPlane ssim_plane_of_pic(const EvPic *pic);
SsimPlane ssim_plane_of_img(const float *img, int w, int h);

/* Row y: a pointer into the image, or buf (w floats) holding the converted samples. */
const float *ssim_plane_row(const SsimPlane *p, int y, float *buf);

/* Converted rows of a picture plane kept for reuse by overlapping decimation windows: as many
 * rows as the kernel's side, so the rows of one window never share a slot. */
typedef struct SsimRowCache {
    int slots;
    float *rows;          /* slots x w floats */
    int *tag;             /* the plane row held by each slot, -1 when empty */
    const float **window; /* the kernel's rows of one output row (slots pointers) */
} SsimRowCache;

/* Bytes of a cache of `slots` rows of w floats, and its layout in mem (64-byte aligned). */
size_t ssim_row_cache_size(int slots, int w);
void ssim_row_cache_init(SsimRowCache *c, void *mem, int slots, int w);

/* Decimate src into dst (ssim_decimated_size of each side, packed). cache: at least k->n rows
 * of src->w floats (tags are reset here). */
void ssim_decimate(const SsimPlane *src, const SsimKernel *k, const SsimDsp *dsp,
                   SsimRowCache *cache, float *dst);

/* Bump allocation inside scratch: base NULL only measures; every block is 64-byte aligned. */
static inline void *ssim_take(char *base, size_t *offset, size_t bytes)
{
    void *p = base ? base + *offset : NULL;
    *offset += (bytes + 63) & ~(size_t)63;
    return p;
}

#endif
