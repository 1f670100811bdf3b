/*
 * Integer VIF per scale, as libvmaf's scalar integer_vif.c: separable Q16 filters (vertical,
 * then horizontal on a reflected row), the per-pixel statistic, and the 2:1 decimation. The row
 * kernels here (_c) are the C reference of vif_kernels.h; the frame loops at the end run any level's.
 *
 * Order: every filter sum here is an exact integer that provably fits its type (bounds at
 * each step), so the loops run tap by tap across a row (which vectorises) instead of the
 * reference's tap loop per pixel; the results are the same integers. The per-pixel statistic
 * (vif_math.h) is called once per pixel; its totals are int64, so pixel order is free too.
 */
#include <string.h>

#include "features/vif/vif_scale.h"

enum { VIF_BLOCK = 256 }; /* columns per horizontal block: its sums stay in L1 */

/* The C kernels' row buffers for rows up to max_w wide, carved from tmp. */
typedef struct VifRows {
    uint16_t *mu[2];  /* vertical means of ref, dis (< 2^16), VIF_MAX_RADIUS margins */
    uint32_t *sq[3];  /* vertical second moments xx, yy, xy, VIF_MAX_RADIUS margins */
    uint32_t *vmu[2]; /* vertical sums of the means, before rounding */
    uint64_t *vsq[3]; /* vertical sums of the second moments above 8 bits */
    uint32_t *hmu[2]; /* horizontal sums over one block of columns */
    uint64_t *hsq[3];
} VifRows;

static size_t line_len(const int max_w)
{
    return (size_t)max_w + 2 * VIF_MAX_RADIUS;
}

size_t vif_row_tmp_size_c(const int max_w)
{
    const size_t lines = line_len(max_w) * (2 * sizeof(uint16_t) + 3 * sizeof(uint32_t));
    const size_t vert = (size_t)max_w * (2 * sizeof(uint32_t) + 3 * sizeof(uint64_t));
    const size_t horiz = VIF_BLOCK * (2 * sizeof(uint32_t) + 3 * sizeof(uint64_t));
    return lines + vert + horiz;
}

static void vif_rows_init(VifRows *rows, void *mem, const int max_w)
{
    uint64_t *p64 = mem; /* the 64-bit arrays first, so that each stays aligned */
    for (int l = 0; l < 3; l++, p64 += max_w)
        rows->vsq[l] = p64;
    for (int l = 0; l < 3; l++, p64 += VIF_BLOCK)
        rows->hsq[l] = p64;
    uint32_t *p32 = (uint32_t *)p64;
    for (int l = 0; l < 3; l++, p32 += line_len(max_w))
        rows->sq[l] = p32 + VIF_MAX_RADIUS;
    for (int l = 0; l < 2; l++, p32 += max_w)
        rows->vmu[l] = p32;
    for (int l = 0; l < 2; l++, p32 += VIF_BLOCK)
        rows->hmu[l] = p32;
    uint16_t *p16 = (uint16_t *)p32;
    for (int l = 0; l < 2; l++, p16 += line_len(max_w))
        rows->mu[l] = p16 + VIF_MAX_RADIUS;
}

/* Fill the r samples before and after a line of w by reflection (the reference's padding). */
static void pad_mu(uint16_t *line, const int w, const int r)
{
    for (int t = 1; t <= r; t++) {
        line[-t] = line[vif_reflect(-t, w)];
        line[w - 1 + t] = line[vif_reflect(w - 1 + t, w)];
    }
}

static void pad_sq(uint32_t *line, const int w, const int r)
{
    for (int t = 1; t <= r; t++) {
        line[-t] = line[vif_reflect(-t, w)];
        line[w - 1 + t] = line[vif_reflect(w - 1 + t, w)];
    }
}

/* One tap of the 8-bit vertical pass across a row: every product is 16 x 16 -> 32 bits (taps
 * < 2^13; samples and their products < 2^16) and no sum reaches 2^32 (65536 x 255^2). */
static void vert_tap_u8(uint32_t *restrict m1, uint32_t *restrict m2, uint32_t *restrict xx,
                        uint32_t *restrict yy, uint32_t *restrict xy, const uint8_t *restrict x,
                        const uint8_t *restrict y, const uint16_t c, const int w)
{
    for (int j = 0; j < w; j++) {
        const uint16_t p = x[j], q = y[j];
        m1[j] += (uint32_t)c * p;
        m2[j] += (uint32_t)c * q;
        xx[j] += (uint32_t)c * (uint16_t)(p * p);
        yy[j] += (uint32_t)c * (uint16_t)(q * q);
        xy[j] += (uint32_t)c * (uint16_t)(p * q);
    }
}

