/* xpsnr: XPSNR per plane (xpsnr_y, xpsnr_u, xpsnr_v), and the filter's averages at the end, as
 * ffmpeg 7.1's xpsnr filter (libavfilter/vf_xpsnr.c on x86-64) computes them; docs/XPSNR.md.
 * The reference is ffmpeg's input 0 (the "main", whose activity weights the errors), the
 * distorted its input 1. Sequential: the temporal activity reads the two previous reference
 * lumas, kept in the state (which extract() therefore mutates), zero before the first frame. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/extractor.h"
#include "features/xpsnr/xpsnr.h"
#include "features/xpsnr/xpsnr_dsp.h"
#include "features/xpsnr/xpsnr_math.h"

typedef struct XpsnrOpts {
    double frame_rate;
} XpsnrOpts;

typedef struct XpsnrState {
    XpsnrGeom g;
    XpsnrDsp dsp;
    int16_t *luma[3]; /* the current reference luma as the filter's int16, then the two before */
    double *sse;      /* per luma block, raster order */
    double *weight;
    uint64_t *col[3]; /* one block row's terms per column (2x2 group): squares, spatial, temporal */
    double sum_root[3];  /* sum over frames of sqrt(wsse), in frame order */
    double sum_value[3]; /* sum over frames of the values, in frame order */
    unsigned n_frames;
} XpsnrState;

static const EvOption xpsnr_options[] = {
    { "frame_rate", NULL,
      "frames per second of the input, as ffmpeg's stream has it: its integer part below 32 "
      "takes the first-order temporal difference, from 32 the second-order one",
      EV_OPT_DOUBLE, offsetof(XpsnrOpts, frame_rate), 25.0, 0.0, 1e6, 0 },
    { 0 },
};

/* The filter's block size: 4 (int)(32 sqrt(w h / 3840 2160) + 0.5), 0 below 2025 pixels. */
static unsigned block_size(const unsigned w, const unsigned h)
{
    const double r = (double)(w * h) / (3840.0 * 2160.0);
    const int q = (int)(32.0 * sqrt(r) + 0.5);
    return q > 0 ? 4 * (unsigned)q : 0;
}

static int check_geometry(const EvPicInfo *info, const unsigned b, const EvLog *log)
{
    const unsigned d = info->bpc;
    if (d != 8 && d != 9 && d != 10 && d != 12 && d != 14 && d != 16) {
        ev_log(log, EV_LOG_ERROR,
               "xpsnr: %u bits per sample: ffmpeg's xpsnr has 8, 9, 10, 12, 14 and 16 bits", d);
        return -EINVAL;
    }
    if (!b) {
        ev_log(log, EV_LOG_ERROR,
               "xpsnr: frame %ux%u is too small: ffmpeg's xpsnr needs 2025 pixels or more (its "
               "block size is 0 below)",
               info->width, info->height);
        return -EINVAL;
    }
    const int odd_w = info->width & 1, odd_h = info->height & 1;
    if ((odd_w && (info->layout == EV_PIX_420 || info->layout == EV_PIX_422)) ||
        (odd_h && info->layout == EV_PIX_420)) {
        ev_log(log, EV_LOG_ERROR,
               "xpsnr: frame %ux%u %s: ffmpeg's xpsnr rounds odd chroma sizes up, the engine's "
               "planes are libvmaf's (rounded down): the subsampled sizes must be even",
               info->width, info->height, ev_pic_layout_name(info->layout));
        return -EINVAL;
    }
    if ((odd_w || odd_h) && (uint64_t)info->width * info->height > 2048 * 1152) {
        ev_log(log, EV_LOG_ERROR,
               "xpsnr: frame %ux%u: above 2048x1152 ffmpeg's xpsnr reads past the picture "
               "unless width and height are even",
               info->width, info->height);
        return -EINVAL;
    }
    return 0;
}

static void xpsnr_close(void *state);

static void set_geometry(XpsnrGeom *g, const EvPicInfo *info, const XpsnrOpts *o, unsigned b)
{
    g->w = info->width;
    g->h = info->height;
    g->depth = info->bpc;
    g->n_planes = info->layout == EV_PIX_400 ? 1 : 3;
    g->b = b;
    g->w_blk = (g->w + b - 1) / b;
    g->h_blk = (g->h + b - 1) / b;
    const unsigned area = g->w * g->h;
    g->downsample = area > 2048 * 1152;
    g->smooth = area <= 640 * 480;
    g->second_order = o->frame_rate >= 32.0; /* floor(rate) >= 32 */
    const double r = (double)area / (3840.0 * 2160.0);
    const double a = 16.0 * (double)(1 << (2 * g->depth - 9));
    g->avg_act = sqrt(a / sqrt(r > 0.00001 ? r : 0.00001));
    const uint64_t peak = (UINT64_C(1) << g->depth) - 1;
    for (unsigned p = 0; p < g->n_planes; p++) {
        ev_pic_plane_size(g->w, g->h, info->layout, p, &g->pw[p], &g->ph[p]);
        g->bx[p] = b * g->pw[p] / g->w;
        g->by[p] = b * g->ph[p] / g->h;
        g->plane_peak[p] = (uint64_t)g->pw[p] * g->ph[p] * (peak * peak);
    }
}

