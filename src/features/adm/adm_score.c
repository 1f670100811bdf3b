/* Integer ADM: the four scales of one frame (libvmaf integer_adm.c integer_compute_adm), and the
 * carving of a worker's scratch into its buffers. */
#include "features/adm/adm_internal.h"

static size_t align64(const size_t n)
{
    return (n + 63) & ~(size_t)63;
}

/* Place n elements of size sz at *off (64-byte aligned) inside base (NULL: only measure). */
static void *carve(void *base, size_t *off, const size_t n, const size_t sz)
{
    void *p = base ? (char *)base + *off : NULL;
    *off += align64(n * sz);
    return p;
}

static void carve16(void *base, size_t *off, const size_t n, AdmBands16 *b)
{
    b->h = carve(base, off, n, sizeof(int16_t));
    b->v = carve(base, off, n, sizeof(int16_t));
    b->d = carve(base, off, n, sizeof(int16_t));
}

static void carve32(void *base, size_t *off, const size_t n, AdmBands32 *b)
{
    b->h = carve(base, off, n, sizeof(int32_t));
    b->v = carve(base, off, n, sizeof(int32_t));
    b->d = carve(base, off, n, sizeof(int32_t));
}

/* The work buffers inside base (or, with base NULL, just their total size). */
size_t adm_work_layout(const AdmState *s, void *base, AdmWork *w)
{
    const size_t n0 = (size_t)s->geom[0].w * s->geom[0].h;
    const size_t n1 = (size_t)s->geom[1].w * s->geom[1].h;
    size_t off = 0;
    w->ref_a = carve(base, &off, n0, sizeof(int32_t));
    w->dis_a = carve(base, &off, n0, sizeof(int32_t));
    AdmBands16 *b16[6] = { &w->ref0, &w->dis0, &w->r0, &w->a0, &w->csf0, &w->flt0 };
    for (int i = 0; i < 6; i++)
        carve16(base, &off, n0, b16[i]);
    AdmBands32 *b32[6] = { &w->ref1, &w->dis1, &w->r1, &w->a1, &w->csf1, &w->flt1 };
    for (int i = 0; i < 6; i++)
        carve32(base, &off, n1, b32[i]);
    /* DWT rows: the input width plus the border positions -1, n, n+1 (see adm_dwt.c) */
    w->row_lo = carve(base, &off, s->width + 3, sizeof(int32_t));
    w->row_hi = carve(base, &off, s->width + 3, sizeof(int32_t));
    if (base) {
        w->row_lo++;
        w->row_hi++;
    }
    w->cm_rows = carve(base, &off, 2 * (size_t)s->geom[0].w, sizeof(uint32_t));
    return off;
}

/* Decouple, denominator, then DLM (CM of the restored bands, masked by the CSF of the additive
 * ones) and AIM (the other way round, without noise floor), as the reference orders them. */
static AdmScaleScore score_scale0(const AdmState *s, AdmWork *wk)
{
    const int w = s->geom[0].w, h = s->geom[0].h;
    AdmScaleScore sc = { 0.0f, 0.0f, 0.0f };
    adm_decouple0(s, wk, w, h);
    sc.den = adm_den0(s, &wk->ref0, w, h);
    adm_csf0(s, &wk->a0, &wk->csf0, &wk->flt0, w, h);
    sc.num = adm_cm0(s, &wk->r0, &wk->csf0, &wk->flt0, w, h, s->opts.noise_weight, wk->cm_rows);
    if (!s->opts.skip_aim) {
        adm_csf0(s, &wk->r0, &wk->csf0, &wk->flt0, w, h);
        sc.aim = adm_cm0(s, &wk->a0, &wk->csf0, &wk->flt0, w, h, 0.0, wk->cm_rows);
    }
    return sc;
}

static AdmScaleScore score_scale123(const AdmState *s, AdmWork *wk, const int scale)
{
    const int w = s->geom[scale].w, h = s->geom[scale].h;
    AdmScaleScore sc = { 0.0f, 0.0f, 0.0f };
    adm_decouple123(s, wk, w, h);
    sc.den = adm_den123(s, scale, &wk->ref1, w, h);
    adm_csf123(s, scale, &wk->a1, &wk->csf1, &wk->flt1, w, h);
    sc.num = adm_cm123(s, scale, &wk->r1, &wk->csf1, &wk->flt1, w, h, s->opts.noise_weight,
                       wk->cm_rows);
    if (!s->opts.skip_aim) {
        adm_csf123(s, scale, &wk->r1, &wk->csf1, &wk->flt1, w, h);
        sc.aim = adm_cm123(s, scale, &wk->a1, &wk->csf1, &wk->flt1, w, h, 0.0, wk->cm_rows);
    }
    return sc;
}

void adm_score_frame(const AdmState *s, AdmWork *wk, const EvPic *ref, const EvPic *dis,
                     AdmScaleScore sc[4])
{
    if (s->opts.skip_scale0) {
        /* only the low band, to feed scale 1; the reference's den of 1e-10 avoids 0/0 */
        adm_dwt_scale0(s, wk, ref, wk->ref_a, NULL);
        adm_dwt_scale0(s, wk, dis, wk->dis_a, NULL);
        sc[0] = (AdmScaleScore){ 0.0f, (float)1e-10, 0.0f };
    } else {
        adm_dwt_scale0(s, wk, ref, wk->ref_a, &wk->ref0);
        adm_dwt_scale0(s, wk, dis, wk->dis_a, &wk->dis0);
        sc[0] = score_scale0(s, wk);
    }
    for (int scale = 1; scale < 4; scale++) {
        adm_dwt_scale123(s, wk, scale, wk->ref_a, &wk->ref1);
        adm_dwt_scale123(s, wk, scale, wk->dis_a, &wk->dis1);
        sc[scale] = score_scale123(s, wk, scale);
    }
}
