/*
 * The scaler's C reference (src/io/scale_ref.c) against libswscale itself, sample for sample:
 * its C path (CPU flags forced to none, taps unaligned), its x86 SIMD path with
 * SWS_ACCURATE_RND (taps aligned as on x86), and at 9-14 bits its SIMD path without it. Sizes
 * up and down, odd and small, every layout and depth the reference takes, the three kernels
 * with their defaults and with parameters. Content: smooth ramps with noise, and frames of
 * extremes (0 and the top value in blocks) so that the clamps are reached.
 *
 * The x86 default path (no SWS_ACCURATE_RND) is checked against the reference's model of it
 * (x86_default) on x86 builds that have it (MMXEXT or later); the count of cases where it
 * differs from the C path says that this model is not the exact path in disguise.
 */
#include <libavutil/cpu.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/scale_ref.h"
#include "scale_cases.h"

static uint32_t seed = 2024;
static uint32_t next_random(void)
{
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
}

typedef struct Frame {
    uint8_t *plane[3];
    int stride[3];
    int w[3], h[3];
} Frame;

static int frame_alloc(Frame *f, int w, int h, int ss_x, int ss_y, int planes, int bytes)
{
    memset(f, 0, sizeof(*f));
    for (int p = 0; p < planes; p++) {
        f->w[p] = p ? -((-w) >> ss_x) : w;
        f->h[p] = p ? -((-h) >> ss_y) : h;
        f->stride[p] = f->w[p] * bytes + 32;
        f->plane[p] = calloc((size_t)f->stride[p] * f->h[p] + 64, 1);
        if (!f->plane[p])
            return -1;
    }
    return 0;
}

static void frame_free(Frame *f)
{
    for (int p = 0; p < 3; p++)
        free(f->plane[p]);
}

static void frame_fill(Frame *f, int planes, int bits, int extremes)
{
    const unsigned top = (1u << bits) - 1;
    for (int p = 0; p < planes; p++)
        for (int y = 0; y < f->h[p]; y++)
            for (int x = 0; x < f->w[p]; x++) {
                unsigned v;
                if (extremes)
                    v = ((x / 3 + y / 2 + (int)(next_random() % 3)) & 1) ? top : 0;
                else
                    v = (unsigned)((x * 5 + y * 3) % (int)(top + 1) + next_random() % 23) %
                        (top + 1);
                if (bits == 8)
                    f->plane[p][(size_t)y * f->stride[p] + x] = (uint8_t)v;
                else
                    ((uint16_t *)(f->plane[p] + (size_t)y * f->stride[p]))[x] = (uint16_t)v;
            }
}

static enum AVPixelFormat pixel_format(int ss_x, int ss_y, int planes, int bits)
{
    if (planes == 1)
        return bits == 8    ? AV_PIX_FMT_GRAY8
               : bits == 10 ? AV_PIX_FMT_GRAY10LE
                            : AV_PIX_FMT_GRAY12LE;
    if (ss_x && ss_y)
        return bits == 8    ? AV_PIX_FMT_YUV420P
               : bits == 9  ? AV_PIX_FMT_YUV420P9LE
               : bits == 10 ? AV_PIX_FMT_YUV420P10LE
               : bits == 12 ? AV_PIX_FMT_YUV420P12LE
                            : AV_PIX_FMT_YUV420P14LE;
    if (ss_x)
        return bits == 8 ? AV_PIX_FMT_YUV422P : AV_PIX_FMT_YUV422P10LE; /* 8 or 10 bits here */
    return bits == 8    ? AV_PIX_FMT_YUV444P
           : bits == 10 ? AV_PIX_FMT_YUV444P10LE
                        : AV_PIX_FMT_YUV444P12LE;
}

static int library_scale(const Case *c, int flags, const double *param, int cpu, const Frame *in,
                         Frame *out)
{
    av_force_cpu_flags(cpu);
    const enum AVPixelFormat fmt = pixel_format(c->ss_x, c->ss_y, c->planes, c->bits);
    struct SwsContext *s =
        sws_getContext(c->sw, c->sh, fmt, c->dw, c->dh, fmt, flags, NULL, NULL, param);
    if (!s)
        return -1;
    const uint8_t *src[4] = { in->plane[0], in->plane[1], in->plane[2], NULL };
    uint8_t *dst[4] = { out->plane[0], out->plane[1], out->plane[2], NULL };
    const int ss[4] = { in->stride[0], in->stride[1], in->stride[2], 0 };
    const int ds[4] = { out->stride[0], out->stride[1], out->stride[2], 0 };
    const int rows = sws_scale(s, src, ss, 0, c->sh, dst, ds);
    sws_freeContext(s);
    av_force_cpu_flags(-1);
    return rows == c->dh ? 0 : -1;
}

