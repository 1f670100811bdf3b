/*
 * Integer ADM (libvmaf feature/integer_adm.c): state, per-worker work buffers and the stages,
 * split over adm_dwt.c, adm_decouple.c, adm_csf.c, adm_cm.c and adm_score.c.
 * Scale 0 works on int16 bands, scales 1..3 on int32 bands; the low band (input of the next
 * scale) is kept as int32 and transformed in place, as the reference does.
 */
#ifndef EV_FEATURES_ADM_INTERNAL_H
#define EV_FEATURES_ADM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "core/extractor.h"

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
    int first, start, end, last;    /* first = 0 / last = n-1 when visited, else -1 */
} AdmSpan;

static inline AdmSpan adm_span(const int lo, const int hi, const int n)
{
    AdmSpan sp;
    sp.first = lo <= 0 ? 0 : -1;
    sp.start = lo > 1 ? lo : 1;
    sp.end = hi < n - 1 ? hi : n - 1;
    sp.last = hi > n - 1 ? n - 1 : -1;
    return sp;
}

static inline int adm_span_visits(const AdmSpan *sp, const int i)
{
    return i == sp->first || i == sp->last || (i >= sp->start && i < sp->end);
}

/* Geometry of one scale: the DWT input (in_w x in_h) and its bands (w x h), and the four tap
 * rows (adm_dwt_index) of every output row; columns use padded rows instead (adm_dwt.c). */
typedef struct AdmScaleGeom {
    int in_w, in_h, w, h;
    int *ind_y[4];
} AdmScaleGeom;

typedef struct AdmState {
    AdmOpts opts;
    unsigned width, height, bpc;
    AdmScaleGeom geom[4];
    int *indices;               /* storage of every ind_y */
    int32_t *div_lookup;        /* 65537 entries, centred at 32768 */
    float cos_1deg_sq;
    float rfactor[4][3];        /* CSF factor per scale and band h, v, d */
    double rfactor_cubed[4][3]; /* pow(rfactor, 3), the denominator's scaling */
    uint16_t irf0[3];           /* scale 0 factors: Q21 (h, v), Q23 (d) */
    uint32_t irf[4][3];         /* scales 1..3 factors in Q32 (index 0 unused) */
    char names[18][160];        /* output names, suffixed for non-default options */
} AdmState;

typedef struct AdmBands16 {
    int16_t *h, *v, *d;
} AdmBands16;

typedef struct AdmBands32 {
    int32_t *h, *v, *d;
} AdmBands32;

/* One worker's buffers, carved from its scratch (adm_work_layout). Band planes are stored with
 * the band width of their scale as stride. */
typedef struct AdmWork {
    int32_t *ref_a, *dis_a;                             /* low band, all scales, in place */
    AdmBands16 ref0, dis0, r0, a0, csf0, flt0;          /* scale 0 */
    AdmBands32 ref1, dis1, r1, a1, csf1, flt1;          /* scales 1..3 */
    int32_t *row_lo, *row_hi;                           /* DWT rows, padded (adm_dwt.c) */
    uint32_t *cm_rows;                                  /* two CM rows of the scale-0 width */
} AdmWork;

/* num, den and aim numerator per scale, as the reference's floats. */
typedef struct AdmScaleScore {
    float num, den, aim;
} AdmScaleScore;

size_t adm_work_layout(const AdmState *s, void *base, AdmWork *w);

/* Regions: the decouple/CSF rectangle (one tap wider) and the CM/denominator one. */
AdmRect adm_rect_csf(int w, int h);
AdmRect adm_rect_cm(int w, int h);

void adm_dwt_scale0(const AdmState *s, AdmWork *wk, const EvPic *pic, int32_t *a,
                    const AdmBands16 *hvd);
void adm_dwt_scale123(const AdmState *s, AdmWork *wk, int scale, int32_t *a,
                      const AdmBands32 *hvd);

void adm_decouple0(const AdmState *s, const AdmWork *wk, int w, int h);
void adm_decouple123(const AdmState *s, const AdmWork *wk, int w, int h);

void adm_csf0(const AdmState *s, const AdmBands16 *src, const AdmBands16 *csf,
              const AdmBands16 *flt, int w, int h);
void adm_csf123(const AdmState *s, int scale, const AdmBands32 *src, const AdmBands32 *csf,
                const AdmBands32 *flt, int w, int h);

float adm_den0(const AdmState *s, const AdmBands16 *ref, int w, int h);
float adm_den123(const AdmState *s, int scale, const AdmBands32 *ref, int w, int h);
/* Contrast masking of src, masked by (csf, flt); tmp: 2 * w words of scratch. */
float adm_cm0(const AdmState *s, const AdmBands16 *src, const AdmBands16 *csf,
              const AdmBands16 *flt, int w, int h, double noise_weight, uint32_t *tmp);
float adm_cm123(const AdmState *s, int scale, const AdmBands32 *src, const AdmBands32 *csf,
                const AdmBands32 *flt, int w, int h, double noise_weight, uint32_t *tmp);

/* The whole frame: per-scale scores into sc[4]. */
void adm_score_frame(const AdmState *s, AdmWork *wk, const EvPic *ref, const EvPic *dis,
                     AdmScaleScore sc[4]);

/* The noise floor of one band: powf(area * nw, 1/3) with the area an int product. */
float adm_noise_floor(const AdmRect *r, double noise_weight);

#endif
