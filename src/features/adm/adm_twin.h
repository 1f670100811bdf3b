/*
 * Integer ADM one coefficient at a time: adm_rows.c's row kernels taken apart per band
 * position, for the CUDA twin (adm.cu), which runs one position per thread, and for
 * tests/unit/twin_steps_test.c, which runs them on the host against adm_frame.c. The arithmetic
 * is adm_math.h's; the values are the reference's integers whatever the storage (the twin keeps
 * scale-0 values, int16 in the reference, in int32).
 *
 * Per scale, the twin's stages are:
 *   DWT        every position of the bands: low band a (the next scale's input), h, v, d;
 *   band       inside the CSF rectangle: decouple, then the CSF masking values of the additive
 *              (DLM) and restored (AIM) bands, summed over the bands; inside the CM rectangle:
 *              the denominator cubes, added per row;
 *   masking    at every position the CM spans visit: decouple and CSF again at the centre, the
 *              3x3 threshold from the stored sums, the masked cubes, added per row;
 *   fold       each row's sums shifted as the reference folds them, then added.
 * Row sums are integers (int64 wrapping as the reference's, uint64 for the denominator), so
 * they may be formed in any order; the fold is per row, as the reference.
 */
#ifndef EV_FEATURES_ADM_TWIN_H
#define EV_FEATURES_ADM_TWIN_H

#include <stddef.h>
#include <stdint.h>

#include "features/adm/adm_internal.h"
#include "features/adm/adm_math.h"

/* Everything one scale's kernels need, by value. */
typedef struct AdmTwinScale {
    int scale, w, h, in_w, in_h;
    AdmRect csf, cm;
    AdmSpan rows, cols; /* the CM spans (AdmSpan of the CM rectangle) */
    unsigned den_shift, den_q, den_cub, cm_sr;
    uint64_t den_add, den_cub_add;
    unsigned sub[3], sq[3], cub[3];
    int64_t cub_add[3];
    uint16_t irf0[3]; /* scale 0 CSF factors */
    uint32_t irf[3];  /* this scale's (1..3) */
    double egl;
    float cos_1deg_sq;
    int skip_aim;
} AdmTwinScale;

/* Built on the host from the state and adm_scale_shifts. */
static inline AdmTwinScale adm_twin_scale(const AdmState *s, const int scale)
{
    const AdmScaleShifts x = adm_scale_shifts(s, scale);
    AdmTwinScale p;
    p.scale = scale;
    p.w = s->geom[scale].w;
    p.h = s->geom[scale].h;
    p.in_w = s->geom[scale].in_w;
    p.in_h = s->geom[scale].in_h;
    p.csf = x.csf;
    p.cm = x.cm;
    p.rows = x.rows;
    p.cols.first = x.cols.first;
    p.cols.start = x.cols.start;
    p.cols.end = x.cols.end;
    p.cols.last = x.cols.last;
    p.den_shift = x.den_shift;
    p.den_q = x.den_q;
    p.den_cub = x.den_cub;
    p.cm_sr = x.cm_sr;
    p.den_add = x.den_add;
    p.den_cub_add = x.den_cub_add;
    for (int b = 0; b < 3; b++) {
        p.sub[b] = x.cmp.sub[b];
        p.sq[b] = x.cmp.sq[b];
        p.cub[b] = x.cmp.cub[b];
        p.cub_add[b] = x.cmp.cub_add[b];
        p.irf0[b] = s->irf0[b];
        p.irf[b] = s->irf[scale][b];
    }
    p.egl = s->opts.enhn_gain_limit;
    p.cos_1deg_sq = s->cos_1deg_sq;
    p.skip_aim = s->opts.skip_aim;
    return p;
}

EV_HD int adm_twin_in_rect(const AdmRect *r, const int i, const int j)
{
    return i >= r->top && i < r->bottom && j >= r->left && j < r->right;
}

/* adm_span_visits, for device code too. */
EV_HD int adm_twin_visits(const AdmSpan *sp, const int i)
{
    return i == sp->first || i == sp->last || (i >= sp->start && i < sp->end);
}

/* ---- DWT ---- */

/* Scale 0 at band position (i, j) of a luma of in_w x in_h bpc-bit samples (uint8_t rows for
 * 8 bits, else uint16_t), rows stride bytes apart: out[0] = a, out[1..3] = h, v, d. */