static long count_differences(const Case *c, const Frame *a, const Frame *b, const char *what,
                              int report)
{
    const int bytes = c->bits == 8 ? 1 : 2;
    long n = 0;
    for (int p = 0; p < c->planes; p++)
        for (int y = 0; y < a->h[p]; y++)
            for (int x = 0; x < a->w[p]; x++) {
                const uint8_t *ra = a->plane[p] + (size_t)y * a->stride[p];
                const uint8_t *rb = b->plane[p] + (size_t)y * b->stride[p];
                const unsigned va = bytes == 1 ? ra[x] : ((const uint16_t *)ra)[x];
                const unsigned vb = bytes == 1 ? rb[x] : ((const uint16_t *)rb)[x];
                if (va != vb && report && n < 3)
                    fprintf(stderr,
                            "scale_ref: %s: %dx%d -> %dx%d ss %d,%d %d-bit: plane %d (%d,%d): "
                            "reference %u, libswscale %u\n",
                            what, c->sw, c->sh, c->dw, c->dh, c->ss_x, c->ss_y, c->bits, p, x, y,
                            va, vb);
                n += va != vb;
            }
    return n;
}

typedef struct Kernel {
    const char *name;
    int flags;
    EvScaleKernelSpec spec;
    double param[2];
} Kernel;

static long failures, compared, approximate_rows, refused;

static void check_case(const Case *c, const Kernel *k, int extremes)
{
    const int bytes = c->bits == 8 ? 1 : 2;
    Frame in, ref, lib;
    if (frame_alloc(&in, c->sw, c->sh, c->ss_x, c->ss_y, c->planes, bytes) ||
        frame_alloc(&ref, c->dw, c->dh, c->ss_x, c->ss_y, c->planes, bytes) ||
        frame_alloc(&lib, c->dw, c->dh, c->ss_x, c->ss_y, c->planes, bytes)) {
        fprintf(stderr, "scale_ref: out of memory\n");
        exit(1);
    }
    frame_fill(&in, c->planes, c->bits, extremes);
    const double *param = isnan(k->param[0]) && isnan(k->param[1]) ? NULL : k->param;
    double lib_param[2] = { isnan(k->param[0]) ? SWS_PARAM_DEFAULT : k->param[0],
                            isnan(k->param[1]) ? SWS_PARAM_DEFAULT : k->param[1] };
    if (param)
        param = lib_param;
    /* 0: the C path (flags 0, taps unaligned), accurate rounding or not; 1: x86 SIMD with
     * accurate rounding (taps aligned 4/2); 2-4: x86 SIMD, ffmpeg's default, with all of this
     * CPU's flags, then at most SSE3 (no AVX2), then at most MMXEXT */
    const int host = av_get_cpu_flags();
    const int sse3 = AV_CPU_FLAG_MMX | AV_CPU_FLAG_MMXEXT | AV_CPU_FLAG_SSE | AV_CPU_FLAG_SSE2 |
                     AV_CPU_FLAG_SSE3;
    const int cpu_of_path[5] = { 0, -1, -1, host & sse3,
                                 host & (AV_CPU_FLAG_MMX | AV_CPU_FLAG_MMXEXT) };
    const char *name_of_path[5] = { "C path", "SIMD, accurate_rnd", "SIMD default",
                                    "SIMD default, up to SSE3", "SIMD default, up to MMXEXT" };
    for (int path = 0; path < 5; path++) {
        if (path >= 3 && !(host & AV_CPU_FLAG_MMXEXT))
            break;
        const int accurate = path == 1 || (path == 0 && (next_random() & 1));
        const int flags = k->flags | (accurate ? SWS_ACCURATE_RND : 0);
        EvScalePlan plan;
        const int r = ev_scale_plan_make(&plan, &k->spec, c->sw, c->sh, c->dw, c->dh, c->ss_x,
                                         c->ss_y, c->planes, c->bits, path ? 4 : 1, path ? 2 : 1);
        if (r == -2) { /* a filter of 170 taps or more: refused by design (scale_filter.h) */
            refused++;
            break;
        }
        if (r) {
            fprintf(stderr, "scale_ref: plan %dx%d -> %dx%d failed (%d)\n", c->sw, c->sh, c->dw,
                    c->dh, r);
            failures++;
            continue;
        }
        if (path >= 2 && c->bits == 8 && !k->spec.bitexact && (host & AV_CPU_FLAG_MMXEXT)) {
            plan.x86_default = 1;
            /* how far the library's default is from the exact path: the model must matter */
            if (path == 2 && library_scale(c, flags, param, -1, &in, &lib) == 0) {
                EvScalePlan exact = plan;
                exact.x86_default = 0;
                for (int p = 0; p < c->planes; p++)
                    if (ev_scale_plane_ref(&exact, p, in.plane[p], in.stride[p], ref.plane[p],
                                           ref.stride[p])) {
                        fprintf(stderr, "scale_ref: out of memory\n");
                        exit(1);
                    }
                approximate_rows += count_differences(c, &ref, &lib, "", 0) != 0;
            }
        }
        for (int p = 0; p < c->planes; p++)
            if (ev_scale_plane_ref(&plan, p, in.plane[p], in.stride[p], ref.plane[p],
                                   ref.stride[p])) {
                fprintf(stderr, "scale_ref: out of memory\n");
                exit(1);
            }
        ev_scale_plan_free(&plan);
        if (library_scale(c, flags, param, cpu_of_path[path], &in, &lib)) {
            fprintf(stderr, "scale_ref: libswscale refused %dx%d -> %dx%d\n", c->sw, c->sh, c->dw,
                    c->dh);
            failures++;
            continue;
        }
        const long d = count_differences(c, &ref, &lib, name_of_path[path], 1);
        compared++;
        if (d) {
            fprintf(stderr, "scale_ref: %s %s: %ld samples differ\n", k->name, name_of_path[path],
                    d);
            failures++;
        }
    }
    frame_free(&in);
    frame_free(&ref);
    frame_free(&lib);
}