/* Vertical pass of the statistic, 8-bit scale 0, in the reference's uint32: means rounded by
 * 8 bits, second moments kept whole. */
static void stat_vert_u8(VifRows *rows, const void *const *r, const void *const *d,
                         const uint16_t *f, const int n, const int w)
{
    uint32_t *m1 = rows->vmu[0], *m2 = rows->vmu[1];
    memset(m1, 0, (size_t)w * sizeof(*m1));
    memset(m2, 0, (size_t)w * sizeof(*m2));
    for (int l = 0; l < 3; l++)
        memset(rows->sq[l], 0, (size_t)w * sizeof(uint32_t));
    for (int k = 0; k < n; k++)
        vert_tap_u8(m1, m2, rows->sq[0], rows->sq[1], rows->sq[2], r[k], d[k], f[k], w);
    for (int j = 0; j < w; j++) {
        rows->mu[0][j] = (uint16_t)((m1[j] + 128) >> 8);
        rows->mu[1][j] = (uint16_t)((m2[j] + 128) >> 8);
    }
}

/* One tap of the vertical pass on uint16 samples: tap x sample < 2^32 (taps < 2^16), so the
 * means sum in uint32 (below 65536 x 65535) and the second moments in uint64. */
static void vert_tap_u16(uint32_t *restrict m1, uint32_t *restrict m2, uint64_t *restrict xx,
                         uint64_t *restrict yy, uint64_t *restrict xy, const uint16_t *restrict x,
                         const uint16_t *restrict y, const uint16_t c, const int w)
{
    for (int j = 0; j < w; j++) {
        const uint32_t p = x[j], q = y[j];
        const uint32_t cp = c * p, cq = c * q;
        m1[j] += cp;
        m2[j] += cq;
        xx[j] += (uint64_t)cp * p;
        yy[j] += (uint64_t)cq * q;
        xy[j] += (uint64_t)cp * q;
    }
}

/* Vertical pass of the statistic on uint16 samples, each sum rounded by the scale's shifts
 * (the means then fit 16 bits, the second moments 32). */
static void stat_vert_u16(VifRows *rows, const void *const *r, const void *const *d,
                          const uint16_t *f, const int n, const int w, const VifShifts sh)
{
    uint32_t *m1 = rows->vmu[0], *m2 = rows->vmu[1];
    memset(m1, 0, (size_t)w * sizeof(*m1));
    memset(m2, 0, (size_t)w * sizeof(*m2));
    for (int l = 0; l < 3; l++)
        memset(rows->vsq[l], 0, (size_t)w * sizeof(uint64_t));
    for (int k = 0; k < n; k++)
        vert_tap_u16(m1, m2, rows->vsq[0], rows->vsq[1], rows->vsq[2], r[k], d[k], f[k], w);
    for (int j = 0; j < w; j++) {
        rows->mu[0][j] = (uint16_t)vif_round_shift(m1[j], sh.mu_shift);
        rows->mu[1][j] = (uint16_t)vif_round_shift(m2[j], sh.mu_shift);
        for (int l = 0; l < 3; l++)
            rows->sq[l][j] = (uint32_t)vif_round_shift(rows->vsq[l][j], sh.sq_shift);
    }
}

/* One tap of the horizontal pass over a block: means 16 x 16 -> 32 bits, summed in uint32
 * (below 65536 x 65535); second moments summed in uint64. */
static void horiz_tap(uint32_t *restrict m1, uint32_t *restrict m2, uint64_t *restrict xx,
                      uint64_t *restrict yy, uint64_t *restrict xy, const uint16_t *restrict a,
                      const uint16_t *restrict b, const uint32_t *restrict sa,
                      const uint32_t *restrict sb, const uint32_t *restrict sc, const uint16_t c,
                      const int n)
{
    for (int j = 0; j < n; j++) {
        m1[j] += (uint32_t)c * a[j];
        m2[j] += (uint32_t)c * b[j];
        xx[j] += (uint64_t)c * sa[j];
        yy[j] += (uint64_t)c * sb[j];
        xy[j] += (uint64_t)c * sc[j];
    }
}

