/* xpsnr: XPSNR per plane (xpsnr_y, xpsnr_u, xpsnr_v), and the filter's averages at the end, as
 * ffmpeg 7.1's xpsnr filter (libavfilter/vf_xpsnr.c on x86-64) computes them; docs/XPSNR.md.
 * The reference is ffmpeg's input 0 (the "main", whose activity weights the errors), the
 * distorted its input 1. This file makes a frame's block sums (integers); xpsnr_frame.c scores
 * them. Sequential: the temporal activity reads the two previous reference lumas, kept in the
 * state (which extract() therefore mutates), zero before the first frame. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/extractor.h"
#include "features/xpsnr/xpsnr_frame.h"
#include "features/xpsnr/xpsnr_dsp.h"
#include "features/xpsnr/xpsnr_math.h"
#include "features/xpsnr/xpsnr_opts.h"
#include "features/xpsnr/xpsnr_twin.h"

typedef struct XpsnrState {
    XpsnrGeom g;
    XpsnrDsp dsp;
    int16_t *luma[3]; /* the current reference luma as the filter's int16, then the two before */
    XpsnrSums sums;   /* the frame's, per block */
    double *weight;
    uint64_t *col[3]; /* one block row's terms per column (2x2 group): squares, spatial, temporal */
    XpsnrTotals totals;
} XpsnrState;

static void xpsnr_close(void *state)
{
    XpsnrState *s = state;
    for (unsigned k = 0; k < 3; k++) {
        free(s->luma[k]);
        free(s->sums.sse[k]);
        free(s->col[k]);
    }
    free(s->sums.sa);
    free(s->sums.ta);
    free(s->weight);
}

static int xpsnr_init(void *state, const void *opts, const EvPicInfo *info, const EvLog *log)
{
    XpsnrState *s = state;
    XpsnrGeom *g = &s->g;
    const int err = ev_xpsnr_geometry(g, info, ((const XpsnrOpts *)opts)->frame_rate, log);
    if (err)
        return err;
    xpsnr_dsp_init(&s->dsp, info->cpu);
    const size_t n = (size_t)g->w * g->h, n_blk = (size_t)g->w_blk * g->h_blk;
    int ok = 1;
    for (unsigned k = 0; k < 3; k++) {
        ok &= !!(s->luma[k] = calloc(n, sizeof(int16_t))); /* zero: the lumas before frame 0 */
        ok &= !!(s->sums.sse[k] = malloc(n_blk * sizeof(uint64_t)));
        ok &= !!(s->col[k] = malloc(g->w * sizeof(uint64_t)));
    }
    ok &= !!(s->sums.sa = malloc(n_blk * sizeof(uint64_t)));
    ok &= !!(s->sums.ta = malloc(n_blk * sizeof(uint64_t)));
    ok &= !!(s->weight = malloc(n_blk * sizeof(double)));
    if (ok)
        return 0;
    xpsnr_close(s); /* the engine closes only what it initialised */
    memset(s, 0, sizeof(*s));
    return -ENOMEM;
}

/*
 * A block's sums are its columns' terms added over its rows (integers: any order). The block
 * rows are scanned once: each kernel adds one row's terms into per-column accumulators
 * (s->col), and each block then sums its columns.
 *
 * Squared errors: every sample. For 16 bits the filter's SSE2 rows wrap (xpsnr_row_sse16),
 * and they are taken from each block's start: those blocks sum their rows themselves.
 *
 * Spatial activity: the filter skips the first and last column and row of the picture (its
 * margins xa, ya of the first blocks, wa, ha of the last ones, 1 sample or 1 group wide), so a
 * sample's (a group's) term counts in its block unless it lies on the picture's border.
 * Temporal activity: every sample (group), against the two previous lumas.
 */
static uint64_t col_sum(const uint64_t *v, const unsigned from, const unsigned to)
{
    uint64_t sum = 0;
    for (unsigned x = from; x < to; x++)
        sum += v[x];
    return sum;
}

