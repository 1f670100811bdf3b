/* The CUDA twin's arithmetic on the host: a frame's block sums made as xpsnr.cu's threads make
 * them (xpsnr_math.h's shares, split over several thread counts), scored by xpsnr_frame.c,
 * against the C extractor's values and averages through the public API, bit for bit; frames
 * of every path (sizes, depths, layouts, both temporal orders, the filter's zero lumas before
 * the first frames). Without a GPU this is what checks the twin; tests/xpsnr's gpu test runs
 * it on the device. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "exactvmaf/exactvmaf.h"
#include "features/xpsnr/xpsnr_frame.h"
#include "features/xpsnr/xpsnr_math.h"
#include "unit/check.h"

enum { FRAMES = 4 };

typedef struct Case {
    unsigned w, h, depth;
    EvPixelLayout layout;
    unsigned frame_rate;
} Case;

typedef struct Video {
    unsigned pw[3], ph[3], n_planes, bytes;
    uint8_t *plane[FRAMES][2][3]; /* frame, ref/dis, plane: packed rows */
} Video;

/* A smooth reference with noise, a distorted of large and small errors (past 32767 at 16 bits,
 * where the filter's SSE2 lanes wrap). */
static void make_video(const Case *c, Video *v, uint32_t seed)
{
    v->bytes = c->depth > 8 ? 2 : 1;
    v->n_planes = c->layout == EV_PIX_400 ? 1 : 3;
    const uint32_t max = (1u << c->depth) - 1;
    for (unsigned p = 0; p < v->n_planes; p++)
        ev_plane_size(c->w, c->h, c->layout, p, &v->pw[p], &v->ph[p]);
    for (unsigned f = 0; f < FRAMES; f++)
        for (unsigned k = 0; k < 2; k++)
            for (unsigned p = 0; p < v->n_planes; p++) {
                const size_t n = (size_t)v->pw[p] * v->ph[p];
                uint8_t *buf = malloc(n * v->bytes);
                v->plane[f][k][p] = buf;
                for (size_t i = 0; buf && i < n; i++) {
                    const unsigned x = (unsigned)(i % v->pw[p]), y = (unsigned)(i / v->pw[p]);
                    const uint32_t hsh = check_hash(seed ^ (uint32_t)(i * 2654435761u) ^
                                                    (f * 97 + p * 13 + k) * 0x9e3779b9u);
                    uint32_t s = ((x * 7 + y * 3 + f * 11) * (max / 255 + 1) + (hsh & 63)) & max;
                    if (k && (hsh >> 8) % 5 == 0)
                        s = (hsh >> 12) & max; /* a large error */
                    else if (k)
                        s = (s + ((hsh >> 16) & 7)) & max;
                    if (v->bytes == 2)
                        ((uint16_t *)buf)[i] = (uint16_t)s;
                    else
                        buf[i] = (uint8_t)s;
                }
            }
}

static void free_video(Video *v)
{
    for (unsigned f = 0; f < FRAMES; f++)
        for (unsigned k = 0; k < 2; k++)
            for (unsigned p = 0; p < v->n_planes; p++)
                free(v->plane[f][k][p]);
}

/* The C extractor's values (frame-major, 3 per frame) and averages (y, u, v, minimum). */
static int score_cpu(const Case *c, const Video *v, double *values, double *averages)
{
    EvSettings s;
    ev_default_settings(&s);
    s.n_threads = 2;
    EvContext *ctx = NULL;
    char opts[32];
    snprintf(opts, sizeof(opts), "frame_rate=%u", c->frame_rate);
    int err = ev_open(&ctx, &s);
    if (!err)
        err = ev_use_feature(ctx, "xpsnr", opts);
    for (unsigned f = 0; !err && f < FRAMES; f++) {
        EvPicture pic[2];
        for (unsigned k = 0; k < 2; k++) {
            pic[k] = (EvPicture){ c->w, c->h, c->depth, c->layout, { 0 }, { 0 } };
            for (unsigned p = 0; p < v->n_planes; p++) {
                pic[k].data[p] = v->plane[f][k][p];
                pic[k].stride[p] = (ptrdiff_t)v->pw[p] * v->bytes;
            }
        }
        err = ev_send_pictures(ctx, &pic[0], &pic[1]);
    }
    if (!err)
        err = ev_flush(ctx);
    static const char *const name[3] = { "xpsnr_y", "xpsnr_u", "xpsnr_v" };
    for (unsigned f = 0; !err && f < FRAMES; f++)
        for (unsigned p = 0; !err && p < v->n_planes; p++)
            err = ev_get_score(ctx, name[p], f, &values[3 * f + p]);
    static const char *const agg[4] = { "xpsnr_average_y", "xpsnr_average_u", "xpsnr_average_v",
                                        "xpsnr_minimum" };
    for (unsigned a = 0; !err && a < 4; a++) {
        if (v->n_planes == 1 && a)
            break;
        err = -ENOENT;
        for (unsigned i = 0; i < ev_aggregate_count(ctx); i++) {
            const char *n;
            double d;
            if (!ev_get_aggregate(ctx, i, &n, &d) && !strcmp(n, agg[a])) {
                averages[a] = d;
                err = 0;
            }
        }
    }
    ev_close(&ctx);
    return err;
}

