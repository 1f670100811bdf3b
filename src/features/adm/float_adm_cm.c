/* Float ADM: CSF weighting, contrast masking and denominators per scale, and the scale loop
 * (libvmaf adm_tools.c adm_csf_s, adm_cm_s, adm_csf_den_scale_s; adm.c compute_adm). Sums are
 * float: per-row partials in raster order, added row by row into a float total. */
#include <math.h>

#include "features/adm/float_adm_internal.h"
#include "features/adm/adm_math.h"
#include "features/adm/float_adm_math.h"

static void fadm_csf(const FadmState *s, const int scale, const FadmBands *src,
                     const FadmBands *csf, const FadmBands *flt, const int w, const int h)
{
    const AdmRect rc = adm_rect_csf(w, h);
    const float *in[3] = { src->h, src->v, src->d };
    float *out[3] = { csf->h, csf->v, csf->d };
    float *mask[3] = { flt->h, flt->v, flt->d };
    for (int b = 0; b < 3; b++) {
        const float rf = s->rfactor[scale][b];
        for (int i = rc.top; i < rc.bottom; i++) {
            const size_t row = (size_t)i * w;
            for (int j = rc.left; j < rc.right; j++) {
                const float v = rf * in[b][row + j];
                out[b][row + j] = v;
                mask[b][row + j] = fadm_flt(v);
            }
        }
    }
}

/* h + v + d of powf(energy, 1/3) + powf(area * nw, 1/3), in float. */
float fadm_sum_bands(const float e[3], const AdmRect *rc, const double noise_weight)
{
    const float noise = adm_noise_floor(rc, noise_weight);
    const float h = powf(e[0], 1.0f / 3.0f) + noise;
    const float v = powf(e[1], 1.0f / 3.0f) + noise;
    const float d = powf(e[2], 1.0f / 3.0f) + noise;
    return h + v + d;
}

static float fadm_den(const FadmState *s, const int scale, const FadmBands *ref, const int w,
                      const int h)
{
    const AdmRect rc = adm_rect_cm(w, h);
    const float *band[3] = { ref->h, ref->v, ref->d };
    float acc[3] = { 0.0f, 0.0f, 0.0f };
    for (int i = rc.top; i < rc.bottom; i++) {
        const size_t row = (size_t)i * w;
        float inner[3] = { 0.0f, 0.0f, 0.0f };
        for (int j = rc.left; j < rc.right; j++)
            for (int b = 0; b < 3; b++)
                inner[b] += fadm_den_cube(band[b][row + j], s->rfactor[scale][b]);
        for (int b = 0; b < 3; b++)
            acc[b] += inner[b];
    }
    return fadm_sum_bands(acc, &rc, s->noise_weight);
}

/* Threshold at (mid + j): the h, v and d shares added into one float. */
static float fadm_thr(const FadmBands *csf, const FadmBands *flt, const size_t up, const size_t mid,
                      const size_t dn, const int jl, const int j, const int jr)
{
    const float *const a[3] = { csf->h, csf->v, csf->d };
    const float *const f[3] = { flt->h, flt->v, flt->d };
    return fadm_thr_at(a, f, up, mid, dn, jl, j, jr);
}

static void fadm_cm_row(const FadmState *s, const int scale, const FadmBands *src,
                        const FadmBands *csf, const FadmBands *flt, const AdmSpan *cols,
                        const int w, const int h, const int i, float inner[3])
{
    const size_t up = (size_t)adm_cm_prev(i) * w, mid = (size_t)i * w;
    const size_t dn = (size_t)adm_cm_next(i, h) * w;
    const float *x[3] = { src->h, src->v, src->d };
    for (int j = cols->first == 0 ? 0 : cols->start; j < w; j++) {
        if (!adm_span_visits(cols, j))
            continue;
        const float thr = fadm_thr(csf, flt, up, mid, dn, adm_cm_prev(j), j, adm_cm_next(j, w));
        for (int b = 0; b < 3; b++)
            inner[b] += fadm_cm_cube(x[b][mid + j], s->rfactor[scale][b], thr);
    }
}

