/*
 * Integer ADM: the four scales of one frame (libvmaf integer_adm.c integer_compute_adm),
 * streamed row by row. For each band row i of a scale: the DWT of ref and dis, then (inside the
 * CSF rectangle) decouple and CSF of the row, the denominator of the row, and contrast masking
 * of row i - 1, whose 3x3 windows need rows i - 2 .. i: a ring of three band rows holds them.
 * The reference runs each stage over whole bands; every integer here is the same, and the
 * per-row partial sums are folded into the totals in row order as the reference folds them.
 */
#include <math.h>
#include <string.h>

#include "features/adm/adm_dsp.h"
#include "features/adm/adm_internal.h"
#include "features/adm/adm_math.h"

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

enum { ROW_MARGIN = 64, RING_ARRAYS = 18 };

size_t adm_work_layout(const AdmState *s, void *base, AdmWork *w)
{
    const size_t n0 = (size_t)s->geom[0].w * s->geom[0].h;
    const size_t n1 = (size_t)s->geom[1].w * s->geom[1].h;
    /* every row buffer can hold a scale-0 band row (int32) plus margins for vector tails */
    const size_t row = align64(((size_t)s->geom[0].w + 2 * ROW_MARGIN) * sizeof(int32_t)) / 4;
    size_t off = 0;
    for (int p = 0; p < 2; p++)
        w->low0[p] = carve(base, &off, n0, sizeof(int16_t));
    for (int p = 0; p < 2; p++)
        w->low[p] = carve(base, &off, n1, sizeof(int32_t));
    w->o = carve(base, &off, 3 * row, sizeof(int32_t));
    w->t = carve(base, &off, 3 * row, sizeof(int32_t));
    for (int k = 0; k < 3; k++)
        w->ring[k] = carve(base, &off, RING_ARRAYS * row, sizeof(int32_t));
    w->tmp = carve(base, &off, adm_dsp_tmp_size((int)s->width), 1);
    w->row_len = row;
    return off;
}

size_t adm_member_layout(const AdmState *s, void *base, AdmWork *w, const AdmWork *shared)
{
    const size_t n0 = (size_t)s->geom[0].w * s->geom[0].h;
    const size_t n1 = (size_t)s->geom[1].w * s->geom[1].h;
    const size_t row = shared->row_len;
    size_t off = 0;
    *w = *shared; /* the reference's low bands and DWT rows, and the kernels' scratch */
    w->low0[1] = carve(base, &off, n0, sizeof(int16_t));
    w->low[1] = carve(base, &off, n1, sizeof(int32_t));
    w->t = carve(base, &off, 3 * row, sizeof(int32_t));
    for (int k = 0; k < 3; k++)
        w->ring[k] = carve(base, &off, RING_ARRAYS * row, sizeof(int32_t));
    return off;
}

/* Band rows inside a buffer of row_len-element rows, past the leading margin. */
static AdmRow16 rows16(int32_t *buf, const size_t row_len, const int first)
{
    AdmRow16 r;
    for (int b = 0; b < 3; b++)
        r.b[b] = (int16_t *)(buf + (size_t)(first + b) * row_len) + ROW_MARGIN;
    return r;
}

static AdmRow32 rows32(int32_t *buf, const size_t row_len, const int first)
{
    AdmRow32 r;
    for (int b = 0; b < 3; b++)
        r.b[b] = buf + (size_t)(first + b) * row_len + ROW_MARGIN;
    return r;
}

/* The arrays of one ring slot. */
enum { SLOT_R = 0, SLOT_A = 3, SLOT_CSF_A = 6, SLOT_FLT_A = 9, SLOT_CSF_R = 12, SLOT_FLT_R = 15 };

/* ---- the sums of a scale, and their scores ---- */

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

