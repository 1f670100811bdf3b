/* The CUDA twin's decomposition of SpEED (speed_twin.h) run on the host, output by output and
 * with the block solvers as a one-thread block, against the C reference (speed_score,
 * speed_eigenvalues, speed_solve): scores and singular flags bit for bit, for every prescale
 * method, several factors and kernel scales, every variance weight mode, sizes from the
 * smallest accepted up, random, smooth, flat (singular) and full-range images. CI has no GPU:
 * this is where the twin's arithmetic is proven. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "features/common/sample_math.h"
#include "features/speed/speed_core.h"
#include "features/speed/speed_twin.h"
#include "unit/check.h"

static uint32_t rng = 2024;

static uint32_t rnd(void)
{
    rng = rng * 1664525u + 1013904223u;
    return rng >> 8;
}

/* pattern 0 noise, 1 flat, 2 smooth + noise, 3 full-range checker, 4 blocks of noise */
static void fill(float *img, const int w, const int h, const unsigned bpc, const int pattern)
{
    const uint32_t max = (1u << bpc) - 1;
    const float scaler = sample_scaler(bpc);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint32_t v;
            switch (pattern) {
            case 0: v = rnd() & max; break;
            case 1: v = max / 3; break;
            case 2: v = ((uint32_t)(x * 5 + y * 3) * (max / 255) + (rnd() & 7)) & max; break;
            case 3: v = (x + y) & 1 ? max : 0; break;
            default: v = ((x / 7 + y / 5) & 1) ? rnd() & max : max / 2; break;
            }
            img[(size_t)y * w + x] = sample_to_float(v, scaler, -128);
        }
}

typedef struct HostImage {
    float *scaled, *dec, *d, *indep, *x, *qty, *variance, *entropy;
    float eig[SPEED_N];
    int singular;
} HostImage;

/* One image's pipeline as speed.cu runs it (kernel by kernel), on the host. */
static void twin_image(const SpeedPlan *pl, const SpeedTwinPlan *p, const float *img, HostImage *im,
                       SpeedTwinSolver *sv)
{
    const float *s = img;
    ptrdiff_t stride = p->w;
    if (p->scaling) {
        for (int y = 0; y < p->sh; y++)
            for (int x = 0; x < p->sw; x++)
                im->scaled[(size_t)y * p->sw + x] =
                    p->identity ? img[(size_t)y * p->w + x]
                                : speed_scale_px((SpeedScaleMethod)p->method, img, p->w,
                                                 pl->scale.x.index, pl->scale.x.weight,
                                                 pl->scale.y.index, pl->scale.y.weight, y, x);
        s = im->scaled;
        stride = p->sw;
    }
    const int nd = p->dw * p->dh;
    for (int e = 0; e < nd; e++)
        im->dec[e] = speed_twin_dec(p, s, stride, e);
    for (int e = 0; e < nd; e++)
        im->d[e] = speed_twin_centred(p->local, p->n_local, im->dec, p->dw, p->dh, e);
    speed_twin_moments(sv, im->d, p->dw, p->sub_w, p->sub_h, 0, 1);
    speed_twin_eigen(sv, im->eig, 0, 1);
    SpeedTwinSolver sv2;
    speed_twin_moments(&sv2, im->d, p->dw, p->sub_w, p->sub_h, 0, 1);
    for (int e = 0; e < SPEED_N * p->n_blocks; e++)
        im->indep[e] = speed_twin_indep(im->d, p->dw, p->bw, p->n_blocks, e);
    const int failed = speed_twin_solve(&sv2, im->indep, p->n_blocks, im->x, im->qty, 0, 1);
    im->singular = !speed_twin_regular(im->eig) || failed;
    for (int j = 0; j < p->n_blocks; j++)
        speed_twin_block(im->x, im->indep, p->n_blocks, j, im->singular, im->eig, p->sigma_nn,
                         im->variance, im->entropy);
}

static unsigned n_cases, n_singular, n_scored;

