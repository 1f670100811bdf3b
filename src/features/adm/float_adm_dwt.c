/* Float ADM: one db2 DWT level per scale and the decoupling (libvmaf adm_tools.c adm_dwt2_s,
 * adm_dwt2_lo_s, adm_decouple_s). Scale 0 reads the picture through libvmaf's float conversion
 * (sample / scaler - 128), sample by sample, so no float copy of the frame is kept. */
#include "features/adm/float_adm_internal.h"
#include "features/adm/float_adm_math.h"
#include "features/common/sample_math.h"

/* Sample j of picture row y as libvmaf's float ADM sees it. */
static float sample_at(const EvPic *pic, const int y, const int j, const float scaler)
{
    const uint32_t v = pic->bpc > 8 ? ev_pic_row16(pic, 0, (unsigned)y)[j]
                                    : ev_pic_row8(pic, 0, (unsigned)y)[j];
    return sample_to_float(v, scaler, -128);
}

static void vert0(const FadmState *s, const AdmScaleGeom *g, const EvPic *pic, const int i,
                  float *lo, float *hi)
{
    const int y0 = g->ind_y[0][i], y1 = g->ind_y[1][i];
    const int y2 = g->ind_y[2][i], y3 = g->ind_y[3][i];
    for (int j = 0; j < g->in_w; j++) {
        const float s0 = sample_at(pic, y0, j, s->scaler), s1 = sample_at(pic, y1, j, s->scaler);
        const float s2 = sample_at(pic, y2, j, s->scaler), s3 = sample_at(pic, y3, j, s->scaler);
        lo[j] = fadm_taps_lo(s0, s1, s2, s3);
        if (hi)
            hi[j] = fadm_taps_hi(s0, s1, s2, s3);
    }
}

/* Horizontal pass of output row i from the vertical rows; hvd == NULL: band a only. */
static void horz(const AdmScaleGeom *g, const int i, const float *lo, const float *hi, float *a,
                 const FadmBands *hvd)
{
    const size_t off = (size_t)i * g->w;
    for (int j = 0; j < g->w; j++) {
        const int j0 = g->ind_x[0][j], j1 = g->ind_x[1][j];
        const int j2 = g->ind_x[2][j], j3 = g->ind_x[3][j];
        a[off + j] = fadm_taps_lo(lo[j0], lo[j1], lo[j2], lo[j3]);
        if (!hvd)
            continue;
        hvd->v[off + j] = fadm_taps_hi(lo[j0], lo[j1], lo[j2], lo[j3]);
        hvd->h[off + j] = fadm_taps_lo(hi[j0], hi[j1], hi[j2], hi[j3]);
        hvd->d[off + j] = fadm_taps_hi(hi[j0], hi[j1], hi[j2], hi[j3]);
    }
}

void fadm_dwt_scale0(const FadmState *s, FadmWork *wk, const EvPic *pic, float *a,
                     const FadmBands *hvd)
{
    const AdmScaleGeom *g = &s->geom[0];
    for (int i = 0; i < g->h; i++) {
        vert0(s, g, pic, i, wk->row_lo, hvd ? wk->row_hi : NULL);
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
        horz(g, i, lo, hi, a, hvd);
    }
}

void fadm_decouple(const FadmState *s, const FadmWork *wk, const int w, const int h)
{
    const AdmRect rc = adm_rect_csf(w, h);
    const FadmBands *o = &wk->ref, *t = &wk->dis, *r = &wk->r, *a = &wk->a;
    const double egl = s->opts.enhn_gain_limit;
    for (int i = rc.top; i < rc.bottom; i++) {
        for (int j = rc.left; j < rc.right; j++) {
            const size_t x = (size_t)i * w + j;
            const int flag = fadm_angle_flag(o->h[x], o->v[x], t->h[x], t->v[x], s->cos_1deg_sq);
            fadm_decouple_coef(o->h[x], t->h[x], flag, egl, &r->h[x], &a->h[x]);
            fadm_decouple_coef(o->v[x], t->v[x], flag, egl, &r->v[x], &a->v[x]);
            fadm_decouple_coef(o->d[x], t->d[x], flag, egl, &r->d[x], &a->d[x]);
        }
    }
}