AdmScaleShifts adm_scale_shifts(const AdmState *s, const int scale)
{
    static const unsigned den123_sq_shift[3] = { 31, 30, 31 };
    const int w = s->geom[scale].w, h = s->geom[scale].h;
    AdmScaleShifts x;
    memset(&x, 0, sizeof(x));
    x.csf = adm_rect_csf(w, h);
    x.cm = adm_rect_cm(w, h);
    x.rows = adm_span(x.cm.top, x.cm.bottom, h);
    const AdmSpan cols = adm_span(x.cm.left, x.cm.right, w);
    x.cols = (AdmCmCols){ cols.first, cols.start, cols.end, cols.last, w };
    const int area_h = x.cm.bottom - x.cm.top, area_w = x.cm.right - x.cm.left;
    if (scale == 0) {
        int shift = (int)ceil(log2((double)(area_h * area_w)) - 20);
        x.den_shift = shift > 0 ? (unsigned)shift : 0;
        x.den_add = shift > 0 ? (uint64_t)1 << (shift - 1) : 0;
        const unsigned sub[3] = { 10, 10, 12 }, sq[3] = { 29, 29, 30 };
        for (int b = 0; b < 3; b++) {
            x.cmp.sub[b] = sub[b];
            x.cmp.sq[b] = sq[b];
            x.cmp.cub[b] = ceil_shift(log2(w) - (b == 2 ? 3 : 4));
            x.cmp.cub_add[b] = x.cmp.cub[b] ? (int64_t)1 << (x.cmp.cub[b] - 1) : 0;
        }
    } else {
        x.den_q = den123_sq_shift[scale - 1];
        x.den_cub = ceil_shift(log2(area_w));
        x.den_shift = ceil_shift(log2(area_h));
        x.den_cub_add = x.den_cub ? (uint64_t)1 << (x.den_cub - 1) : 0;
        x.den_add = x.den_shift ? (uint64_t)1 << (x.den_shift - 1) : 0;
        for (int b = 0; b < 3; b++) {
            x.cmp.cub[b] = ceil_shift(log2(w));
            x.cmp.cub_add[b] = x.cmp.cub[b] ? (int64_t)1 << (x.cmp.cub[b] - 1) : 0;
        }
    }
    x.cmp.irf0 = s->irf0;
    x.cmp.irf = &s->irf[0][0];
    x.cm_sr = ceil_shift(log2(h));
    return x;
}

AdmScaleScore adm_scale_score(const AdmState *s, const int scale, const AdmScaleShifts *x,
                              const AdmScaleSums *sum)
{
    static const unsigned den123_total_shift[3] = { 32, 27, 23 };
    static const unsigned cm123_total_shift[3] = { 45, 39, 36 };
    AdmScaleScore sc = { 0.0f, 0.0f, 0.0f };
    float e[3];
    const float noise = adm_noise_floor(&x->cm, s->opts.noise_weight);
    if (scale == 0) {
        const double den_scale = ldexp(1.0, 18 - (int)x->den_shift);
        for (int b = 0; b < 3; b++)
            e[b] = (float)((double)sum->den[b] / den_scale * s->rfactor_cubed[0][b]);
        sc.den = sum_bands(e, noise);
        for (int b = 0; b < 3; b++)
            e[b] = (float)((double)sum->num[b] /
                           pow2u((b == 2 ? 57u : 52u) - x->cmp.cub[b] - x->cm_sr));
        sc.num = sum_bands(e, noise);
        if (!s->opts.skip_aim) {
            for (int b = 0; b < 3; b++)
                e[b] = (float)((double)sum->aim[b] /
                               pow2u((b == 2 ? 57u : 52u) - x->cmp.cub[b] - x->cm_sr));
            sc.aim = sum_bands(e, adm_noise_floor(&x->cm, 0.0));
        }
        return sc;
    }
    const double div = pow2u(den123_total_shift[scale - 1] - x->den_shift - x->den_cub);
    for (int b = 0; b < 3; b++)
        e[b] = (float)((double)sum->den[b] / div * s->rfactor_cubed[scale][b]);
    sc.den = sum_bands(e, noise);
    /* the reference keeps this divisor in a float and divides the float of the sum by it */
    const float cdiv = (float)pow2u(cm123_total_shift[scale - 1] - x->cmp.cub[0] - x->cm_sr);
    for (int b = 0; b < 3; b++)
        e[b] = (float)sum->num[b] / cdiv;
    sc.num = sum_bands(e, noise);
    if (!s->opts.skip_aim) {
        for (int b = 0; b < 3; b++)
            e[b] = (float)sum->aim[b] / cdiv;
        sc.aim = sum_bands(e, adm_noise_floor(&x->cm, 0.0));
    }
    return sc;
}

