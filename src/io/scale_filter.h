/*
 * The filters of libswscale's scaler (ffmpeg 5.1's initFilter, Debian 12's libswscale 6),
 * computed as it computes them, for one direction of one plane: for each output position, the
 * first source position and a fixed number of int16 weights that sum to `one`.
 *
 * Only the kernels a scale filter user picks for video: bicubic (B, C), bilinear and lanczos
 * (its width), with libswscale's defaults. No source or destination SwsVector filters (ffmpeg's
 * scale filter passes none), no fast-bilinear, area, point or other kernels: those are refused.
 */
#ifndef EV_IO_SCALE_FILTER_H
#define EV_IO_SCALE_FILTER_H

#include <stdint.h>

typedef enum EvScaleKernel {
    EV_SCALE_BICUBIC,
    EV_SCALE_BILINEAR,
    EV_SCALE_LANCZOS,
} EvScaleKernel;

/* The parameters libswscale takes as param0/param1; NAN where the user gave none
 * (SWS_PARAM_DEFAULT): bicubic B = 0, C = 0.6; lanczos width 3. Refused: B or C outside
 * [-1, 1], a width outside (0, 25], a kernel not listed above. */
typedef struct EvScaleKernelSpec {
    EvScaleKernel kernel;
    double param[2];
    int bitexact; /* SWS_BITEXACT: taps past the widest needed one are zeroed */
} EvScaleKernelSpec;

typedef struct EvScaleFilter {
    int out_n;      /* output positions */
    int taps;       /* weights per position (aligned as asked) */
    int32_t *first; /* [out_n]: the first source position */
    int16_t *coef;  /* [out_n * taps] */
} EvScaleFilter;

/* Make the filter from src_n to out_n positions. step: libswscale's 16.16 increment
 * ((src_n << 16) + out_n / 2) / out_n; src_pos, out_pos: the sample siting in 1/256 of a
 * sample (128: centred, as for luma and for 4:2:0 chroma); one: the weights' sum (1 << 14
 * horizontally, 1 << 12 vertically); align: the taps' multiple (libswscale on x86: 4
 * horizontally, 2 vertically; 1 in its C-only build). @return 0, -1 out of memory, -2 a
 * filter libswscale would refuse or cascade (too wide), -3 a size below what it scales. */
int ev_scale_filter_make(EvScaleFilter *f, const EvScaleKernelSpec *k, int src_n, int out_n,
                         int64_t step, int src_pos, int out_pos, int one, int align);

void ev_scale_filter_free(EvScaleFilter *f);

#endif
