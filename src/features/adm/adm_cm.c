/* Integer ADM: contrast masking (numerators) and the CSF-weighted reference energy
 * (denominators), libvmaf integer_adm.c adm_cm, i4_adm_cm, adm_csf_den_scale and
 * adm_csf_den_s123. Sums run row by row: per-row int64/uint64 partials, each folded into the
 * total with a rounding shift, then scaled to float and cube-rooted with glibc powf. */
#include <math.h>

#include "features/adm/adm_internal.h"
#include "features/adm/adm_math.h"

AdmRect adm_rect_cm(const int w, const int h)
{
    AdmRect r;
    r.left = (int)(w * 0.1 - 0.5);
    r.top = (int)(h * 0.1 - 0.5);
    r.right = w - r.left;
    r.bottom = h - r.top;
    return r;
}

float adm_noise_floor(const AdmRect *r, const double noise_weight)
{
    return powf((float)((r->bottom - r->top) * (r->right - r->left) * noise_weight), 1.0f / 3.0f);
}

/* (uint32_t)ceil(x) for the shift sizes; x >= 0 on every frame init accepts. */
static unsigned ceil_shift(const double x)
{
    return (unsigned)ceil(x);
}

/* pow(2, e) of the reference's unsigned exponent arithmetic (a wrapped, huge e gives inf). */
static double pow2u(const unsigned e)
{
    return e > 2048 ? INFINITY : ldexp(1.0, (int)e);
}

/* h + v + d of powf(energy, 1/3) + noise floor, in float, left to right. */
static float sum_bands(const float e[3], const float noise)
{
    const float h = powf(e[0], 1.0f / 3.0f) + noise;
    const float v = powf(e[1], 1.0f / 3.0f) + noise;
    const float d = powf(e[2], 1.0f / 3.0f) + noise;
    return h + v + d;
}

/* ---- denominators ---- */

float adm_den0(const AdmState *s, const AdmBands16 *ref, const int w, const int h)
{
    const AdmRect rc = adm_rect_cm(w, h);
    const int16_t *band[3] = { ref->h, ref->v, ref->d };
    int shift = (int)ceil(log2((double)((rc.bottom - rc.top) * (rc.right - rc.left))) - 20);
    shift = shift > 0 ? shift : 0;
    const uint64_t add = shift > 0 ? (uint64_t)1 << (shift - 1) : 0;
    uint64_t acc[3] = { 0, 0, 0 };
    for (int i = rc.top; i < rc.bottom; i++) {
        const size_t row = (size_t)i * w;
        for (int b = 0; b < 3; b++) {
            uint64_t inner = 0;
            for (int j = rc.left; j < rc.right; j++)
                inner += adm_den_cube0(band[b][row + j]);
            acc[b] += (inner + add) >> shift;
        }
    }
    const double scale = ldexp(1.0, 18 - shift);
    float e[3];
    for (int b = 0; b < 3; b++)
        e[b] = (float)((double)acc[b] / scale * s->rfactor_cubed[0][b]);
    return sum_bands(e, adm_noise_floor(&rc, s->opts.noise_weight));
}

static const unsigned den123_sq_shift[3] = { 31, 30, 31 };
static const unsigned den123_total_shift[3] = { 32, 27, 23 };

float adm_den123(const AdmState *s, const int scale, const AdmBands32 *ref, const int w,
                 const int h)
{
    const AdmRect rc = adm_rect_cm(w, h);
    const int32_t *band[3] = { ref->h, ref->v, ref->d };
    const unsigned q = den123_sq_shift[scale - 1];
    const unsigned cub = ceil_shift(log2(rc.right - rc.left));
    const unsigned sr = ceil_shift(log2(rc.bottom - rc.top));
    const uint64_t cub_add = cub ? (uint64_t)1 << (cub - 1) : 0;
    const uint64_t row_add = sr ? (uint64_t)1 << (sr - 1) : 0;
    uint64_t acc[3] = { 0, 0, 0 };
    for (int i = rc.top; i < rc.bottom; i++) {
        const size_t row = (size_t)i * w;
        for (int b = 0; b < 3; b++) {
            uint64_t inner = 0;
            for (int j = rc.left; j < rc.right; j++)
                inner += adm_den_cube123(band[b][row + j], q, cub_add, cub);
            acc[b] += (inner + row_add) >> sr;
        }
    }
    const double div = pow2u(den123_total_shift[scale - 1] - sr - cub);
    float e[3];
    for (int b = 0; b < 3; b++)
        e[b] = (float)((double)acc[b] / div * s->rfactor_cubed[scale][b]);
    return sum_bands(e, adm_noise_floor(&rc, s->opts.noise_weight));
}

