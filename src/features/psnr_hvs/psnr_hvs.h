/* What the PSNR-HVS reference (psnr_hvs.c) shares with its CUDA twin (psnr_hvs.cu). */
#ifndef EV_FEATURES_PSNR_HVS_H
#define EV_FEATURES_PSNR_HVS_H

#include "base/extractor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct PsnrHvsState {
    unsigned bpc;
    int w[3], h[3];    /* plane sizes of the stream */
    float mask[3][64]; /* per plane: the masking weights and the CSF, as floats */
    float csf[3][64];
} PsnrHvsState;

/* The frame's four outputs from each plane's running float sum (psnr_hvs_block_error carried
 * through the plane's blocks in raster order) over w x h samples. */
int ev_psnr_hvs_emit(const PsnrHvsState *s, const float sum[3], const int w[3], const int h[3],
                     unsigned frame, EvSink *sink);

/* The CUDA twin (psnr_hvs.cu). */
EV_LAUNCH_FN(ev_psnr_hvs_launch_cuda);
EV_EXTRACT_FN(ev_psnr_hvs_extract_cuda);

#ifdef __cplusplus
}
#endif

#endif