static int xpsnr_init(void *state, const void *opts, const EvPicInfo *info, const EvLog *log)
{
    XpsnrState *s = state;
    const unsigned b = block_size(info->width, info->height);
    const int err = check_geometry(info, b, log);
    if (err)
        return err;
    XpsnrGeom *g = &s->g;
    set_geometry(g, info, opts, b);
    xpsnr_dsp_init(&s->dsp, info->cpu);
    for (unsigned p = 1; p < g->n_planes; p++)
        if ((g->pw[p] + g->bx[p] - 1) / g->bx[p] != g->w_blk ||
            (g->ph[p] + g->by[p] - 1) / g->by[p] != g->h_blk) {
            /* cannot happen with the layouts accepted: the chroma blocks are the luma's, halved */
            ev_log(log, EV_LOG_ERROR, "xpsnr: plane %u's blocks are not the luma's", p);
            return -EINVAL;
        }
    const size_t n = (size_t)g->w * g->h, n_blk = (size_t)g->w_blk * g->h_blk;
    for (unsigned k = 0; k < 3; k++)
        s->luma[k] = calloc(n, sizeof(int16_t)); /* zero: the filter's lumas before frame 0 */
    s->sse = malloc(n_blk * sizeof(double));
    s->weight = malloc(n_blk * sizeof(double));
    int ok = s->luma[0] && s->luma[1] && s->luma[2] && s->sse && s->weight;
    for (unsigned k = 0; k < 3; k++)
        ok &= !!(s->col[k] = malloc(g->w * sizeof(uint64_t)));
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

/* The weight of the luma block at (x0, y0) from the columns: 1 for a block too narrow or too
 * short for the high-pass (the filter then leaves its activity at 1). With downsampling the
 * filter drops the spatial sum of a block whose wa is 12 or less (computes it, keeps 0). */
static double block_weight(const XpsnrState *s, const unsigned x0, const unsigned y0,
                           const unsigned bw, const unsigned bh)
{
    const XpsnrGeom *g = &s->g;
    const int margin = g->downsample ? 2 : 1;
    const int xa = x0 > 0 ? 0 : margin, ya = y0 > 0 ? 0 : margin;
    const int wa = x0 + bw < g->w ? (int)bw : (int)bw - margin;
    const int ha = y0 + bh < g->h ? (int)bh : (int)bh - margin;
    if (wa <= xa || ha <= ya)
        return 1.0;
    const unsigned c0 = x0 / (unsigned)margin, c1 = (x0 + bw) / (unsigned)margin;
    uint64_t sa = col_sum(s->col[1], c0, c1);
    if (g->downsample && wa <= 12)
        sa = 0;
    const uint64_t ta2 = 2 * col_sum(s->col[2], c0, c1);
    return xpsnr_weight(sa, wa - xa, ha - ya, ta2, bw, bh, g->depth);
}

static double max2(const double a, const double b)
{
    return a > b ? a : b;
}

/* The filter's in-line "min-smoothing" (frames up to 640x480), run right after block idx's
 * weight: lowers the previous block's weight to a maximum of its neighbours', and the last
 * block's to the larger of its left and top neighbours'. */
static void smooth_weights(const XpsnrGeom *g, double *wt, const unsigned idx, const unsigned x0,
                           const unsigned y0)
{
    const unsigned b = g->b, wb = g->w_blk;
    double m;
    if (x0 == 0)
        m = idx > 1 ? wt[idx - 2] : 0.0;
    else
        m = x0 > b ? max2(wt[idx - 2], wt[idx]) : wt[idx];
    if (idx > wb)
        m = max2(m, wt[idx - 1 - wb]);
    if (idx > 0 && wt[idx - 1] > m)
        wt[idx - 1] = m;
    if (x0 + b >= g->w && y0 + b >= g->h && idx > wb) {
        m = max2(wt[idx - 1], wt[idx - wb]);
        if (wt[idx] > m)
            wt[idx] = m;
    }
}

/* Luma: every block's SSE and weight, raster order; then the weighted sum. */
static uint64_t luma_wsse(XpsnrState *s, const EvPic *ref, const EvPic *dis)
{
    const XpsnrGeom *g = &s->g;
    unsigned idx = 0;
    for (unsigned y0 = 0; y0 < g->h; y0 += g->b) {
        const unsigned bh = y0 + g->b > g->h ? g->h - y0 : g->b;
        if (ref->bpc <= 14)
            sse_columns(s, ref, dis, 0, y0, bh);
        activity_columns(s, y0, bh);
        for (unsigned x0 = 0; x0 < g->w; x0 += g->b, idx++) {
            const unsigned bw = x0 + g->b > g->w ? g->w - x0 : g->b;
            s->sse[idx] = (double)block_sse(s, ref, dis, 0, x0, y0, bw, bh);
            s->weight[idx] = block_weight(s, x0, y0, bw, bh);
            if (g->smooth)
                smooth_weights(g, s->weight, idx, x0, y0);
        }
    }
    double sum = 0.0;
    for (unsigned i = 0; i < idx; i++)
        sum += s->sse[i] * s->weight[i];
    return xpsnr_wsse(sum, g->avg_act);
}

/* A chroma plane: blocks of bx x by, numbered in raster order, weighted by the luma block of
 * the same number (the same place: the plane has as many blocks per row and column). */
static uint64_t chroma_wsse(const XpsnrState *s, const EvPic *ref, const EvPic *dis,
                            const unsigned p)
{
    const XpsnrGeom *g = &s->g;
    const unsigned bx = g->bx[p], by = g->by[p], pw = g->pw[p], ph = g->ph[p];
    unsigned idx = 0;
    double sum = 0.0;
    for (unsigned y0 = 0; y0 < ph; y0 += by) {
        const unsigned bh = y0 + by > ph ? ph - y0 : by;
        if (ref->bpc <= 14)
            sse_columns(s, ref, dis, p, y0, bh);
        for (unsigned x0 = 0; x0 < pw; x0 += bx, idx++) {
            const unsigned bw = x0 + bx > pw ? pw - x0 : bx;
            sum += (double)block_sse(s, ref, dis, p, x0, y0, bw, bh) * s->weight[idx];
        }
    }
    return xpsnr_wsse(sum, g->avg_act);
}

double ev_xpsnr_value(const uint64_t wsse, const uint64_t plane_peak)
{
    const double root = sqrt((double)wsse);
    if (!(root >= 1.0))
        return INFINITY;
    return 10.0 * log10((double)plane_peak / (root * root));
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

static const char *const value_name[3] = { "xpsnr_y", "xpsnr_u", "xpsnr_v" };

static int xpsnr_extract(const void *state, void *scratch, const EvPic *ref, const EvPic *dis,
                         const unsigned frame, EvSink *sink)
{
    XpsnrState *s = (XpsnrState *)state; /* sequential: frames 0, 1, 2... one at a time */
    const XpsnrGeom *g = &s->g;
    (void)scratch;
    if (frame != s->n_frames)
        return -EINVAL;
    keep_luma(g, s->luma[0], ref);
    uint64_t wsse[3];
    wsse[0] = luma_wsse(s, ref, dis);
    for (unsigned p = 1; p < g->n_planes; p++)
        wsse[p] = chroma_wsse(s, ref, dis, p);
    int err = 0;
    for (unsigned p = 0; p < g->n_planes && !err; p++) {
        const double value = ev_xpsnr_value(wsse[p], g->plane_peak[p]);
        s->sum_root[p] += sqrt((double)wsse[p]);
        s->sum_value[p] += value;
        err = ev_sink_put(sink, value_name[p], frame, value);
    }
    int16_t *const oldest = s->luma[2]; /* the next frame's lumas: n, n - 1 */
    s->luma[2] = s->luma[1];
    s->luma[1] = s->luma[0];
    s->luma[0] = oldest;
    s->n_frames++;
    return err;
}

/* The filter's average of a plane over the frames: from the mean of sqrt(wsse) when that is at
 * least 1 (10 log10(peak / mean^2)), else the mean of the frames' values. */
static double average(const XpsnrState *s, const unsigned p)
{
    const double n = (double)s->n_frames;
    if (s->sum_root[p] >= n) {
        const double mean = s->sum_root[p] / n;
        return 10.0 * log10((double)s->g.plane_peak[p] / (mean * mean));
    }
    return s->sum_value[p] / n;
}

/* The averages and their minimum, as the filter logs them at the end (the minimum only with
 * chroma). */
static int xpsnr_flush(void *state, const unsigned n_frames, EvSink *sink)
{
    static const char *const average_name[3] = { "xpsnr_average_y", "xpsnr_average_u",
                                                 "xpsnr_average_v" };
    const XpsnrState *s = state;
    (void)n_frames;
    if (!s->n_frames)
        return 0;
    double minimum = average(s, 0);
    int err = ev_sink_put_aggregate(sink, average_name[0], minimum);
    for (unsigned p = 1; p < s->g.n_planes && !err; p++) {
        const double a = average(s, p);
        if (minimum > a)
            minimum = a;
        err = ev_sink_put_aggregate(sink, average_name[p], a);
    }
    if (!err && s->g.n_planes > 1)
        err = ev_sink_put_aggregate(sink, "xpsnr_minimum", minimum);
    return err;
}

static void xpsnr_close(void *state)
{
    XpsnrState *s = state;
    for (unsigned k = 0; k < 3; k++)
        free(s->luma[k]);
    free(s->sse);
    free(s->weight);
    for (unsigned k = 0; k < 3; k++)
        free(s->col[k]);
}

const EvExtractorClass ev_fex_xpsnr = {
    EV_CLASS_COMMON("xpsnr", XpsnrState),
    EV_CLASS_OPTIONS(xpsnr_options, XpsnrOpts),
    .flags = EV_FEX_SEQUENTIAL | EV_FEX_NO_SUBSAMPLE,
    .init = xpsnr_init,
    .extract = xpsnr_extract,
    .flush = xpsnr_flush,
    .close = xpsnr_close,
};