/* Horizontal pass and statistic of columns [j0, j0 + n) of the current row. */
static void stat_horiz_block(VifSums *s, const VifRows *rows, const uint16_t *f, const int taps,
                             const int j0, const int n, const VifStatParams *p)
{
    uint32_t *m1 = rows->hmu[0], *m2 = rows->hmu[1];
    uint64_t *const *h = rows->hsq;
    memset(m1, 0, (size_t)n * sizeof(*m1));
    memset(m2, 0, (size_t)n * sizeof(*m2));
    for (int l = 0; l < 3; l++)
        memset(h[l], 0, (size_t)n * sizeof(uint64_t));
    for (int k = 0; k < taps; k++) {
        const int o = j0 - taps / 2 + k;
        horiz_tap(m1, m2, h[0], h[1], h[2], rows->mu[0] + o, rows->mu[1] + o, rows->sq[0] + o,
                  rows->sq[1] + o, rows->sq[2] + o, f[k], n);
    }
    for (int j = 0; j < n; j++)
        vif_pixel_stat(s, p->log2_table, m1[j], m2[j], (uint32_t)vif_round_shift(h[0][j], 16),
                       (uint32_t)vif_round_shift(h[1][j], 16),
                       (uint32_t)vif_round_shift(h[2][j], 16), p->egl);
}

/* One tap of the decimation filter's vertical pass: tap x sample < 2^32 and the sums stay
 * below 65536 x 65535. */
static void down_tap_u8(uint32_t *restrict m, const uint8_t *restrict x, const uint16_t c,
                        const int w)
{
    for (int j = 0; j < w; j++)
        m[j] += (uint32_t)c * x[j];
}

static void down_tap_u16(uint32_t *restrict m, const uint16_t *restrict x, const uint16_t c,
                         const int w)
{
    for (int j = 0; j < w; j++)
        m[j] += (uint32_t)c * x[j];
}

/* Vertical pass of the decimation filter: the means of every column of one row. */
static void down_vert(uint16_t *mu, uint32_t *acc, const void *const *rows, const int is_u8,
                      const uint16_t *f, const int n, const int w, const unsigned shift)
{
    memset(acc, 0, (size_t)w * sizeof(*acc));
    for (int k = 0; k < n; k++) {
        if (is_u8)
            down_tap_u8(acc, rows[k], f[k], w);
        else
            down_tap_u16(acc, rows[k], f[k], w);
    }
    for (int j = 0; j < w; j++)
        mu[j] = (uint16_t)vif_round_shift(acc[j], shift);
}

/* Horizontal pass at the even columns only (the decimation keeps no other): w_out outputs. */
static void down_horiz(uint16_t *restrict out, uint32_t *restrict acc,
                       const uint16_t *restrict line, const uint16_t *f, const int n,
                       const int w_out)
{
    memset(acc, 0, (size_t)w_out * sizeof(*acc));
    for (int k = 0; k < n; k++) {
        const uint16_t *restrict src = line - n / 2 + k;
        const uint32_t c = f[k];
        for (int j = 0; j < w_out; j++)
            acc[j] += c * src[2 * j];
    }
    for (int j = 0; j < w_out; j++)
        out[j] = (uint16_t)vif_round_shift(acc[j], 16);
}

/* Pad, then the horizontal pass and statistic of the row the vertical pass left in rows. */
static void stat_horiz_row(VifSums *sums, const VifRows *rows, const int scale, const int w,
                           const VifStatParams *p)
{
    const uint16_t *f = vif_taps[scale];
    const int n = vif_n_taps[scale], r = n / 2;
    for (int l = 0; l < 2; l++)
        pad_mu(rows->mu[l], w, r);
    for (int l = 0; l < 3; l++)
        pad_sq(rows->sq[l], w, r);
    for (int j0 = 0; j0 < w; j0 += VIF_BLOCK) {
        const int len = w - j0 < VIF_BLOCK ? w - j0 : VIF_BLOCK;
        stat_horiz_block(sums, rows, f, n, j0, len, p);
    }
}

void vif_stat_row_u8_c(VifSums *sums, const void *const *ref, const void *const *dis,
                       const int n_out, const int scale, const int w, const VifShifts sh,
                       const VifStatParams *p, void *tmp)
{
    VifRows rows;
    vif_rows_init(&rows, tmp, w);
    for (int o = 0; o < n_out; o++) {
        stat_vert_u8(&rows, ref + o, dis + o, vif_taps[scale], vif_n_taps[scale], w);
        stat_horiz_row(sums, &rows, scale, w, p);
    }
}