/* ---- contrast masking ----
 * The threshold at (i, j) is, over bands h, v, d, the eight neighbours' masking values plus the
 * centre's own term. These are integer sums (scale 0: int16 terms in int32, no overflow; scales
 * 1..3: int32 terms in an int32 the reference lets wrap, here uint32), so any order gives the
 * reference's value. Each row is prepared once as
 *   col[j]    = the masking values of column j in rows up, mid, dn, over the bands,
 *   centre[j] = the centre terms at (mid, j) minus the masking values there,
 * and thr(j) = col[jl] + col[j] + col[jr] + centre[j]. */

/* What one scale's CM needs besides the bands: cube shifts per band, two rows of scratch. */
typedef struct CmCtx {
    int w, h;
    unsigned sub[3], sq[3], cub[3];     /* sub, sq: scale 0 only */
    int64_t cub_add[3];
    const uint16_t *irf0;               /* scale 0 */
    const uint32_t *irf;                /* scales 1..3 */
    uint32_t *col, *centre;             /* one row each */
} CmCtx;

/* The rows a row's windows read, and the columns its windows cover. */
typedef struct CmRow {
    size_t up, mid, dn;
    int jmin, jmax;
} CmRow;

static CmRow cm_row_at(const CmCtx *c, const AdmSpan *cols, const int i)
{
    CmRow r;
    r.up = (size_t)adm_cm_prev(i) * c->w;
    r.mid = (size_t)i * c->w;
    r.dn = (size_t)adm_cm_next(i, c->h) * c->w;
    r.jmin = cols->first == 0 ? 0 : cols->start - 1;
    r.jmax = cols->last >= 0 ? c->w - 1 : cols->end;
    return r;
}

static void cm0_prepare(const CmCtx *c, const AdmBands16 *csf, const AdmBands16 *flt,
                        const CmRow *r)
{
    const int16_t *fh = flt->h, *fv = flt->v, *fd = flt->d;
    for (int j = r->jmin; j <= r->jmax; j++) {
        const size_t u = r->up + j, m = r->mid + j, d = r->dn + j;
        c->col[j] = (uint32_t)(fh[u] + fh[m] + fh[d] + fv[u] + fv[m] + fv[d] + fd[u] + fd[m] +
                               fd[d]);
        c->centre[j] = (uint32_t)(adm_cm_centre0(csf->h[m]) - fh[m] + adm_cm_centre0(csf->v[m]) -
                                  fv[m] + adm_cm_centre0(csf->d[m]) - fd[m]);
    }
}

static void cm123_prepare(const CmCtx *c, const AdmBands32 *csf, const AdmBands32 *flt,
                          const CmRow *r)
{
    const int32_t *fh = flt->h, *fv = flt->v, *fd = flt->d;
    for (int j = r->jmin; j <= r->jmax; j++) {
        const size_t u = r->up + j, m = r->mid + j, d = r->dn + j;
        c->col[j] = (uint32_t)fh[u] + (uint32_t)fh[m] + (uint32_t)fh[d] + (uint32_t)fv[u] +
                    (uint32_t)fv[m] + (uint32_t)fv[d] + (uint32_t)fd[u] + (uint32_t)fd[m] +
                    (uint32_t)fd[d];
        c->centre[j] = (uint32_t)adm_cm_centre123(csf->h[m]) - (uint32_t)fh[m] +
                       (uint32_t)adm_cm_centre123(csf->v[m]) - (uint32_t)fv[m] +
                       (uint32_t)adm_cm_centre123(csf->d[m]) - (uint32_t)fd[m];
    }
}

static int32_t cm_thr(const CmCtx *c, const int jl, const int j, const int jr)
{
    return adm_wrap32(c->col[jl] + c->col[j] + c->col[jr] + c->centre[j]);
}

static void cm0_cubes(const CmCtx *c, const AdmBands16 *src, const size_t x, const int32_t thr,
                      int64_t inner[3])
{
    const int16_t v[3] = { src->h[x], src->v[x], src->d[x] };
    for (int b = 0; b < 3; b++)
        inner[b] = adm_add64(inner[b], adm_cm_cube0(v[b], c->irf0[b], thr, c->sub[b], c->sq[b],
                                                     c->cub_add[b], c->cub[b]));
}

static void cm123_cubes(const CmCtx *c, const AdmBands32 *src, const size_t x, const int32_t thr,
                        int64_t inner[3])
{
    const int32_t v[3] = { src->h[x], src->v[x], src->d[x] };
    for (int b = 0; b < 3; b++)
        inner[b] = adm_add64(inner[b], adm_cm_cube123(v[b], c->irf[b], thr, c->cub_add[b],
                                                       c->cub[b]));
}

