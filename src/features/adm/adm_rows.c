/*
 * Integer ADM row kernels, the C reference of adm_kernels.h (libvmaf integer_adm.c: adm_dwt2_8/_16,
 * adm_dwt2_s123_combined, adm_decouple(_s123), adm_csf / i4_adm_csf, adm_csf_den_scale /
 * adm_csf_den_s123, adm_cm / i4_adm_cm), one band row at a time. The per-coefficient
 * arithmetic is adm_math.h's.
 */
#include <stddef.h>

#include "features/adm/adm_kernels.h"
#include "features/adm/adm_math.h"

/* ---- DWT ---- */

/* The vertical rows hold n samples at [0, n) plus the positions -1, n, n + 1 the horizontal taps
 * reach, filled by the DWT's border rule (adm_dwt_index): -1 -> 1, n -> n - 1, n + 1 -> n - 2.
 * Output j then reads taps 2j - 1 .. 2j + 2 directly. */
static void pad_row(int32_t *row, const int n)
{
    row[-1] = row[1];
    row[n] = row[n - 1];
    row[n + 1] = row[n - 2];
}

typedef struct DwtRows {
    int32_t *lo, *hi; /* in_w + 3 each, [-1] valid */
} DwtRows;

static DwtRows dwt_rows(void *tmp, const int in_w)
{
    int32_t *p = tmp;
    const DwtRows r = { p + 1, p + in_w + 4 };
    return r;
}

size_t adm_rows_tmp_size_c(const int max_in_w)
{
    const size_t dwt = 2 * ((size_t)max_in_w + 3) * sizeof(int32_t);
    const size_t cm = 2 * ((size_t)max_in_w + 64) * sizeof(uint32_t);
    return dwt > cm ? dwt : cm;
}

/* Scale 0 horizontal pass: band a from lo (and v), h and d from hi, w outputs. */
static void dwt0_horz(int16_t *a, const AdmRow16 *hvd, const DwtRows *r, const int w)
{
    for (int j = 0; j < w; j++) {
        const int32_t *t = r->lo + 2 * j - 1;
        a[j] = adm_dwt0_horz(adm_taps0_lo(t[0], t[1], t[2], t[3]));
    }
    if (!hvd)
        return;
    for (int j = 0; j < w; j++) {
        const int32_t *t = r->lo + 2 * j - 1, *u = r->hi + 2 * j - 1;
        hvd->b[1][j] = adm_dwt0_horz(adm_taps0_hi(t[0], t[1], t[2], t[3]));
        hvd->b[0][j] = adm_dwt0_horz(adm_taps0_lo(u[0], u[1], u[2], u[3]));
        hvd->b[2][j] = adm_dwt0_horz(adm_taps0_hi(u[0], u[1], u[2], u[3]));
    }
}

void adm_dwt0_u8_c(int16_t *a, const AdmRow16 *hvd, const void *const *rows, const int in_w,
                   const unsigned bpc, void *tmp)
{
    const DwtRows r = dwt_rows(tmp, in_w);
    const uint8_t *r0 = rows[0], *r1 = rows[1], *r2 = rows[2], *r3 = rows[3];
    for (int j = 0; j < in_w; j++)
        r.lo[j] = adm_dwt0_vert_lo(r0[j], r1[j], r2[j], r3[j], 8);
    if (hvd)
        for (int j = 0; j < in_w; j++)
            r.hi[j] = adm_dwt0_vert_hi(r0[j], r1[j], r2[j], r3[j], 8);
    pad_row(r.lo, in_w);
    if (hvd)
        pad_row(r.hi, in_w);
    dwt0_horz(a, hvd, &r, (in_w + 1) / 2);
}