void vif_stat_row_u16_c(VifSums *sums, const void *const *ref, const void *const *dis,
                        const int n_out, const int scale, const int w, const VifShifts sh,
                        const VifStatParams *p, void *tmp)
{
    VifRows rows;
    vif_rows_init(&rows, tmp, w);
    for (int o = 0; o < n_out; o++) {
        stat_vert_u16(&rows, ref + o, dis + o, vif_taps[scale], vif_n_taps[scale], w, sh);
        stat_horiz_row(sums, &rows, scale, w, p);
    }
}

/* One picture's row of the next scale. */
static void down_row1(uint16_t *out, const void *const *in, const int is_u8, const int filter,
                      const int w, const unsigned shift, void *tmp)
{
    VifRows rows;
    vif_rows_init(&rows, tmp, w);
    const uint16_t *f = vif_taps[filter];
    const int n = vif_n_taps[filter];
    down_vert(rows.mu[0], rows.vmu[0], in, is_u8, f, n, w, shift);
    pad_mu(rows.mu[0], w, n / 2);
    down_horiz(out, rows.vmu[0], rows.mu[0], f, n, w / 2);
}

void vif_down_row_u8_c(uint16_t *out_ref, uint16_t *out_dis, const void *const *ref,
                       const void *const *dis, const int filter, const int w, const unsigned shift,
                       void *tmp)
{
    down_row1(out_ref, ref, 1, filter, w, shift, tmp);
    down_row1(out_dis, dis, 1, filter, w, shift, tmp);
}

void vif_down_row_u16_c(uint16_t *out_ref, uint16_t *out_dis, const void *const *ref,
                        const void *const *dis, const int filter, const int w, const unsigned shift,
                        void *tmp)
{
    down_row1(out_ref, ref, 0, filter, w, shift, tmp);
    down_row1(out_dis, dis, 0, filter, w, shift, tmp);
}

void vif_down_one_u8_c(uint16_t *out, const void *const *in, const int filter, const int w,
                       const unsigned shift, void *tmp)
{
    down_row1(out, in, 1, filter, w, shift, tmp);
}

void vif_down_one_u16_c(uint16_t *out, const void *const *in, const int filter, const int w,
                        const unsigned shift, void *tmp)
{
    down_row1(out, in, 0, filter, w, shift, tmp);
}

/* ---- frame loops, any level ---- */

/* Row pointers of the input rows i - r .. i + r + extra, reflected at the plane's edges. */
static void tap_rows(const void **rows, const VifPlane *p, const int i, const int r,
                     const int extra)
{
    for (int k = 0; k < 2 * r + extra; k++)
        rows[k] = (const unsigned char *)p->data + vif_reflect(i - r + k, p->h) * p->stride;
}

/* Down row k of the next scale (filter scale + 1) from the input rows around row 2k. */
static void down_at(uint16_t *out_ref, uint16_t *out_dis, const ptrdiff_t out_stride,
                    const VifPlane *ref, const VifPlane *dis, const int scale, const unsigned bpc,
                    const VifDsp *dsp, void *tmp, const int k)
{
    const int r = vif_n_taps[scale + 1] / 2;
    const VifDownRowFn row = ref->is_u8 ? dsp->down_row_u8 : dsp->down_row_u16;
    const void *rr[VIF_MAX_TAPS], *dr[VIF_MAX_TAPS];
    tap_rows(rr, ref, 2 * k, r, 1);
    tap_rows(dr, dis, 2 * k, r, 1);
    row((uint16_t *)((char *)out_ref + k * out_stride),
        (uint16_t *)((char *)out_dis + k * out_stride), rr, dr, scale + 1, ref->w,
        vif_shifts(scale, bpc).mu_shift, tmp);
}

/* Whether rows [from, to) of ref or dis hold a sample above 2^bpc - 1 (uint16 planes): an OR
 * of the samples has a bit at or above bpc. */
static int rows_over_depth(const VifPlane *ref, const VifPlane *dis, const int from, const int to,
                           const unsigned bpc)
{
    unsigned acc = 0;
    for (int y = from; y < to; y++) {
        const uint16_t *a = (const uint16_t *)((const char *)ref->data + y * ref->stride);
        const uint16_t *b = (const uint16_t *)((const char *)dis->data + y * dis->stride);
        uint16_t row = 0;
        for (int x = 0; x < ref->w; x++)
            row |= a[x] | b[x];
        acc |= row;
    }
    return (acc >> bpc) != 0;
}

