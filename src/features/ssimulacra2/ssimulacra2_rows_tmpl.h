/*
 * ssimulacra2 row kernels (ssimulacra2_kernels.h), compiled once per CPU level:
 * ssimulacra2_rows.c (the C reference), ssimulacra2_avx2.c and ssimulacra2_avx512.c include this
 * file with SSIMU2_ISA set, and the compiler vectorises the loops across samples (or lanes) for
 * that level. Each sample's operations are ssimulacra2_math.h's, in order, and no sum runs
 * across samples: every level gives the C's bits.
 */
#include "features/ssimulacra2/ssimulacra2_kernels.h"
#include "features/ssimulacra2/ssimulacra2_math.h"

#define SSIMU2_CAT_(a, b) a##_##b
#define SSIMU2_CAT(a, b) SSIMU2_CAT_(a, b)
#define SSIMU2_FN(name) SSIMU2_CAT(name, SSIMU2_ISA)

/* One step of every column's three recursions from its input sum, and its output. */
#define SSIMU2_VSTEP(sum)                                                                          \
    do {                                                                                           \
        const float y1 = ssimu2_vstep(sum, n2_1, d1_1, p1[x], q1[x]);                              \
        const float y3 = ssimu2_vstep(sum, n2_3, d1_3, p3[x], q3[x]);                              \
        const float y5 = ssimu2_vstep(sum, n2_5, d1_5, p5[x], q5[x]);                              \
        q1[x] = p1[x], q3[x] = p3[x], q5[x] = p5[x];                                               \
        p1[x] = y1, p3[x] = y3, p5[x] = y5;                                                        \
        out[x] = ssimu2_gauss_out(y1, y3, y5);                                                     \
    } while (0)

/* top == NULL: the one input row bottom. The state's rows are apart (sstride >= w). */
static inline void SSIMU2_FN(vblur)(const float *restrict top, const float *restrict bottom,
                                    const size_t w, float *restrict p1, float *restrict q1,
                                    float *restrict p3, float *restrict q3, float *restrict p5,
                                    float *restrict q5, float *restrict out)
{
    const Ssimu2Gauss g = SSIMU2_GAUSS;
    const float n2_1 = g.n2[0], n2_3 = g.n2[1], n2_5 = g.n2[2];
    const float d1_1 = g.d1[0], d1_3 = g.d1[1], d1_5 = g.d1[2];
    if (top)
        for (size_t x = 0; x < w; x++)
            SSIMU2_VSTEP(top[x] + bottom[x]);
    else
        for (size_t x = 0; x < w; x++)
            SSIMU2_VSTEP(bottom[x]);
}

void SSIMU2_FN(ssimu2_vblur1)(const float *in, const unsigned w, float *state, const size_t s,
                              float *out)
{
    SSIMU2_FN(vblur)
    (NULL, in, w, state, state + s, state + 2 * s, state + 3 * s, state + 4 * s, state + 5 * s,
     out);
}

void SSIMU2_FN(ssimu2_vblur2)(const float *top, const float *bottom, const unsigned w, float *state,
                              const size_t s, float *out)
{
    SSIMU2_FN(vblur)
    (top, bottom, w, state, state + s, state + 2 * s, state + 3 * s, state + 4 * s, state + 5 * s,
     out);
}

/* One step of SSIMU2_LANES rows' three recursions (state p: previous outputs, q: the ones
 * before), from the samples left and right of it. */
static inline void SSIMU2_FN(hstep)(const float *restrict left, const float *restrict right,
                                    float *restrict p1, float *restrict q1, float *restrict p3,
                                    float *restrict q3, float *restrict p5, float *restrict q5,
                                    float *restrict out)
{
    const Ssimu2Gauss g = SSIMU2_GAUSS;
    const float n2_1 = g.n2[0], n2_3 = g.n2[1], n2_5 = g.n2[2];
    const float d1_1 = g.d1[0], d1_3 = g.d1[1], d1_5 = g.d1[2];
    for (int j = 0; j < SSIMU2_LANES; j++) {
        const float sum = left[j] + right[j];
        const float o1 = ssimu2_hstep(sum, n2_1, d1_1, p1[j], q1[j]);
        const float o3 = ssimu2_hstep(sum, n2_3, d1_3, p3[j], q3[j]);
        const float o5 = ssimu2_hstep(sum, n2_5, d1_5, p5[j], q5[j]);
        q1[j] = p1[j], q3[j] = p3[j], q5[j] = p5[j];
        p1[j] = o1, p3[j] = o3, p5[j] = o5;
        out[j] = ssimu2_gauss_out(o1, o3, o5);
    }
}

/* The recursion runs from -radius + 1; its input is the sum of the samples radius + 1 before
 * and radius - 1 after (0 outside the row, still added as the tool adds it). */
void SSIMU2_FN(ssimu2_hblur)(const float *in, const unsigned w, float *out)
{
    enum { L = SSIMU2_LANES };
    static const float zero[L] = { 0 };
    float st[6][L] = { { 0 } }, sink[L];
    const int n_w = (int)w, r = SSIMU2_RADIUS;
    for (int n = -r + 1; n < n_w; n++) {
        const float *left = n - r - 1 >= 0 ? in + (size_t)(n - r - 1) * L : zero;
        const float *right = n + r - 1 < n_w ? in + (size_t)(n + r - 1) * L : zero;
        SSIMU2_FN(hstep)
        (left, right, st[0], st[1], st[2], st[3], st[4], st[5],
         n >= 0 ? out + (size_t)n * L : sink);
    }
}

void SSIMU2_FN(ssimu2_linear)(const float *restrict in, const unsigned w, float *restrict out)
{
    for (size_t x = 0; x < w; x++)
        out[x] = ssimu2_linear_from_srgb(in[x]);
}

void SSIMU2_FN(ssimu2_xyb)(const float *restrict r, const float *restrict g,
                           const float *restrict b, const unsigned w, float *restrict x0,
                           float *restrict x1, float *restrict x2)
{
    for (size_t x = 0; x < w; x++)
        ssimu2_xyb(r[x], g[x], b[x], &x0[x], &x1[x], &x2[x]);
}

void SSIMU2_FN(ssimu2_ssim)(const float *restrict m1, const float *restrict m2,
                            const float *restrict s11, const float *restrict s22,
                            const float *restrict s12, const unsigned w, double *restrict t0,
                            double *restrict t1)
{
    for (size_t x = 0; x < w; x++) {
        const double d = ssimu2_ssim_term(m1[x], m2[x], s11[x], s22[x], s12[x]);
        t0[x] = d;
        t1[x] = ssimu2_quartic(d);
    }
}

void SSIMU2_FN(ssimu2_edge)(const float *restrict i1, const float *restrict m1,
                            const float *restrict i2, const float *restrict m2, const unsigned w,
                            double *restrict t2, double *restrict t3, double *restrict t4,
                            double *restrict t5)
{
    for (size_t x = 0; x < w; x++) {
        const double e = ssimu2_edge_term(i1[x], m1[x], i2[x], m2[x]);
        const double artifact = ssimu2_max0(e), lost = ssimu2_max0(-e);
        t2[x] = artifact;
        t3[x] = ssimu2_quartic(artifact);
        t4[x] = lost;
        t5[x] = ssimu2_quartic(lost);
    }
}