void adm_dwt0_u16_c(int16_t *a, const AdmRow16 *hvd, const void *const *rows, const int in_w,
                    const unsigned bpc, void *tmp)
{
    const DwtRows r = dwt_rows(tmp, in_w);
    const uint16_t *r0 = rows[0], *r1 = rows[1], *r2 = rows[2], *r3 = rows[3];
    for (int j = 0; j < in_w; j++)
        r.lo[j] = adm_dwt0_vert_lo(r0[j], r1[j], r2[j], r3[j], bpc);
    if (hvd)
        for (int j = 0; j < in_w; j++)
            r.hi[j] = adm_dwt0_vert_hi(r0[j], r1[j], r2[j], r3[j], bpc);
    pad_row(r.lo, in_w);
    if (hvd)
        pad_row(r.hi, in_w);
    dwt0_horz(a, hvd, &r, (in_w + 1) / 2);
}

/* Rounding (add, shift) of scales 1, 2, 3: vertical, then horizontal. */
static const int64_t s123_vert_add[3] = { 0, 32768, 32768 };
static const unsigned s123_vert_shift[3] = { 0, 16, 16 };
static const int64_t s123_horz_add[3] = { 16384, 32768, 16384 };
static const unsigned s123_horz_shift[3] = { 15, 16, 15 };

/* Sample j of input row k of a scale 1..3 DWT: int16 rows at scale 1, int32 above. */
static int32_t in123(const void *const *rows, const int k, const int j, const int scale)
{
    return scale == 1 ? ((const int16_t *)rows[k])[j] : ((const int32_t *)rows[k])[j];
}

void adm_dwt123_c(int32_t *a, const AdmRow32 *hvd, const void *const *rows, const int in_w,
                  const int scale, void *tmp)
{
    const DwtRows r = dwt_rows(tmp, in_w);
    const int64_t vadd = s123_vert_add[scale - 1], hadd = s123_horz_add[scale - 1];
    const unsigned vsh = s123_vert_shift[scale - 1], hsh = s123_horz_shift[scale - 1];
    for (int j = 0; j < in_w; j++) {
        const int32_t s0 = in123(rows, 0, j, scale), s1 = in123(rows, 1, j, scale);
        const int32_t s2 = in123(rows, 2, j, scale), s3 = in123(rows, 3, j, scale);
        r.lo[j] = adm_dwt_round32(adm_taps_lo(s0, s1, s2, s3), vadd, vsh);
        r.hi[j] = adm_dwt_round32(adm_taps_hi(s0, s1, s2, s3), vadd, vsh);
    }
    pad_row(r.lo, in_w);
    pad_row(r.hi, in_w);
    const int w = (in_w + 1) / 2;
    for (int j = 0; j < w; j++) {
        const int32_t *t = r.lo + 2 * j - 1, *u = r.hi + 2 * j - 1;
        a[j] = adm_dwt_round32(adm_taps_lo(t[0], t[1], t[2], t[3]), hadd, hsh);
        hvd->b[1][j] = adm_dwt_round32(adm_taps_hi(t[0], t[1], t[2], t[3]), hadd, hsh);
        hvd->b[0][j] = adm_dwt_round32(adm_taps_lo(u[0], u[1], u[2], u[3]), hadd, hsh);
        hvd->b[2][j] = adm_dwt_round32(adm_taps_hi(u[0], u[1], u[2], u[3]), hadd, hsh);
    }
}

/* ---- decouple: the angle test runs on the (h, v) pair; its flag gates the gain step of all
 * three bands ---- */

void adm_decouple0_c(const AdmRow16 *r, const AdmRow16 *a, const AdmRow16 *o, const AdmRow16 *t,
                     const int x0, const int x1, const AdmDecoupleParams *p)
{
    for (int j = x0; j < x1; j++) {
        const int16_t oh = o->b[0][j], ov = o->b[1][j], th = t->b[0][j], tv = t->b[1][j];
        const int64_t ot_dp = (int64_t)oh * th + (int64_t)ov * tv;
        const int64_t o_mag_sq = (int64_t)oh * oh + (int64_t)ov * ov;
        const int64_t t_mag_sq = (int64_t)th * th + (int64_t)tv * tv;
        const int flag = adm_angle_flag(ot_dp, o_mag_sq, t_mag_sq, p->cos_1deg_sq);
        for (int b = 0; b < 3; b++)
            adm_decouple_coef0(o->b[b][j], t->b[b][j], flag, p->egl, p->div_lookup, &r->b[b][j],
                               &a->b[b][j]);
    }
}

