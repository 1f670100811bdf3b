/* SSIMULACRA2 of one frame pair, as libjxl 0.11's ssimulacra2 tool computes it for two images
 * (tools/ssimulacra2.cc, scalar build): XYB at 6 scales of linear RGB, the recursive Gaussian,
 * the SSIM' and edge maps' 1- and 4-norms, the weighted score. Every map's sum is a double
 * accumulated in raster order, as the tool's. The per-sample steps are ssimulacra2_math.h. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "features/ssimulacra2/ssimulacra2_frame.h"
#include "features/ssimulacra2/ssimulacra2_weights.h"

enum { SSIMU2_PLANES = 18 };   /* lin 6, xyb 6, mu 2, s11, s22, s12, tmp */
enum { SSIMU2_ROWS = 9 + 12 }; /* row, vstate 6, zero, sink; 6 double rows of terms */

static size_t plane_floats(const unsigned w, const unsigned h)
{
    return ((size_t)w * h + 15) & ~(size_t)15; /* 64-byte multiples */
}

static size_t row_floats(const unsigned w)
{
    return ((size_t)w + 15) & ~(size_t)15;
}

size_t ssimu2_buffer_size(const unsigned w, const unsigned h)
{
    return (SSIMU2_PLANES * plane_floats(w, h) + SSIMU2_ROWS * row_floats(w)) * sizeof(float);
}

void ssimu2_planes_bind(Ssimu2Planes *p, void *buf, const unsigned w, const unsigned h)
{
    const size_t n = plane_floats(w, h), row = row_floats(w);
    float *at = buf;
    p->w = w;
    p->h = h;
    for (unsigned k = 0; k < 2; k++)
        for (unsigned c = 0; c < 3; c++) {
            p->lin[k][c] = at, at += n;
            p->xyb[k][c] = at, at += n;
        }
    p->mu[0] = at, at += n;
    p->mu[1] = at, at += n;
    p->s11 = at, at += n;
    p->s22 = at, at += n;
    p->s12 = at, at += n;
    p->tmp = at, at += n;
    p->row = at, at += row;
    p->vstate = at, at += 6 * row;
    p->zero = at, at += row;
    p->sink = at, at += row;
    for (unsigned k = 0; k < 6; k++)
        p->term[k] = (double *)(void *)at, at += 2 * row;
}

/* ---- the video's samples ---- */

static unsigned sample(const EvPic *pic, const unsigned plane, const unsigned x, const unsigned y)
{
    return pic->bpc > 8 ? ev_pic_row16(pic, plane, y)[x] : ev_pic_row8(pic, plane, y)[x];
}

void ssimu2_rgb_row(const EvPic *pic, const Ssimu2Matrix *m, const unsigned y, float *rgb)
{
    const int up = (int)pic->bpc - 8;
    const int y_off = 16 << up, y_scale = 219 << up, c_off = 128 << up, c_scale = 224 << up;
    const int chroma = pic->layout != EV_PIX_400;
    const unsigned ss_x = pic->layout == EV_PIX_420 || pic->layout == EV_PIX_422;
    const unsigned ss_y = pic->layout == EV_PIX_420;
    const unsigned w = pic->w[0];
    unsigned cy = y >> ss_y;
    if (chroma && cy >= pic->h[1]) /* odd heights: the last chroma row (floor-sized planes) */
        cy = pic->h[1] - 1;
    for (unsigned x = 0; x < w; x++) {
        float cb = 0.0f, cr = 0.0f;
        if (chroma) {
            unsigned cx = x >> ss_x;
            if (cx >= pic->w[1])
                cx = pic->w[1] - 1;
            cb = ssimu2_unit((int)sample(pic, 1, cx, cy), c_off, c_scale);
            cr = ssimu2_unit((int)sample(pic, 2, cx, cy), c_off, c_scale);
        }
        const float luma = ssimu2_unit((int)sample(pic, 0, x, y), y_off, y_scale);
        ssimu2_rgb(m, luma, cb, cr, &rgb[3 * x], &rgb[3 * x + 1], &rgb[3 * x + 2]);
    }
}

