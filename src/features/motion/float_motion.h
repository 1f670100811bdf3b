/* What the float motion reference (float_motion.c) shares with its CUDA twin (float_motion.cu):
 * options, state, and the per-frame and final outputs. */
#ifndef EV_FEATURES_FLOAT_MOTION_H
#define EV_FEATURES_FLOAT_MOTION_H

#include "base/extractor.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HALF_MAX_WIDTH 7680 /* libvmaf's VIF_BILINEAR_MAX_WIDTH, for motion_add_scale1 */

typedef struct FloatMotionOpts {
    int debug;
    int force_zero;
    double fps_weight;
    double blend_factor;
    double blend_offset;
    int add_scale1;
    int filter_size;
    int add_uv;
    double max_val;
} FloatMotionOpts;

/* One plane's buffers: blurred frame k in blur[k & 1]; its half-size copy in half[k & 1]. */
typedef struct FmPlane {
    int w, h, hw, hh; /* size, and half size (motion_add_scale1) */
    float *blur[2], *half[2];
    int *x_lo, *x_hi; /* bilinear columns of the half-size copy */
    float *x_dx;
} FmPlane;

enum { NAME_MOTION, NAME_MOTION2, NAME_MOTION3, N_NAMES };

typedef struct FloatMotionState {
    FloatMotionOpts opts;
    float taps[5];
    int n_taps;
    float scaler;
    unsigned n_planes; /* 1, or 3 with motion_add_uv */
    FmPlane plane[3];
    float *conv;    /* the plane being blurred, as libvmaf's floats */
    float *tmp;     /* one row of the vertical pass */
    double score;   /* the latest frame's motion (SAD of it and the frame before) */
    unsigned index; /* the latest frame */
    char name[N_NAMES][160];
    struct FloatMotionCuda *cuda; /* the twin: its stream, blurred frames, scores */
} FloatMotionState;

/* init without the CPU's buffers: options, taps, geometry checks, names, plane sizes. */
int ev_float_motion_init_common(FloatMotionState *s, const void *opts, const EvPicInfo *info,
                                const EvLog *log);
/* motion2's value (fps weight, clipped) and motion3's (blended too) of a SAD score. */
double ev_float_motion_weighted(const FloatMotionState *s, double score);
double ev_float_motion_blended(const FloatMotionState *s, double score);
/* A frame's outputs under motion_force_zero. */
int ev_float_motion_put_zeros(const FloatMotionState *s, unsigned frame, EvSink *sink);

/* Every frame's motion2 and motion3 at once from the SAD scores sad[0 .. n-1] (sad[0] unused),
 * the values float_motion's extract and flush write one frame late (the twin's flush). */
int ev_float_motion_put_motion23(const FloatMotionState *s, const double *sad, unsigned n,
                                 EvSink *sink);

/* The CUDA twin (float_motion.cu): its shared part (opened at init), its frame steps, and at
 * flush the SAD scores of frames 0 .. n_frames - 1 (score[0] = 0) in a malloc'ed array. */
int ev_float_motion_cuda_open(FloatMotionState *s, const EvLog *log);
void ev_float_motion_cuda_close(FloatMotionState *s);
EV_LAUNCH_FN(ev_float_motion_launch_cuda);
EV_EXTRACT_FN(ev_float_motion_extract_cuda);
int ev_float_motion_cuda_scores(FloatMotionState *s, unsigned n_frames, double **score);

#ifdef __cplusplus
}
#endif

#endif