/* ---- one scale, row by row ---- */

typedef struct ScaleRun {
    const AdmState *s;
    AdmWork *wk;
    int scale;
    const EvPic *pic[2]; /* scale 0 */
    AdmScaleShifts x;
    AdmScaleSums sum;
} ScaleRun;

enum { PIC_REF = 1, PIC_DIS = 2, PIC_BOTH = 3 };

/* The DWT of band row i of the pictures pics: its low band row, and h, v, d into wk->o
 * (the reference) and wk->t (the distorted). */
static void dwt_row(ScaleRun *run, const int i, const int pics)
{
    const AdmState *s = run->s;
    AdmWork *wk = run->wk;
    const AdmScaleGeom *g = &s->geom[run->scale];
    int32_t *bands[2] = { wk->o, wk->t };
    for (int p = 0; p < 2; p++) {
        if (!(pics & (1 << p)))
            continue;
        if (run->scale == 0) {
            const EvPic *pic = run->pic[p];
            const void *rows[4];
            for (int k = 0; k < 4; k++)
                rows[k] =
                    (const uint8_t *)pic->data[0] + (ptrdiff_t)g->ind_y[k][i] * pic->stride[0];
            const AdmRow16 hvd = rows16(bands[p], wk->row_len, 0);
            const AdmDwt0Fn fn = pic->bpc > 8 ? s->dsp.dwt0_u16 : s->dsp.dwt0_u8;
            fn(wk->low0[p] + (size_t)i * g->w, s->opts.skip_scale0 ? NULL : &hvd, rows, g->in_w,
               pic->bpc, wk->tmp);
            continue;
        }
        const void *rows[4];
        for (int k = 0; k < 4; k++) {
            const size_t y = (size_t)g->ind_y[k][i];
            rows[k] = run->scale == 1 ? (const void *)(wk->low0[p] + y * g->in_w)
                                      : (const void *)(wk->low[p] + y * g->in_w);
        }
        const AdmRow32 hvd = rows32(bands[p], wk->row_len, 0);
        /* in place from scale 2 on: output row i only overwrites input rows already read */
        s->dsp.dwt123(wk->low[p] + (size_t)i * g->w, &hvd, rows, g->in_w, run->scale, wk->tmp);
    }
}

/* The denominator of band row i: the reference's alone. */
static void den_row(ScaleRun *run, const int i)
{
    const AdmState *s = run->s;
    AdmWork *wk = run->wk;
    const AdmScaleShifts *x = &run->x;
    const size_t n = wk->row_len;
    if (i < x->cm.top || i >= x->cm.bottom)
        return;
    uint64_t inner[3];
    if (run->scale == 0) {
        const AdmRow16 o = rows16(wk->o, n, 0);
        s->dsp.den0(inner, &o, x->cm.left, x->cm.right);
    } else {
        const AdmRow32 o = rows32(wk->o, n, 0);
        s->dsp.den123(inner, &o, x->cm.left, x->cm.right, x->den_q, x->den_cub_add, x->den_cub);
    }
    for (int b = 0; b < 3; b++)
        run->sum.den[b] += (inner[b] + x->den_add) >> x->den_shift;
}

