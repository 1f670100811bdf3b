/* Float VIF row kernels: the filter and row types, the table type and every kernel of every
 * level. Header only (docs/FAMILY.md). */
#ifndef EV_FEATURES_FLOAT_VIF_KERNELS_H
#define EV_FEATURES_FLOAT_VIF_KERNELS_H

#include "features/vif/vif_float_math.h"

enum { VIF_FLOAT_MAX_TAPS = 128, VIF_FLOAT_LINES = 5 };

/* One scale's filter: the reference computes it at run time from exp() (host only). */
typedef struct VifFloatFilter {
    int n; /* taps, odd */
    float tap[VIF_FLOAT_MAX_TAPS];
} VifFloatFilter;

/* Per-worker rows for images up to max_w wide and filters up to max_taps (float_vif_scale.h
 * sizes and lays them out). */
typedef struct VifFloatRows {
    float *line[5]; /* vertical results mu1, mu2, xx, yy, xy, with radius margins */
    float *out[5];  /* horizontal results */
} VifFloatRows;

/* The row kernels, one table per CPU level (float_vif_dsp.c), all from float_vif_rows_tmpl.h
 * (float_vif_rows.c: the C reference; float_vif_avx2.c, float_vif_avx512.c): the statistic of
 * one row from its n input rows (mirrored), its pixel terms summed in column order; one row of
 * the next scale (w_in / 2 outputs) from the n input rows around 2i, line: a rows->line row. */
typedef struct VifFloatDsp {
    void (*stat_row)(float *num, float *den, const float *const *ref, const float *const *dis,
                     int w, const VifFloatFilter *f, const VifFloatParams *p,
                     const VifFloatRows *rows);
    void (*down_row)(float *out, const float *const *rows, int w_in, const VifFloatFilter *f,
                     float *line);
} VifFloatDsp;

#define EV_VIF_FLOAT_DECLARE(isa)                                                                  \
    void vif_float_stat_row_##isa(float *num, float *den, const float *const *ref,                 \
                                  const float *const *dis, int w, const VifFloatFilter *f,         \
                                  const VifFloatParams *p, const VifFloatRows *rows);              \
    void vif_float_down_row_##isa(float *out, const float *const *rows, int w_in,                  \
                                  const VifFloatFilter *f, float *line);
EV_VIF_FLOAT_DECLARE(c)
EV_VIF_FLOAT_DECLARE(avx2)
EV_VIF_FLOAT_DECLARE(avx512)

#endif
