/* The CUDA twin's decomposition on the host: a frame made as ssimulacra2.cu's threads make it
 * (ssimulacra2_steps.h: one output per call, whole planes, each kernel's outputs in reverse
 * order so that none leans on another; every work plane filled with NaN first, so that a step
 * reading what no step wrote shows), each map's sum a running double in raster order, the
 * norms and the score by ssimu2_norms and ssimu2_score, against the C (ssimulacra2_frame.c)
 * and the extractor through the public API, bit for bit: every norm of every scale (2 to 6),
 * every depth and layout, odd sizes, strides wider than the rows, samples outside the limited
 * range. Without a GPU this is what checks the twin; the gpu tests run it on the device. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exactvmaf/exactvmaf.h"
#include "features/ssimulacra2/ssimulacra2_dsp.h"
#include "features/ssimulacra2/ssimulacra2_frame.h"
#include "features/ssimulacra2/ssimulacra2_steps.h"
#include "unit/check.h"

typedef struct Case {
    unsigned w, h, bpc;
    EvPixelLayout layout;
    int bt601; /* else BT.709 */
    int kind;  /* 0: dis = ref + small noise, 1: independent, 2: identical, 3: extremes */
} Case;

static const Case cases[] = {
    { 8, 8, 8, EV_PIX_420, 1, 0 },      { 9, 9, 10, EV_PIX_444, 0, 0 },
    { 15, 9, 12, EV_PIX_422, 1, 1 },    { 17, 40, 16, EV_PIX_400, 0, 0 },
    { 45, 31, 8, EV_PIX_420, 1, 0 },    { 64, 33, 9, EV_PIX_422, 0, 3 },
    { 100, 65, 14, EV_PIX_444, 1, 0 },  { 257, 143, 10, EV_PIX_420, 0, 0 },
    { 130, 260, 16, EV_PIX_444, 1, 3 }, { 33, 17, 8, EV_PIX_420, 0, 2 },
    { 300, 120, 8, EV_PIX_420, 1, 1 },  { 121, 77, 11, EV_PIX_400, 1, 3 },
};

typedef struct Pic {
    EvPic pic;
    void *plane[3];
} Pic;

/* Plane p of picture k, stride padded by 3 samples: a smooth ramp with noise (the reference),
 * its distortion by the case's kind; 1 sample in 23 outside the limited range. */
static void make_pic(const Case *c, unsigned k, const Pic *ref, Pic *out, uint32_t seed)
{
    const unsigned bytes = c->bpc > 8 ? 2 : 1, max = (1u << c->bpc) - 1;
    memset(out, 0, sizeof(*out));
    out->pic.bpc = c->bpc;
    out->pic.layout = c->layout;
    for (unsigned p = 0; p < 3; p++) {
        unsigned pw, ph;
        ev_plane_size(c->w, c->h, c->layout, p, &pw, &ph);
        out->pic.w[p] = pw;
        out->pic.h[p] = ph;
        out->pic.stride[p] = (ptrdiff_t)(pw + 3) * bytes;
        if (!pw || !ph)
            continue;
        out->plane[p] = calloc((size_t)(pw + 3) * ph, bytes);
        out->pic.data[p] = out->plane[p];
        for (unsigned y = 0; y < ph; y++)
            for (unsigned x = 0; x < pw; x++) {
                const uint32_t h = check_hash(seed ^ (p * 7919 + k * 104729) ^ (y * 65599 + x));
                const size_t at = (size_t)y * (pw + 3) + x;
                uint32_t v = ((x * 5 + y * 3 + p * 40) * (max / 255 + 1) + (h & 31)) % (max + 1);
                if (k && c->kind == 1)
                    v = (h >> 5) & max;
                else if (k)
                    v = (v + ((h >> 8) & 15) * (max / 255 + 1)) & max;
                if (c->kind == 3 && (h >> 16) % 3 == 0)
                    v = (h >> 18) & 1 ? max : 0;
                else if ((h >> 20) % 23 == 0)
                    v = (h >> 25) & 1 ? max - ((h >> 26) & 7) : (h >> 26) & 7;
                if (k && c->kind == 2)
                    v = bytes == 2 ? ((const uint16_t *)ref->plane[p])[at]
                                   : ((const uint8_t *)ref->plane[p])[at];
                if (bytes == 2)
                    ((uint16_t *)out->plane[p])[at] = (uint16_t)v;
                else
                    ((uint8_t *)out->plane[p])[at] = (uint8_t)v;
            }
    }
}