void ssimu2_linear_from_pic(const Ssimu2Planes *p, const unsigned k, const EvPic *pic,
                            const Ssimu2Matrix *m)
{
    float *rgb = p->tmp; /* a row of 3 w floats: tmp is free before the blurs */
    for (unsigned y = 0; y < p->h; y++) {
        ssimu2_rgb_row(pic, m, y, rgb);
        const size_t at = (size_t)y * p->w;
        for (unsigned x = 0; x < p->w; x++)
            for (unsigned c = 0; c < 3; c++)
                p->lin[k][c][at + x] = ssimu2_linear_from_srgb(rgb[3 * x + c]);
    }
}

/* ---- the scales ---- */

/* The 2x2 box of a w x h plane into its first (w + 1) / 2 x (h + 1) / 2 samples, in place
 * (stride unchanged): each output precedes every input read after it. */
static void downscale(float *v, const size_t stride, const unsigned w, const unsigned h)
{
    const unsigned ow = (w + 1) / 2, oh = (h + 1) / 2;
    for (unsigned oy = 0; oy < oh; oy++) {
        const float *r0 = v + (size_t)(2 * oy) * stride;
        const float *r1 = v + (size_t)(2 * oy + 1 < h ? 2 * oy + 1 : h - 1) * stride;
        for (unsigned ox = 0; ox < ow; ox++) {
            const unsigned x0 = 2 * ox, x1 = 2 * ox + 1 < w ? 2 * ox + 1 : w - 1;
            v[(size_t)oy * stride + ox] = ssimu2_box4(r0[x0], r0[x1], r1[x0], r1[x1]);
        }
    }
}

static void xyb_row(const float *restrict r, const float *restrict g, const float *restrict b,
                    const unsigned w, float *restrict x0, float *restrict x1, float *restrict x2)
{
    for (unsigned x = 0; x < w; x++)
        ssimu2_xyb(r[x], g[x], b[x], &x0[x], &x1[x], &x2[x]);
}

static void to_xyb(const Ssimu2Planes *p, const unsigned k, const unsigned w, const unsigned h)
{
    for (unsigned y = 0; y < h; y++) {
        const size_t at = (size_t)y * p->w;
        xyb_row(p->lin[k][0] + at, p->lin[k][1] + at, p->lin[k][2] + at, w, p->xyb[k][0] + at,
                p->xyb[k][1] + at, p->xyb[k][2] + at);
    }
}

/* ---- the blur ---- */

static const Ssimu2Gauss ssimu2_gauss = SSIMU2_GAUSS;

/* One row: the recursion runs from -radius + 1, its input the sum of the samples radius + 1
 * before and radius - 1 after (zero outside the row). */
static void blur_row(const float *in, const unsigned w, float *out)
{
    const Ssimu2Gauss *gs = &ssimu2_gauss;
    const int n_w = (int)w, r = SSIMU2_RADIUS;
    float prev[3] = { 0 }, prev2[3] = { 0 };
    for (int n = -r + 1; n < n_w; n++) {
        const float left = n - r - 1 >= 0 ? in[n - r - 1] : 0.0f;
        const float right = n + r - 1 < n_w ? in[n + r - 1] : 0.0f;
        const float sum = left + right;
        float o[3];
        for (unsigned k = 0; k < 3; k++) {
            o[k] = ssimu2_hstep(sum, gs->n2[k], gs->d1[k], prev[k], prev2[k]);
            prev2[k] = prev[k];
            prev[k] = o[k];
        }
        if (n >= 0)
            out[n] = ssimu2_gauss_out(o[0], o[1], o[2]);
    }
}

/* One step of every column's three recursions, from its input sum (the tool's order). */
#define SSIMU2_VSTEP(sum)                                                                          \
    do {                                                                                           \
        const float y1 = ssimu2_vstep(sum, n2_1, d1_1, p1[x], q1[x]);                              \
        const float y3 = ssimu2_vstep(sum, n2_3, d1_3, p3[x], q3[x]);                              \
        const float y5 = ssimu2_vstep(sum, n2_5, d1_5, p5[x], q5[x]);                              \
        q1[x] = p1[x], q3[x] = p3[x], q5[x] = p5[x];                                               \
        p1[x] = y1, p3[x] = y3, p5[x] = y5;                                                        \
        out[x] = ssimu2_gauss_out(y1, y3, y5);                                                     \
    } while (0)

