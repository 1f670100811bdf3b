/* One frame pair's SSIMULACRA2 from its linear RGB planes, as libjxl 0.11's ssimulacra2 tool
 * (scalar build) computes it (ssimulacra2_frame.c); the conversion of the video's samples to
 * those planes (ssimulacra2_rgb_row). docs/SSIMULACRA2.md. */
#ifndef EV_FEATURES_SSIMULACRA2_FRAME_H
#define EV_FEATURES_SSIMULACRA2_FRAME_H

#include <stddef.h>

#include "base/picture.h"
#include "features/ssimulacra2/ssimulacra2_kernels.h"
#include "features/ssimulacra2/ssimulacra2_math.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Per scale: the SSIM' map's mean and 4-norm per channel (X, Y, B: [c * 2 + n]), and the edge
 * maps' (ringing mean, ringing 4-norm, blur mean, blur 4-norm per channel: [c * 4 + k]). */
typedef struct Ssimu2Scale {
    double ssim[6];
    double edge[12];
} Ssimu2Scale;

typedef struct Ssimu2Result {
    Ssimu2Scale scale[SSIMU2_SCALES];
    unsigned n_scales;
} Ssimu2Result;

/* Working memory of one w x h pair, carved out of one buffer of ssimu2_buffer_size() bytes:
 * full planes of linear RGB and XYB, and rows for the blurs and maps, which stream. */
typedef struct Ssimu2Planes {
    unsigned w, h;
    size_t row;       /* floats between the rows of the row buffers (ring, state, tiles) */
    size_t lstride;   /* floats between the rows of lin: (w + 1) / 2 */
    float *lin[2][3]; /* linear R, G, B of the reference [0] and the distorted [1], scale >= 1 */
    float *xyb[2][3]; /* XYB of the scale, w floats apart */
    float *ring[5];   /* per blur: its last horizontal outputs, row y at y % 32 */
    float *vstate[5]; /* per blur: the vertical recursions' last two outputs (6 rows) */
    float *out[5];    /* per blur: its current output row (s11, s22, s12, mu1, mu2) */
    float *tile[2];   /* SSIMU2_LANES rows interleaved: the horizontal blur's input, output */
    float *zero;      /* a row of zeros (below the plane) */
    float *sink;      /* where the vertical blur's rows before the first output go */
    double *term[6];  /* one row of the maps' terms */
} Ssimu2Planes;

size_t ssimu2_buffer_size(unsigned w, unsigned h);
void ssimu2_planes_bind(Ssimu2Planes *p, void *buf, unsigned w, unsigned h);

/* The samples of one picture (k: 0 reference, 1 distorted) as the tool's image: limited range,
 * matrix m, chroma samples repeated (nearest), R'G'B' clamped to [0, 1], sRGB-decoded as
 * libjxl does; its XYB in p->xyb[k] (scale 0) and its linear RGB downscaled in p->lin[k]
 * (scale 1), row by row. */
void ssimu2_first_scale(const Ssimu2Planes *p, const Ssimu2Dsp *dsp, unsigned k, const EvPic *pic,
                        const Ssimu2Matrix *m);

/* The R'G'B' of row y of a picture (before decoding): w floats each. */
void ssimu2_rgb_row(const EvPic *pic, const Ssimu2Matrix *m, unsigned y, float *r, float *g,
                    float *b);

/* Scores the pair ssimu2_first_scale made (p->lin is downscaled in place) with dsp's kernels. */
void ssimu2_compute(const Ssimu2Planes *p, const Ssimu2Dsp *dsp, Ssimu2Result *r);

/* Channel c's norms in s from the six sums of its maps over a w x h scale (each a running
 * double in raster order, from 0: 1 - SSIM', its fourth power, ringing, its fourth power,
 * blur, its fourth power); the CUDA twin's sums go through it too. */
void ssimu2_norms(const double sum[6], unsigned w, unsigned h, unsigned c, Ssimu2Scale *s);

/* The tool's Msssim::Score(): the 108 weighted norms (fewer scales shift the weights, as the
 * tool's running index does), then its polynomial and power. */
double ssimu2_score(const Ssimu2Result *r);

#ifdef __cplusplus
}
#endif

#endif
