/*
 * Integer ADM (libvmaf feature/integer_adm.c): state, per-worker work buffers, and the frame
 * pipeline (adm_frame.c) over the row kernels of adm_kernels.h.
 * Scale 0 works on int16 bands, scales 1..3 on int32 bands; the low band of scales 1..3 (input
 * of the next scale) is int32 and transformed in place, as the reference does.
 */
#ifndef EV_FEATURES_ADM_INTERNAL_H
#define EV_FEATURES_ADM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "base/extractor.h"
#include "base/hd.h"
#include "features/adm/adm_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { ADM_CSF_WATSON97, ADM_CSF_BARTEN, ADM_CSF_BLEND, ADM_CSF_BLEND_MAE };

typedef struct AdmOpts {
    int debug;
    double csf_scale;
    double csf_diag_scale;
    double dlm_weight;
    double enhn_gain_limit;
    double norm_view_dist;
    int ref_display_height;
    int csf_mode;
    double noise_weight;
    int skip_aim;
    int skip_scale0;
    double min_val;
} AdmOpts;

/* The band rectangle a stage visits: [left, right) x [top, bottom). */
typedef struct AdmRect {
    int left, top, right, bottom;
} AdmRect;

/* The lines (rows, or columns of a row) contrast masking visits along a band of n lines, for
 * a CM rectangle [lo, hi): the rectangle kept one line inside the band, plus the first/last line
 * when the rectangle reaches it (bands under 15 lines only), visited first/last. */
typedef struct AdmSpan {
    int first, start, end, last; /* first = 0 / last = n-1 when visited, else -1 */
} AdmSpan;

EV_HD AdmSpan adm_span(const int lo, const int hi, const int n)
{
    AdmSpan sp;
    sp.first = lo <= 0 ? 0 : -1;
    sp.start = lo > 1 ? lo : 1;
    sp.end = hi < n - 1 ? hi : n - 1;
    sp.last = hi > n - 1 ? n - 1 : -1;
    return sp;
}

EV_HD int adm_span_visits(const AdmSpan *sp, const int i)
{
    return i == sp->first || i == sp->last || (i >= sp->start && i < sp->end);
}

/* Geometry of one scale: the DWT input (in_w x in_h) and its bands (w x h), and the four tap
 * rows (adm_dwt_index) of every output row; columns use padded rows instead (adm_dwt.c). */
typedef struct AdmScaleGeom {
    int in_w, in_h, w, h;
    int *ind_y[4];
} AdmScaleGeom;

/* The four scales' geometry of a width x height frame and their tap rows, stored in *indices
 * (malloc'd; the caller frees it): -EINVAL when a scale's DWT input has fewer than min_in lines
 * or columns (geom then partly set), -ENOMEM (adm_rects.c). */
int adm_set_geometry(AdmScaleGeom geom[4], unsigned width, unsigned height, int min_in,
                     int **indices);

typedef struct AdmState {
    AdmOpts opts;
    unsigned width, height, bpc;
    AdmScaleGeom geom[4];
    int *indices;        /* storage of every ind_y */
    int32_t *div_lookup; /* 65537 entries, centred at 32768 */
    float cos_1deg_sq;
    float rfactor[4][3];        /* CSF factor per scale and band h, v, d */
    double rfactor_cubed[4][3]; /* pow(rfactor, 3), the denominator's scaling */
    uint16_t irf0[3];           /* scale 0 factors: Q21 (h, v), Q23 (d) */
    uint32_t irf[4][3];         /* scales 1..3 factors in Q32 (index 0 unused) */
    char names[18][160];        /* output names, suffixed for non-default options */
    AdmDsp dsp;
} AdmState;

/* One worker's buffers, carved from its scratch (adm_work_layout). */
typedef struct AdmWork {
    int16_t *low0[2]; /* band a of scale 0, ref and dis (w0 x h0) */
    int32_t *low[2];  /* band a of scales 1..3, in place (w1 x h1) */
    int32_t *o, *t;   /* the DWT's h, v, d rows of ref and dis (3 rows each) */
    int32_t *ring[3]; /* per band row: r, a, csf(a), flt(a), csf(r), flt(r) x 3 */
    size_t row_len;   /* elements per row buffer */
    void *tmp;        /* the kernels' scratch */
} AdmWork;

