/* What float_ssim and float_ms_ssim (ssim.c, ms_ssim.c) share with their CUDA twins (ssim.cu):
 * the states after init and the reporting of one frame from its means. */
#ifndef EV_FEATURES_SSIM_EMIT_H
#define EV_FEATURES_SSIM_EMIT_H

#include "base/extractor.h"
#include "features/ssim/ssim_math.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MS_SCALES 5

typedef struct SsimOpts {
    int enable_lcs;
    int enable_db;
    int clip_db;
    int scale;
} SsimOpts;

/* float_ssim's state after init. */
typedef struct SsimState {
    SsimOpts opts;
    int scale;  /* the factor in effect: opts.scale, or the automatic one */
    int w, h;   /* frame */
    int sw, sh; /* what the window sees: decimated when scale > 1 */
    double max_db;
    unsigned cpu; /* EV_CPU_* levels of the CPU row kernels */
} SsimState;

typedef struct MsSsimOpts {
    int enable_lcs;
    int enable_db;
    int clip_db;
} MsSsimOpts;

/* float_ms_ssim's state after init. */
typedef struct MsSsimState {
    MsSsimOpts opts;
    int w[MS_SCALES], h[MS_SCALES]; /* pyramid sizes: each w / 2 + (w & 1) of the previous */
    double max_db;
    unsigned cpu; /* EV_CPU_* levels of the CPU row kernels */
} MsSsimState;

/* Report one frame from its means (dB conversion, lcs outputs), as the references do. */
int ev_float_ssim_emit(const SsimState *s, const SsimMeans *m, unsigned frame, EvSink *sink);
/* Combine the per-scale means into MS-SSIM and report it: -ERANGE when it is infinite. */
int ev_float_ms_ssim_emit(const MsSsimState *s, const SsimMeans m[MS_SCALES], unsigned frame,
                          EvSink *sink);

#ifdef __cplusplus
}
#endif

#endif