int vif_scale_run(VifSums *sums, uint16_t *out_ref, uint16_t *out_dis, const ptrdiff_t out_stride,
                  const VifPlane *ref, const VifPlane *dis, const int scale, const unsigned bpc,
                  const VifStatParams *p, const VifDsp *dsp, void *tmp, const int check)
{
    const int r = vif_n_taps[scale] / 2;
    const VifShifts sh = vif_shifts(scale, bpc);
    const VifStatRowFn row = ref->is_u8 ? dsp->stat_row_u8 : dsp->stat_row_u16;
    const void *rr[VIF_MAX_TAPS + 1], *dr[VIF_MAX_TAPS + 1];
    int checked = 0; /* rows [0, checked) are within the depth */
    for (int i = 0; i < ref->h; i += 2) {
        if (check) {
            /* outputs i, i + 1 and the next scale's row i / 2 read rows up to i + 1 + r
             * (reflection stays below that) */
            const int need = i + 2 + r < ref->h ? i + 2 + r : ref->h;
            if (need > checked && rows_over_depth(ref, dis, checked, need, bpc))
                return 1;
            checked = need > checked ? need : checked;
        }
        if (sums) {
            /* two output rows per call (the kernels share their input rows), one at the end */
            const int n_out = ref->h - i > 1 ? 2 : 1;
            tap_rows(rr, ref, i, r, n_out);
            tap_rows(dr, dis, i, r, n_out);
            row(sums, rr, dr, n_out, scale, ref->w, sh, p, tmp);
        }
        /* the next scale's row i / 2 reads rows the statistic just read: still in cache */
        if (out_ref && i / 2 < ref->h / 2)
            down_at(out_ref, out_dis, out_stride, ref, dis, scale, bpc, dsp, tmp, i / 2);
    }
    return 0;
}

/* Many encodes: the reference's rows once per row pair, then each distorted's (vif_scale.h). */
void vif_scale_run_multi(VifSums *sums, uint16_t *out_ref, uint16_t *const *out_dis,
                         const ptrdiff_t out_stride, const VifPlane *ref, const VifPlane *dis,
                         const int n, const int scale, const unsigned bpc, const VifStatParams *p,
                         const VifDsp *dsp, void *tmp, void *cache)
{
    const int r = vif_n_taps[scale] / 2, u8 = ref->is_u8;
    const VifShifts sh = vif_shifts(scale, bpc);
    const VifStatRowFn row = u8 ? dsp->stat_row_u8 : dsp->stat_row_u16;
    const VifStatRefFn ref_part = u8 ? dsp->stat_ref_u8 : dsp->stat_ref_u16;
    const VifStatDisFn dis_part = u8 ? dsp->stat_dis_u8 : dsp->stat_dis_u16;
    const VifDownOneFn down = u8 ? dsp->down_one_u8 : dsp->down_one_u16;
    const unsigned down_shift = vif_shifts(scale, bpc).mu_shift;
    const int rd = scale < 3 ? vif_n_taps[scale + 1] / 2 : 0;
    const void *rr[VIF_MAX_TAPS + 1], *dr[VIF_MAX_TAPS + 1];
    VifSums den = { 0 }; /* the reference's part: the denominator's sums of every distorted */
    for (int i = 0; i < ref->h; i += 2) {
        if (sums) {
            const int n_out = ref->h - i > 1 ? 2 : 1;
            tap_rows(rr, ref, i, r, n_out);
            if (ref_part && cache)
                ref_part(&den, cache, rr, n_out, scale, ref->w, sh, p, tmp);
            for (int k = 0; k < n; k++) {
                tap_rows(dr, &dis[k], i, r, n_out);
                if (ref_part && cache)
                    dis_part(&sums[k], cache, rr, dr, n_out, scale, ref->w, sh, p, tmp);
                else
                    row(&sums[k], rr, dr, n_out, scale, ref->w, sh, p, tmp);
            }
        }
        const int k_out = i / 2;
        if (!out_ref || k_out >= ref->h / 2)
            continue;
        const ptrdiff_t at = k_out * out_stride;
        tap_rows(rr, ref, 2 * k_out, rd, 1);
        down((uint16_t *)((char *)out_ref + at), rr, scale + 1, ref->w, down_shift, tmp);
        for (int k = 0; k < n; k++) {
            tap_rows(dr, &dis[k], 2 * k_out, rd, 1);
            down((uint16_t *)((char *)out_dis[k] + at), dr, scale + 1, ref->w, down_shift, tmp);
        }
    }
    for (int k = 0; sums && k < n; k++) {
        sums[k].den_log += den.den_log;
        sums[k].den_non_log += den.den_non_log;
    }
}

int vif_plane_over_depth(const VifPlane *plane, const unsigned bpc)
{
    return rows_over_depth(plane, plane, 0, plane->h, bpc);
}