EV_HD void adm_twin_dwt0(const void *luma, const ptrdiff_t stride, const int in_w, const int in_h,
                         const unsigned bpc, const int i, const int j, int32_t out[4])
{
    const char *row[4];
    for (int k = 0; k < 4; k++)
        row[k] = (const char *)luma + (ptrdiff_t)adm_dwt_index(2 * i - 1 + k, in_h) * stride;
    int32_t lo[4], hi[4];
    for (int t = 0; t < 4; t++) {
        const int c = adm_dwt_index(2 * j - 1 + t, in_w);
        uint32_t v[4];
        for (int k = 0; k < 4; k++)
            v[k] = bpc == 8 ? ((const uint8_t *)row[k])[c] : ((const uint16_t *)row[k])[c];
        lo[t] = adm_dwt0_vert_lo(v[0], v[1], v[2], v[3], bpc);
        hi[t] = adm_dwt0_vert_hi(v[0], v[1], v[2], v[3], bpc);
    }
    out[0] = adm_dwt0_horz(adm_taps0_lo(lo[0], lo[1], lo[2], lo[3]));
    out[1] = adm_dwt0_horz(adm_taps0_lo(hi[0], hi[1], hi[2], hi[3]));
    out[2] = adm_dwt0_horz(adm_taps0_hi(lo[0], lo[1], lo[2], lo[3]));
    out[3] = adm_dwt0_horz(adm_taps0_hi(hi[0], hi[1], hi[2], hi[3]));
}

/* Scales 1..3 at (i, j) from the previous scale's band a: in_w x in_h packed, int16 (scale 1)
 * or int32 values. Rounding (add, shift): vertical (0, 0), (32768, 16), (32768, 16),
 * horizontal (16384, 15), (32768, 16), (16384, 15) for scales 1, 2, 3. */
EV_HD void adm_twin_dwt123(const void *in, const int in_w, const int in_h, const int scale,
                           const int i, const int j, int32_t out[4])
{
    const int64_t vadd = scale == 1 ? 0 : 32768, hadd = scale == 2 ? 32768 : 16384;
    const unsigned vsh = scale == 1 ? 0 : 16, hsh = scale == 2 ? 16 : 15;
    int y[4];
    for (int k = 0; k < 4; k++)
        y[k] = adm_dwt_index(2 * i - 1 + k, in_h);
    int32_t lo[4], hi[4];
    for (int t = 0; t < 4; t++) {
        const int c = adm_dwt_index(2 * j - 1 + t, in_w);
        int64_t v[4];
        for (int k = 0; k < 4; k++) {
            const size_t at = (size_t)y[k] * (size_t)in_w + (size_t)c;
            v[k] = scale == 1 ? ((const int16_t *)in)[at] : ((const int32_t *)in)[at];
        }
        lo[t] = adm_dwt_round32(adm_taps_lo(v[0], v[1], v[2], v[3]), vadd, vsh);
        hi[t] = adm_dwt_round32(adm_taps_hi(v[0], v[1], v[2], v[3]), vadd, vsh);
    }
    out[0] = adm_dwt_round32(adm_taps_lo(lo[0], lo[1], lo[2], lo[3]), hadd, hsh);
    out[1] = adm_dwt_round32(adm_taps_lo(hi[0], hi[1], hi[2], hi[3]), hadd, hsh);
    out[2] = adm_dwt_round32(adm_taps_hi(lo[0], lo[1], lo[2], lo[3]), hadd, hsh);
    out[3] = adm_dwt_round32(adm_taps_hi(hi[0], hi[1], hi[2], hi[3]), hadd, hsh);
}

/* ---- decouple, CSF, masking values ---- */

/* Restored r and additive a of the three bands at one position (o: reference, t: distorted). */
EV_HD void adm_twin_decouple(const AdmTwinScale *p, const int32_t *div_lookup, const int32_t o[3],
                             const int32_t t[3], int32_t r[3], int32_t a[3])
{
    const int64_t ot_dp = (int64_t)o[0] * t[0] + (int64_t)o[1] * t[1];
    const int64_t o_mag_sq = (int64_t)o[0] * o[0] + (int64_t)o[1] * o[1];
    const int64_t t_mag_sq = (int64_t)t[0] * t[0] + (int64_t)t[1] * t[1];
    const int flag = adm_angle_flag(ot_dp, o_mag_sq, t_mag_sq, p->cos_1deg_sq);
    for (int b = 0; b < 3; b++) {
        if (p->scale == 0) {
            int16_t rr, aa;
            adm_decouple_coef0((int16_t)o[b], (int16_t)t[b], flag, p->egl, div_lookup, &rr, &aa);
            r[b] = rr;
            a[b] = aa;
        } else {
            adm_decouple_coef123(o[b], t[b], flag, p->egl, div_lookup, &r[b], &a[b]);
        }
    }
}

/* The CSF values of x's bands and their masking values. */
EV_HD void adm_twin_csf(const AdmTwinScale *p, const int32_t x[3], int32_t csf[3], int32_t flt[3])
{
    for (int b = 0; b < 3; b++) {
        if (p->scale == 0) {
            const int16_t v = adm_csf_coef0((int16_t)x[b], p->irf0[b], b == 2);
            csf[b] = v;
            flt[b] = adm_flt_coef0(v);
        } else {
            csf[b] = adm_csf_coef123(x[b], p->irf[b]);
            flt[b] = adm_flt_coef123(csf[b]);
        }
    }
}

