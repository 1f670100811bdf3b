/* Integer VIF, one scale at a time (libvmaf integer_vif.c): the statistic of a scale and the
 * filtered, decimated image of the next one. Used by vif.c. */
#ifndef EV_FEATURES_VIF_SCALE_H
#define EV_FEATURES_VIF_SCALE_H

#include <stddef.h>
#include <stdint.h>

#include "features/vif/vif_math.h"

/* One scale's luma, read-only: uint8 samples (8-bit input at scale 0) or uint16. */
typedef struct VifPlane {
    const void *data;
    ptrdiff_t stride;   /* bytes */
    int w, h;
    int is_u8;
} VifPlane;

/* Per-worker row buffers for frames up to max_w wide (carved from scratch by vif_rows_init). */
typedef struct VifRows {
    uint16_t *mu[2];    /* vertical means of ref, dis (< 2^16), VIF_MAX_RADIUS margins */
    uint32_t *sq[3];    /* vertical second moments xx, yy, xy, VIF_MAX_RADIUS margins */
    uint32_t *vmu[2];   /* vertical sums of the means, before rounding */
    uint64_t *vsq[3];   /* vertical sums of the second moments above 8 bits */
    uint32_t *hmu[2];   /* horizontal sums over one block of columns */
    uint64_t *hsq[3];
} VifRows;

size_t vif_rows_size(int max_w);
void vif_rows_init(VifRows *rows, void *mem, int max_w);

/* Add the statistic of one scale (filter vif_taps[scale]) to *sums. bpc: the input depth. */
void vif_scale_stat(VifSums *sums, const VifPlane *ref, const VifPlane *dis, int scale,
                    unsigned bpc, const uint16_t *log2_table, double egl, VifRows *rows);

/* The next scale's images: ref and dis filtered with vif_taps[scale + 1], every other row and
 * column kept; out_* are (w / 2) x (h / 2) uint16, out_stride bytes apart. */
void vif_scale_down(uint16_t *out_ref, uint16_t *out_dis, ptrdiff_t out_stride,
                    const VifPlane *ref, const VifPlane *dis, int scale, unsigned bpc,
                    VifRows *rows);

#endif
