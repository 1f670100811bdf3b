/* xpsnr's options, for the C reference's class and its CUDA twin's (xpsnr_opts.c). */
#ifndef EV_FEATURES_XPSNR_OPTS_H
#define EV_FEATURES_XPSNR_OPTS_H

#include "base/extractor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct XpsnrOpts {
    double frame_rate;
} XpsnrOpts;

extern const EvOption ev_xpsnr_options[];

#define XPSNR_CLASS_OPTIONS EV_CLASS_OPTIONS(ev_xpsnr_options, XpsnrOpts)

#ifdef __cplusplus
}
#endif

#endif