/* One row's cube sums per band, columns 0 (mirrored), interior, w-1 (replicated). */
static void cm0_row(const CmCtx *c, const AdmBands16 *src, const AdmBands16 *csf,
                    const AdmBands16 *flt, const AdmSpan *cols, const int i, int64_t inner[3])
{
    const CmRow r = cm_row_at(c, cols, i);
    cm0_prepare(c, csf, flt, &r);
    if (cols->first == 0)
        cm0_cubes(c, src, r.mid, cm_thr(c, 1, 0, 1), inner);
    for (int j = cols->start; j < cols->end; j++)
        cm0_cubes(c, src, r.mid + j, cm_thr(c, j - 1, j, j + 1), inner);
    if (cols->last >= 0)
        cm0_cubes(c, src, r.mid + c->w - 1, cm_thr(c, c->w - 2, c->w - 1, c->w - 1), inner);
}

static void cm123_row(const CmCtx *c, const AdmBands32 *src, const AdmBands32 *csf,
                      const AdmBands32 *flt, const AdmSpan *cols, const int i, int64_t inner[3])
{
    const CmRow r = cm_row_at(c, cols, i);
    cm123_prepare(c, csf, flt, &r);
    if (cols->first == 0)
        cm123_cubes(c, src, r.mid, cm_thr(c, 1, 0, 1), inner);
    for (int j = cols->start; j < cols->end; j++)
        cm123_cubes(c, src, r.mid + j, cm_thr(c, j - 1, j, j + 1), inner);
    if (cols->last >= 0)
        cm123_cubes(c, src, r.mid + c->w - 1, cm_thr(c, c->w - 2, c->w - 1, c->w - 1), inner);
}

/* Per-band totals: per-row partials folded in with a rounding shift sr = ceil(log2(h)). */
static void cm_sums(const CmCtx *c, const int scale0, const void *src, const void *csf,
                    const void *flt, const AdmRect *rc, const unsigned sr, int64_t acc[3])
{
    const AdmSpan rows = adm_span(rc->top, rc->bottom, c->h);
    const AdmSpan cols = adm_span(rc->left, rc->right, c->w);
    acc[0] = acc[1] = acc[2] = 0;
    for (int i = 0; i < c->h; i++) {
        if (!adm_span_visits(&rows, i))
            continue;
        int64_t inner[3] = { 0, 0, 0 };
        if (scale0)
            cm0_row(c, src, csf, flt, &cols, i, inner);
        else
            cm123_row(c, src, csf, flt, &cols, i, inner);
        for (int b = 0; b < 3; b++)
            acc[b] = adm_add64(acc[b], adm_fold_row(inner[b], sr));
    }
}

float adm_cm0(const AdmState *s, const AdmBands16 *src, const AdmBands16 *csf,
              const AdmBands16 *flt, const int w, const int h, const double noise_weight,
              uint32_t *tmp)
{
    const AdmRect rc = adm_rect_cm(w, h);
    CmCtx c = { w, h, { 10, 10, 12 }, { 29, 29, 30 }, { 0 }, { 0 }, s->irf0, NULL, tmp, tmp + w };
    for (int b = 0; b < 3; b++) {
        c.cub[b] = ceil_shift(log2(w) - (b == 2 ? 3 : 4));
        c.cub_add[b] = c.cub[b] ? (int64_t)1 << (c.cub[b] - 1) : 0;
    }
    const unsigned sr = ceil_shift(log2(h));
    int64_t acc[3];
    cm_sums(&c, 1, src, csf, flt, &rc, sr, acc);
    float e[3];
    for (int b = 0; b < 3; b++)
        e[b] = (float)((double)acc[b] / pow2u((b == 2 ? 57u : 52u) - c.cub[b] - sr));
    return sum_bands(e, adm_noise_floor(&rc, noise_weight));
}

static const unsigned cm123_total_shift[3] = { 45, 39, 36 };

float adm_cm123(const AdmState *s, const int scale, const AdmBands32 *src, const AdmBands32 *csf,
                const AdmBands32 *flt, const int w, const int h, const double noise_weight,
                uint32_t *tmp)
{
    const AdmRect rc = adm_rect_cm(w, h);
    CmCtx c = { w, h, { 0 }, { 0 }, { 0 }, { 0 }, NULL, s->irf[scale], tmp, tmp + w };
    for (int b = 0; b < 3; b++) {
        c.cub[b] = ceil_shift(log2(w));
        c.cub_add[b] = c.cub[b] ? (int64_t)1 << (c.cub[b] - 1) : 0;
    }
    const unsigned sr = ceil_shift(log2(h));
    int64_t acc[3];
    cm_sums(&c, 0, src, csf, flt, &rc, sr, acc);
    /* the reference keeps this divisor in a float and divides the float of the sum by it */
    const float div = (float)pow2u(cm123_total_shift[scale - 1] - c.cub[0] - sr);
    float e[3];
    for (int b = 0; b < 3; b++)
        e[b] = (float)acc[b] / div;
    return sum_bands(e, adm_noise_floor(&rc, noise_weight));
}