/* One output row of the vertical pass: its input is one row (the row radius + 1 above is
 * outside the plane: no addition) or the sum of two. */
static void vblur_row1(const float *restrict in, const unsigned w, float *restrict p1,
                       float *restrict q1, float *restrict p3, float *restrict q3,
                       float *restrict p5, float *restrict q5, float *restrict out)
{
    const float n2_1 = ssimu2_gauss.n2[0], n2_3 = ssimu2_gauss.n2[1], n2_5 = ssimu2_gauss.n2[2];
    const float d1_1 = ssimu2_gauss.d1[0], d1_3 = ssimu2_gauss.d1[1], d1_5 = ssimu2_gauss.d1[2];
    for (unsigned x = 0; x < w; x++)
        SSIMU2_VSTEP(in[x]);
}

static void vblur_row2(const float *restrict top, const float *restrict bottom, const unsigned w,
                       float *restrict p1, float *restrict q1, float *restrict p3,
                       float *restrict q3, float *restrict p5, float *restrict q5,
                       float *restrict out)
{
    const float n2_1 = ssimu2_gauss.n2[0], n2_3 = ssimu2_gauss.n2[1], n2_5 = ssimu2_gauss.n2[2];
    const float d1_1 = ssimu2_gauss.d1[0], d1_3 = ssimu2_gauss.d1[1], d1_5 = ssimu2_gauss.d1[2];
    for (unsigned x = 0; x < w; x++)
        SSIMU2_VSTEP(top[x] + bottom[x]);
}

/* The columns, all at once (each column's recursion is the tool's): the input of output row n
 * is row n + radius - 1 (zero below the plane), plus row n - radius - 1 where it exists. */
static void blur_columns(const Ssimu2Planes *p, const unsigned w, const unsigned h, float *out)
{
    const size_t stride = p->w, row = row_floats(p->w);
    float *v[6];
    for (unsigned k = 0; k < 6; k++) {
        v[k] = p->vstate + k * row;
        memset(v[k], 0, w * sizeof(float));
    }
    const int n_h = (int)h, r = SSIMU2_RADIUS;
    for (int n = -r + 1; n < n_h; n++) {
        const int top = n - r - 1, bottom = n + r - 1;
        const float *b = bottom < n_h ? p->tmp + (size_t)bottom * stride : p->zero;
        float *o = n >= 0 ? out + (size_t)n * stride : p->sink;
        if (top >= 0)
            vblur_row2(p->tmp + (size_t)top * stride, b, w, v[0], v[1], v[2], v[3], v[4], v[5], o);
        else
            vblur_row1(b, w, v[0], v[1], v[2], v[3], v[4], v[5], o);
    }
}

/* Blurs a (or a b, sample by sample) of size w x h into out. */
static void blur(const Ssimu2Planes *p, const float *a, const float *b, const unsigned w,
                 const unsigned h, float *out)
{
    const size_t stride = p->w;
    for (unsigned y = 0; y < h; y++) {
        const float *ra = a + (size_t)y * stride;
        const float *in = ra;
        if (b) {
            const float *rb = b + (size_t)y * stride;
            for (unsigned x = 0; x < w; x++)
                p->row[x] = ra[x] * rb[x];
            in = p->row;
        }
        blur_row(in, w, p->tmp + (size_t)y * stride);
    }
    blur_columns(p, w, h, out);
}

/* ---- the maps ---- */

/* One row's terms: 1 - SSIM' and its fourth power; the ringing and blur terms and theirs. */
static void ssim_row(const float *restrict m1, const float *restrict m2, const float *restrict s11,
                     const float *restrict s22, const float *restrict s12, const unsigned w,
                     double *restrict t0, double *restrict t1)
{
    for (unsigned x = 0; x < w; x++) {
        const double d = ssimu2_ssim_term(m1[x], m2[x], s11[x], s22[x], s12[x]);
        t0[x] = d;
        t1[x] = ssimu2_quartic(d);
    }
}

