/*
 * libswscale's two passes over one plane (scale_ref.h): every source row through the
 * horizontal filter into 15-bit intermediates, then each output row from its window of them.
 * libswscale streams the rows through a ring; the order changes nothing, every output sample
 * depends only on its own window.
 */
#include "io/scale_ref.h"

#include <stdlib.h>
#include <string.h>

#include "io/scale_math.h"

static int ceil_shift(int v, int s)
{
    return -((-v) >> s);
}

/* libswscale's 16.16 step from n to m samples, rounded. */
static int64_t scale_step(int n, int m)
{
    return (((int64_t)n << 16) + (m >> 1)) / m;
}

int ev_scale_plan_make(EvScalePlan *p, const EvScaleKernelSpec *k, int src_w, int src_h, int dst_w,
                       int dst_h, int ss_x, int ss_y, int planes, int bits, int align_across,
                       int align_down)
{
    memset(p, 0, sizeof(*p));
    if (bits < 8 || bits > 14)
        return -2;
    if (src_w < 1 || src_h < 1 || dst_w < 1 || dst_h < 1 || ss_x < 0 || ss_x > 1 || ss_y < 0 ||
        ss_y > 1 || (planes != 1 && planes != 3))
        return -3;
    p->bits = bits;
    p->planes = planes;
    p->ss_x = ss_x;
    p->ss_y = ss_y;
    for (int c = 0; c < (planes == 3 ? 2 : 1); c++) {
        const int sx = c ? ss_x : 0, sy = c ? ss_y : 0;
        p->src_w[c] = ceil_shift(src_w, sx);
        p->src_h[c] = ceil_shift(src_h, sy);
        p->dst_w[c] = ceil_shift(dst_w, sx);
        p->dst_h[c] = ceil_shift(dst_h, sy);
        /* siting: 128 (centred) for luma, and for chroma on either side as the scale filter
         * leaves it (libswscale's default, and the 128 it sets for 8-bit 4:2:0) */
        int ret = ev_scale_filter_make(&p->across[c], k, p->src_w[c], p->dst_w[c],
                                       scale_step(p->src_w[c], p->dst_w[c]), 128, 128, 1 << 14,
                                       align_across);
        if (!ret)
            ret = ev_scale_filter_make(&p->down[c], k, p->src_h[c], p->dst_h[c],
                                       scale_step(p->src_h[c], p->dst_h[c]), 128, 128, 1 << 12,
                                       align_down);
        if (ret) {
            ev_scale_plan_free(p);
            return ret;
        }
    }
    return 0;
}

void ev_scale_plan_free(EvScalePlan *p)
{
    for (int c = 0; c < 2; c++) {
        ev_scale_filter_free(&p->across[c]);
        ev_scale_filter_free(&p->down[c]);
    }
}

static void across_row(const EvScalePlan *p, const EvScaleFilter *f, const uint8_t *src, int n,
                       int16_t *out)
{
    for (int x = 0; x < f->out_n; x++) {
        const int16_t *coef = f->coef + (size_t)x * f->taps;
        out[x] = p->bits == 8 ? ev_scale_h_tap8(src, n, f->first[x], coef, f->taps)
                              : ev_scale_h_tap16((const uint16_t *)src, n, f->first[x], coef,
                                                 f->taps, p->bits);
    }
}

int ev_scale_plane_ref(const EvScalePlan *p, int plane, const void *src, ptrdiff_t src_stride,
                       void *dst, ptrdiff_t dst_stride)
{
    const int c = plane ? 1 : 0;
    const EvScaleFilter *h = &p->across[c], *v = &p->down[c];
    const int out_w = p->dst_w[c], rows_in = p->src_h[c];
    int16_t *mid = malloc((size_t)out_w * rows_in * sizeof(*mid));
    if (!mid)
        return -1;
    for (int y = 0; y < rows_in; y++)
        across_row(p, h, (const uint8_t *)src + y * src_stride, p->src_w[c],
                   mid + (size_t)y * out_w);
    for (int y = 0; y < p->dst_h[c]; y++) {
        /* libswscale's x86 default pass, except where it falls back to C: single-row windows,
         * and output rows whose first luma row is one of the frame's last two */
        const int x86 = p->x86_default && p->bits == 8 && v->taps > 1 &&
                        (y << (c ? p->ss_y : 0)) < p->dst_h[0] - 2;
        const int16_t *coef = v->coef + (size_t)y * v->taps;
        const EvScaleWindow window = { mid + (size_t)v->first[y] * out_w, out_w,
                                       rows_in - v->first[y] };
        uint8_t *row = (uint8_t *)dst + y * dst_stride;
        for (int x = 0; x < out_w; x++) {
            if (x86)
                row[x] = ev_scale_v_out8_x86(window, x, coef, v->taps, 64);
            else if (p->bits == 8)
                row[x] = ev_scale_v_out8(window, x, coef, v->taps, 64);
            else
                ((uint16_t *)row)[x] = ev_scale_v_out16(window, x, coef, v->taps, p->bits);
        }
    }
    free(mid);
    return 0;
}