static void free_pic(Pic *p)
{
    for (unsigned k = 0; k < 3; k++)
        free(p->plane[k]);
}

static Ssimu2Src src_of(const EvPic *pic)
{
    Ssimu2Src s;
    for (unsigned k = 0; k < 3; k++) {
        s.p[k] = pic->data[k];
        s.stride[k] = pic->stride[k];
        s.pw[k] = pic->w[k];
        s.ph[k] = pic->h[k];
    }
    return s;
}

static float *nan_floats(size_t n)
{
    float *v = malloc(n * sizeof(float));
    for (size_t i = 0; v && i < n; i++)
        v[i] = NAN;
    return v;
}

/* ssimulacra2.cu's pyramid kernels: first_kernel, scale1_kernel, down_kernel. */
static void twin_pyramid(const Ssimu2Fmt *f, const Ssimu2Src src[2], const Ssimu2Pyramid *p,
                         float *xyb, float *lin)
{
    for (unsigned s = 0; s < p->n_scales; s++)
        for (unsigned k = 0; k < 2; k++) {
            float *x[3], *l[3];
            const float *prev[3];
            for (unsigned c = 0; c < 3; c++) {
                x[c] = xyb + ssimu2_plane_at(p, s, k, c);
                l[c] = s ? lin + ssimu2_lin_at(p, s, k, c) : NULL;
                prev[c] = s > 1 ? lin + ssimu2_lin_at(p, s - 1, k, c) : NULL;
            }
            for (unsigned y = p->h[s]; y-- > 0;)
                for (unsigned ox = p->w[s]; ox-- > 0;) {
                    if (!s)
                        ssimu2_first_step(f, &src[k], ox, y, x);
                    else if (s == 1)
                        ssimu2_scale1_step(f, &src[k], ox, y, l, x);
                    else
                        ssimu2_down_step(prev, p->w[s - 1], p->h[s - 1], ox, y, l, x);
                }
        }
}

/* Scale s: hblur_kernel, vblur_kernel, then sums_kernel's six running doubles per channel. */
static void twin_scale(const Ssimu2Pyramid *p, unsigned s, const float *xyb, float *hout,
                       float *vout, size_t plane, Ssimu2Scale *out)
{
    const unsigned w = p->w[s], h = p->h[s];
    for (unsigned t = 3 * SSIMU2_N_BLURS * h; t-- > 0;) {
        const unsigned y = t % h, j = t / h % SSIMU2_N_BLURS, c = t / (h * SSIMU2_N_BLURS);
        const float *a, *b;
        ssimu2_blur_inputs(xyb + ssimu2_plane_at(p, s, 0, c), xyb + ssimu2_plane_at(p, s, 1, c), j,
                           &a, &b);
        const size_t row = (size_t)y * w;
        ssimu2_hblur_step(a + row, b ? b + row : NULL, w,
                          hout + (c * SSIMU2_N_BLURS + j) * plane + row);
    }
    for (unsigned q = 3 * SSIMU2_N_BLURS; q-- > 0;)
        for (unsigned x = w; x-- > 0;)
            ssimu2_vblur_step(hout + q * plane, w, h, x, vout + q * plane);
    for (unsigned c = 0; c < 3; c++) {
        const float *v[SSIMU2_N_BLURS];
        for (unsigned j = 0; j < SSIMU2_N_BLURS; j++)
            v[j] = vout + (c * SSIMU2_N_BLURS + j) * plane;
        double sum[6] = { 0 };
        for (size_t i = 0; i < (size_t)w * h; i++) {
            double t[6];
            ssimu2_terms_step(xyb + ssimu2_plane_at(p, s, 0, c), xyb + ssimu2_plane_at(p, s, 1, c),
                              v, i, t);
            for (unsigned k = 0; k < 6; k++)
                sum[k] += t[k];
        }
        ssimu2_norms(sum, w, h, c, out);
    }
}

