/* SSIMULACRA2 of one frame pair, as libjxl 0.11's ssimulacra2 tool computes it for two images
 * (tools/ssimulacra2.cc, scalar build): XYB at 6 scales of linear RGB, the recursive Gaussian,
 * the SSIM' and edge maps' 1- and 4-norms, the weighted score. Every map's sum is a double
 * accumulated in raster order, as the tool's. The per-sample steps are ssimulacra2_math.h. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "features/ssimulacra2/ssimulacra2_frame.h"
#include "features/ssimulacra2/ssimulacra2_weights.h"

/* Planes: xyb 6 of the frame's size, lin 6 of a quarter of it (from scale 1). Rows: the 5 blurs' rings of horizontal outputs, their vertical
 * states (6 rows each) and output rows, 2 tiles, a zero row, a sink row, 6 double rows. */
enum { SSIMU2_RING = 32, SSIMU2_BLURS = 5 };
enum { SSIMU2_ROWS = SSIMU2_BLURS * (SSIMU2_RING + 6 + 1) + 2 * SSIMU2_LANES + 2 + 2 * 6 };

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
    const size_t planes = 6 * plane_floats(w, h) + 6 * plane_floats((w + 1) / 2, (h + 1) / 2);
    return (planes + SSIMU2_ROWS * row_floats(w)) * sizeof(float);
}

void ssimu2_planes_bind(Ssimu2Planes *p, void *buf, const unsigned w, const unsigned h)
{
    const size_t n = plane_floats(w, h), row = row_floats(w);
    const size_t quarter = plane_floats((w + 1) / 2, (h + 1) / 2);
    float *at = buf;
    p->w = w;
    p->h = h;
    p->row = row;
    p->lstride = (w + 1) / 2;
    for (unsigned k = 0; k < 2; k++)
        for (unsigned c = 0; c < 3; c++) {
            p->lin[k][c] = at, at += quarter;
            p->xyb[k][c] = at, at += n;
        }
    for (unsigned k = 0; k < SSIMU2_BLURS; k++) {
        p->ring[k] = at, at += SSIMU2_RING * row;
        p->vstate[k] = at, at += 6 * row;
        p->out[k] = at, at += row;
    }
    p->tile[0] = at, at += SSIMU2_LANES * row;
    p->tile[1] = at, at += SSIMU2_LANES * row;
    p->zero = at, at += row;
    p->sink = at, at += row;
    for (unsigned k = 0; k < 6; k++)
        p->term[k] = (double *)(void *)at, at += 2 * row;
}

/* ---- the video's samples ---- */

/* Row y of a plane as unit floats (ssimu2_unit), sample x taken from column
 * min(x >> ss_x, plane width - 1): each column once, then (ss_x = 1) spread in place from the
 * end (sample x reads column x / 2 <= x, not yet overwritten), the last column repeated past
 * the plane (odd widths). */
static void unit_row(const EvPic *pic, const unsigned plane, const unsigned y, const unsigned w,
                     const unsigned ss_x, const int off, const int scale, float *restrict out)
{
    const unsigned pw = pic->w[plane];
    const unsigned n = (w + ss_x) >> ss_x < pw ? (w + ss_x) >> ss_x : pw; /* columns used */
    if (pic->bpc > 8) {
        const uint16_t *restrict v = ev_pic_row16(pic, plane, y);
        for (unsigned x = 0; x < n; x++)
            out[x] = ssimu2_unit((int)v[x], off, scale);
    } else {
        const uint8_t *restrict v = ev_pic_row8(pic, plane, y);
        for (unsigned x = 0; x < n; x++)
            out[x] = ssimu2_unit((int)v[x], off, scale);
    }
    if (ss_x)
        for (unsigned x = w; x-- > 0;)
            out[x] = out[x >> 1 < n ? x >> 1 : n - 1];
}

void ssimu2_rgb_row(const EvPic *pic, const Ssimu2Matrix *m, const unsigned y, float *r, float *g,
                    float *b)
{
    const int up = (int)pic->bpc - 8;
    const unsigned w = pic->w[0];
    unit_row(pic, 0, y, w, 0, 16 << up, 219 << up, r);
    if (pic->layout == EV_PIX_400) {
        memset(g, 0, w * sizeof(float));
        memset(b, 0, w * sizeof(float));
    } else {
        const unsigned ss_x = pic->layout != EV_PIX_444, ss_y = pic->layout == EV_PIX_420;
        unsigned cy = y >> ss_y;
        if (cy >= pic->h[1]) /* odd heights: the last chroma row (floor-sized planes) */
            cy = pic->h[1] - 1;
        unit_row(pic, 1, cy, w, ss_x, 128 << up, 224 << up, g);
        unit_row(pic, 2, cy, w, ss_x, 128 << up, 224 << up, b);
    }
    for (unsigned x = 0; x < w; x++) /* Y', Cb', Cr' in place to R', G', B' */
        ssimu2_rgb(m, r[x], g[x], b[x], &r[x], &g[x], &b[x]);
}

