/* Float VIF, one scale at a time (libvmaf vif.c compute_vif, vif_tools.c): the Gaussian
 * filters, the statistic of a scale and the filtered, decimated next scale. Used by
 * float_vif.c. */
#ifndef EV_FEATURES_FLOAT_VIF_SCALE_H
#define EV_FEATURES_FLOAT_VIF_SCALE_H

#include <stddef.h>

#include "features/vif/vif_float_math.h"

enum { VIF_FLOAT_MAX_TAPS = 128, VIF_FLOAT_LINES = 5 };

/* One scale's filter: the reference computes it at run time from exp() (host only). */
typedef struct VifFloatFilter {
    int n;                          /* taps, odd */
    float tap[VIF_FLOAT_MAX_TAPS];
} VifFloatFilter;

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

/* Per-worker rows for images up to max_w wide and filters up to max_taps. */
typedef struct VifFloatRows {
    float *line[5];     /* vertical results mu1, mu2, xx, yy, xy, with radius margins */
    float *out[5];      /* horizontal results */
} VifFloatRows;

size_t vif_float_rows_size(int max_w, int max_taps);
void vif_float_rows_init(VifFloatRows *rows, void *mem, int max_w, int max_taps);

/* The row kernels, one table per CPU level (float_vif_rows_tmpl.h): the statistic of one row
 * from its n input rows (mirrored), its pixel terms summed in column order; one row of the
 * next scale (w_in / 2 outputs) from the n input rows around 2i, line: a rows->line row. */
typedef struct VifFloatDsp {
    void (*stat_row)(float *num, float *den, const float *const *ref, const float *const *dis,
                     int w, const VifFloatFilter *f, const VifFloatParams *p,
                     const VifFloatRows *rows);
    void (*down_row)(float *out, const float *const *rows, int w_in, const VifFloatFilter *f,
                     float *line);
} VifFloatDsp;

void vif_float_dsp_init(VifFloatDsp *dsp, unsigned cpu);

#define EV_VIF_FLOAT_DECLARE(isa)                                                              \
    void vif_float_stat_row_##isa(float *num, float *den, const float *const *ref,             \
                                  const float *const *dis, int w, const VifFloatFilter *f,     \
                                  const VifFloatParams *p, const VifFloatRows *rows);          \
    void vif_float_down_row_##isa(float *out, const float *const *rows, int w_in,              \
                                  const VifFloatFilter *f, float *line);
EV_VIF_FLOAT_DECLARE(c)
EV_VIF_FLOAT_DECLARE(avx2)
EV_VIF_FLOAT_DECLARE(avx512)

/* The scale's totals: per-row float sums of the pixel terms, added row by row into float. */
void vif_float_scale_stat(float *num, float *den, const VifFloatImage *ref,
                          const VifFloatImage *dis, const VifFloatFilter *f,
                          const VifFloatParams *p, const VifFloatDsp *dsp, VifFloatRows *rows);

/* out = in filtered with f, every other row and column kept ((w / 2) x (h / 2)). */
void vif_float_scale_down(VifFloatImage *out, const VifFloatImage *in, const VifFloatFilter *f,
                          const VifFloatDsp *dsp, VifFloatRows *rows);

#endif