int main(void)
{
    const Kernel kernels[] = {
        { "bicubic", SWS_BICUBIC, { EV_SCALE_BICUBIC, { NAN, NAN }, 0 }, { NAN, NAN } },
        { "bilinear", SWS_BILINEAR, { EV_SCALE_BILINEAR, { NAN, NAN }, 0 }, { NAN, NAN } },
        { "lanczos", SWS_LANCZOS, { EV_SCALE_LANCZOS, { NAN, NAN }, 0 }, { NAN, NAN } },
        { "bicubic B=1/3 C=1/3",
          SWS_BICUBIC,
          { EV_SCALE_BICUBIC, { 1.0 / 3, 1.0 / 3 }, 0 },
          { 1.0 / 3, 1.0 / 3 } },
        { "lanczos width 5", SWS_LANCZOS, { EV_SCALE_LANCZOS, { 5, NAN }, 0 }, { 5, NAN } },
        { "bicubic+bitexact",
          SWS_BICUBIC | SWS_BITEXACT,
          { EV_SCALE_BICUBIC, { NAN, NAN }, 1 },
          { NAN, NAN } },
    };
    for (size_t i = 0; i < SCALE_FIXED_CASES; i++)
        for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
            const Case *c = &scale_fixed_cases[i];
            if (k >= 3 && (c->sw * c->sh > 1000000 || c->dw * c->dh > 2100000))
                continue; /* the parameter variants on the smaller sizes only */
            check_case(c, &kernels[k], 0);
            if (k == 0)
                check_case(c, &kernels[k], 1);
        }
    /* a sweep of small sizes, 1 to 200 samples each way, up and down at any ratio */
    for (int i = 0; i < 400; i++) {
        const Case c = scale_random_case(next_random);
        check_case(&c, &kernels[next_random() % (sizeof(kernels) / sizeof(kernels[0]))], 0);
    }
    printf("scale_ref: %ld comparisons with libswscale %u.%u.%u, %ld failed (%ld cases refused: "
           "filters of 170 taps or more); its default 8-bit SIMD path differs from the exact one "
           "in %ld of its cases here\n",
           compared, swscale_version() >> 16, (swscale_version() >> 8) & 255,
           swscale_version() & 255, failures, refused, approximate_rows);
    if (!approximate_rows && (av_get_cpu_flags() & AV_CPU_FLAG_MMXEXT)) { /* else untested */
        fprintf(stderr, "scale_ref: the library's default 8-bit path equals its exact one here\n");
        failures++;
    }
    return failures ? 1 : 0;
}
