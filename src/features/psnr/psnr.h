/* What the psnr C reference shares with its CUDA twin (psnr.cu). float_psnr.h is included for
 * the users that still reach float_psnr's twin through this header. */
#ifndef EV_FEATURES_PSNR_H
#define EV_FEATURES_PSNR_H

#include <stdint.h>

#include "base/extractor.h"
#include "features/psnr/float_psnr.h"

#ifdef __cplusplus
extern "C" {
#endif

/* psnr: planes scored (1 or 3), and the scoring of one plane from its integer sum. */
unsigned ev_psnr_planes(const void *state);
int ev_psnr_emit_plane(const void *state, unsigned p, uint64_t sse, unsigned n, unsigned frame,
                       EvSink *sink);

/* CUDA twin: launch = enqueue the device sums on ref->gpu's stream (results in the worker's
 * host area once the stream is synchronised); extract = launch, wait, score. */
void ev_psnr_launch_cuda(const void *state, const EvPic *ref, const EvPic *dis);
EV_EXTRACT_FN(ev_psnr_extract_cuda);

#ifdef __cplusplus
}
#endif

#endif
