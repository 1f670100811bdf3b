/*
 * SSIM image plumbing: a luma plane seen as libvmaf's floats, the decimation kernels (float_ssim
 * box, MS-SSIM 9/7 low-pass) and their decimation, and the separable Gaussian row passes.
 * Reference: libvmaf feature/iqa/decimate.c, convolve.c, feature/ssim.c, feature/ms_ssim.c.
 */
#ifndef EV_FEATURES_SSIM_FILTER_H
#define EV_FEATURES_SSIM_FILTER_H

#include <stddef.h>

#include "base/picture.h"
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

/* Converted rows of a picture plane kept for reuse by overlapping decimation windows: as many
 * rows as the kernel's side, so the rows of one window never share a slot. */
typedef struct SsimRowCache {
    int slots;
    float *rows;                 /* slots x w floats */
    int *tag;                    /* the plane row held by each slot, -1 when empty */
    const float **window;        /* the kernel's rows of one output row (slots pointers) */
} SsimRowCache;

/* Bytes of a cache of `slots` rows of w floats, and its layout in mem (64-byte aligned). */
size_t ssim_row_cache_size(int slots, int w);
void ssim_row_cache_init(SsimRowCache *c, void *mem, int slots, int w);

/* The row kernels, one table per CPU level (ssim_rows_tmpl.h): decimation outputs [xa, xb) of
 * one row whose taps all lie inside it (rows[v]: the kernel's row v); the Gaussian pass along
 * one row (out[x] = sum_k in[x + k] g[k], x < w - 10) and across 11 rows (out[x] =
 * sum_k rows[k][x] g[k], x < n); the window terms of n windows from their five filter outputs
 * (stat: mu_x, mu_y, E[x^2], E[y^2], E[xy]). */
typedef struct SsimDsp {
    void (*decimate_span)(const float *const *rows, const SsimKernel *k, int xa, int xb,
                          float *dst);
    void (*gauss_row)(const float *in, int w, float *out);
    void (*gauss_column)(const float *const *rows, int n, float *out);
    void (*terms_row)(const float *const *stat, int n, double *l, double *c, float *s);
} SsimDsp;

/* The table of the best level in cpu (EV_CPU_* bits). */
const SsimDsp *ssim_dsp(unsigned cpu);

#define EV_SSIM_DECLARE(isa)                                                                   \
    void ssim_decimate_span_##isa(const float *const *rows, const SsimKernel *k, int xa,       \
                                  int xb, float *dst);                                         \
    void ssim_gauss_row_##isa(const float *in, int w, float *out);                             \
    void ssim_gauss_column_##isa(const float *const *rows, int n, float *out);                 \
    void ssim_terms_row_##isa(const float *const *stat, int n, double *l, double *c, float *s);
EV_SSIM_DECLARE(c)
EV_SSIM_DECLARE(avx2)
EV_SSIM_DECLARE(avx512)

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