static void check_case(const SpeedParams *prm, const int w, const int h, const unsigned bpc,
                       const int pat_ref, const int pat_dis)
{
    SpeedPlan pl;
    if (speed_plan_init(&pl, prm, w, h, "test", "plane", NULL)) {
        printf("plan %dx%d refused\n", w, h);
        CHECK(0);
        return;
    }
    const SpeedTwinPlan p = speed_twin_plan(&pl);
    const size_t n = (size_t)w * h, nd = (size_t)pl.dw * pl.dh, nb = (size_t)pl.n_blocks;
    float *ref = malloc(n * sizeof(float)), *dis = malloc(n * sizeof(float));
    fill(ref, w, h, bpc, pat_ref);
    fill(dis, w, h, bpc, pat_dis);
    SpeedWork *wk = malloc(sizeof(SpeedWork));
    void *mem = malloc(speed_work_size(&pl));
    speed_work_init(wk, &pl, mem);
    float want;
    const int want_err = speed_score(&pl, wk, ref, dis, w, &want);
    HostImage im[2];
    SpeedTwinSolver *sv = malloc(sizeof(*sv));
    for (int k = 0; k < 2; k++) {
        im[k].scaled = malloc((size_t)pl.sw * pl.sh * sizeof(float) + 1);
        im[k].dec = malloc(nd * sizeof(float));
        im[k].d = malloc(nd * sizeof(float));
        im[k].indep = malloc(SPEED_N * nb * sizeof(float));
        im[k].x = malloc(SPEED_N * nb * sizeof(float));
        im[k].qty = malloc(SPEED_N * nb * sizeof(float));
        im[k].variance = malloc(nb * sizeof(float));
        im[k].entropy = malloc(nb * sizeof(float));
        twin_image(&pl, &p, k ? dis : ref, &im[k], sv);
    }
    /* finish_kernel: the blocks' weighted entropies (in ref's qty), then the sum in order */
    float *spatial_r = im[0].qty, *spatial_d = im[0].qty + nb, *visible = im[0].qty + 2 * nb;
    for (int j = 0; j < p.n_blocks; j++)
        visible[j] = (float)speed_block_spatial(im[0].entropy, im[1].entropy, im[0].variance,
                                                im[1].variance, j, p.base_entropy,
                                                p.weight_var_mode, &spatial_r[j], &spatial_d[j]);
    float sum = 0;
    for (int j = 0; j < p.n_blocks; j++)
        if (visible[j] != 0.0f)
            sum = speed_score_add(sum, spatial_r[j], spatial_d[j]);
    const float got =
        im[0].singular != im[1].singular ? 0.0f : speed_score_value(sum, (size_t)p.n_blocks);
    const int got_err = im[0].singular || im[1].singular;
    n_cases++;
    n_singular += (unsigned)got_err;
    n_scored += got != 0.0f;
    /* the reference leaves both images' block entropies and variances, and dis's eigenvalues */
    int same_blocks = !memcmp(wk->eig, im[1].eig, sizeof(wk->eig));
    for (int k = 0; k < 2; k++)
        same_blocks &= !memcmp(wk->entropy[k], im[k].entropy, nb * sizeof(float)) &&
                       !memcmp(wk->variance[k], im[k].variance, nb * sizeof(float));
    if (!same_blocks || check_fbits(got) != check_fbits(want) || got_err != want_err) {
        printf("%dx%d bpc %u patterns %d/%d ks %g ps %g psm %d mode %d: twin %a (err %d), "
               "reference %a (err %d)\n",
               w, h, bpc, pat_ref, pat_dis, prm->kernelscale, prm->prescale, prm->prescale_method,
               prm->weight_var_mode, got, got_err, want, want_err);
        CHECK(0);
    } else {
        CHECK(1);
    }
    for (int k = 0; k < 2; k++) {
        free(im[k].scaled), free(im[k].dec), free(im[k].d), free(im[k].indep);
        free(im[k].x), free(im[k].qty), free(im[k].variance), free(im[k].entropy);
    }
    free(sv), free(mem), free(wk), free(ref), free(dis);
    speed_plan_close(&pl);
}

/* The block solvers against speed_eigenvalues and speed_solve on random symmetric matrices
 * (positive definite, indefinite, rank-deficient). */