void adm_decouple123_c(const AdmRow32 *r, const AdmRow32 *a, const AdmRow32 *o, const AdmRow32 *t,
                       const int x0, const int x1, const AdmDecoupleParams *p)
{
    for (int j = x0; j < x1; j++) {
        const int32_t oh = o->b[0][j], ov = o->b[1][j], th = t->b[0][j], tv = t->b[1][j];
        const int64_t ot_dp = (int64_t)oh * th + (int64_t)ov * tv;
        const int64_t o_mag_sq = (int64_t)oh * oh + (int64_t)ov * ov;
        const int64_t t_mag_sq = (int64_t)th * th + (int64_t)tv * tv;
        const int flag = adm_angle_flag(ot_dp, o_mag_sq, t_mag_sq, p->cos_1deg_sq);
        for (int b = 0; b < 3; b++)
            adm_decouple_coef123(o->b[b][j], t->b[b][j], flag, p->egl, p->div_lookup, &r->b[b][j],
                                 &a->b[b][j]);
    }
}

/* ---- contrast sensitivity and masking values ---- */

void adm_csf0_c(const AdmRow16 *csf, const AdmRow16 *flt, const AdmRow16 *src, const int x0,
                const int x1, const uint16_t *rf)
{
    for (int b = 0; b < 3; b++)
        for (int j = x0; j < x1; j++) {
            const int16_t v = adm_csf_coef0(src->b[b][j], rf[b], b == 2);
            csf->b[b][j] = v;
            flt->b[b][j] = adm_flt_coef0(v);
        }
}

void adm_csf123_c(const AdmRow32 *csf, const AdmRow32 *flt, const AdmRow32 *src, const int x0,
                  const int x1, const uint32_t *rf)
{
    for (int b = 0; b < 3; b++)
        for (int j = x0; j < x1; j++) {
            const int32_t v = adm_csf_coef123(src->b[b][j], rf[b]);
            csf->b[b][j] = v;
            flt->b[b][j] = adm_flt_coef123(v);
        }
}

/* ---- denominators ---- */

void adm_den0_c(uint64_t sums[3], const AdmRow16 *o, const int x0, const int x1)
{
    for (int b = 0; b < 3; b++) {
        uint64_t inner = 0;
        for (int j = x0; j < x1; j++)
            inner += adm_den_cube0(o->b[b][j]);
        sums[b] = inner;
    }
}

void adm_den123_c(uint64_t sums[3], const AdmRow32 *o, const int x0, const int x1, const unsigned q,
                  const uint64_t cub_add, const unsigned cub)
{
    for (int b = 0; b < 3; b++) {
        uint64_t inner = 0;
        for (int j = x0; j < x1; j++)
            inner += adm_den_cube123(o->b[b][j], q, cub_add, cub);
        sums[b] = inner;
    }
}

/* ---- contrast masking ----
 * The threshold at (i, j) is, over bands h, v, d, the eight neighbours' masking values plus the
 * centre's own term. These are integer sums (scale 0: int16 terms in int32, no overflow; scales
 * 1..3: int32 terms in an int32 the reference lets wrap, here uint32), so any order gives the
 * reference's value. Each row is prepared once as
 *   col[j]    = the masking values of column j in rows up, mid, dn, over the bands,
 *   centre[j] = the centre terms at (mid, j) minus the masking values there,
 * and thr(j) = col[jl] + col[j] + col[jr] + centre[j]. */

/* The columns a row's windows read. */
static int cm_jmin(const AdmCmCols *c)
{
    return c->first == 0 ? 0 : c->start - 1;
}

