/* speed_chroma and speed_temporal: the state their C references (speed.c) and CUDA twins
 * (speed.cu) share, and the twins' entry points. */
#ifndef EV_FEATURES_SPEED_H
#define EV_FEATURES_SPEED_H

#include "base/extractor.h"
#include "features/speed/speed_core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct SpeedOpts {
    SpeedParams p;
    double max_val;
    int use_ref_diff;
} SpeedOpts;

enum { SPEED_NAME_U, SPEED_NAME_V, SPEED_NAME_UV, SPEED_N_CHROMA_NAMES };

typedef struct SpeedChromaState {
    SpeedOpts opts;
    SpeedPlan plan; /* U and V have the same size */
    const EvLog *log;
    char name[SPEED_N_CHROMA_NAMES][192];
} SpeedChromaState;

typedef struct SpeedTemporalState {
    SpeedOpts opts;
    SpeedPlan plan;
    float *frame[2][2]; /* [frame & 1][ref, dis]: the luma as floats (CPU) */
    float *diff[2];     /* previous minus current: ref, dis (CPU) */
    void *work_mem;
    SpeedWork work;
    unsigned bpc;
    struct SpeedTemporalCuda *cuda; /* the twin's device ring and frame order (speed.cu) */
    char name[192];
} SpeedTemporalState;

/* speed_chroma's outputs from the two planes' scores and singular flags. */
int ev_speed_chroma_emit(const SpeedChromaState *s, const float score[2], const int err[2],
                         unsigned frame, EvSink *sink);

EV_LAUNCH_FN(ev_speed_chroma_launch_cuda);
EV_EXTRACT_FN(ev_speed_chroma_extract_cuda);
int ev_speed_temporal_cuda_open(SpeedTemporalState *s, const EvLog *log);
void ev_speed_temporal_cuda_close(SpeedTemporalState *s);
EV_LAUNCH_FN(ev_speed_temporal_launch_cuda);
EV_EXTRACT_FN(ev_speed_temporal_extract_cuda);

#ifdef __cplusplus
}
#endif

#endif