static void test_solvers(void)
{
    SpeedLinalgWork *la = malloc(sizeof(*la));
    SpeedTwinSolver *sv = malloc(sizeof(*sv));
    enum { COLS = 37 };
    float y[SPEED_N * COLS], x_ref[SPEED_N * COLS], x_twin[SPEED_N * COLS], qty[SPEED_N * COLS];
    unsigned same = 0;
    for (int c = 0; c < 300; c++) {
        float m[SPEED_N * SPEED_N], g[SPEED_N * SPEED_N];
        const int rank = c % 3 == 2 ? 1 + c % 24 : SPEED_N;
        for (int i = 0; i < SPEED_N * SPEED_N; i++)
            g[i] = (i / SPEED_N < rank) ? (float)((int)(rnd() % 2001) - 1000) / 97.0f : 0.0f;
        for (int i = 0; i < SPEED_N; i++)
            for (int j = 0; j < SPEED_N; j++) {
                float acc = c % 3 == 1 ? (i == j ? (float)(c % 7) - 3.0f : 0.0f) : 0.0f;
                for (int k = 0; k < SPEED_N; k++)
                    acc += g[k * SPEED_N + i] * g[k * SPEED_N + j];
                m[i * SPEED_N + j] = acc;
            }
        for (int i = 0; i < SPEED_N * COLS; i++)
            y[i] = (float)((int)(rnd() % 513) - 256) / 8.0f;
        float eig_ref[SPEED_N], eig_twin[SPEED_N];
        speed_eigenvalues(m, eig_ref, la);
        memcpy(sv->cov, m, sizeof(m));
        speed_twin_eigen(sv, eig_twin, 0, 1);
        const int r_ref = speed_solve(m, y, COLS, x_ref, qty, la);
        memcpy(sv->cov, m, sizeof(m));
        const int r_twin = speed_twin_solve(sv, y, COLS, x_twin, qty, 0, 1);
        int ok = !memcmp(eig_ref, eig_twin, sizeof(eig_ref)) && r_ref == r_twin;
        if (ok && !r_ref)
            ok = !memcmp(x_ref, x_twin, sizeof(x_ref));
        same += (unsigned)ok;
        if (!ok)
            printf("solver case %d (rank %d): eigenvalues or solution differ\n", c, rank);
    }
    CHECK(same == 300);
    free(la);
    free(sv);
}

int main(void)
{
    test_solvers();
    static const struct {
        double ks, ps;
        int psm;
    } variants[] = {
        { 1.0, 1.0, SPEED_NEAREST },  { 0.5, 1.0, SPEED_NEAREST },  { 2.0, 1.0, SPEED_NEAREST },
        { 1.5, 1.0, SPEED_NEAREST },  { 1.0, 0.5, SPEED_BILINEAR }, { 1.0, 0.6, SPEED_BILINEAR },
        { 1.0, 0.5, SPEED_NEAREST },  { 1.0, 0.7, SPEED_BICUBIC },  { 1.0, 0.8, SPEED_LANCZOS4 },
        { 1.0, 1.5, SPEED_BILINEAR }, { 3.0, 1.0, SPEED_NEAREST },  { 1.0, 1.2, SPEED_LANCZOS4 },
        { 1.0, 1.3, SPEED_BICUBIC },  { 1.0, 1.5, SPEED_NEAREST },
    };
    static const int sizes[][2] = { { 80, 80 }, { 176, 176 }, { 357, 353 }, { 320, 240 } };
    for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++)
        for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
            int w = sizes[z][0], h = sizes[z][1];
            if (variants[v].ps < 1) {
                w = (int)(w / variants[v].ps) + 1;
                h = (int)(h / variants[v].ps) + 1;
            }
            const SpeedParams prm = { .kernelscale = variants[v].ks,
                                      .prescale = variants[v].ps,
                                      .prescale_method = variants[v].psm,
                                      .sigma_nn = z & 1 ? 0.19 : 0.29,
                                      .nn_floor = z & 1 ? 0.1 : 0.0,
                                      .weight_var_mode = (int)((v + z) % 7) };
            const unsigned bpc = z == 3 ? 16 : 8 + 2 * (unsigned)(z % 3);
            check_case(&prm, w, h, bpc, (int)(v % 5), (int)((v + z + 1) % 5));
        }
    /* within 1e-3 of 1: not resampled, but the filtered width is the rounded 1199 of 1200 */
    const SpeedParams near1 = { 1.0, 0.9992, SPEED_BILINEAR, 0.29, 0.0, 5 };
    check_case(&near1, 1200, 200, 8, 0, 2);
    for (int mode = 0; mode <= 6; mode++) {
        const SpeedParams prm = { 1.0, 1.0, SPEED_NEAREST, 0.29, 0.0, mode };
        for (int pat = 0; pat < 5; pat++) {
            check_case(&prm, 200, 180, 10, pat, 0);
            check_case(&prm, 240, 200, 8, 0, pat);
        }
    }
    printf("speed_twin: %u cases (%u singular, %u non-zero scores), %u passed, %u failed\n",
           n_cases, n_singular, n_scored, check_passed, check_failed);
    CHECK(n_singular > 0 && n_scored > n_cases / 4);
    return check_failed ? 1 : 0;
}