void ssimu2_first_scale(const Ssimu2Planes *p, const Ssimu2Dsp *dsp, const unsigned k,
                        const EvPic *pic, const Ssimu2Matrix *m)
{
    const unsigned w = p->w, h = p->h, lw = (w + 1) / 2;
    float *r = p->ring[0], *g = r + p->row, *b = g + p->row; /* free before the blurs */
    float *lin[2][3];                                        /* rows 2 oy and 2 oy + 1 */
    for (unsigned j = 0; j < 2; j++)
        for (unsigned c = 0; c < 3; c++)
            lin[j][c] = p->ring[0] + (3 + 3 * j + c) * p->row;
    for (unsigned y = 0; y < h; y++) {
        ssimu2_rgb_row(pic, m, y, r, g, b);
        float *const *l = lin[y & 1];
        dsp->linear(r, w, l[0]);
        dsp->linear(g, w, l[1]);
        dsp->linear(b, w, l[2]);
        const size_t at = (size_t)y * w;
        dsp->xyb(l[0], l[1], l[2], w, p->xyb[k][0] + at, p->xyb[k][1] + at, p->xyb[k][2] + at);
        if (!(y & 1) && y + 1 < h)
            continue;
        /* row y / 2 of scale 1: the 2x2 box (the last row and column repeated) */
        float *const *r1 = lin[y & 1];
        for (unsigned c = 0; c < 3; c++) {
            const float *restrict a = lin[0][c], *restrict d = r1[c];
            float *restrict o = p->lin[k][c] + (size_t)(y / 2) * lw;
            for (unsigned ox = 0; ox < lw; ox++) {
                const unsigned x0 = 2 * ox, x1 = 2 * ox + 1 < w ? 2 * ox + 1 : w - 1;
                o[ox] = ssimu2_box4(a[x0], a[x1], d[x0], d[x1]);
            }
        }
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

static void to_xyb(const Ssimu2Planes *p, const Ssimu2Dsp *dsp, const unsigned k, const unsigned w,
                   const unsigned h)
{
    for (unsigned y = 0; y < h; y++) {
        const size_t in = (size_t)y * p->lstride, at = (size_t)y * p->w;
        dsp->xyb(p->lin[k][0] + in, p->lin[k][1] + in, p->lin[k][2] + in, w, p->xyb[k][0] + at,
                 p->xyb[k][1] + at, p->xyb[k][2] + at);
    }
}

/* ---- the blur and the maps, streamed by rows ---- */

/* Rows y0 .. y0 + SSIMU2_LANES - 1 of a (or of a b, sample by sample), interleaved into the
 * tile; rows past h are zeros (their outputs are dropped). */
static void tile_rows(const Ssimu2Planes *p, const float *a, const float *b, const unsigned w,
                      const unsigned h, const unsigned y0)
{
    enum { L = SSIMU2_LANES };
    const size_t stride = p->w;
    float *restrict t = p->tile[0];
    for (unsigned x0 = 0; x0 < w; x0 += L) {
        const unsigned n = w - x0 < L ? w - x0 : L;
        for (unsigned j = 0; j < L; j++) {
            float *restrict o = t + (size_t)x0 * L + j;
            if (y0 + j >= h) {
                for (unsigned x = 0; x < n; x++)
                    o[x * L] = 0.0f;
                continue;
            }
            const float *restrict ra = a + (size_t)(y0 + j) * stride + x0;
            if (b) {
                const float *restrict rb = b + (size_t)(y0 + j) * stride + x0;
                for (unsigned x = 0; x < n; x++)
                    o[x * L] = ra[x] * rb[x];
            } else {
                for (unsigned x = 0; x < n; x++)
                    o[x * L] = ra[x];
            }
        }
    }
}

/* The tile's rows y0.. (those inside the plane) into their places in ring. */
static void untile_rows(const Ssimu2Planes *p, const unsigned w, const unsigned h,
                        const unsigned y0, float *ring)
{
    enum { L = SSIMU2_LANES };
    const float *restrict t = p->tile[1];
    for (unsigned x0 = 0; x0 < w; x0 += L) {
        const unsigned n = w - x0 < L ? w - x0 : L;
        for (unsigned j = 0; j < L && y0 + j < h; j++) {
            float *restrict o = ring + (size_t)((y0 + j) % SSIMU2_RING) * p->row + x0;
            const float *restrict i = t + (size_t)x0 * L + j;
            for (unsigned x = 0; x < n; x++)
                o[x] = i[x * L];
        }
    }
}

/* The five blurs of channel c (x1 x1, x2 x2, x1 x2, x1, x2) and the six sums of its maps, row
 * by row: the horizontal pass SSIMU2_LANES rows at a time into each blur's ring, as far as
 * the vertical pass's next input row; the vertical pass's output row n (each column's
 * recursion the tool's: its input is row n + radius - 1, zero below the plane, plus row
 * n - radius - 1 where it exists); then the maps' terms of row n, added in raster order. */
static void blur_maps(const Ssimu2Planes *p, const Ssimu2Dsp *dsp, const unsigned c,
                      const unsigned w, const unsigned h, Ssimu2Scale *s)
{
    const float *x1 = p->xyb[0][c], *x2 = p->xyb[1][c];
    const float *const a[SSIMU2_BLURS] = { x1, x2, x1, x1, x2 };
    const float *const b[SSIMU2_BLURS] = { x1, x2, x2, NULL, NULL };
    for (unsigned k = 0; k < SSIMU2_BLURS; k++)
        memset(p->vstate[k], 0, 6 * p->row * sizeof(float));
    double sum[6] = { 0 };
    double *const *t = p->term;
    const int n_h = (int)h, r = SSIMU2_RADIUS;
    int ready = 0; /* horizontal outputs made: rows 0 .. ready - 1 */
    for (int n = -r + 1; n < n_h; n++) {
        const int top = n - r - 1, bottom = n + r - 1;
        while (ready <= bottom && ready < n_h) {
            for (unsigned k = 0; k < SSIMU2_BLURS; k++) {
                tile_rows(p, a[k], b[k], w, h, (unsigned)ready);
                dsp->hblur(p->tile[0], w, p->tile[1]);
                untile_rows(p, w, h, (unsigned)ready, p->ring[k]);
            }
            ready += SSIMU2_LANES;
        }
        for (unsigned k = 0; k < SSIMU2_BLURS; k++) {
            const float *bot =
                bottom < n_h ? p->ring[k] + (size_t)(bottom % SSIMU2_RING) * p->row : p->zero;
            float *o = n >= 0 ? p->out[k] : p->sink;
            if (top >= 0)
                dsp->vblur2(p->ring[k] + (size_t)(top % SSIMU2_RING) * p->row, bot, w, p->vstate[k],
                            p->row, o);
            else
                dsp->vblur1(bot, w, p->vstate[k], p->row, o);
        }
        if (n < 0)
            continue;
        const size_t at = (size_t)n * p->w;
        const float *const *o = (const float *const *)p->out; /* s11 s22 s12 mu1 mu2 */
        dsp->ssim(o[3], o[4], o[0], o[1], o[2], w, t[0], t[1]);
        dsp->edge(x1 + at, o[3], x2 + at, o[4], w, t[2], t[3], t[4], t[5]);
        for (unsigned x = 0; x < w; x++) {
            sum[0] += t[0][x];
            sum[1] += t[1][x];
            sum[2] += t[2][x];
            sum[3] += t[3][x];
            sum[4] += t[4][x];
            sum[5] += t[5][x];
        }
    }
    ssimu2_norms(sum, w, h, c, s);
}

void ssimu2_norms(const double sum[6], const unsigned w, const unsigned h, const unsigned c,
                  Ssimu2Scale *s)
{
    const double one = 1.0 / (double)((size_t)h * w);
    s->ssim[c * 2] = one * sum[0];
    s->ssim[c * 2 + 1] = sqrt(sqrt(one * sum[1]));
    for (unsigned k = 0; k < 4; k += 2) {
        s->edge[c * 4 + k] = one * sum[2 + k];
        s->edge[c * 4 + k + 1] = sqrt(sqrt(one * sum[3 + k]));
    }
}

void ssimu2_compute(const Ssimu2Planes *p, const Ssimu2Dsp *dsp, Ssimu2Result *r)
{
    unsigned w = p->w, h = p->h;
    memset(p->zero, 0, w * sizeof(float));
    r->n_scales = 0;
    for (unsigned scale = 0; scale < SSIMU2_SCALES; scale++) {
        if (w < SSIMU2_MIN_SIZE || h < SSIMU2_MIN_SIZE) /* the size of the scale before */
            break;
        if (scale) { /* lin holds the scale before from scale 2 on, scale 1 at scale 1 */
            if (scale > 1)
                for (unsigned k = 0; k < 2; k++)
                    for (unsigned c = 0; c < 3; c++)
                        downscale(p->lin[k][c], p->lstride, w, h);
            w = (w + 1) / 2;
            h = (h + 1) / 2;
            to_xyb(p, dsp, 0, w, h);
            to_xyb(p, dsp, 1, w, h);
        }
        for (unsigned c = 0; c < 3; c++)
            blur_maps(p, dsp, c, w, h, &r->scale[scale]);
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
