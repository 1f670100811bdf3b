/*
 * Float ADM (libvmaf feature/float_adm.c, adm.c, adm_tools.c): state, per-worker buffers and
 * stages (float_adm_dwt.c: DWT and decoupling; float_adm_cm.c: CSF, masking, denominators and
 * the scale loop). Same geometry, rectangles and border rules as the integer ADM.
 */
#ifndef EV_FEATURES_FLOAT_ADM_INTERNAL_H
#define EV_FEATURES_FLOAT_ADM_INTERNAL_H

#include "features/adm/adm_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct FadmOpts {
    int debug;
    double enhn_gain_limit;
    int rcp_estimate; /* ADM_RCP_AMD (default) or ADM_RCP_INTEL: whose rcpss */
} FadmOpts;

typedef struct FadmState {
    FadmOpts opts;
    unsigned width, height, bpc;
    float scaler; /* libvmaf's float conversion of samples, offset -128 */
    AdmScaleGeom geom[4];
    int *indices;
    float cos_1deg_sq;
    float rfactor[4][3]; /* Watson factors per scale, bands h, v, d */
    double noise_weight;
    char names[18][160];
} FadmState;

typedef struct FadmBands {
    float *h, *v, *d;
} FadmBands;

typedef struct FadmWork {
    float *ref_a, *dis_a;               /* low band, all scales, in place */
    FadmBands ref, dis, r, a, csf, flt; /* sized for scale 0, reused by every scale */
    float *row_lo, *row_hi;
} FadmWork;

size_t fadm_work_layout(const FadmState *s, void *base, FadmWork *w);

void fadm_dwt_scale0(const FadmState *s, FadmWork *wk, const EvPic *pic, float *a,
                     const FadmBands *hvd);
void fadm_dwt_scale123(const FadmState *s, FadmWork *wk, int scale, float *a, const FadmBands *hvd);
void fadm_decouple(const FadmState *s, const FadmWork *wk, int w, int h);

/* A scale's total from its three bands' float sums e[] (h, v, d): powf(e, 1/3) plus the noise
 * floor, per band, added in float. */
float fadm_sum_bands(const float e[3], const AdmRect *rc, double noise_weight);

/* The frame's outputs from its four scales (float_adm.c). */
int fadm_emit(const FadmState *s, const AdmScaleScore sc[4], unsigned frame, EvSink *sink);

/* The CUDA twin (float_adm.cu). */
EV_LAUNCH_FN(ev_float_adm_launch_cuda);
EV_EXTRACT_FN(ev_float_adm_extract_cuda);

/* Per-scale num, den and aim numerator of one frame. */
void fadm_score_frame(const FadmState *s, FadmWork *wk, const EvPic *ref, const EvPic *dis,
                      AdmScaleScore sc[4]);

#ifdef __cplusplus
}
#endif

#endif
