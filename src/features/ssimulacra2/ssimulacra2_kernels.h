/*
 * ssimulacra2 row kernels: the table type and every kernel of every level. One template
 * (ssimulacra2_rows_tmpl.h, plain C over ssimulacra2_math.h) compiled per level:
 * ssimulacra2_rows.c (the C reference), ssimulacra2_avx2.c, ssimulacra2_avx512.c. Header only;
 * ssimulacra2_dsp.c fills the table (docs/FAMILY.md). Each kernel works sample by sample (or
 * lane by lane) in the tool's order: every level gives the C's bits
 * (tests/ssimulacra2/ssimulacra2_kernels_test.c).
 */
#ifndef EV_FEATURES_SSIMULACRA2_KERNELS_H
#define EV_FEATURES_SSIMULACRA2_KERNELS_H

#include <stddef.h>

enum { SSIMU2_LANES = 16 }; /* rows the horizontal blur runs at once */

typedef struct Ssimu2Dsp {
    /* sRGB-encoded to linear (libjxl's curve) */
    void (*linear)(const float *in, unsigned w, float *out);
    /* one output row of the vertical blur from its input row (or the sum top + bottom);
     * state: the previous two outputs of the three recursions, rows p1 q1 p3 q3 p5 q5 at
     * state + k * sstride, w floats each */
    void (*vblur1)(const float *in, unsigned w, float *state, size_t sstride, float *out);
    void (*vblur2)(const float *top, const float *bottom, unsigned w, float *state, size_t sstride,
                   float *out);
    /* the horizontal blur of SSIMU2_LANES rows of w samples, interleaved (sample n of row j at
     * n * SSIMU2_LANES + j), into out (the same layout) */
    void (*hblur)(const float *in, unsigned w, float *out);
    /* linear R, G, B to the positive XYB */
    void (*xyb)(const float *r, const float *g, const float *b, unsigned w, float *x, float *y,
                float *z);
    /* 1 - SSIM' and its fourth power */
    void (*ssim)(const float *m1, const float *m2, const float *s11, const float *s22,
                 const float *s12, unsigned w, double *t0, double *t1);
    /* the ringing term, its fourth power, the blur term, its fourth power */
    void (*edge)(const float *i1, const float *m1, const float *i2, const float *m2, unsigned w,
                 double *t2, double *t3, double *t4, double *t5);
} Ssimu2Dsp;

#define SSIMU2_KERNELS(isa)                                                                        \
    void ssimu2_linear_##isa(const float *in, unsigned w, float *out);                             \
    void ssimu2_vblur1_##isa(const float *in, unsigned w, float *state, size_t sstride,            \
                             float *out);                                                          \
    void ssimu2_vblur2_##isa(const float *top, const float *bottom, unsigned w, float *state,      \
                             size_t sstride, float *out);                                          \
    void ssimu2_hblur_##isa(const float *in, unsigned w, float *out);                              \
    void ssimu2_xyb_##isa(const float *r, const float *g, const float *b, unsigned w, float *x,    \
                          float *y, float *z);                                                     \
    void ssimu2_ssim_##isa(const float *m1, const float *m2, const float *s11, const float *s22,   \
                           const float *s12, unsigned w, double *t0, double *t1);                  \
    void ssimu2_edge_##isa(const float *i1, const float *m1, const float *i2, const float *m2,     \
                           unsigned w, double *t2, double *t3, double *t4, double *t5);

SSIMU2_KERNELS(c)
SSIMU2_KERNELS(avx2)
SSIMU2_KERNELS(avx512)

#endif
