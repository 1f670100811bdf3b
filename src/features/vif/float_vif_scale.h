/* Float VIF, one scale at a time (libvmaf vif.c compute_vif, vif_tools.c): the Gaussian
 * filters, the statistic of a scale and the filtered, decimated next scale. Used by
 * float_vif.c; its row kernels are float_vif_dsp.h's table. */
#ifndef EV_FEATURES_FLOAT_VIF_SCALE_H
#define EV_FEATURES_FLOAT_VIF_SCALE_H

#include <stddef.h>

#include "features/vif/float_vif_dsp.h"
#include "features/vif/float_vif_kernels.h"

/* 1 if kernelscale is one of the reference's 21 accepted values (within 1e-3). */
int vif_float_kernelscale_valid(float kernelscale);

/* The scale's Gaussian (vif_get_filter): size max(odd ceil((2^(4-s) + 1) x ks), 3), sigma
 * size / 5, taps normalised by their float sum. */
void vif_float_filter_init(VifFloatFilter *f, int scale, float kernelscale);

/* A w x h float image, rows stride floats apart. */
typedef struct VifFloatImage {
    float *data;
    ptrdiff_t stride;
    int w, h;
} VifFloatImage;

/* The bytes and layout of a VifFloatRows (float_vif_kernels.h). */
size_t vif_float_rows_size(int max_w, int max_taps);
void vif_float_rows_init(VifFloatRows *rows, void *mem, int max_w, int max_taps);

/* The scale's totals: per-row float sums of the pixel terms, added row by row into float. */
void vif_float_scale_stat(float *num, float *den, const VifFloatImage *ref,
                          const VifFloatImage *dis, const VifFloatFilter *f,
                          const VifFloatParams *p, const VifFloatDsp *dsp, VifFloatRows *rows);

/* out = in filtered with f, every other row and column kept ((w / 2) x (h / 2)). */
void vif_float_scale_down(VifFloatImage *out, const VifFloatImage *in, const VifFloatFilter *f,
                          const VifFloatDsp *dsp, VifFloatRows *rows);

#endif
