/* What the xpsnr C reference (xpsnr.c) shares with a CUDA twin: the geometry the filter derives
 * from the first frame, and the scoring of a frame from its three weighted SSEs. */
#ifndef EV_FEATURES_XPSNR_H
#define EV_FEATURES_XPSNR_H

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
    unsigned w_blk, h_blk;  /* luma blocks per row, per column */
    int downsample;         /* w h > 2048 1152: the activities on 2x2 groups */
    int smooth;             /* w h <= 640 480: the weights' in-line min-smoothing */
    int second_order;       /* integer frame rate >= 32: second-order temporal difference */
    double avg_act;         /* sqrt(16 2^(2 depth - 9) / sqrt(max(1e-5, w h / 3840 2160))) */
    uint64_t plane_peak[3]; /* pw ph (2^depth - 1)^2 */
} XpsnrGeom;

/* The filter's value of one plane from its weighted SSE: 10 log10(peak / wsse), through its
 * square root and back, or +inf when sqrt(wsse) < 1. */
double ev_xpsnr_value(uint64_t wsse, uint64_t plane_peak);

#ifdef __cplusplus
}
#endif

#endif