/* The masking values at one position summed over the bands (modulo 2^32: the threshold is a
 * modular sum, so it needs no more), of the DLM pass (from a) and of the AIM pass (from r). */
EV_HD void adm_twin_band(const AdmTwinScale *p, const int32_t *div_lookup, const int32_t o[3],
                         const int32_t t[3], uint32_t *flt_a, uint32_t *flt_r)
{
    int32_t r[3], a[3], csf[3], fa[3], fr[3];
    adm_twin_decouple(p, div_lookup, o, t, r, a);
    adm_twin_csf(p, a, csf, fa);
    adm_twin_csf(p, r, csf, fr);
    *flt_a = (uint32_t)fa[0] + (uint32_t)fa[1] + (uint32_t)fa[2];
    *flt_r = (uint32_t)fr[0] + (uint32_t)fr[1] + (uint32_t)fr[2];
}

/* ---- denominator ---- */

EV_HD uint64_t adm_twin_den_cube(const AdmTwinScale *p, const int32_t x)
{
    return p->scale == 0 ? adm_den_cube0((int16_t)x)
                         : adm_den_cube123(x, p->den_q, p->den_cub_add, p->den_cub);
}

/* ---- contrast masking ---- */

/* The 3x3 window of row k, column j (adm_cm_prev / adm_cm_next on both axes). */
EV_HD void adm_twin_window(const int k, const int j, const int w, const int h, int rows[3],
                           int cols[3])
{
    rows[0] = adm_cm_prev(k);
    rows[1] = k;
    rows[2] = adm_cm_next(k, h);
    cols[0] = adm_cm_prev(j);
    cols[1] = j;
    cols[2] = adm_cm_next(j, w);
}

/* The threshold of one pass: win[3 * rr + cc] is the band-summed masking value (adm_twin_band)
 * at window row rr, column cc; csf: the centre's CSF values. The reference adds, over the
 * bands, the window's masking values with the centre's replaced by its own term: the window
 * entry at the centre (rr = cc = 1) gives way to the centre terms (a replicated edge that
 * repeats the centre elsewhere in the window keeps that entry). A modular sum, read back as
 * int32. */
EV_HD int32_t adm_twin_thr(const AdmTwinScale *p, const uint32_t win[9], const int32_t csf[3])
{
    uint32_t sum = 0;
    for (int q = 0; q < 9; q++)
        sum += q == 4 ? 0u : win[q];
    for (int b = 0; b < 3; b++)
        sum +=
            (uint32_t)(p->scale == 0 ? adm_cm_centre0((int16_t)csf[b]) : adm_cm_centre123(csf[b]));
    return adm_wrap32((int64_t)sum);
}

/* Band b's masked cube of src at a position with threshold thr. */
EV_HD int64_t adm_twin_cube(const AdmTwinScale *p, const int b, const int32_t src,
                            const int32_t thr)
{
    return p->scale == 0 ? adm_cm_cube0((int16_t)src, p->irf0[b], thr, p->sub[b], p->sq[b],
                                        p->cub_add[b], p->cub[b])
                         : adm_cm_cube123(src, p->irf[b], thr, p->cub_add[b], p->cub[b]);
}

/* The centre's values both passes need: src (r for DLM, a for AIM) and the CSF values of the
 * masking band (a for DLM, r for AIM). */
typedef struct AdmTwinCentre {
    int32_t r[3], a[3], csf_a[3], csf_r[3];
} AdmTwinCentre;

EV_HD void adm_twin_centre(const AdmTwinScale *p, const int32_t *div_lookup, const int32_t o[3],
                           const int32_t t[3], AdmTwinCentre *c)
{
    int32_t flt[3];
    adm_twin_decouple(p, div_lookup, o, t, c->r, c->a);
    adm_twin_csf(p, c->a, c->csf_a, flt);
    adm_twin_csf(p, c->r, c->csf_r, flt);
}

/* One pass's three cubes at a position: DLM (aim == 0) masks r by a's CSF, AIM masks a by r's;
 * win: the window's band-summed masking values of that pass (as adm_twin_thr). */
EV_HD void adm_twin_cubes(const AdmTwinScale *p, const AdmTwinCentre *c, const int aim,
                          const uint32_t win[9], int64_t cube[3])
{
    const int32_t thr = adm_twin_thr(p, win, aim ? c->csf_r : c->csf_a);
    for (int b = 0; b < 3; b++)
        cube[b] = adm_twin_cube(p, b, aim ? c->a[b] : c->r[b], thr);
}

/* ---- fold ---- */

/* A row's denominator sum as the reference adds it to the scale's total. */
EV_HD uint64_t adm_twin_fold_den(const AdmTwinScale *p, const uint64_t row)
{
    return (row + p->den_add) >> p->den_shift;
}

#endif
