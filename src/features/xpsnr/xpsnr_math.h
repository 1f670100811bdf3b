/*
 * XPSNR arithmetic of ffmpeg 7.1's xpsnr filter (libavfilter/vf_xpsnr.c, with its x86 SSE2
 * sse_line), shared by the C reference (xpsnr.c) and a CUDA twin. docs/XPSNR.md says what the
 * filter computes; this header is the per-sample and per-block part.
 *
 * Samples: the filter holds every plane as int16 (8-bit samples widened, 9..16-bit samples
 * reinterpreted: a 16-bit sample >= 32768 is negative there). Activities are integer sums of
 * int terms, exact in any order. A block's weight is then a fixed chain of double operations.
 */
#ifndef EV_FEATURES_XPSNR_MATH_H
#define EV_FEATURES_XPSNR_MATH_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hd.h"

/* A sample as the filter's int16 planes hold it. */
EV_HD int xpsnr_s16(const uint16_t v)
{
    return (int)(int16_t)v;
}

/* Squared error of one sample pair, as the SSE2 kernel's 16-bit lanes see it: the difference
 * wraps to int16 (psubw), its square is at most 2^30. For depths up to 15 bits it is the exact
 * square. */
EV_HD uint32_t xpsnr_sq_wrapped(const uint16_t a, const uint16_t b)
{
    const int d = (int)(int16_t)(uint16_t)(a - b);
    return (uint32_t)(d * d);
}

/* The sum of squared errors of n samples of one block row, as ffmpeg's x86-64 sse_line (SSE2,
 * vf_psnr.asm) returns it for 16-bit storage: the row is taken in chunks of 32 samples from its
 * start; in a chunk, sample i goes to 32-bit lane (i / 2) % 4, which adds its 8 squares modulo
 * 2^32 (pmaddwd, paddd); the lanes are then added into 64 bits. The last n % 32 samples add
 * their exact squares. Sums modulo 2^32 do not depend on their order, so a lane is also
 * v[2k] + v[2k + 1] with v[i] the chunk's squares i, i + 8, i + 16, i + 24 (the form that
 * vectorises). A lane's 8 squares stay below 2^32 unless a difference exceeds 23170, so for
 * depths up to 14 bits this is the exact sum; at 16 bits it is the kernel's wrapped one. */
EV_HD uint64_t xpsnr_row_sse16(const uint16_t *a, const uint16_t *b, const unsigned n)
{
    uint64_t sse = 0;
    unsigned x = 0;
    for (; x + 32 <= n; x += 32) {
        uint32_t v[8];
        EV_UNROLL
        for (unsigned i = 0; i < 8; i++)
            v[i] = xpsnr_sq_wrapped(a[x + i], b[x + i]) +
                   xpsnr_sq_wrapped(a[x + i + 8], b[x + i + 8]) +
                   xpsnr_sq_wrapped(a[x + i + 16], b[x + i + 16]) +
                   xpsnr_sq_wrapped(a[x + i + 24], b[x + i + 24]);
        EV_UNROLL
        for (unsigned k = 0; k < 4; k++)
            sse += (uint32_t)(v[2 * k] + v[2 * k + 1]);
    }
    for (; x < n; x++) {
        const int64_t d = (int64_t)a[x] - (int64_t)b[x];
        sse += (uint64_t)(d * d);
    }
    return sse;
}

/* Spatial activity term of one sample, frames up to 2048x1152: |3x3 high-pass| with centre 12,
 * edge neighbours -2, corners -1. p points at the sample, o is the row stride in samples. */
EV_HD unsigned xpsnr_highpass(const int16_t *p, const ptrdiff_t o)
{
    const int edges = p[-1] + p[1] + p[-o] + p[o];
    const int corners = p[-o - 1] + p[-o + 1] + p[o - 1] + p[o + 1];
    const int f = 12 * p[0] - 2 * edges - corners;
    return (unsigned)(f < 0 ? -f : f);
}

/* Spatial activity term of one 2x2 group, frames over 2048x1152 (high-pass with downsampling):
 * p points at the group's top-left sample. On the 6x6 window around the group, without its
 * corners: the group +12, the 4-neighbours of the group along rows and columns -3, the 4
 * diagonal neighbours -2, the outer ring (rows -2 and +3, columns -2 and +3) -1. */
EV_HD unsigned xpsnr_highpass_ds(const int16_t *p, const ptrdiff_t o)
{
    const int16_t *u = p - o, *d = p + 2 * o; /* the rows above and below the group */
    const int group = p[0] + p[1] + p[o] + p[o + 1];
    const int vert = u[0] + u[1] + d[0] + d[1];
    const int horz = p[-1] + p[2] + p[o - 1] + p[o + 2];
    const int diag = u[-1] + u[2] + d[-1] + d[2];
    const int16_t *uu = p - 2 * o, *dd = p + 3 * o;
    int ring = uu[-1] + uu[0] + uu[1] + uu[2] + dd[-1] + dd[0] + dd[1] + dd[2];
    for (int k = -1; k <= 2; k++)
        ring += p[k * o - 2] + p[k * o + 3];
    const int f = 12 * group - 3 * vert - 3 * horz - 2 * diag - ring;
    return (unsigned)(f < 0 ? -f : f);
}

/* Temporal activity term of one sample (or of one 2x2 group's sums): |c - p1| (first order,
 * below 32 frames per second) or |c - 2 p1 + p2| (second order). */
