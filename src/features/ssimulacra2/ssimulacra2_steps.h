/*
 * ssimulacra2's frame (ssimulacra2_frame.c) as independent per-output steps, for its CUDA twin
 * (ssimulacra2.cu: one output per thread) and for the host test that runs the same steps
 * (tests/ssimulacra2/ssimulacra2_twin_steps_test.c). Each step is the C's arithmetic
 * (ssimulacra2_math.h) in the C's order; only the storage differs: whole planes, dense rows,
 * where the C streams rows through rings. The maps' sums are not here: each is one running
 * double in raster order (the twin's sums_kernel, the test's loop).
 */
#ifndef EV_FEATURES_SSIMULACRA2_STEPS_H
#define EV_FEATURES_SSIMULACRA2_STEPS_H

#include <stddef.h>
#include <stdint.h>

#include "base/hd.h"
#include "base/picture.h"
#include "features/ssimulacra2/ssimulacra2_math.h"

enum { SSIMU2_N_BLURS = 5 }; /* per channel: x1 x1, x2 x2, x1 x2, x1, x2 */

/* The scales of a w x h frame: a scale is made while the one before is 8x8 at least (as
 * ssimu2_compute). Planes of scale s are dense (w[s] floats a row); a pyramid buffer holds the
 * 6 planes (picture k, channel c at k * 3 + c) of each scale one after another from at[s]. */
typedef struct Ssimu2Pyramid {
    unsigned n_scales;
    unsigned w[SSIMU2_SCALES], h[SSIMU2_SCALES];
    size_t at[SSIMU2_SCALES + 1]; /* at[n_scales]: the pyramid's floats */
} Ssimu2Pyramid;

EV_HD void ssimu2_pyramid(const unsigned w, const unsigned h, Ssimu2Pyramid *p)
{
    unsigned sw = w, sh = h, n = 0;
    size_t at = 0;
    for (; n < SSIMU2_SCALES; n++) {
        if (sw < SSIMU2_MIN_SIZE || sh < SSIMU2_MIN_SIZE) /* the size of the scale before */
            break;
        if (n) {
            sw = (sw + 1) / 2;
            sh = (sh + 1) / 2;
        }
        p->w[n] = sw;
        p->h[n] = sh;
        p->at[n] = at;
        at += 6 * (size_t)sw * sh;
    }
    p->n_scales = n;
    p->at[n] = at;
}

/* Plane (k, c) of scale s in a pyramid buffer; ssimu2_lin_plane: in one without scale 0 (the
 * linear RGB, which the twin keeps from scale 1 on). */
EV_HD size_t ssimu2_plane_at(const Ssimu2Pyramid *p, unsigned s, unsigned k, unsigned c)
{
    return p->at[s] + (size_t)(k * 3 + c) * p->w[s] * p->h[s];
}

EV_HD size_t ssimu2_lin_at(const Ssimu2Pyramid *p, unsigned s, unsigned k, unsigned c)
{
    return ssimu2_plane_at(p, s, k, c) - p->at[1];
}

/* One picture's planes (host or device samples: uint8_t at 8 bits, else uint16_t). */
typedef struct Ssimu2Src {
    const void *p[3];
    ptrdiff_t stride[3]; /* bytes */
    unsigned pw[3], ph[3];
} Ssimu2Src;

/* What the steps need of the stream: its size, depth, layout (EvPixelLayout), matrix. */
typedef struct Ssimu2Fmt {
    unsigned w, h, bpc;
    int layout;
    Ssimu2Matrix m;
} Ssimu2Fmt;

EV_HD int ssimu2_sample(const Ssimu2Src *s, const unsigned bpc, const unsigned plane,
                        const unsigned x, const unsigned y)
{
    const char *row = (const char *)s->p[plane] + (ptrdiff_t)y * s->stride[plane];
    return bpc > 8 ? (int)((const uint16_t *)row)[x] : (int)((const uint8_t *)row)[x];
}

/* Chroma sample (x, y) of plane 1 or 2 as a unit float, as ssimulacra2_frame.c's unit_row
 * spreads it: column min(x >> ss_x, n - 1), n = min((w + ss_x) >> ss_x, plane width), row
 * min(y >> ss_y, plane 1's height - 1). */
EV_HD float ssimu2_chroma_at(const Ssimu2Fmt *f, const Ssimu2Src *s, const unsigned plane,
                             const unsigned x, const unsigned y)
{
    const unsigned ss_x = f->layout != EV_PIX_444, ss_y = f->layout == EV_PIX_420;
    const unsigned up = f->bpc - 8;
    const unsigned half = (f->w + ss_x) >> ss_x;
    const unsigned n = half < s->pw[plane] ? half : s->pw[plane];
    const unsigned cx = x >> ss_x < n ? x >> ss_x : n - 1;
    const unsigned cy = y >> ss_y < s->ph[1] ? y >> ss_y : s->ph[1] - 1;
    return ssimu2_unit(ssimu2_sample(s, f->bpc, plane, cx, cy), 128 << up, 224 << up);
}

