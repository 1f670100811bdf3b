/* Integer ADM: one level of the db2 DWT per scale (libvmaf integer_adm.c adm_dwt2_8/_16/_lo and
 * adm_dwt2_s123_combined). Each output row: a vertical pass over the input width into two rows
 * (low, high), then a horizontal pass giving bands a (lo-lo), v (lo-hi), h (hi-lo), d (hi-hi). */
#include "features/adm/adm_internal.h"
#include "features/adm/adm_math.h"

/* Vertical pass of scale 0 for output row i, on bpc-bit samples (hi may be NULL). */
static void vert0_8(const AdmScaleGeom *g, const EvPic *pic, const int i, int32_t *lo,
                    int32_t *hi)
{
    const uint8_t *r0 = ev_pic_row8(pic, 0, g->ind_y[0][i]);
    const uint8_t *r1 = ev_pic_row8(pic, 0, g->ind_y[1][i]);
    const uint8_t *r2 = ev_pic_row8(pic, 0, g->ind_y[2][i]);
    const uint8_t *r3 = ev_pic_row8(pic, 0, g->ind_y[3][i]);
    const int n = g->in_w;
    for (int j = 0; j < n; j++)
        lo[j] = adm_dwt0_vert_lo(r0[j], r1[j], r2[j], r3[j], 8);
    if (hi)
        for (int j = 0; j < n; j++)
            hi[j] = adm_dwt0_vert_hi(r0[j], r1[j], r2[j], r3[j], 8);
}

static void vert0_16(const AdmScaleGeom *g, const EvPic *pic, const int i, int32_t *lo,
                     int32_t *hi)
{
    const unsigned bpc = pic->bpc;
    const uint16_t *r0 = ev_pic_row16(pic, 0, g->ind_y[0][i]);
    const uint16_t *r1 = ev_pic_row16(pic, 0, g->ind_y[1][i]);
    const uint16_t *r2 = ev_pic_row16(pic, 0, g->ind_y[2][i]);
    const uint16_t *r3 = ev_pic_row16(pic, 0, g->ind_y[3][i]);
    const int n = g->in_w;
    for (int j = 0; j < n; j++)
        lo[j] = adm_dwt0_vert_lo(r0[j], r1[j], r2[j], r3[j], bpc);
    if (hi)
        for (int j = 0; j < n; j++)
            hi[j] = adm_dwt0_vert_hi(r0[j], r1[j], r2[j], r3[j], bpc);
}

/* The vertical rows hold n samples at [0, n) plus room for the positions [-1] and [n, n+1] the
 * horizontal taps reach, filled by the DWT's border rule (adm_dwt_index): -1 -> 1, n -> n-1,
 * n+1 -> n-2. Output j then reads taps 2j-1 .. 2j+2 directly. */
static void pad_row(int32_t *row, const int n)
{
    row[-1] = row[1];
    row[n] = row[n - 1];
    row[n + 1] = row[n - 2];
}

/* Horizontal pass of scale 0 for output row i; hvd == NULL computes band a only. */
static void horz0(const AdmScaleGeom *g, const int i, const int32_t *lo, const int32_t *hi,
                  int32_t *a, const AdmBands16 *hvd)
{
    const int w = g->w;
    int32_t *pa = a + (size_t)i * w;
    for (int j = 0; j < w; j++) {
        const int32_t *t = lo + 2 * j - 1;
        pa[j] = adm_dwt0_horz(adm_taps0_lo(t[0], t[1], t[2], t[3]));
    }
    if (!hvd)
        return;
    int16_t *pv = hvd->v + (size_t)i * w, *ph = hvd->h + (size_t)i * w;
    int16_t *pd = hvd->d + (size_t)i * w;
    for (int j = 0; j < w; j++) {
        const int32_t *t = lo + 2 * j - 1, *u = hi + 2 * j - 1;
        pv[j] = adm_dwt0_horz(adm_taps0_hi(t[0], t[1], t[2], t[3]));
        ph[j] = adm_dwt0_horz(adm_taps0_lo(u[0], u[1], u[2], u[3]));
        pd[j] = adm_dwt0_horz(adm_taps0_hi(u[0], u[1], u[2], u[3]));
    }
}