/* The squared errors of plane p's rows [y0, y0 + bh) into s->col[0] (9..14, 8 bits). */
static void sse_columns(const XpsnrState *s, const EvPic *ref, const EvPic *dis, const unsigned p,
                        const unsigned y0, const unsigned bh)
{
    const unsigned w = ref->w[p];
    uint64_t *acc = s->col[0];
    memset(acc, 0, w * sizeof(*acc));
    for (unsigned y = y0; y < y0 + bh; y++) {
        if (ref->bpc > 8)
            s->dsp.sse16(ev_pic_row16(ref, p, y), ev_pic_row16(dis, p, y), w, acc);
        else
            s->dsp.sse8(ev_pic_row8(ref, p, y), ev_pic_row8(dis, p, y), w, acc);
    }
}

/* The squared errors of one block of plane p: from the columns, or, at 16 bits, its rows as
 * the filter's SSE2 kernel sums them. */
static uint64_t block_sse(const XpsnrState *s, const EvPic *ref, const EvPic *dis, const unsigned p,
                          const unsigned x0, const unsigned y0, const unsigned bw,
                          const unsigned bh)
{
    if (ref->bpc <= 14)
        return col_sum(s->col[0], x0, x0 + bw);
    uint64_t sse = 0;
    for (unsigned y = y0; y < y0 + bh; y++)
        sse += xpsnr_row_sse16(ev_pic_row16(ref, p, y) + x0, ev_pic_row16(dis, p, y) + x0, bw);
    return sse;
}

/* The spatial and temporal terms of the luma rows [y0, y0 + bh) into s->col[1], s->col[2]:
 * per sample, or per 2x2 group (column x / 2) with downsampling. */
static void activity_columns(const XpsnrState *s, const unsigned y0, const unsigned bh)
{
    const XpsnrGeom *g = &s->g;
    const XpsnrDsp *d = &s->dsp;
    const unsigned w = g->w, h = g->h;
    const int16_t *c = s->luma[0], *p1 = s->luma[1], *p2 = s->luma[2];
    uint64_t *sa = s->col[1], *ta = s->col[2];
    memset(sa, 0, w * sizeof(*sa));
    memset(ta, 0, w * sizeof(*ta));
    if (!g->downsample) {
        for (unsigned y = y0; y < y0 + bh; y++) {
            const size_t at = (size_t)y * w;
            if (y >= 1 && y + 1 < h && w >= 3) /* the picture's inner samples */
                d->spatial(c + at + 1, w, w - 2, sa + 1);
            if (g->second_order)
                d->temporal2(c + at, p1 + at, p2 + at, w, ta);
            else
                d->temporal1(c + at, p1 + at, w, ta);
        }
        return;
    }
    for (unsigned y = y0; y < y0 + bh; y += 2) { /* w, h and y0 are even */
        const size_t at = (size_t)y * w;
        if (y >= 2 && y + 4 <= h && w >= 6) /* the picture's inner groups */
            d->spatial_ds(c + at + 2, w, w / 2 - 2, sa + 1);
        if (g->second_order)
            d->temporal2_ds(c + at, p1 + at, p2 + at, w, w / 2, ta);
        else
            d->temporal1_ds(c + at, p1 + at, w, w / 2, ta);
    }
}

/* The frame's block sums: per block row, the columns' terms, then each block's. */
static void frame_sums(XpsnrState *s, const EvPic *ref, const EvPic *dis)
{
    const XpsnrGeom *g = &s->g;
    const unsigned div = g->downsample ? 2 : 1; /* a group's column */
    for (unsigned p = 0; p < g->n_planes; p++) {
        const unsigned bx = p ? g->bx[p] : g->b, by = p ? g->by[p] : g->b;
        const unsigned pw = g->pw[p], ph = g->ph[p];
        unsigned idx = 0;
        for (unsigned y0 = 0; y0 < ph; y0 += by) {
            const unsigned bh = y0 + by > ph ? ph - y0 : by;
            if (ref->bpc <= 14)
                sse_columns(s, ref, dis, p, y0, bh);
            if (!p)
                activity_columns(s, y0, bh);
            for (unsigned x0 = 0; x0 < pw; x0 += bx, idx++) {
                const unsigned bw = x0 + bx > pw ? pw - x0 : bx;
                s->sums.sse[p][idx] = block_sse(s, ref, dis, p, x0, y0, bw, bh);
                if (p)
                    continue;
                s->sums.sa[idx] = col_sum(s->col[1], x0 / div, (x0 + bw) / div);
                s->sums.ta[idx] = col_sum(s->col[2], x0 / div, (x0 + bw) / div);
            }
        }
    }
}