/* num, den and aim numerator per scale, as the reference's floats. */
typedef struct AdmScaleScore {
    float num, den, aim;
} AdmScaleScore;

size_t adm_work_layout(const AdmState *s, void *base, AdmWork *w);

/* A scale's totals: per band, the folded row sums of the denominator, of the DLM numerator and
 * of AIM (adm_frame.c folds each row as the reference, then adds the rows). */
typedef struct AdmScaleSums {
    uint64_t den[3];
    int64_t num[3], aim[3];
} AdmScaleSums;

/* How one scale visits its bands, folds its row sums and scales its totals. */
typedef struct AdmScaleShifts {
    AdmRect csf, cm;
    AdmSpan rows;
    AdmCmCols cols;
    unsigned den_shift; /* scale 0: per-row shift of the den sums; s123: sr */
    uint64_t den_add;
    unsigned den_q, den_cub; /* s123 */
    uint64_t den_cub_add;
    unsigned cm_sr; /* per-row fold of the CM sums */
    AdmCmParams cmp;
} AdmScaleShifts;

AdmScaleShifts adm_scale_shifts(const AdmState *s, int scale);
/* The scale's num, den and aim from its totals, as the reference's floats. */
AdmScaleScore adm_scale_score(const AdmState *s, int scale, const AdmScaleShifts *x,
                              const AdmScaleSums *sum);

/* Scale 0 under adm_skip_scale0: the reference's den of 1e-10 avoids 0/0. */
static inline AdmScaleScore adm_skipped_scale0(void)
{
    const AdmScaleScore sc = { 0.0f, (float)1e-10, 0.0f };
    return sc;
}

/* Write a frame's values as both adm extractors name them (names[0..N_ALL), the first N_MAIN
 * without debug): adm2, aim, adm3, each scale's num / den, then adm2 again, num, den and each
 * scale's num and den (adm_rects.c). @return the first ev_sink_put error, or 0. */
int adm_put_values(const char names[18][160], int debug, double adm2, double aim, double adm3,
                   double num, double den, const AdmScaleScore sc[4], unsigned frame, EvSink *sink);

/* Regions: the decouple/CSF rectangle (one tap wider) and the CM/denominator one. */
AdmRect adm_rect_csf(int w, int h);
AdmRect adm_rect_cm(int w, int h);

/* The whole frame: per-scale scores into sc[4]. */
void adm_score_frame(const AdmState *s, AdmWork *wk, const EvPic *ref, const EvPic *dis,
                     AdmScaleScore sc[4]);

/* Many encodes against one reference: n distorted dis[0..n) with the reference's DWT and
 * denominator done once; sc[k] as adm_score_frame() gives for dis[k]. wk[k]: member k's work
 * (adm_member_layout: its own distorted buffers, the reference's shared by all). */
enum { ADM_MAX_MEMBERS = 32 };
void adm_score_frame_multi(const AdmState *s, AdmWork *wk, unsigned n, const EvPic *ref,
                           const EvPic *const *dis, AdmScaleScore (*sc)[4]);
/* A member's work: the reference's buffers of shared (a worker's adm_work_layout), the
 * distorted's carved from base (NULL: only measure). Returns the bytes. */
size_t adm_member_layout(const AdmState *s, void *base, AdmWork *w, const AdmWork *shared);

/* The noise floor of one band: powf(area * nw, 1/3) with the area an int product. */
float adm_noise_floor(const AdmRect *r, double noise_weight);

/* The frame's outputs from its four scales (adm.c). */
int ev_adm_emit(const AdmState *s, const AdmScaleScore sc[4], unsigned frame, EvSink *sink);

/* The CUDA twin (adm.cu). */
EV_LAUNCH_FN(ev_adm_launch_cuda);
EV_EXTRACT_FN(ev_adm_extract_cuda);

#ifdef __cplusplus
}
#endif

#endif