/* Decouple and CSF of band row i. */
static void band_row(ScaleRun *run, const int i)
{
    const AdmState *s = run->s;
    AdmWork *wk = run->wk;
    const AdmScaleShifts *x = &run->x;
    const AdmDecoupleParams dp = { s->opts.enhn_gain_limit, s->cos_1deg_sq, s->div_lookup };
    int32_t *slot = wk->ring[i % 3];
    const size_t n = wk->row_len;
    if (i >= x->csf.top && i < x->csf.bottom) {
        const int x0 = x->csf.left, x1 = x->csf.right;
        if (run->scale == 0) {
            const AdmRow16 o = rows16(wk->o, n, 0), t = rows16(wk->t, n, 0);
            const AdmRow16 r = rows16(slot, n, SLOT_R), a = rows16(slot, n, SLOT_A);
            s->dsp.decouple0(&r, &a, &o, &t, x0, x1, &dp);
            const AdmRow16 csf_a = rows16(slot, n, SLOT_CSF_A), flt_a = rows16(slot, n, SLOT_FLT_A);
            s->dsp.csf0(&csf_a, &flt_a, &a, x0, x1, s->irf0);
            if (!s->opts.skip_aim) {
                const AdmRow16 csf_r = rows16(slot, n, SLOT_CSF_R);
                const AdmRow16 flt_r = rows16(slot, n, SLOT_FLT_R);
                s->dsp.csf0(&csf_r, &flt_r, &r, x0, x1, s->irf0);
            }
        } else {
            const AdmRow32 o = rows32(wk->o, n, 0), t = rows32(wk->t, n, 0);
            const AdmRow32 r = rows32(slot, n, SLOT_R), a = rows32(slot, n, SLOT_A);
            s->dsp.decouple123(&r, &a, &o, &t, x0, x1, &dp);
            const uint32_t *rf = s->irf[run->scale];
            const AdmRow32 csf_a = rows32(slot, n, SLOT_CSF_A), flt_a = rows32(slot, n, SLOT_FLT_A);
            s->dsp.csf123(&csf_a, &flt_a, &a, x0, x1, rf);
            if (!s->opts.skip_aim) {
                const AdmRow32 csf_r = rows32(slot, n, SLOT_CSF_R);
                const AdmRow32 flt_r = rows32(slot, n, SLOT_FLT_R);
                s->dsp.csf123(&csf_r, &flt_r, &r, x0, x1, rf);
            }
        }
    }
}

/* Contrast masking of band row k (DLM numerator, then AIM), rows k - 1 .. k + 1 in the ring. */
static void cm_row(ScaleRun *run, const int k)
{
    const AdmState *s = run->s;
    AdmWork *wk = run->wk;
    const AdmScaleShifts *x = &run->x;
    const int h = s->geom[run->scale].h;
    if (!adm_span_visits(&x->rows, k))
        return;
    const size_t n = wk->row_len;
    int32_t *slot[3] = { wk->ring[adm_cm_prev(k) % 3], wk->ring[k % 3],
                         wk->ring[adm_cm_next(k, h) % 3] };
    int64_t inner[3];
    for (int pass = 0; pass < (s->opts.skip_aim ? 1 : 2); pass++) {
        /* DLM: CM of r masked by the CSF of a; AIM: CM of a masked by the CSF of r */
        const int src_at = pass ? SLOT_A : SLOT_R;
        const int csf_at = pass ? SLOT_CSF_R : SLOT_CSF_A, flt_at = pass ? SLOT_FLT_R : SLOT_FLT_A;
        if (run->scale == 0) {
            const AdmRow16 src = rows16(slot[1], n, src_at), csf = rows16(slot[1], n, csf_at);
            const AdmRow16 f0 = rows16(slot[0], n, flt_at), f1 = rows16(slot[1], n, flt_at);
            const AdmRow16 f2 = rows16(slot[2], n, flt_at);
            const AdmRow16 *flt[3] = { &f0, &f1, &f2 };
            s->dsp.cm0(inner, &src, &csf, flt, &x->cols, &x->cmp, wk->tmp);
        } else {
            const AdmRow32 src = rows32(slot[1], n, src_at), csf = rows32(slot[1], n, csf_at);
            const AdmRow32 f0 = rows32(slot[0], n, flt_at), f1 = rows32(slot[1], n, flt_at);
            const AdmRow32 f2 = rows32(slot[2], n, flt_at);
            const AdmRow32 *flt[3] = { &f0, &f1, &f2 };
            s->dsp.cm123(inner, &src, &csf, flt, &x->cols, run->scale, &x->cmp, wk->tmp);
        }
        int64_t *acc = pass ? run->sum.aim : run->sum.num;
        for (int b = 0; b < 3; b++)
            acc[b] = adm_add64(acc[b], adm_fold_row(inner[b], x->cm_sr));
    }
}

