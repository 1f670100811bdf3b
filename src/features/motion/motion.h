/* What the integer motion reference (motion.c) shares with its CUDA twin (motion.cu). */
#ifndef EV_FEATURES_MOTION_H
#define EV_FEATURES_MOTION_H

#include <stddef.h>
#include <stdint.h>

#include "base/extractor.h"
#include "features/motion/motion_dsp.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct MotionOpts {
    int force_zero;
    double blend_factor;
    double blend_offset;
    double fps_weight;
    double max_val;
    int five_frame_window;
    int moving_average;
    int debug;
} MotionOpts;

enum {
    MOTION_NAME_SAD,
    MOTION_NAME_MOTION,
    MOTION_NAME_MOTION2,
    MOTION_NAME_MOTION3,
    MOTION_N_NAMES
};

typedef struct MotionState {
    MotionOpts opts;
    unsigned w, h, bpc;
    unsigned depth; /* previous lumas kept: 1, or 2 with the five-frame window */
    size_t luma_bytes;
    uint8_t *prev[2]; /* CPU: frame k's luma lives in prev[k % depth], packed rows */
    double *score;    /* every frame's SAD score, as written (the twin: at flush) */
    unsigned n_scores, cap_scores;
    char name[MOTION_N_NAMES][160];
    MotionDsp dsp;
    struct MotionCuda *cuda; /* the twin's device ring and frame order (motion.cu) */
} MotionState;

/* A frame's per-frame outputs: the SAD score (and with debug, motion). */
int ev_motion_put_frame(const MotionState *s, unsigned frame, double score, EvSink *sink);

/* The CUDA twin (motion.cu): its shared part, opened at init; its frame steps; at flush, the
 * scores of frames 0 .. n_frames - 1 in a malloc'ed array (*score, *n) for motion2/motion3. */
int ev_motion_cuda_open(MotionState *s, const EvLog *log);
void ev_motion_cuda_close(MotionState *s);
EV_LAUNCH_FN(ev_motion_launch_cuda);
EV_EXTRACT_FN(ev_motion_extract_cuda);
int ev_motion_cuda_scores(MotionState *s, unsigned n_frames, double **score, unsigned *n);

#ifdef __cplusplus
}
#endif

#endif