/* Scale 0 of one picture: a (int16 values widened to int32) and, unless hvd is NULL
 * (adm_skip_scale0), h, v, d. */
void adm_dwt_scale0(const AdmState *s, AdmWork *wk, const EvPic *pic, int32_t *a,
                    const AdmBands16 *hvd)
{
    const AdmScaleGeom *g = &s->geom[0];
    for (int i = 0; i < g->h; i++) {
        if (pic->bpc > 8)
            vert0_16(g, pic, i, wk->row_lo, hvd ? wk->row_hi : NULL);
        else
            vert0_8(g, pic, i, wk->row_lo, hvd ? wk->row_hi : NULL);
        pad_row(wk->row_lo, g->in_w);
        if (hvd)
            pad_row(wk->row_hi, g->in_w);
        horz0(g, i, wk->row_lo, wk->row_hi, a, hvd);
    }
}

/* Rounding (add, shift) of scales 1, 2, 3: vertical, then horizontal. */
static const int64_t s123_vert_add[3] = { 0, 32768, 32768 };
static const unsigned s123_vert_shift[3] = { 0, 16, 16 };
static const int64_t s123_horz_add[3] = { 16384, 32768, 16384 };
static const unsigned s123_horz_shift[3] = { 15, 16, 15 };

/* Vertical pass of scales 1..3 for output row i, from the low band a of the previous scale. */
static void vert123(const AdmScaleGeom *g, const int32_t *a, const int i, const int scale,
                    int32_t *lo, int32_t *hi)
{
    const int64_t add = s123_vert_add[scale - 1];
    const unsigned shift = s123_vert_shift[scale - 1];
    const int n = g->in_w;
    const int32_t *r0 = a + (size_t)g->ind_y[0][i] * n, *r1 = a + (size_t)g->ind_y[1][i] * n;
    const int32_t *r2 = a + (size_t)g->ind_y[2][i] * n, *r3 = a + (size_t)g->ind_y[3][i] * n;
    for (int j = 0; j < n; j++) {
        lo[j] = adm_dwt_round32(adm_taps_lo(r0[j], r1[j], r2[j], r3[j]), add, shift);
        hi[j] = adm_dwt_round32(adm_taps_hi(r0[j], r1[j], r2[j], r3[j]), add, shift);
    }
}

static void horz123(const AdmScaleGeom *g, const int i, const int scale, const int32_t *lo,
                    const int32_t *hi, int32_t *a, const AdmBands32 *hvd)
{
    const int64_t add = s123_horz_add[scale - 1];
    const unsigned shift = s123_horz_shift[scale - 1];
    const int w = g->w;
    const size_t off = (size_t)i * w;
    int32_t *pa = a + off, *pv = hvd->v + off, *ph = hvd->h + off, *pd = hvd->d + off;
    for (int j = 0; j < w; j++) {
        const int32_t *t = lo + 2 * j - 1, *u = hi + 2 * j - 1;
        pa[j] = adm_dwt_round32(adm_taps_lo(t[0], t[1], t[2], t[3]), add, shift);
        pv[j] = adm_dwt_round32(adm_taps_hi(t[0], t[1], t[2], t[3]), add, shift);
        ph[j] = adm_dwt_round32(adm_taps_lo(u[0], u[1], u[2], u[3]), add, shift);
        pd[j] = adm_dwt_round32(adm_taps_hi(u[0], u[1], u[2], u[3]), add, shift);
    }
}

/* Scales 1..3 of one picture, in place on its low band a (read with the input width as stride,
 * written with the band width: output row i only overwrites input rows already consumed). */
void adm_dwt_scale123(const AdmState *s, AdmWork *wk, const int scale, int32_t *a,
                      const AdmBands32 *hvd)
{
    const AdmScaleGeom *g = &s->geom[scale];
    for (int i = 0; i < g->h; i++) {
        vert123(g, a, i, scale, wk->row_lo, wk->row_hi);
        pad_row(wk->row_lo, g->in_w);
        pad_row(wk->row_hi, g->in_w);
        horz123(g, i, scale, wk->row_lo, wk->row_hi, a, hvd);
    }
}
