/*
 * SSIM image plumbing: a luma plane seen as libvmaf's floats, the decimation kernels (float_ssim
 * box, MS-SSIM 9/7 low-pass) and their decimation, and the separable Gaussian row passes.
 * Reference: libvmaf feature/iqa/decimate.c, convolve.c, feature/ssim.c, feature/ms_ssim.c.
 */
#ifndef EV_FEATURES_SSIM_FILTER_H
#define EV_FEATURES_SSIM_FILTER_H

#include <stddef.h>

#include "core/picture.h"
#include "features/ssim/ssim_math.h"

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

/* Converted rows of a picture plane kept for reuse by overlapping decimation windows. */
#define SSIM_CACHE_ROWS 16
typedef struct SsimRowCache {
    float *rows;                 /* SSIM_CACHE_ROWS x w floats */
    int tag[SSIM_CACHE_ROWS];    /* the plane row held by each slot, -1 when empty */
} SsimRowCache;

/* A square decimation kernel: n x n float taps, row-major, offsets first .. first + n - 1. */
typedef struct SsimKernel {
    int n, first, factor;
    float coef[SSIM_MAX_FACTOR * SSIM_MAX_FACTOR];
} SsimKernel;

void ssim_kernel_box(SsimKernel *k, int factor);  /* float_ssim scale > 1 */
void ssim_kernel_lpf(SsimKernel *k);              /* MS-SSIM, factor 2 */

/* Decimate src into dst (ssim_decimated_size of each side, packed). cache: rows of src->w
 * floats, used when src is a picture (tags are reset here). */
void ssim_decimate(const SsimPlane *src, const SsimKernel *k, SsimRowCache *cache, float *dst);

/* Gaussian pass over one row: out[x] = sum_k in[x + k] g[k] for x < w - 10. */
void ssim_gauss_row(const float *in, int w, float *out);

/* Gaussian pass across 11 rows: out[x] = sum_k rows[k][x] g[k] for x < n. */
void ssim_gauss_column(const float *const *rows, int n, float *out);

/* Bump allocation inside scratch: base NULL only measures; every block is 64-byte aligned. */
static inline void *ssim_take(char *base, size_t *offset, size_t bytes)
{
    void *p = base ? base + *offset : NULL;
    *offset += (bytes + 63) & ~(size_t)63;
    return p;
}

#endif