static int cm_jmax(const AdmCmCols *c)
{
    return c->last >= 0 ? c->w - 1 : c->end;
}

static int32_t cm_thr(const uint32_t *col, const uint32_t *centre, const int jl, const int j,
                      const int jr)
{
    return adm_wrap32(col[jl] + col[j] + col[jr] + centre[j]);
}

static void cm0_cubes(int64_t sums[3], const AdmRow16 *src, const int j, const int32_t thr,
                      const AdmCmParams *p)
{
    for (int b = 0; b < 3; b++)
        sums[b] = adm_add64(sums[b], adm_cm_cube0(src->b[b][j], p->irf0[b], thr, p->sub[b],
                                                  p->sq[b], p->cub_add[b], p->cub[b]));
}

void adm_cm0_c(int64_t sums[3], const AdmRow16 *src, const AdmRow16 *csf,
               const AdmRow16 *const *flt, const AdmCmCols *cols, const AdmCmParams *p, void *tmp)
{
    uint32_t *col = tmp, *centre = col + cols->w + 64;
    const AdmRow16 *u = flt[0], *m = flt[1], *d = flt[2];
    for (int j = cm_jmin(cols); j <= cm_jmax(cols); j++) {
        int32_t c = 0, e = 0;
        for (int b = 0; b < 3; b++) {
            c += u->b[b][j] + m->b[b][j] + d->b[b][j];
            e += adm_cm_centre0(csf->b[b][j]) - m->b[b][j];
        }
        col[j] = (uint32_t)c;
        centre[j] = (uint32_t)e;
    }
    sums[0] = sums[1] = sums[2] = 0;
    const int w = cols->w;
    if (cols->first == 0)
        cm0_cubes(sums, src, 0, cm_thr(col, centre, 1, 0, 1), p);
    for (int j = cols->start; j < cols->end; j++)
        cm0_cubes(sums, src, j, cm_thr(col, centre, j - 1, j, j + 1), p);
    if (cols->last >= 0)
        cm0_cubes(sums, src, w - 1, cm_thr(col, centre, w - 2, w - 1, w - 1), p);
}

static void cm123_cubes(int64_t sums[3], const AdmRow32 *src, const int j, const int32_t thr,
                        const uint32_t *irf, const AdmCmParams *p)
{
    for (int b = 0; b < 3; b++)
        sums[b] =
            adm_add64(sums[b], adm_cm_cube123(src->b[b][j], irf[b], thr, p->cub_add[b], p->cub[b]));
}

void adm_cm123_c(int64_t sums[3], const AdmRow32 *src, const AdmRow32 *csf,
                 const AdmRow32 *const *flt, const AdmCmCols *cols, const int scale,
                 const AdmCmParams *p, void *tmp)
{
    uint32_t *col = tmp, *centre = col + cols->w + 64;
    const AdmRow32 *u = flt[0], *m = flt[1], *d = flt[2];
    for (int j = cm_jmin(cols); j <= cm_jmax(cols); j++) {
        uint32_t c = 0, e = 0;
        for (int b = 0; b < 3; b++) {
            c += (uint32_t)u->b[b][j] + (uint32_t)m->b[b][j] + (uint32_t)d->b[b][j];
            e += (uint32_t)adm_cm_centre123(csf->b[b][j]) - (uint32_t)m->b[b][j];
        }
        col[j] = c;
        centre[j] = e;
    }
    sums[0] = sums[1] = sums[2] = 0;
    const int w = cols->w;
    const uint32_t *irf = p->irf + 3 * scale;
    if (cols->first == 0)
        cm123_cubes(sums, src, 0, cm_thr(col, centre, 1, 0, 1), irf, p);
    for (int j = cols->start; j < cols->end; j++)
        cm123_cubes(sums, src, j, cm_thr(col, centre, j - 1, j, j + 1), irf, p);
    if (cols->last >= 0)
        cm123_cubes(sums, src, w - 1, cm_thr(col, centre, w - 2, w - 1, w - 1), irf, p);
}
