/* The xpsnr CUDA twin's state and entry points (xpsnr.cu; its class is in xpsnr.c). */
#ifndef EV_FEATURES_XPSNR_TWIN_H
#define EV_FEATURES_XPSNR_TWIN_H

#include <stddef.h>

#include "base/extractor.h"
#include "features/xpsnr/xpsnr_frame.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct XpsnrTwinState {
    XpsnrGeom g;
    struct XpsnrCuda *cuda; /* the device lumas, the frame ring, the weighted SSEs by frame */
} XpsnrTwinState;

int ev_xpsnr_cuda_open(XpsnrTwinState *s, const EvLog *log);
void ev_xpsnr_cuda_close(XpsnrTwinState *s);
/* per worker: room for the block weights of a frame */
size_t ev_xpsnr_cuda_scratch_size(const void *state);
EV_LAUNCH_FN(ev_xpsnr_launch_cuda);
EV_EXTRACT_FN(ev_xpsnr_extract_cuda);
/* The averages' totals of frames 0..n_frames-1, added in frame order; -EIO (logged) when a
 * frame was not scored. */
int ev_xpsnr_cuda_totals(XpsnrTwinState *s, unsigned n_frames, XpsnrTotals *t);

#ifdef __cplusplus
}
#endif

#endif
