/* Float ADM: one db2 DWT level per scale and the decoupling (libvmaf adm_tools.c adm_dwt2_s,
 * adm_dwt2_lo_s, adm_decouple_s). Scale 0 reads the picture through libvmaf's float conversion
 * (sample / scaler - 128), sample by sample, so no float copy of the frame is kept. */
#include "features/adm/float_adm_internal.h"
#include "features/adm/float_adm_math.h"
#include "features/common/sample_math.h"

/* Vertical pass of scale 0 for output row i (hi may be NULL). */
static void vert0(const FadmState *s, const AdmScaleGeom *g, const EvPic *pic, const int i,
                  float *lo, float *hi)
{
    const float sc = s->scaler;
    const int n = g->in_w;
    if (pic->bpc > 8) {
        const uint16_t *r0 = ev_pic_row16(pic, 0, g->ind_y[0][i]);
        const uint16_t *r1 = ev_pic_row16(pic, 0, g->ind_y[1][i]);
        const uint16_t *r2 = ev_pic_row16(pic, 0, g->ind_y[2][i]);
        const uint16_t *r3 = ev_pic_row16(pic, 0, g->ind_y[3][i]);
        for (int j = 0; j < n; j++) {
            const float s0 = sample_to_float(r0[j], sc, -128);
            const float s1 = sample_to_float(r1[j], sc, -128);
            const float s2 = sample_to_float(r2[j], sc, -128);
            const float s3 = sample_to_float(r3[j], sc, -128);
            lo[j] = fadm_taps_lo(s0, s1, s2, s3);
            if (hi)
                hi[j] = fadm_taps_hi(s0, s1, s2, s3);
        }
        return;
    }
    const uint8_t *r0 = ev_pic_row8(pic, 0, g->ind_y[0][i]);
    const uint8_t *r1 = ev_pic_row8(pic, 0, g->ind_y[1][i]);
    const uint8_t *r2 = ev_pic_row8(pic, 0, g->ind_y[2][i]);
    const uint8_t *r3 = ev_pic_row8(pic, 0, g->ind_y[3][i]);
    for (int j = 0; j < n; j++) {
        const float s0 = sample_to_float(r0[j], sc, -128), s1 = sample_to_float(r1[j], sc, -128);
        const float s2 = sample_to_float(r2[j], sc, -128), s3 = sample_to_float(r3[j], sc, -128);
        lo[j] = fadm_taps_lo(s0, s1, s2, s3);
        if (hi)
            hi[j] = fadm_taps_hi(s0, s1, s2, s3);
    }
}

/* Border positions -1, n, n+1 of a vertical row, by the DWT's rule (see adm_dwt.c). */
static void pad_row(float *row, const int n)
{
    row[-1] = row[1];
    row[n] = row[n - 1];
    row[n + 1] = row[n - 2];
}

/* Horizontal pass of output row i from the padded vertical rows; hvd == NULL: band a only. */
static void horz(const AdmScaleGeom *g, const int i, const float *lo, const float *hi, float *a,
                 const FadmBands *hvd)
{
    const size_t off = (size_t)i * g->w;
    const int w = g->w;
    for (int j = 0; j < w; j++) {
        const float *t = lo + 2 * j - 1;
        a[off + j] = fadm_taps_lo(t[0], t[1], t[2], t[3]);
    }
    if (!hvd)
        return;
    float *pv = hvd->v + off, *ph = hvd->h + off, *pd = hvd->d + off;
    for (int j = 0; j < w; j++) {
        const float *t = lo + 2 * j - 1, *u = hi + 2 * j - 1;
        pv[j] = fadm_taps_hi(t[0], t[1], t[2], t[3]);
        ph[j] = fadm_taps_lo(u[0], u[1], u[2], u[3]);
        pd[j] = fadm_taps_hi(u[0], u[1], u[2], u[3]);
    }
}

void fadm_dwt_scale0(const FadmState *s, FadmWork *wk, const EvPic *pic, float *a,
                     const FadmBands *hvd)
{
    const AdmScaleGeom *g = &s->geom[0];
    for (int i = 0; i < g->h; i++) {
        vert0(s, g, pic, i, wk->row_lo, hvd ? wk->row_hi : NULL);
        pad_row(wk->row_lo, g->in_w);
        if (hvd)
            pad_row(wk->row_hi, g->in_w);
        horz(g, i, wk->row_lo, wk->row_hi, a, hvd);
    }
}

/* In place on the low band a, as the integer ADM (see adm_dwt_scale123). */
void fadm_dwt_scale123(const FadmState *s, FadmWork *wk, const int scale, float *a,
                       const FadmBands *hvd)
{
    const AdmScaleGeom *g = &s->geom[scale];
    float *lo = wk->row_lo, *hi = wk->row_hi;
    for (int i = 0; i < g->h; i++) {
        const float *r0 = a + (size_t)g->ind_y[0][i] * g->in_w;
        const float *r1 = a + (size_t)g->ind_y[1][i] * g->in_w;
        const float *r2 = a + (size_t)g->ind_y[2][i] * g->in_w;
        const float *r3 = a + (size_t)g->ind_y[3][i] * g->in_w;
        for (int j = 0; j < g->in_w; j++) {
            lo[j] = fadm_taps_lo(r0[j], r1[j], r2[j], r3[j]);
            hi[j] = fadm_taps_hi(r0[j], r1[j], r2[j], r3[j]);
        }
        pad_row(lo, g->in_w);
        pad_row(hi, g->in_w);
        horz(g, i, lo, hi, a, hvd);
    }
}

void fadm_decouple(const FadmState *s, const FadmWork *wk, const int w, const int h)
{
    const AdmRect rc = adm_rect_csf(w, h);
    const FadmBands *o = &wk->ref, *t = &wk->dis, *r = &wk->r, *a = &wk->a;
    const double egl = s->opts.enhn_gain_limit;
    const uint16_t *const rcp = adm_rcp_vendor_table(s->opts.rcp_estimate);
    for (int i = rc.top; i < rc.bottom; i++) {
        for (int j = rc.left; j < rc.right; j++) {
            const size_t x = (size_t)i * w + j;
            const int flag = fadm_angle_flag(o->h[x], o->v[x], t->h[x], t->v[x], s->cos_1deg_sq);
            fadm_decouple_coef(o->h[x], t->h[x], flag, egl, rcp, &r->h[x], &a->h[x]);
            fadm_decouple_coef(o->v[x], t->v[x], flag, egl, rcp, &r->v[x], &a->v[x]);
            fadm_decouple_coef(o->d[x], t->d[x], flag, egl, rcp, &r->d[x], &a->d[x]);
        }
    }
}