/* The reference luma as the filter's int16 plane (8 bits widened, more reinterpreted). */
static void keep_luma(const XpsnrGeom *g, int16_t *dst, const EvPic *ref)
{
    for (unsigned y = 0; y < g->h; y++, dst += g->w) {
        if (ref->bpc > 8) {
            const uint16_t *row = ev_pic_row16(ref, 0, y);
            for (unsigned x = 0; x < g->w; x++)
                dst[x] = (int16_t)xpsnr_s16(row[x]);
        } else {
            const uint8_t *row = ev_pic_row8(ref, 0, y);
            for (unsigned x = 0; x < g->w; x++)
                dst[x] = row[x];
        }
    }
}

static int xpsnr_extract(const void *state, void *scratch, const EvPic *ref, const EvPic *dis,
                         const unsigned frame, EvSink *sink)
{
    XpsnrState *s = (XpsnrState *)state; /* sequential: frames 0, 1, 2... one at a time */
    const XpsnrGeom *g = &s->g;
    (void)scratch;
    if (frame != s->totals.n_frames)
        return -EINVAL;
    keep_luma(g, s->luma[0], ref);
    frame_sums(s, ref, dis);
    uint64_t wsse[3];
    ev_xpsnr_frame_wsse(g, &s->sums, s->weight, wsse);
    ev_xpsnr_add_totals(g, wsse, &s->totals);
    int16_t *const oldest = s->luma[2]; /* the next frame's lumas: n, n - 1 */
    s->luma[2] = s->luma[1];
    s->luma[1] = s->luma[0];
    s->luma[0] = oldest;
    return ev_xpsnr_put_values(g, wsse, frame, sink);
}

static int xpsnr_flush(void *state, const unsigned n_frames, EvSink *sink)
{
    const XpsnrState *s = state;
    (void)n_frames;
    return ev_xpsnr_put_averages(&s->g, &s->totals, sink);
}

const EvExtractorClass ev_fex_xpsnr = {
    EV_CLASS_COMMON("xpsnr", XpsnrState),
    XPSNR_CLASS_OPTIONS,
    .flags = EV_FEX_SEQUENTIAL | EV_FEX_NO_SUBSAMPLE,
    .init = xpsnr_init,
    .extract = xpsnr_extract,
    .flush = xpsnr_flush,
    .close = xpsnr_close,
};

#ifdef EV_HAVE_CUDA
/* The CUDA twin: the same options and outputs; frames run on the workers in any order, their
 * device work in frame order on a frame ring (xpsnr.cu); the averages at flush, in frame
 * order. */
static int xpsnr_cuda_init(void *state, const void *opts, const EvPicInfo *info, const EvLog *log)
{
    XpsnrTwinState *s = state;
    const int err = ev_xpsnr_geometry(&s->g, info, ((const XpsnrOpts *)opts)->frame_rate, log);
    return err ? err : ev_xpsnr_cuda_open(s, log);
}

static int xpsnr_cuda_flush(void *state, const unsigned n_frames, EvSink *sink)
{
    XpsnrTwinState *s = state;
    XpsnrTotals t;
    const int err = ev_xpsnr_cuda_totals(s, n_frames, &t);
    return err ? err : ev_xpsnr_put_averages(&s->g, &t, sink);
}

static void xpsnr_cuda_close(void *state)
{
    ev_xpsnr_cuda_close(state);
}

const EvExtractorClass ev_cuda_xpsnr = {
    EV_CLASS_COMMON("xpsnr", XpsnrTwinState),
    XPSNR_CLASS_OPTIONS,
    .flags = EV_FEX_NO_SUBSAMPLE | EV_FEX_CUDA,
    .init = xpsnr_cuda_init,
    .scratch_size = ev_xpsnr_cuda_scratch_size,
    .launch = ev_xpsnr_launch_cuda,
    .extract = ev_xpsnr_extract_cuda,
    .flush = xpsnr_cuda_flush,
    .close = xpsnr_cuda_close,
};
#endif
