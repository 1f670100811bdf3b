/* Integer VIF, one scale at a time (libvmaf integer_vif.c): the statistic of a scale and the
 * filtered, decimated image of the next one, row by row through a VifDsp. Used by vif.c. */
#ifndef EV_FEATURES_VIF_SCALE_H
#define EV_FEATURES_VIF_SCALE_H

#include <stddef.h>
#include <stdint.h>

#include "features/vif/vif_kernels.h"

/* One scale's luma, read-only: uint8 samples (8-bit input at scale 0) or uint16. */
typedef struct VifPlane {
    const void *data;
    ptrdiff_t stride; /* bytes */
    int w, h;
    int is_u8;
} VifPlane;

/* One scale in one pass over its rows: the statistic (filter vif_taps[scale]) added to *sums
 * (sums NULL: none, for vif_skip_scale0) and, with out_ref non-NULL, the next scale's images:
 * ref and dis filtered with vif_taps[scale + 1], every other row and column kept, (w / 2) x
 * (h / 2) uint16 at out_stride bytes. bpc: the input depth. tmp: vif_dsp_tmp_size(ref->w).
 * check: each input row is checked just before its first use (while it enters the cache) for a
 * sample above 2^bpc - 1; at the first one the pass stops and returns 1 (its results are then
 * partial). Returns 0 otherwise. */
int vif_scale_run(VifSums *sums, uint16_t *out_ref, uint16_t *out_dis, ptrdiff_t out_stride,
                  const VifPlane *ref, const VifPlane *dis, int scale, unsigned bpc,
                  const VifStatParams *p, const VifDsp *dsp, void *tmp, int check);

/* Many encodes against one reference: one scale of n distorted dis[0..n), as n vif_scale_run
 * calls (check 0) but with the reference's part of the work done once per row pair: sums[k]
 * (sums NULL: no statistic) and, with out_ref non-NULL, the next scale's reference (once) and
 * each distorted's at out_dis[k]. cache: dsp->ref_cache_size(ref->w) bytes, 64-byte aligned,
 * where dsp has the parts (NULL: each distorted's statistic is a stat_row call). */
void vif_scale_run_multi(VifSums *sums, uint16_t *out_ref, uint16_t *const *out_dis,
                         ptrdiff_t out_stride, const VifPlane *ref, const VifPlane *dis, int n,
                         int scale, unsigned bpc, const VifStatParams *p, const VifDsp *dsp,
                         void *tmp, void *cache);

/* Whether a uint16 plane holds a sample above 2^bpc - 1. */
int vif_plane_over_depth(const VifPlane *plane, unsigned bpc);

#endif