/* Pixel (x, y)'s linear R, G, B (ssimu2_rgb_row, then libjxl's sRGB decoding). */
EV_HD void ssimu2_linear_at(const Ssimu2Fmt *f, const Ssimu2Src *s, const unsigned x,
                            const unsigned y, float lin[3])
{
    const unsigned up = f->bpc - 8;
    const float luma = ssimu2_unit(ssimu2_sample(s, f->bpc, 0, x, y), 16 << up, 219 << up);
    float cb = 0.0f, cr = 0.0f; /* 4:0:0: the C's zeroed rows */
    if (f->layout != EV_PIX_400) {
        cb = ssimu2_chroma_at(f, s, 1, x, y);
        cr = ssimu2_chroma_at(f, s, 2, x, y);
    }
    float r, g, b;
    ssimu2_rgb(&f->m, luma, cb, cr, &r, &g, &b);
    lin[0] = ssimu2_linear_from_srgb(r);
    lin[1] = ssimu2_linear_from_srgb(g);
    lin[2] = ssimu2_linear_from_srgb(b);
}

/* Scale 0: pixel i = y w + x's XYB into xyb[c][i]. */
EV_HD void ssimu2_first_step(const Ssimu2Fmt *f, const Ssimu2Src *s, const unsigned x,
                             const unsigned y, float *const xyb[3])
{
    float l[3];
    ssimu2_linear_at(f, s, x, y, l);
    const size_t i = (size_t)y * f->w + x;
    ssimu2_xyb(l[0], l[1], l[2], &xyb[0][i], &xyb[1][i], &xyb[2][i]);
}

/* The corners of output (ox, oy)'s 2x2 box in a w x h plane: the last row and column
 * repeated. */
EV_HD void ssimu2_box_corners(const unsigned w, const unsigned h, const unsigned ox,
                              const unsigned oy, unsigned *x0, unsigned *x1, unsigned *y0,
                              unsigned *y1)
{
    *x0 = 2 * ox;
    *x1 = 2 * ox + 1 < w ? 2 * ox + 1 : w - 1;
    *y0 = 2 * oy;
    *y1 = 2 * oy + 1 < h ? 2 * oy + 1 : h - 1;
}

/* Scale 1 (ow = (w + 1) / 2 wide): output (ox, oy)'s linear RGB into lin[c], its XYB into
 * xyb[c], from the picture (the C boxes the frame's linear rows as it makes them). */
EV_HD void ssimu2_scale1_step(const Ssimu2Fmt *f, const Ssimu2Src *s, const unsigned ox,
                              const unsigned oy, float *const lin[3], float *const xyb[3])
{
    unsigned x0, x1, y0, y1;
    ssimu2_box_corners(f->w, f->h, ox, oy, &x0, &x1, &y0, &y1);
    float a[3], b[3], c[3], d[3], o[3];
    ssimu2_linear_at(f, s, x0, y0, a);
    ssimu2_linear_at(f, s, x1, y0, b);
    ssimu2_linear_at(f, s, x0, y1, c);
    ssimu2_linear_at(f, s, x1, y1, d);
    for (int k = 0; k < 3; k++)
        o[k] = ssimu2_box4(a[k], b[k], c[k], d[k]);
    const size_t i = (size_t)oy * ((f->w + 1) / 2) + ox;
    for (int k = 0; k < 3; k++)
        lin[k][i] = o[k];
    ssimu2_xyb(o[0], o[1], o[2], &xyb[0][i], &xyb[1][i], &xyb[2][i]);
}

/* Scale s >= 2: output (ox, oy) of the box of the w x h linear planes prev[c] of the scale
 * before into lin[c], its XYB into xyb[c]. */
EV_HD void ssimu2_down_step(const float *const prev[3], const unsigned w, const unsigned h,
                            const unsigned ox, const unsigned oy, float *const lin[3],
                            float *const xyb[3])
{
    unsigned x0, x1, y0, y1;
    ssimu2_box_corners(w, h, ox, oy, &x0, &x1, &y0, &y1);
    float o[3];
    for (int k = 0; k < 3; k++) {
        const float *r0 = prev[k] + (size_t)y0 * w, *r1 = prev[k] + (size_t)y1 * w;
        o[k] = ssimu2_box4(r0[x0], r0[x1], r1[x0], r1[x1]);
    }
    const size_t i = (size_t)oy * ((w + 1) / 2) + ox;
    for (int k = 0; k < 3; k++)
        lin[k][i] = o[k];
    ssimu2_xyb(o[0], o[1], o[2], &xyb[0][i], &xyb[1][i], &xyb[2][i]);
}

