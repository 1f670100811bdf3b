/* SpEED-QA of one image pair, as libvmaf feature/speed.c (scalar C, the golden's path):
 * filter_and_downscale, est_params and get_speed_score. The anti-alias filter's output is
 * decimated 16:1, so only the decimated positions are computed: each is the same float sum of
 * the same products as the reference's full-size filter. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "features/speed/speed_core.h"
#include "features/speed/speed_dsp.h"
#include "features/speed/speed_math.h"
#include "features/vif/float_vif_scale.h"

#define DECIMATION (1 << SPEED_SCALES)

static int filter_size(const int scale, const float kernelscale)
{
    const int c = (int)ceil((float)((1 << (4 - scale)) + 1) * kernelscale);
    const int odd = c % 2 == 0 ? c + 1 : c;
    return odd > 3 ? odd : 3;
}

/* get_1d_gaussian_kernel: taps normalised by their float sum. */
static void gaussian_init(SpeedFilter *f, const int n, const float sigma)
{
    f->n = n;
    float sum = 0;
    for (int i = 0; i < n; i++) {
        f->tap[i] = speed_gaussian_tap(i - (n - 1) / 2, sigma);
        sum += f->tap[i];
    }
    for (int i = 0; i < n; i++)
        f->tap[i] /= sum;
}

static int check_size(SpeedPlan *pl, const char *who, const char *plane, const EvLog *log)
{
    if (pl->tw > 0 && pl->th > 0)
        return 0;
    if (pl->sw != pl->w || pl->sh != pl->h)
        ev_log(log, EV_LOG_ERROR,
               "%s: the %s is %dx%d, %dx%d after speed_prescale=%g; SpEED "
               "needs at least %dx%d (after speed_prescale)",
               who, plane, pl->w, pl->h, pl->sw, pl->sh, pl->p.prescale, SPEED_BLOCK * DECIMATION,
               SPEED_BLOCK * DECIMATION);
    else
        ev_log(log, EV_LOG_ERROR, "%s: the %s is %dx%d; SpEED needs at least %dx%d", who, plane,
               pl->w, pl->h, SPEED_BLOCK * DECIMATION, SPEED_BLOCK * DECIMATION);
    return -EINVAL;
}

static void set_geometry(SpeedPlan *pl, const int w, const int h)
{
    pl->w = w;
    pl->h = h;
    pl->sw = (int)(w * pl->p.prescale + 0.5);
    pl->sh = (int)(h * pl->p.prescale + 0.5);
    pl->scaling = !(fabs(pl->p.prescale - 1.0) < 1.0e-3);
    pl->dw = pl->sw >> SPEED_SCALES;
    pl->dh = pl->sh >> SPEED_SCALES;
    pl->tw = pl->dw / SPEED_BLOCK * SPEED_BLOCK;
    pl->th = pl->dh / SPEED_BLOCK * SPEED_BLOCK;
    pl->bw = pl->tw / SPEED_BLOCK;
    pl->bh = pl->th / SPEED_BLOCK;
    pl->n_blocks = pl->bw * pl->bh;
    pl->sub_w = pl->tw - SPEED_BLOCK + 1;
    pl->sub_h = pl->th - SPEED_BLOCK + 1;
}

int speed_plan_init(SpeedPlan *pl, const SpeedParams *p, const int w, const int h, const char *who,
                    const char *plane, const EvLog *log)
{
    *pl = (SpeedPlan){ .p = *p };
    speed_dsp_init(&pl->dsp, 0); /* the C kernels until the extractor names its CPU */
    const float ks = (float)p->kernelscale;
    if (!vif_float_kernelscale_valid(ks)) {
        ev_log(log, EV_LOG_ERROR,
               "%s: speed_kernelscale=%g is not one of libvmaf's accepted "
               "kernel scales (e.g. 0.5, 1, 1.5, 2, 3)",
               who, p->kernelscale);
        return -EINVAL;
    }
    set_geometry(pl, w, h);
    if (!pl->scaling && (pl->sw > w || pl->sh > h)) {
        /* libvmaf skips the resampling but filters a larger frame than it filled */
        ev_log(log, EV_LOG_ERROR,
               "%s: speed_prescale=%g is within 1e-3 of 1 but makes the %dx%d "
               "%s %dx%d, which libvmaf reads uninitialised; use 1 or a factor further "
               "from it",
               who, p->prescale, w, h, plane, pl->sw, pl->sh);
        return -EINVAL;
    }
    int err = check_size(pl, who, plane, log);
    if (err)
        return err;
    const int n_aa = filter_size(1, ks);
    gaussian_init(&pl->antialias, n_aa, (float)(sqrt(SPEED_SCALES) * n_aa / 5.0f));
    const int n_local = filter_size(SPEED_SCALES, ks);
    gaussian_init(&pl->local, n_local, n_local / 5.0f);
    pl->base_entropy =
        speed_base_entropy(log2(speed_base_arg((float)p->nn_floor, (float)p->sigma_nn)));
    /* the rows of the (prescaled) image that the decimated anti-alias filter reads */
    pl->scaled_rows = calloc((size_t)pl->sh, 1);
    if (!pl->scaled_rows)
        return -ENOMEM;
    const int r = n_aa / 2;
    for (int a = 0; a < pl->dh; a++)
        for (int k = 0; k < n_aa; k++)
            pl->scaled_rows[speed_mirror(a * DECIMATION - r + k, pl->sh)] = 1;
    if (pl->scaling)
        err = speed_scale_init(&pl->scale, (SpeedScaleMethod)p->prescale_method, w, h, pl->sw,
                               pl->sh);
    if (err)
        speed_plan_close(pl);
    return err;
}