static float fadm_cm(const FadmState *s, const int scale, const FadmBands *src,
                     const FadmBands *csf, const FadmBands *flt, const int w, const int h,
                     const double noise_weight)
{
    const AdmRect rc = adm_rect_cm(w, h);
    const AdmSpan rows = adm_span(rc.top, rc.bottom, h), cols = adm_span(rc.left, rc.right, w);
    float acc[3] = { 0.0f, 0.0f, 0.0f };
    for (int i = 0; i < h; i++) {
        if (!adm_span_visits(&rows, i))
            continue;
        float inner[3] = { 0.0f, 0.0f, 0.0f };
        fadm_cm_row(s, scale, src, csf, flt, &cols, w, h, i, inner);
        for (int b = 0; b < 3; b++)
            acc[b] += inner[b];
    }
    return fadm_sum_bands(acc, &rc, noise_weight);
}

/* Decouple, denominator, DLM (CM of r masked by CSF(a)), AIM (CM of a masked by CSF(r)). */
static AdmScaleScore score_scale(const FadmState *s, FadmWork *wk, const int scale)
{
    const int w = s->geom[scale].w, h = s->geom[scale].h;
    AdmScaleScore sc;
    fadm_decouple(s, wk, w, h);
    sc.den = fadm_den(s, scale, &wk->ref, w, h);
    fadm_csf(s, scale, &wk->a, &wk->csf, &wk->flt, w, h);
    sc.num = fadm_cm(s, scale, &wk->r, &wk->csf, &wk->flt, w, h, s->noise_weight);
    fadm_csf(s, scale, &wk->r, &wk->csf, &wk->flt, w, h);
    sc.aim = fadm_cm(s, scale, &wk->a, &wk->csf, &wk->flt, w, h, 0.0);
    return sc;
}

void fadm_score_frame(const FadmState *s, FadmWork *wk, const EvPic *ref, const EvPic *dis,
                      AdmScaleScore sc[4])
{
    fadm_dwt_scale0(s, wk, ref, wk->ref_a, &wk->ref);
    fadm_dwt_scale0(s, wk, dis, wk->dis_a, &wk->dis);
    sc[0] = score_scale(s, wk, 0);
    for (int scale = 1; scale < 4; scale++) {
        fadm_dwt_scale123(s, wk, scale, wk->ref_a, &wk->ref);
        fadm_dwt_scale123(s, wk, scale, wk->dis_a, &wk->dis);
        sc[scale] = score_scale(s, wk, scale);
    }
}

size_t fadm_work_layout(const FadmState *s, void *base, FadmWork *w)
{
    const size_t n = (size_t)s->geom[0].w * s->geom[0].h;
    const size_t plane = (n * sizeof(float) + 63) & ~(size_t)63;
    const size_t row = ((s->width + 3) * sizeof(float) + 63) & ~(size_t)63;
    float **p[20] = { &w->ref_a, &w->dis_a, &w->ref.h, &w->ref.v, &w->ref.d, &w->dis.h, &w->dis.v,
                      &w->dis.d, &w->r.h,   &w->r.v,   &w->r.d,   &w->a.h,   &w->a.v,   &w->a.d,
                      &w->csf.h, &w->csf.v, &w->csf.d, &w->flt.h, &w->flt.v, &w->flt.d };
    for (int k = 0; k < 20; k++)
        *p[k] = base ? (float *)((char *)base + k * plane) : NULL;
    /* DWT rows: the input width plus the border positions -1, n, n+1 */
    w->row_lo = base ? (float *)((char *)base + 20 * plane) + 1 : NULL;
    w->row_hi = base ? (float *)((char *)base + 20 * plane + row) + 1 : NULL;
    return 20 * plane + 2 * row;
}
