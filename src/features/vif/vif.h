/* What the integer VIF reference (vif.c) shares with its CUDA twin (vif.cu). */
#ifndef EV_FEATURES_VIF_H
#define EV_FEATURES_VIF_H

#include "base/extractor.h"
#include "features/vif/vif_kernels.h"
#include "features/vif/vif_names.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VifOpts {
    int debug;
    double enhn_gain_limit;
    int skip_scale0;
} VifOpts;

typedef struct VifState {
    VifOpts opts;
    int w, h;
    unsigned bpc;
    VifNames names;
    VifDsp dsp;   /* the best level's kernels */
    VifDsp dsp_c; /* the C reference's: frames with samples above the depth */
    uint16_t log2_table[VIF_LOG2_TABLE_PADDED];
} VifState;

/* Scale `scale`'s num, den and score from its totals, as the reference forms them. */
void ev_vif_scale_result(VifScaleScores *v, int scale, const VifSums *sums);
/* The frame's outputs. */
int ev_vif_emit(const VifState *s, const VifScaleScores *v, unsigned frame, EvSink *sink);

/* The frame by the C reference's kernels, on the host (scratch: vif's scratch_size bytes):
 * what vif_extract runs for a frame with a luma sample above the depth's maximum, whose
 * range the SIMD kernels and the twin's arithmetic assume; the twin runs it too. */
int ev_vif_extract_reference(const VifState *s, void *scratch, const EvPic *ref, const EvPic *dis,
                             unsigned frame, EvSink *sink);
size_t ev_vif_scratch_size(const void *state);

/* The CUDA twin (vif.cu). */
EV_LAUNCH_FN(ev_vif_launch_cuda);
EV_EXTRACT_FN(ev_vif_extract_cuda);

#ifdef __cplusplus
}
#endif

#endif