void speed_plan_close(SpeedPlan *pl)
{
    speed_scale_close(&pl->scale);
    free(pl->scaled_rows);
    pl->scaled_rows = NULL;
}

/* ---- working memory ---- */

typedef struct WorkLayout {
    size_t scaled, row, dec, blocks;
} WorkLayout;

static WorkLayout layout_of(const SpeedPlan *pl)
{
    return (WorkLayout){
        .scaled = pl->scaling ? (size_t)pl->sw * pl->sh : 0,
        .row = (size_t)pl->sw,
        .dec = (size_t)pl->dw * pl->dh,
        .blocks = (size_t)pl->n_blocks,
    };
}

size_t speed_work_size(const SpeedPlan *pl)
{
    const WorkLayout l = layout_of(pl);
    return (l.scaled + l.row + 2 * l.dec + 3 * SPEED_N * l.blocks + 4 * l.blocks) * sizeof(float);
}

void speed_work_init(SpeedWork *wk, const SpeedPlan *pl, void *mem)
{
    const WorkLayout l = layout_of(pl);
    float *f = mem;
    wk->scaled = f, f += l.scaled;
    wk->row = f, f += l.row;
    wk->dec = f, f += l.dec;
    wk->mean_img = f, f += l.dec;
    wk->indep = f, f += SPEED_N * l.blocks;
    wk->sol = f, f += SPEED_N * l.blocks;
    wk->qty = f, f += SPEED_N * l.blocks;
    for (int k = 0; k < 2; k++) {
        wk->entropy[k] = f, f += l.blocks;
        wk->variance[k] = f, f += l.blocks;
    }
}

/* ---- filter_and_downscale ---- */

/* Vertical pass of the rows around `centre` of a w x h image: out[j] for every column. */
static void filter_rows(const SpeedFilter *f, const float *img, const ptrdiff_t stride, const int w,
                        const int h, const int centre, float *out)
{
    const int r = f->n / 2;
    for (int j = 0; j < w; j++)
        out[j] = 0;
    for (int k = 0; k < f->n; k++) {
        const float *src = img + speed_mirror(centre - r + k, h) * stride;
        const float t = f->tap[k];
        for (int j = 0; j < w; j++)
            out[j] = speed_tap(out[j], t, src[j]);
    }
}

/* Horizontal pass at column `centre` of a vertically filtered row. */
static float filter_at(const SpeedFilter *f, const float *row, const int w, const int centre)
{
    const int r = f->n / 2;
    float acc = 0;
    for (int k = 0; k < f->n; k++)
        acc = speed_tap(acc, f->tap[k], row[speed_mirror(centre - r + k, w)]);
    return acc;
}

/* wk->dec = the image prescaled, anti-alias filtered, decimated, minus its local mean. */
static void downscale(const SpeedPlan *pl, SpeedWork *wk, const float *img, const ptrdiff_t stride)
{
    const float *s = img;
    ptrdiff_t ss = stride;
    if (pl->scaling) {
        speed_scale_apply(&pl->scale, img, stride, wk->scaled, pl->sw, pl->scaled_rows);
        s = wk->scaled;
        ss = pl->sw;
    }
    for (int a = 0; a < pl->dh; a++) {
        filter_rows(&pl->antialias, s, ss, pl->sw, pl->sh, a * DECIMATION, wk->row);
        for (int b = 0; b < pl->dw; b++)
            wk->dec[a * pl->dw + b] = filter_at(&pl->antialias, wk->row, pl->sw, b * DECIMATION);
    }
    for (int i = 0; i < pl->dh; i++) {
        filter_rows(&pl->local, wk->dec, pl->dw, pl->dw, pl->dh, i, wk->row);
        for (int j = 0; j < pl->dw; j++)
            wk->mean_img[i * pl->dw + j] = filter_at(&pl->local, wk->row, pl->dw, j);
    }
    for (int i = 0; i < pl->dw * pl->dh; i++)
        wk->dec[i] -= wk->mean_img[i];
}