static AdmScaleScore score_scale(const AdmState *s, AdmWork *wk, const int scale, const EvPic *ref,
                                 const EvPic *dis)
{
    ScaleRun run = {
        s, wk, scale, { ref, dis }, adm_scale_shifts(s, scale), { { 0 }, { 0 }, { 0 } }
    };
    const int h = s->geom[scale].h;
    if (scale == 0 && s->opts.skip_scale0) {
        /* only the low band, to feed scale 1; the reference's den of 1e-10 avoids 0/0 */
        for (int i = 0; i < h; i++)
            dwt_row(&run, i, PIC_BOTH);
        return adm_skipped_scale0();
    }
    for (int i = 0; i < h; i++) {
        dwt_row(&run, i, PIC_BOTH);
        band_row(&run, i);
        den_row(&run, i);
        if (i >= 1)
            cm_row(&run, i - 1);
    }
    cm_row(&run, h - 1);
    return adm_scale_score(s, scale, &run.x, &run.sum);
}

void adm_score_frame(const AdmState *s, AdmWork *wk, const EvPic *ref, const EvPic *dis,
                     AdmScaleScore sc[4])
{
    for (int scale = 0; scale < 4; scale++)
        sc[scale] = score_scale(s, wk, scale, ref, dis);
}

/* ---- many encodes: n distorted against one reference, its DWT and denominator once ---- */

static void score_scale_multi(const AdmState *s, AdmWork *wk, const unsigned n, const int scale,
                              const EvPic *ref, const EvPic *const *dis, AdmScaleScore (*sc)[4])
{
    ScaleRun run[ADM_MAX_MEMBERS];
    for (unsigned k = 0; k < n; k++)
        run[k] = (ScaleRun){
            s, &wk[k], scale, { ref, dis[k] }, adm_scale_shifts(s, scale), { { 0 }, { 0 }, { 0 } }
        };
    const int h = s->geom[scale].h;
    const int skip = scale == 0 && s->opts.skip_scale0;
    for (int i = 0; i < h; i++) {
        dwt_row(&run[0], i, PIC_REF); /* into the buffers every member's work shares */
        if (!skip)
            den_row(&run[0], i);
        for (unsigned k = 0; k < n; k++) {
            dwt_row(&run[k], i, PIC_DIS);
            if (skip)
                continue;
            band_row(&run[k], i);
            if (i >= 1)
                cm_row(&run[k], i - 1);
        }
    }
    for (unsigned k = 0; k < n; k++) {
        if (skip) {
            sc[k][scale] = adm_skipped_scale0();
            continue;
        }
        cm_row(&run[k], h - 1);
        memcpy(run[k].sum.den, run[0].sum.den, sizeof(run[k].sum.den));
        sc[k][scale] = adm_scale_score(s, scale, &run[k].x, &run[k].sum);
    }
}

void adm_score_frame_multi(const AdmState *s, AdmWork *wk, const unsigned n, const EvPic *ref,
                           const EvPic *const *dis, AdmScaleScore (*sc)[4])
{
    for (int scale = 0; scale < 4; scale++)
        score_scale_multi(s, wk, n, scale, ref, dis, sc);
}
