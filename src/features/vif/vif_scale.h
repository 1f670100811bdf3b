/* Integer VIF, one scale at a time (libvmaf integer_vif.c): the statistic of a scale and the
 * filtered, decimated image of the next one, row by row through a VifDsp. Used by vif.c. */
#ifndef EV_FEATURES_VIF_SCALE_H
#define EV_FEATURES_VIF_SCALE_H

#include <stddef.h>
#include <stdint.h>

#include "features/vif/vif_dsp.h"

/* One scale's luma, read-only: uint8 samples (8-bit input at scale 0) or uint16. */
typedef struct VifPlane {
    const void *data;
    ptrdiff_t stride;   /* bytes */
    int w, h;
    int is_u8;
} VifPlane;

/* Add the statistic of one scale (filter vif_taps[scale]) to *sums. bpc: the input depth.
 * tmp: vif_dsp_tmp_size(ref->w) bytes. */
void vif_scale_stat(VifSums *sums, const VifPlane *ref, const VifPlane *dis, int scale,
                    unsigned bpc, const VifStatParams *p, const VifDsp *dsp, void *tmp);

/* The next scale's images: ref and dis filtered with vif_taps[scale + 1], every other row and
 * column kept; out_* are (w / 2) x (h / 2) uint16, out_stride bytes apart. */
void vif_scale_down(uint16_t *out_ref, uint16_t *out_dis, ptrdiff_t out_stride,
                    const VifPlane *ref, const VifPlane *dis, int scale, unsigned bpc,
                    const VifDsp *dsp, void *tmp);

#endif