static void twin_frame(const Ssimu2Fmt *f, const Ssimu2Src src[2], Ssimu2Result *r)
{
    Ssimu2Pyramid p;
    ssimu2_pyramid(f->w, f->h, &p);
    const size_t n0 = (size_t)f->w * f->h, planes = 3 * SSIMU2_N_BLURS;
    float *xyb = nan_floats(p.at[p.n_scales]), *lin = nan_floats(p.at[p.n_scales] - p.at[1]);
    float *hout = nan_floats(planes * n0), *vout = nan_floats(planes * n0);
    memset(r, 0, sizeof(*r));
    if (xyb && lin && hout && vout) {
        twin_pyramid(f, src, &p, xyb, lin);
        for (unsigned s = 0; s < p.n_scales; s++)
            twin_scale(&p, s, xyb, hout, vout, n0, &r->scale[s]);
        r->n_scales = p.n_scales;
    }
    free(xyb);
    free(lin);
    free(hout);
    free(vout);
}

static void cpu_frame(const Case *c, const Pic *ref, const Pic *dis, const Ssimu2Matrix *m,
                      Ssimu2Result *r)
{
    Ssimu2Dsp dsp;
    ssimu2_dsp_init(&dsp, 0); /* the C kernels: the spec */
    void *buf = malloc(ssimu2_buffer_size(c->w, c->h));
    memset(r, 0, sizeof(*r));
    if (!buf)
        return;
    Ssimu2Planes p;
    ssimu2_planes_bind(&p, buf, c->w, c->h);
    ssimu2_first_scale(&p, &dsp, 0, &ref->pic, m);
    ssimu2_first_scale(&p, &dsp, 1, &dis->pic, m);
    ssimu2_compute(&p, &dsp, r);
    free(buf);
}

/* The extractor's score of the pair through the public API (the CPU backend). */
static double api_score(const Case *c, const Pic *ref, const Pic *dis)
{
    EvSettings s;
    ev_default_settings(&s);
    s.n_threads = 1;
    EvContext *ctx = NULL;
    double v = NAN;
    EvPicture pr = { c->w, c->h, c->bpc, c->layout, { 0 }, { 0 } }, pd = pr;
    for (unsigned k = 0; k < 3; k++) {
        pr.data[k] = ref->pic.data[k];
        pr.stride[k] = ref->pic.stride[k];
        pd.data[k] = dis->pic.data[k];
        pd.stride[k] = dis->pic.stride[k];
    }
    const char *opts = c->bt601 ? "matrix=bt601" : "matrix=bt709";
    if (!ev_open(&ctx, &s) && !ev_use_feature(ctx, "ssimulacra2", opts) &&
        !ev_send_pictures(ctx, &pr, &pd) && !ev_flush(ctx))
        ev_get_score(ctx, ev_feature_name(ctx, 0), 0, &v);
    ev_close(&ctx);
    return v;
}

static void check_case(const Case *c, uint32_t seed)
{
    static const Ssimu2Matrix bt709 = SSIMU2_BT709, bt601 = SSIMU2_BT601;
    const Ssimu2Matrix *m = c->bt601 ? &bt601 : &bt709;
    Pic ref, dis;
    make_pic(c, 0, NULL, &ref, seed);
    make_pic(c, 1, &ref, &dis, seed);
    Ssimu2Result want, got;
    cpu_frame(c, &ref, &dis, m, &want);
    const Ssimu2Fmt f = { c->w, c->h, c->bpc, (int)c->layout, *m };
    const Ssimu2Src src[2] = { src_of(&ref.pic), src_of(&dis.pic) };
    twin_frame(&f, src, &got);
    printf("%ux%u %u-bit layout %d: %u scales\n", c->w, c->h, c->bpc, (int)c->layout,
           want.n_scales);
    CHECK(got.n_scales == want.n_scales && want.n_scales >= 2);
    for (unsigned s = 0; s < want.n_scales && got.n_scales == want.n_scales; s++) {
        for (unsigned k = 0; k < 6; k++)
            CHECK_BITS(got.scale[s].ssim[k], want.scale[s].ssim[k]);
        for (unsigned k = 0; k < 12; k++)
            CHECK_BITS(got.scale[s].edge[k], want.scale[s].edge[k]);
    }
    const double score = ssimu2_score(&got);
    CHECK_BITS(score, ssimu2_score(&want));
    CHECK_BITS(score, api_score(c, &ref, &dis));
    if (c->kind == 2)
        CHECK_BITS(score, 100.0);
    free_pic(&ref);
    free_pic(&dis);
}

int main(void)
{
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        check_case(&cases[i], 0x5eed0000u + (uint32_t)i);
    return check_report("ssimulacra2_twin_steps");
}
