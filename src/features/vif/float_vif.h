/* What the float VIF reference (float_vif.c) shares with its CUDA twin (float_vif.cu): the
 * options, the state made by init, and the step from the scales' float totals to the outputs. */
#ifndef EV_FEATURES_FLOAT_VIF_H
#define EV_FEATURES_FLOAT_VIF_H

#include "base/extractor.h"
#include "features/vif/float_vif_scale.h"
#include "features/vif/vif_names.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct FloatVifOpts {
    int debug;
    double enhn_gain_limit;
    double kernelscale;
    double prescale;
    double scale1_min_val, scale2_min_val, scale3_min_val;
    double sigma_nsq;
    int skip_scale0;
} FloatVifOpts;

typedef struct FloatVifState {
    FloatVifOpts opts;
    int src_w, src_h; /* the input luma */
    int w, h;         /* after vif_prescale (nearest neighbour) */
    float scaler;
    int max_taps;
    VifFloatFilter filter[4];
    VifFloatParams params;
    VifNames names;
    VifFloatDsp dsp;
} FloatVifState;

/* The frame's outputs from v->num[] and v->den[] (the scales' float totals). */
int ev_float_vif_emit(const FloatVifState *s, VifScaleScores *v, unsigned frame, EvSink *sink);

/* The CUDA twin (float_vif.cu). */
EV_LAUNCH_FN(ev_float_vif_launch_cuda);
EV_EXTRACT_FN(ev_float_vif_extract_cuda);

#ifdef __cplusplus
}
#endif

#endif
