/* What the xpsnr C reference (xpsnr.c) and its CUDA twin (xpsnr.cu) share: the geometry the
 * filter derives from the first frame, and the host scoring of a frame from its blocks'
 * integer sums (xpsnr_frame.c): the weights, the weighted SSEs, the values, the averages. */
#ifndef EV_FEATURES_XPSNR_FRAME_H
#define EV_FEATURES_XPSNR_FRAME_H

#include <stdint.h>

#include "base/extractor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct XpsnrGeom {
    unsigned w, h, depth;
    unsigned n_planes;      /* 3, or 1 for 4:0:0 */
    unsigned pw[3], ph[3];  /* plane sizes (even where subsampled: ceil = floor) */
    unsigned b;             /* luma block size: 4 round(8 sqrt(w h / 3840 2160)) */
    unsigned bx[3], by[3];  /* block size in each plane: (b pw) / w, (b ph) / h */
    unsigned w_blk, h_blk;  /* luma blocks per row, per column (the chroma planes' too) */
    int downsample;         /* w h > 2048 1152: the activities on 2x2 groups */
    int smooth;             /* w h <= 640 480: the weights' in-line min-smoothing */
    int second_order;       /* integer frame rate >= 32: second-order temporal difference */
    double avg_act;         /* sqrt(16 2^(2 depth - 9) / sqrt(max(1e-5, w h / 3840 2160))) */
    uint64_t plane_peak[3]; /* pw ph (2^depth - 1)^2 */
} XpsnrGeom;

/* One frame's integer sums per block, raster order (w_blk h_blk each): the squared errors of
 * each plane's block, and the luma block's spatial terms (those not on the picture's border)
 * and temporal terms (not yet doubled), per sample or per 2x2 group. */
typedef struct XpsnrSums {
    uint64_t *sse[3];
    uint64_t *sa, *ta;
} XpsnrSums;

/* The running sums of the averages, in frame order. */
typedef struct XpsnrTotals {
    double sum_root[3];  /* of sqrt(wsse) */
    double sum_value[3]; /* of the values */
    unsigned n_frames;
} XpsnrTotals;

/* Check the first frame's geometry (one line naming xpsnr and why, -EINVAL) and derive g. */
int ev_xpsnr_geometry(XpsnrGeom *g, const EvPicInfo *info, double frame_rate, const EvLog *log);

/* The weighted SSE of every plane from a frame's sums; weight: w_blk h_blk doubles of room. */
void ev_xpsnr_frame_wsse(const XpsnrGeom *g, const XpsnrSums *sums, double *weight,
                         uint64_t wsse[3]);

/* The filter's value of one plane: 10 log10(peak / wsse) through its square root and back, or
 * +inf when sqrt(wsse) < 1. */
double ev_xpsnr_value(uint64_t wsse, uint64_t plane_peak);

/* Write a frame's values (xpsnr_y, xpsnr_u, xpsnr_v); add a frame to the totals (in frame
 * order); write the averages (xpsnr_average_y/u/v and, with chroma, xpsnr_minimum). */
int ev_xpsnr_put_values(const XpsnrGeom *g, const uint64_t wsse[3], unsigned frame, EvSink *sink);
void ev_xpsnr_add_totals(const XpsnrGeom *g, const uint64_t wsse[3], XpsnrTotals *t);
int ev_xpsnr_put_averages(const XpsnrGeom *g, const XpsnrTotals *t, EvSink *sink);

#ifdef __cplusplus
}
#endif

#endif
