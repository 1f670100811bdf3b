/* SpEED-QA on one pair of float images (libvmaf feature/speed.c speed_extract_score): prescale,
 * Gaussian anti-alias filter and 16:1 decimation, local mean removal, then per image the 5 x 5
 * block covariance, its eigenvalues, the block variances and entropies; the score compares the
 * variance-weighted entropies of the two images. Shared by speed_chroma and speed_temporal. */
#ifndef EV_FEATURES_SPEED_CORE_H
#define EV_FEATURES_SPEED_CORE_H

#include <stddef.h>

#include "base/log.h"
#include "features/speed/speed_kernels.h"
#include "features/speed/speed_linalg.h"
#include "features/speed/speed_scale.h"

enum { SPEED_MAX_TAPS = 128 };

/* The options both extractors share (libvmaf SpeedOptions). */
typedef struct SpeedParams {
    double kernelscale, prescale;
    int prescale_method; /* SpeedScaleMethod */
    double sigma_nn, nn_floor;
    int weight_var_mode; /* 0..6; speed_temporal always 0 */
} SpeedParams;

typedef struct SpeedFilter {
    int n;
    float tap[SPEED_MAX_TAPS];
} SpeedFilter;

/* Everything fixed by the plane size and the options; read-only after speed_plan_init. */
typedef struct SpeedPlan {
    SpeedParams p;
    int w, h;    /* the plane */
    int sw, sh;  /* after speed_prescale */
    int scaling; /* the prescale resamples (else the plane is used as is) */
    SpeedScale scale;
    unsigned char *scaled_rows; /* rows of the prescaled image the anti-alias filter reads */
    int dw, dh;                 /* after the 16:1 decimation */
    int tw, th;                 /* truncated to whole 5 x 5 blocks */
    int bw, bh, n_blocks;       /* blocks across, down, in all */
    int sub_w, sub_h;           /* the shifted submatrices of the covariance */
    SpeedFilter antialias, local;
    float base_entropy;
    SpeedDsp dsp; /* the C kernels after speed_plan_init; speed_dsp_init() for the CPU's */
} SpeedPlan;

/* Set up for a w x h plane. On an unusable size or option, logs one line naming `who` (the
 * extractor) and `plane` (e.g. "luma plane") and returns -EINVAL; -ENOMEM when out of memory.
 * libvmaf crashes on all of these (it logs, ignores its own error and reads past buffers).
 * On failure nothing stays allocated. */
int speed_plan_init(SpeedPlan *plan, const SpeedParams *p, int w, int h, const char *who,
                    const char *plane, const EvLog *log);
void speed_plan_close(SpeedPlan *plan);

/* Working memory of one worker. */
typedef struct SpeedWork {
    float *scaled;            /* sw x sh (only when scaling) */
    float *row;               /* sw: one vertically filtered row */
    float *dec, *mean_img;    /* dw x dh */
    float *indep, *sol, *qty; /* 25 x n_blocks */
    float *entropy[2], *variance[2];
    float cov[SPEED_N * SPEED_N], eig[SPEED_N];
    double acc[SPEED_N * (SPEED_N + 1) / 2];
    SpeedLinalgWork la;
} SpeedWork;

size_t speed_work_size(const SpeedPlan *plan);
void speed_work_init(SpeedWork *work, const SpeedPlan *plan, void *mem);

/* The score of images ref and dis (w x h floats, row stride `stride`, not modified) in *score;
 * returns 1 when either image's covariance could not be inverted (libvmaf's non-zero return,
 * which speed_chroma uses), else 0. */
int speed_score(const SpeedPlan *plan, SpeedWork *work, const float *ref, const float *dis,
                ptrdiff_t stride, float *score);

#endif