static void edge_row(const float *restrict i1, const float *restrict m1, const float *restrict i2,
                     const float *restrict m2, const unsigned w, double *restrict t2,
                     double *restrict t3, double *restrict t4, double *restrict t5)
{
    for (unsigned x = 0; x < w; x++) {
        const double e = ssimu2_edge_term(i1[x], m1[x], i2[x], m2[x]);
        const double artifact = ssimu2_max0(e), lost = ssimu2_max0(-e);
        t2[x] = artifact;
        t3[x] = ssimu2_quartic(artifact);
        t4[x] = lost;
        t5[x] = ssimu2_quartic(lost);
    }
}

/* The six sums over the plane, each in raster order as the tool's. */
static void maps(const Ssimu2Planes *p, const unsigned c, const unsigned w, const unsigned h,
                 Ssimu2Scale *s)
{
    const size_t stride = p->w;
    double sum[6] = { 0 };
    double *const *t = p->term;
    for (unsigned y = 0; y < h; y++) {
        const size_t at = (size_t)y * stride;
        ssim_row(p->mu[0] + at, p->mu[1] + at, p->s11 + at, p->s22 + at, p->s12 + at, w, t[0],
                 t[1]);
        edge_row(p->xyb[0][c] + at, p->mu[0] + at, p->xyb[1][c] + at, p->mu[1] + at, w, t[2], t[3],
                 t[4], t[5]);
        for (unsigned x = 0; x < w; x++) {
            sum[0] += t[0][x];
            sum[1] += t[1][x];
            sum[2] += t[2][x];
            sum[3] += t[3][x];
            sum[4] += t[4][x];
            sum[5] += t[5][x];
        }
    }
    const double one = 1.0 / (double)((size_t)h * w);
    s->ssim[c * 2] = one * sum[0];
    s->ssim[c * 2 + 1] = sqrt(sqrt(one * sum[1]));
    for (unsigned k = 0; k < 4; k += 2) {
        s->edge[c * 4 + k] = one * sum[2 + k];
        s->edge[c * 4 + k + 1] = sqrt(sqrt(one * sum[3 + k]));
    }
}

void ssimu2_compute(const Ssimu2Planes *p, Ssimu2Result *r)
{
    unsigned w = p->w, h = p->h;
    memset(p->zero, 0, w * sizeof(float));
    r->n_scales = 0;
    for (unsigned scale = 0; scale < SSIMU2_SCALES; scale++) {
        if (w < SSIMU2_MIN_SIZE || h < SSIMU2_MIN_SIZE) /* the size of the scale before */
            break;
        if (scale) {
            for (unsigned k = 0; k < 2; k++)
                for (unsigned c = 0; c < 3; c++)
                    downscale(p->lin[k][c], p->w, w, h);
            w = (w + 1) / 2;
            h = (h + 1) / 2;
        }
        to_xyb(p, 0, w, h);
        to_xyb(p, 1, w, h);
        Ssimu2Scale *s = &r->scale[scale];
        for (unsigned c = 0; c < 3; c++) {
            const float *x1 = p->xyb[0][c], *x2 = p->xyb[1][c];
            blur(p, x1, x1, w, h, p->s11);
            blur(p, x2, x2, w, h, p->s22);
            blur(p, x1, x2, w, h, p->s12);
            blur(p, x1, NULL, w, h, p->mu[0]);
            blur(p, x2, NULL, w, h, p->mu[1]);
            maps(p, c, w, h, s);
        }
        r->n_scales++;
    }
}

double ssimu2_score(const Ssimu2Result *r)
{
    double ssim = 0.0;
    unsigned i = 0;
    for (unsigned c = 0; c < 3; c++)
        for (unsigned scale = 0; scale < r->n_scales; scale++)
            for (unsigned n = 0; n < 2; n++) {
                const Ssimu2Scale *s = &r->scale[scale];
                ssim += ssimu2_weight[i++] * fabs(s->ssim[c * 2 + n]);
                ssim += ssimu2_weight[i++] * fabs(s->edge[c * 4 + n]);
                ssim += ssimu2_weight[i++] * fabs(s->edge[c * 4 + n + 2]);
            }
    ssim = ssim * 0.9562382616834844;
    ssim = 2.326765642916932 * ssim - 0.020884521182843837 * ssim * ssim +
           6.248496625763138e-05 * ssim * ssim * ssim;
    return ssim > 0.0 ? 100.0 - 10.0 * pow(ssim, 0.6276336467831387) : 100.0;
}
