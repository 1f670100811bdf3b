/* SSIM of two planes as libvmaf's _iqa_ssim default path (feature/iqa/ssim_tools.c), streamed:
 * each input row is filtered horizontally once into a ring of 11 rows, then each output row is
 * filtered vertically, turned into window terms and added to the sums in raster order. */
#include "features/ssim/ssim_core.h"

/* The five filtered quantities: means of x and y, of x*x, y*y and x*y. */
enum { Q_X, Q_Y, Q_XX, Q_YY, Q_XY, N_Q };

typedef struct CoreBufs {
    float *in_x, *in_y; /* converted input rows (w) */
    float *prod[3];     /* x*x, y*y, x*y of one input row (w) */
    float *ring;        /* SSIM_WINDOW slots x N_Q horizontal outputs (n each) */
    float *stat[N_Q];   /* vertical outputs of one output row (n) */
    double *l, *c;      /* window terms of one output row (n) */
    float *s;
} CoreBufs;

static size_t core_layout(const int w, char *base, CoreBufs *b)
{
    const size_t n = (size_t)(w - (SSIM_WINDOW - 1));
    size_t off = 0;
    b->l = ssim_take(base, &off, n * sizeof(double));
    b->c = ssim_take(base, &off, n * sizeof(double));
    b->s = ssim_take(base, &off, n * sizeof(float));
    b->in_x = ssim_take(base, &off, (size_t)w * sizeof(float));
    b->in_y = ssim_take(base, &off, (size_t)w * sizeof(float));
    for (int i = 0; i < 3; i++)
        b->prod[i] = ssim_take(base, &off, (size_t)w * sizeof(float));
    for (int q = 0; q < N_Q; q++)
        b->stat[q] = ssim_take(base, &off, n * sizeof(float));
    b->ring = ssim_take(base, &off, SSIM_WINDOW * N_Q * n * sizeof(float));
    return off;
}

size_t ssim_core_scratch_size(const int w)
{
    CoreBufs b;
    return core_layout(w, NULL, &b);
}

static float *ring_row(const CoreBufs *b, const int y, const int q, const int n)
{
    return b->ring + ((size_t)(y % SSIM_WINDOW) * N_Q + (size_t)q) * (size_t)n;
}

/* Horizontal pass of input row y of both planes into the ring. */
static void core_row_h(const SsimPlane *ref, const SsimPlane *cmp, const int y, const SsimDsp *dsp,
                       const CoreBufs *b)
{
    const int w = ref->w, n = w - (SSIM_WINDOW - 1);
    const float *x = ssim_plane_row(ref, y, b->in_x);
    const float *v = ssim_plane_row(cmp, y, b->in_y);
    for (int i = 0; i < w; i++) {
        b->prod[0][i] = ssim_product(x[i], x[i]);
        b->prod[1][i] = ssim_product(v[i], v[i]);
        b->prod[2][i] = ssim_product(x[i], v[i]);
    }
    const float *src[N_Q] = { x, v, b->prod[0], b->prod[1], b->prod[2] };
    for (int q = 0; q < N_Q; q++)
        dsp->gauss_row(src[q], w, ring_row(b, y, q, n));
}

/* Vertical pass of output row y (input rows y .. y + 10) and its windows, added in order. */
static void core_row_v(const int y, const int n, const SsimDsp *dsp, const CoreBufs *b,
                       SsimSums *sums)
{
    for (int q = 0; q < N_Q; q++) {
        const float *rows[SSIM_WINDOW];
        for (int k = 0; k < SSIM_WINDOW; k++)
            rows[k] = ring_row(b, y + k, q, n);
        dsp->gauss_column(rows, n, b->stat[q]);
    }
    dsp->terms_row((const float *const *)b->stat, n, b->l, b->c, b->s);
    for (int x = 0; x < n; x++)
        ssim_accumulate(sums, b->l[x], b->c[x], b->s[x]);
}

void ssim_core(const SsimPlane *ref, const SsimPlane *cmp, const SsimDsp *dsp, void *scratch,
               SsimMeans *out)
{
    CoreBufs b;
    core_layout(ref->w, scratch, &b);
    const int n = ref->w - (SSIM_WINDOW - 1), m = ref->h - (SSIM_WINDOW - 1);
    SsimSums sums = { 0.0, 0.0, 0.0, 0.0 };
    for (int y = 0; y < ref->h; y++) {
        core_row_h(ref, cmp, y, dsp, &b);
        if (y >= SSIM_WINDOW - 1)
            core_row_v(y - (SSIM_WINDOW - 1), n, dsp, &b, &sums);
    }
    out->ssim = ssim_mean(sums.ssim, n, m);
    out->l = ssim_mean(sums.l, n, m);
    out->c = ssim_mean(sums.c, n, m);
    out->s = ssim_mean(sums.s, n, m);
}
