/* The ssimulacra2 extractor's state, which its CUDA twin shares (ssimulacra2.c, ssimulacra2.cu),
 * and the twin's entry points. */
#ifndef EV_FEATURES_SSIMULACRA2_TWIN_H
#define EV_FEATURES_SSIMULACRA2_TWIN_H

#include "base/extractor.h"
#include "base/log.h"
#include "features/ssimulacra2/ssimulacra2_kernels.h"
#include "features/ssimulacra2/ssimulacra2_math.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct Ssimu2State {
    unsigned w, h;
    Ssimu2Matrix m;
    Ssimu2Dsp dsp;    /* the CPU's kernels */
    const EvLog *log; /* the twin's, for its per-frame errors */
    char name[64];    /* "ssimulacra2", with the option's suffix when it is not the default */
} Ssimu2State;

/* The CUDA twin (ssimulacra2.cu). */
EV_LAUNCH_FN(ev_ssimu2_launch_cuda);
EV_EXTRACT_FN(ev_ssimu2_extract_cuda);

#ifdef __cplusplus
}
#endif

#endif