EV_HD unsigned xpsnr_temporal(const int c, const int p1, const int p2, const int second_order)
{
    const int t = second_order ? c - 2 * p1 + p2 : c - p1;
    return (unsigned)(t < 0 ? -t : t);
}

/* Sum of one 2x2 group. */
EV_HD int xpsnr_sum4(const int16_t *p, const ptrdiff_t o)
{
    return p[0] + p[1] + p[o] + p[o + 1];
}

/* One executor's share of a block's sums: the terms i = first, first + step, ... of the
 * block's samples (raster order), or of its rows at 16 bits; the CUDA twin's threads take
 * (threadIdx.x, blockDim.x), a host check (0, 1). Integers: the shares add up to the C's.
 * ref, dis: the plane's top-left sample, stride in bytes; 8-bit samples when bpc == 8. */
EV_HD uint64_t xpsnr_sse_share(const char *ref, const char *dis, const ptrdiff_t stride,
                               const int bpc, const int x0, const int y0, const int bw,
                               const int bh, const int first, const int step)
{
    uint64_t sse = 0;
    if (bpc > 14) { /* whole rows, as the filter's SSE2 kernel sums them */
        for (int y = first; y < bh; y += step) {
            const ptrdiff_t at = (ptrdiff_t)(y0 + y) * stride;
            sse += xpsnr_row_sse16((const uint16_t *)(ref + at) + x0,
                                   (const uint16_t *)(dis + at) + x0, (unsigned)bw);
        }
        return sse;
    }
    for (int i = first; i < bw * bh; i += step) { /* exact squares */
        const int x = x0 + i % bw;
        const ptrdiff_t at = (ptrdiff_t)(y0 + i / bw) * stride;
        const int d =
            bpc > 8
                ? (int)((const uint16_t *)(ref + at))[x] - (int)((const uint16_t *)(dis + at))[x]
                : (int)((const uint8_t *)(ref + at))[x] - (int)((const uint8_t *)(dis + at))[x];
        const uint32_t e = (uint32_t)(d < 0 ? -d : d);
        sse += (uint64_t)e * e;
    }
    return sse;
}

/* The luma geometry a block's activity share needs. */
typedef struct XpsnrLuma {
    int w, h, downsample, second_order;
    const int16_t *c, *p1, *p2; /* the reference luma and the two before (w x h, stride w) */
} XpsnrLuma;

/* A share of a luma block's spatial terms (those not on the picture's border: samples
 * 1..w-2 x 1..h-2, or 2x2 groups at 2..w-4 x 2..h-4) into *sa, and of its temporal terms
 * (every sample or group) into *ta: what xpsnr.c's columns add up per block. */
EV_HD void xpsnr_activity_share(const XpsnrLuma *l, const int x0, const int y0, const int bw,
                                const int bh, const int first, const int step, uint64_t *sa,
                                uint64_t *ta)
{
    const ptrdiff_t o = l->w;
    const int so = l->second_order;
    uint64_t s = 0, t = 0;
    if (!l->downsample) {
        for (int i = first; i < bw * bh; i += step) {
            const int x = x0 + i % bw, y = y0 + i / bw;
            const ptrdiff_t at = (ptrdiff_t)y * o + x;
            if (x >= 1 && x + 1 < l->w && y >= 1 && y + 1 < l->h)
                s += xpsnr_highpass(l->c + at, o);
            t += xpsnr_temporal(l->c[at], l->p1[at], so ? l->p2[at] : 0, so);
        }
    } else {
        const int gw = bw / 2, gh = bh / 2; /* w, h and the block size are even */
        for (int i = first; i < gw * gh; i += step) {
            const int x = x0 + 2 * (i % gw), y = y0 + 2 * (i / gw);
            const ptrdiff_t at = (ptrdiff_t)y * o + x;
            if (x >= 2 && x + 4 <= l->w && y >= 2 && y + 4 <= l->h)
                s += xpsnr_highpass_ds(l->c + at, o);
            t += xpsnr_temporal(xpsnr_sum4(l->c + at, o), xpsnr_sum4(l->p1 + at, o),
                                so ? xpsnr_sum4(l->p2 + at, o) : 0, so);
        }
    }
    *sa = s;
    *ta = t;
}

/* A luma block's weight from its activities, in the filter's order of double operations:
 * ms = sa / (spatial count) + 2 ta / (bw bh), raised to 2^(depth - 6), squared; 1 / sqrt(ms).
 * sa_w x sa_h: the block's area the spatial term covered; ta2: twice the temporal sum. */
EV_HD double xpsnr_weight(const uint64_t sa, const int sa_w, const int sa_h, const uint64_t ta2,
                          const unsigned bw, const unsigned bh, const unsigned depth)
{
    double ms = (double)sa / ((double)sa_w * (double)sa_h);
    ms += (double)ta2 / ((double)bw * (double)bh);
    const double floor_ms = (double)(1 << (depth - 6));
    if (ms < floor_ms)
        ms = floor_ms;
    ms *= ms;
    return 1.0 / sqrt(ms);
}

/* A plane's weighted SSE from its running double sum, as the filter rounds it to an integer. */
EV_HD uint64_t xpsnr_wsse(const double sum, const double avg_act)
{
    return sum <= 0.0 ? 0 : (uint64_t)(sum * avg_act + 0.5);
}

#endif
