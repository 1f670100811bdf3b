/* What the float ANSNR reference (float_ansnr.c) shares with its CUDA twin (float_ansnr.cu). */
#ifndef EV_FEATURES_FLOAT_ANSNR_H
#define EV_FEATURES_FLOAT_ANSNR_H

#include "base/extractor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct AnsnrState {
    int w, h;
    float scaler;
    double peak;     /* 255, 255.75, 255.9375, 255.99609375 for 8, 10, 12, 16 bits */
    double psnr_max; /* 60, 72, 84, 108 */
} AnsnrState;

/* The frame's outputs from the float signal and noise totals (log10 here, on the host). */
int ev_ansnr_emit(const AnsnrState *s, float sig, float noise, unsigned frame, EvSink *sink);

/* The CUDA twin (float_ansnr.cu). */
EV_LAUNCH_FN(ev_ansnr_launch_cuda);
EV_EXTRACT_FN(ev_ansnr_extract_cuda);

#ifdef __cplusplus
}
#endif

#endif