/* The horizontal blur of one row of w samples: a[x] b[x] (the float product), or a[x] when b
 * is NULL, into out; the C's ssimu2_hblur for one lane, 0 outside the row still added. */
EV_HD void ssimu2_hblur_step(const float *a, const float *b, const unsigned w, float *out)
{
    const Ssimu2Gauss g = SSIMU2_GAUSS;
    const int n_w = (int)w, r = SSIMU2_RADIUS;
    float p1 = 0.0f, q1 = 0.0f, p3 = 0.0f, q3 = 0.0f, p5 = 0.0f, q5 = 0.0f;
    for (int n = -r + 1; n < n_w; n++) {
        const int li = n - r - 1, ri = n + r - 1;
        const float left = li >= 0 ? (b ? a[li] * b[li] : a[li]) : 0.0f;
        const float right = ri < n_w ? (b ? a[ri] * b[ri] : a[ri]) : 0.0f;
        const float sum = left + right;
        const float o1 = ssimu2_hstep(sum, g.n2[0], g.d1[0], p1, q1);
        const float o3 = ssimu2_hstep(sum, g.n2[1], g.d1[1], p3, q3);
        const float o5 = ssimu2_hstep(sum, g.n2[2], g.d1[2], p5, q5);
        q1 = p1, q3 = p3, q5 = p5;
        p1 = o1, p3 = o3, p5 = o5;
        if (n >= 0)
            out[n] = ssimu2_gauss_out(o1, o3, o5);
    }
}

/* The vertical blur of column x of a dense w x h plane in into out: the C's vblur1 while the
 * top row is above the plane (the bottom row alone, or 0 below the plane: no addition), its
 * vblur2 after (top + bottom, bottom 0 below the plane). */
EV_HD void ssimu2_vblur_step(const float *in, const unsigned w, const unsigned h, const unsigned x,
                             float *out)
{
    const Ssimu2Gauss g = SSIMU2_GAUSS;
    const int n_h = (int)h, r = SSIMU2_RADIUS;
    float p1 = 0.0f, q1 = 0.0f, p3 = 0.0f, q3 = 0.0f, p5 = 0.0f, q5 = 0.0f;
    for (int n = -r + 1; n < n_h; n++) {
        const int top = n - r - 1, bottom = n + r - 1;
        const float bot = bottom < n_h ? in[(size_t)bottom * w + x] : 0.0f;
        const float sum = top >= 0 ? in[(size_t)top * w + x] + bot : bot;
        const float y1 = ssimu2_vstep(sum, g.n2[0], g.d1[0], p1, q1);
        const float y3 = ssimu2_vstep(sum, g.n2[1], g.d1[1], p3, q3);
        const float y5 = ssimu2_vstep(sum, g.n2[2], g.d1[2], p5, q5);
        q1 = p1, q3 = p3, q5 = p5;
        p1 = y1, p3 = y3, p5 = y5;
        if (n >= 0)
            out[(size_t)n * w + x] = ssimu2_gauss_out(y1, y3, y5);
    }
}

/* Blur j's input planes of a channel whose pictures' planes are x1, x2 (b NULL: no product). */
EV_HD void ssimu2_blur_inputs(const float *x1, const float *x2, const unsigned j, const float **a,
                              const float **b)
{
    *a = j == 1 || j == 4 ? x2 : x1;
    *b = j == 0 ? x1 : j == 1 || j == 2 ? x2 : (const float *)0;
}

/* The six map terms of sample i of a channel (the C's ssim and edge kernels): 1 - SSIM', its
 * fourth power, the ringing term, its fourth power, the blur term, its fourth power; v: the
 * channel's blurs (s11, s22, s12, mu1, mu2). */
EV_HD void ssimu2_terms_step(const float *x1, const float *x2, const float *const v[5],
                             const size_t i, double t[6])
{
    const double d = ssimu2_ssim_term(v[3][i], v[4][i], v[0][i], v[1][i], v[2][i]);
    t[0] = d;
    t[1] = ssimu2_quartic(d);
    const double e = ssimu2_edge_term(x1[i], v[3][i], x2[i], v[4][i]);
    const double artifact = ssimu2_max0(e), lost = ssimu2_max0(-e);
    t[2] = artifact;
    t[3] = ssimu2_quartic(artifact);
    t[4] = lost;
    t[5] = ssimu2_quartic(lost);
}

#endif
