/* The host scoring of xpsnr (xpsnr_frame.h), shared by the C reference (xpsnr.c) and the CUDA twin
 * (xpsnr.cu): the filter's geometry; from a frame's block sums, the block weights (in the
 * filter's order of double operations, with its in-line smoothing), the weighted SSEs (running
 * doubles in raster order), the values; the averages over the frames. */
#include <errno.h>
#include <math.h>

#include "features/xpsnr/xpsnr_frame.h"
#include "features/xpsnr/xpsnr_math.h"

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

static void set_geometry(XpsnrGeom *g, const EvPicInfo *info, const double frame_rate,
                         const unsigned b)
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
    g->second_order = frame_rate >= 32.0; /* floor(rate) >= 32 */
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

int ev_xpsnr_geometry(XpsnrGeom *g, const EvPicInfo *info, const double frame_rate,
                      const EvLog *log)
{
    const unsigned b = block_size(info->width, info->height);
    const int err = check_geometry(info, b, log);
    if (err)
        return err;
    set_geometry(g, info, frame_rate, b);
    for (unsigned p = 1; p < g->n_planes; p++)
        if ((g->pw[p] + g->bx[p] - 1) / g->bx[p] != g->w_blk ||
            (g->ph[p] + g->by[p] - 1) / g->by[p] != g->h_blk) {
            /* cannot happen with the layouts accepted: the chroma blocks are the luma's, halved */
            ev_log(log, EV_LOG_ERROR, "xpsnr: plane %u's blocks are not the luma's", p);
            return -EINVAL;
        }
    return 0;
}

/* The weight of the luma block idx at (x0, y0): 1 for a block too narrow or too short for the
 * high-pass (the filter then leaves its activity at 1); else from its activities over the
 * area the filter's margins leave (xa, ya: the first blocks skip the picture's first column
 * and row; wa, ha: the last ones its last), where with downsampling the filter drops the
 * spatial sum of a block whose wa is 12 or less (computes it, keeps 0). */
static double block_weight(const XpsnrGeom *g, const XpsnrSums *sums, const unsigned idx,
                           const unsigned x0, const unsigned y0)
{
    const unsigned bw = x0 + g->b > g->w ? g->w - x0 : g->b;
    const unsigned bh = y0 + g->b > g->h ? g->h - y0 : g->b;
    const int margin = g->downsample ? 2 : 1;
    const int xa = x0 > 0 ? 0 : margin, ya = y0 > 0 ? 0 : margin;
    const int wa = x0 + bw < g->w ? (int)bw : (int)bw - margin;
    const int ha = y0 + bh < g->h ? (int)bh : (int)bh - margin;
    if (wa <= xa || ha <= ya)
        return 1.0;
    const uint64_t sa = g->downsample && wa <= 12 ? 0 : sums->sa[idx];
    return xpsnr_weight(sa, wa - xa, ha - ya, 2 * sums->ta[idx], bw, bh, g->depth);
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

void ev_xpsnr_frame_wsse(const XpsnrGeom *g, const XpsnrSums *sums, double *weight,
                         uint64_t wsse[3])
{
    unsigned idx = 0;
    for (unsigned y0 = 0; y0 < g->h; y0 += g->b)
        for (unsigned x0 = 0; x0 < g->w; x0 += g->b, idx++) {
            weight[idx] = block_weight(g, sums, idx, x0, y0);
            if (g->smooth)
                smooth_weights(g, weight, idx, x0, y0);
        }
    /* every plane's blocks in raster order, weighted by the luma block of the same number */
    for (unsigned p = 0; p < g->n_planes; p++) {
        double sum = 0.0;
        for (unsigned i = 0; i < idx; i++)
            sum += (double)sums->sse[p][i] * weight[i];
        wsse[p] = xpsnr_wsse(sum, g->avg_act);
    }
}

double ev_xpsnr_value(const uint64_t wsse, const uint64_t plane_peak)
{
    const double root = sqrt((double)wsse);
    if (!(root >= 1.0))
        return INFINITY;
    return 10.0 * log10((double)plane_peak / (root * root));
}

int ev_xpsnr_put_values(const XpsnrGeom *g, const uint64_t wsse[3], const unsigned frame,
                        EvSink *sink)
{
    static const char *const name[3] = { "xpsnr_y", "xpsnr_u", "xpsnr_v" };
    int err = 0;
    for (unsigned p = 0; p < g->n_planes && !err; p++)
        err = ev_sink_put(sink, name[p], frame, ev_xpsnr_value(wsse[p], g->plane_peak[p]));
    return err;
}

void ev_xpsnr_add_totals(const XpsnrGeom *g, const uint64_t wsse[3], XpsnrTotals *t)
{
    for (unsigned p = 0; p < g->n_planes; p++) {
        t->sum_root[p] += sqrt((double)wsse[p]);
        t->sum_value[p] += ev_xpsnr_value(wsse[p], g->plane_peak[p]);
    }
    t->n_frames++;
}

/* The filter's average of a plane over the frames: from the mean of sqrt(wsse) when that is at
 * least 1 (10 log10(peak / mean^2)), else the mean of the frames' values. */
static double average(const XpsnrGeom *g, const XpsnrTotals *t, const unsigned p)
{
    const double n = (double)t->n_frames;
    if (t->sum_root[p] >= n) {
        const double mean = t->sum_root[p] / n;
        return 10.0 * log10((double)g->plane_peak[p] / (mean * mean));
    }
    return t->sum_value[p] / n;
}

/* The averages and their minimum, as the filter logs them at the end (the minimum only with
 * chroma); nothing without frames. */
int ev_xpsnr_put_averages(const XpsnrGeom *g, const XpsnrTotals *t, EvSink *sink)
{
    static const char *const name[3] = { "xpsnr_average_y", "xpsnr_average_u", "xpsnr_average_v" };
    if (!t->n_frames)
        return 0;
    double minimum = average(g, t, 0);
    int err = ev_sink_put_aggregate(sink, name[0], minimum);
    for (unsigned p = 1; p < g->n_planes && !err; p++) {
        const double a = average(g, t, p);
        if (minimum > a)
            minimum = a;
        err = ev_sink_put_aggregate(sink, name[p], a);
    }
    if (!err && g->n_planes > 1)
        err = ev_sink_put_aggregate(sink, "xpsnr_minimum", minimum);
    return err;
}