/* The twin's way: shares of `step` threads per block. */
static void twin_frame(const XpsnrGeom *g, const Video *v, unsigned f, int16_t *const luma[4],
                       const int step, XpsnrSums *sums, double *weight, uint64_t wsse[3])
{
    const size_t n = (size_t)g->w * g->h;
    int16_t *c = luma[f % 3];
    for (size_t i = 0; i < n; i++)
        c[i] = v->bytes == 2 ? (int16_t)xpsnr_s16(((const uint16_t *)v->plane[f][0][0])[i])
                             : (int16_t)v->plane[f][0][0][i];
    const XpsnrLuma l = { (int)g->w,
                          (int)g->h,
                          g->downsample,
                          g->second_order,
                          c,
                          f >= 1 ? luma[(f - 1) % 3] : luma[3],
                          f >= 2 ? luma[(f - 2) % 3] : luma[3] };
    for (unsigned p = 0; p < g->n_planes; p++) {
        const unsigned bx = p ? g->bx[p] : g->b, by = p ? g->by[p] : g->b;
        const ptrdiff_t stride = (ptrdiff_t)v->pw[p] * v->bytes;
        for (unsigned j = 0; j < g->h_blk; j++)
            for (unsigned i = 0; i < g->w_blk; i++) {
                const unsigned idx = j * g->w_blk + i, x0 = i * bx, y0 = j * by;
                const int bw = (int)(x0 + bx > g->pw[p] ? g->pw[p] - x0 : bx);
                const int bh = (int)(y0 + by > g->ph[p] ? g->ph[p] - y0 : by);
                uint64_t sse = 0, sa = 0, ta = 0;
                for (int t = 0; t < step; t++) {
                    sse += xpsnr_sse_share((const char *)v->plane[f][0][p],
                                           (const char *)v->plane[f][1][p], stride, (int)g->depth,
                                           (int)x0, (int)y0, bw, bh, t, step);
                    if (!p) {
                        uint64_t s1, t1;
                        xpsnr_activity_share(&l, (int)x0, (int)y0, bw, bh, t, step, &s1, &t1);
                        sa += s1;
                        ta += t1;
                    }
                }
                sums->sse[p][idx] = sse;
                if (!p) {
                    sums->sa[idx] = sa;
                    sums->ta[idx] = ta;
                }
            }
    }
    ev_xpsnr_frame_wsse(g, sums, weight, wsse);
}

/* A sink keeping the aggregates in their order. */
typedef struct AggSink {
    EvSink sink;
    double value[4];
    unsigned n;
} AggSink;

static int agg_put(EvSink *s, const char *name, double value)
{
    AggSink *a = (AggSink *)s;
    (void)name;
    if (a->n >= 4)
        return -ERANGE;
    a->value[a->n++] = value;
    return 0;
}

static void check_case(const Case *c, uint32_t seed)
{
    Video v = { 0 };
    make_video(c, &v, seed);
    double want[3 * FRAMES], want_avg[4];
    if (!check_count(!score_cpu(c, &v, want, want_avg))) {
        printf("%ux%u %u-bit: the C extractor failed\n", c->w, c->h, c->depth);
        free_video(&v);
        return;
    }
    const EvPicInfo info = { c->w, c->h, c->depth, c->layout, 0 };
    XpsnrGeom g;
    CHECK(ev_xpsnr_geometry(&g, &info, c->frame_rate, NULL) == 0);
    const size_t n = (size_t)c->w * c->h, n_blk = (size_t)g.w_blk * g.h_blk;
    int16_t *luma[4];
    for (int k = 0; k < 4; k++)
        luma[k] = calloc(n, sizeof(int16_t));
    XpsnrSums sums;
    for (int k = 0; k < 3; k++)
        sums.sse[k] = calloc(n_blk, sizeof(uint64_t));
    sums.sa = calloc(n_blk, sizeof(uint64_t));
    sums.ta = calloc(n_blk, sizeof(uint64_t));
    double *weight = calloc(n_blk, sizeof(double));
    static const int steps[] = { 1, 7, 256 };
    XpsnrTotals t = { { 0 }, { 0 }, 0 };
    for (unsigned f = 0; f < FRAMES; f++) {
        uint64_t wsse[3] = { 0, 0, 0 };
        twin_frame(&g, &v, f, luma, steps[f % 3], &sums, weight, wsse);
        ev_xpsnr_add_totals(&g, wsse, &t);
        for (unsigned p = 0; p < g.n_planes; p++)
            CHECK_BITS(ev_xpsnr_value(wsse[p], g.plane_peak[p]), want[3 * f + p]);
    }
    /* the averages, through the twin's flush: ev_xpsnr_put_averages into a sink */
    AggSink agg = { { NULL, agg_put }, { 0, 0, 0, 0 }, 0 };
    CHECK(ev_xpsnr_put_averages(&g, &t, &agg.sink) == 0);
    CHECK(agg.n == (g.n_planes > 1 ? 4u : 1u));
    for (unsigned a = 0; a < agg.n; a++)
        CHECK_BITS(agg.value[a], want_avg[a]);
    for (int k = 0; k < 4; k++)
        free(luma[k]);
    for (int k = 0; k < 3; k++)
        free(sums.sse[k]);
    free(sums.sa);
    free(sums.ta);
    free(weight);
    free_video(&v);
}

int main(void)
{
    static const Case cases[] = {
        { 576, 324, 8, EV_PIX_420, 25 },    { 576, 324, 10, EV_PIX_420, 60 },
        { 577, 323, 12, EV_PIX_444, 60 },   { 45, 45, 8, EV_PIX_444, 25 },
        { 640, 480, 9, EV_PIX_422, 25 },    { 1920, 1080, 8, EV_PIX_420, 60 },
        { 2304, 1296, 16, EV_PIX_420, 25 }, { 2304, 1296, 14, EV_PIX_422, 60 },
        { 3600, 2160, 8, EV_PIX_400, 60 },  { 577, 323, 16, EV_PIX_400, 25 },
    };
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        check_case(&cases[i], 1000 + i);
    return check_report("xpsnr_twin_steps");
}