/* ---- est_params ---- */

/* The 25 shifted submatrices' means, then their covariances: for each sample position, the
 * 25 centred values, and every pair's product added to its own double sum, in raster order. */
static void covariance(const SpeedPlan *pl, SpeedWork *wk)
{
    const float *d = wk->dec;
    const int dw = pl->dw;
    const size_t n = (size_t)pl->sub_w * pl->sub_h;
    float mean[SPEED_N];
    for (int r = 0; r < SPEED_BLOCK; r++) {
        float sum[SPEED_BLOCK] = { 0 };
        for (int i = 0; i < pl->sub_h; i++) {
            const float *row = d + (r + i) * dw;
            for (int j = 0; j < pl->sub_w; j++)
                for (int c = 0; c < SPEED_BLOCK; c++)
                    sum[c] += row[c + j];
        }
        for (int c = 0; c < SPEED_BLOCK; c++)
            mean[r * SPEED_BLOCK + c] = speed_mean_value(sum[c], n);
    }
    double *acc = wk->acc;
    memset(wk->acc, 0, sizeof(wk->acc));
    for (int i = 0; i < pl->sub_h; i++) /* the sums, row after row (speed_kernels.h) */
        pl->dsp.cov_row(acc, d + (size_t)i * dw, dw, mean, pl->sub_w);
    for (int x = 0, t = 0; x < SPEED_N; x++)
        for (int y = 0; y <= x; y++, t++)
            wk->cov[x * SPEED_N + y] = wk->cov[y * SPEED_N + x] = speed_cov_value(acc[t], n);
}

/* The independent term: row o = (r, c) holds sample (5 bi + r, 5 bj + c) of every block. */
static void independent_term(const SpeedPlan *pl, SpeedWork *wk)
{
    for (int o = 0; o < SPEED_N; o++)
        for (int bi = 0; bi < pl->bh; bi++)
            for (int bj = 0; bj < pl->bw; bj++)
                wk->indep[(size_t)o * pl->n_blocks + bi * pl->bw + bj] =
                    wk->dec[(SPEED_BLOCK * bi + o / SPEED_BLOCK) * pl->dw + SPEED_BLOCK * bj +
                            o % SPEED_BLOCK];
}

/* Block variances and entropies of wk->dec into slot k; 1 when the covariance is singular. */
static int estimate(const SpeedPlan *pl, SpeedWork *wk, const int k)
{
    const size_t nb = (size_t)pl->n_blocks;
    covariance(pl, wk);
    speed_eigenvalues(wk->cov, wk->eig, &wk->la);
    independent_term(pl, wk);
    int regular = 1;
    for (int i = 0; i < SPEED_N; i++)
        if (wk->eig[i] < 1e-6)
            regular = 0;
    const int singular = !regular || speed_solve(wk->cov, wk->indep, nb, wk->sol, wk->qty, &wk->la);
    if (singular)
        memset(wk->sol, 0, SPEED_N * nb * sizeof(float));
    const float sigma_nn = (float)pl->p.sigma_nn;
    for (size_t j = 0; j < nb; j++) {
        wk->variance[k][j] = speed_block_variance(wk->sol, wk->indep, nb, j);
        wk->entropy[k][j] = speed_block_entropy(wk->eig, wk->variance[k][j], sigma_nn);
    }
    return singular;
}

/* ---- get_speed_score ---- */

int speed_score(const SpeedPlan *pl, SpeedWork *wk, const float *ref, const float *dis,
                const ptrdiff_t stride, float *score)
{
    downscale(pl, wk, ref, stride);
    const int err_ref = estimate(pl, wk, 0);
    downscale(pl, wk, dis, stride);
    const int err_dis = estimate(pl, wk, 1);
    *score = err_ref != err_dis
                 ? 0.0f
                 : speed_compare(wk->entropy[0], wk->entropy[1], wk->variance[0], wk->variance[1],
                                 pl->n_blocks, pl->base_entropy, pl->p.weight_var_mode);
    return err_ref || err_dis;
}
