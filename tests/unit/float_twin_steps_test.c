/* The float CUDA twins' per-output steps run on the host, output by output as their kernels
 * do, against the C references: float_vif_twin.h against the C row kernels (the statistic's
 * row totals and the decimated rows), fadm_dwt_at against float_adm's DWT of every scale,. Compared bit for bit on random and extreme images of
 * many sizes and on every float_vif filter. CI has no GPU: this proves each decomposition. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/extractor.h"
#include "features/adm/adm_math.h"
#include "features/adm/float_adm_internal.h"
#include "features/adm/float_adm_math.h"
#include "features/motion/float_motion.h"
#include "core/collector.h"
#include "features/vif/float_vif_scale.h"
#include "features/vif/float_vif_twin.h"
#include "features/registry_list.h"
#include "unit/check.h"

static uint32_t rng_state = 777;

static uint32_t rnd(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

static int same_float(const float a, const float b)
{
    return !memcmp(&a, &b, sizeof(a));
}

/* A w x h float image as the float extractors see samples (v / scaler - 128): pattern 0
 * noise, 1 flat, 2 full-range alternating, 3 ramp plus small noise. */
static float *make_image(const int w, const int h, const unsigned bpc, const int pattern)
{
    float *im = malloc((size_t)w * h * sizeof(float));
    const uint32_t max = (1u << bpc) - 1;
    const float scaler = (float)(1u << (bpc - 8));
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            uint32_t v;
            switch (pattern) {
            case 0: v = rnd() % (max + 1); break;
            case 1: v = max / 3; break;
            case 2: v = (i + j) & 1 ? max : 0; break;
            default: v = ((uint32_t)(i * 7 + j * 3) % (max + 1) + rnd() % 5) % (max + 1); break;
            }
            im[(size_t)i * w + j] = (float)v / scaler - 128.0f;
        }
    return im;
}

static void test_vif_filter(const int w, const int h, const VifFloatFilter *f, const int pattern,
                            const unsigned bpc)
{
    if (f->n / 2 >= w || f->n / 2 >= h)
        return;
    float *x = make_image(w, h, bpc, pattern), *y = make_image(w, h, bpc, (pattern + 1) % 4);
    VifFloatRows rows;
    void *mem = malloc(vif_float_rows_size(w, f->n));
    vif_float_rows_init(&rows, mem, w, f->n);
    const VifFloatParams p = { 100.0f, 2.0, (float)(powf(2.0f, 2.0f) / (255.0 * 255.0)) };
    const float *rr[VIF_FLOAT_MAX_TAPS], *dr[VIF_FLOAT_MAX_TAPS];
    float *lines = malloc((size_t)VIF_FLOAT_LINES * w * sizeof(float));
    int bad = 0;
    for (int i = 0; i < h; i++) {
        for (int k = 0; k < f->n; k++) {
            rr[k] = x + (size_t)vif_mirror(i - f->n / 2 + k, h) * w;
            dr[k] = y + (size_t)vif_mirror(i - f->n / 2 + k, h) * w;
        }
        float want_num, want_den;
        vif_float_stat_row_c(&want_num, &want_den, rr, dr, w, f, &p, &rows);
        for (int j = 0; j < w; j++) {
            float v[VIF_FLOAT_LINES];
            vif_float_twin_stat_vert(x, y, w, h, i, j, f, v);
            for (int l = 0; l < VIF_FLOAT_LINES; l++)
                lines[(size_t)l * w + j] = v[l];
        }
        float num = 0, den = 0;
        for (int j = 0; j < w; j++) {
            float o[VIF_FLOAT_LINES], n, d;
            for (int l = 0; l < VIF_FLOAT_LINES; l++)
                o[l] = vif_float_twin_horiz(lines + (size_t)l * w, w, j, f);
            vif_float_pixel(o[0], o[1], o[2], o[3], o[4], &p, &n, &d);
            num += n;
            den += d;
        }
        bad += !same_float(num, want_num) || !same_float(den, want_den);
    }
    /* decimation */
    float *want = malloc((size_t)(w / 2 + 1) * sizeof(float));
    for (int i = 0; i < h / 2; i++) {
        for (int k = 0; k < f->n; k++)
            rr[k] = x + (size_t)vif_mirror(2 * i - f->n / 2 + k, h) * w;
        vif_float_down_row_c(want, rr, w, f, rows.line[0]);
        for (int c = 0; c < w; c++)
            lines[c] = vif_float_twin_down_vert(x, w, h, i, c, f);
        for (int j = 0; j < w / 2; j++)
            bad += !same_float(vif_float_twin_down_horiz(lines, w, j, f), want[j]);
    }
    CHECK(bad == 0);
    if (bad)
        printf("float_vif %dx%d taps %d pattern %d bpc %u: %d rows differ\n", w, h, f->n, pattern,
               bpc, bad);
    free(want);
    free(lines);
    free(mem);
    free(x);
    free(y);
}

static void test_vif_all(void)
{
    static const float kernelscales[] = { 1.0f, 0.5f, 1.5f, 2.0f, 3.0f, 360.0f / 97.0f };
    static const int sizes[][2] = { { 20, 18 }, { 37, 41 }, { 130, 36 }, { 200, 70 } };
    for (int k = 0; k < 6; k++)
        for (int scale = 0; scale < 4; scale++) {
            VifFloatFilter f;
            vif_float_filter_init(&f, scale, kernelscales[k]);
            for (int s = 0; s < 4; s++)
                for (int pattern = 0; pattern < 4; pattern++)
                    test_vif_filter(sizes[s][0], sizes[s][1], &f, pattern, 8 + 2 * (pattern % 3));
        }
}

/* float_adm with its default options on w x h 4:2:0 frames of bpc bits; 0 (a failed check)
 * when its init refuses. ev_fex_float_adm.close(s) ends it. */
static int open_float_adm(FadmState *const s, const unsigned w, const unsigned h,
                          const unsigned bpc)
{
    memset(s, 0, sizeof(*s));
    FadmOpts o;
    ev_options_defaults(&ev_fex_float_adm, &o);
    const EvPicInfo info = { w, h, bpc, EV_PIX_420, 0 };
    const int ok = ev_fex_float_adm.init(s, &o, &info, NULL) == 0;
    if (!check_count(ok))
        printf("float_adm %ux%u %u-bit: init failed\n", w, h, bpc);
    return ok;
}

/* fadm_dwt_at at every output of every scale against fadm_dwt_scale123 (in place) and,
 * through scale 1's input, the same taps the scale-0 path runs. */
static void test_adm_dwt(const unsigned w, const unsigned h, const int pattern)
{
    FadmState s;
    if (!open_float_adm(&s, w, h, 10))
        return;
    FadmWork wk;
    void *mem = calloc(1, fadm_work_layout(&s, NULL, &wk));
    fadm_work_layout(&s, mem, &wk);
    float *src = make_image((int)w, (int)h, 10, pattern);
    /* scale 0's low band replaced by a w0 x h0 image, then scales 1..3 in place */
    int bad = 0;
    memcpy(wk.ref_a, src, (size_t)s.geom[0].w * s.geom[0].h * sizeof(float));
    for (int scale = 1; scale < 4; scale++) {
        const AdmScaleGeom *g = &s.geom[scale];
        float *in = malloc((size_t)g->in_w * g->in_h * sizeof(float));
        memcpy(in, wk.ref_a, (size_t)g->in_w * g->in_h * sizeof(float));
        fadm_dwt_scale123(&s, &wk, scale, wk.ref_a, &wk.ref);
        for (int i = 0; i < g->h; i++)
            for (int j = 0; j < g->w; j++) {
                float x[4][4], a, bh, bv, bd;
                for (int t = 0; t < 4; t++)
                    for (int u = 0; u < 4; u++)
                        x[t][u] = in[(size_t)adm_dwt_index(2 * i - 1 + t, g->in_h) * g->in_w +
                                     adm_dwt_index(2 * j - 1 + u, g->in_w)];
                fadm_dwt_at(x, &a, &bh, &bv, &bd);
                const size_t k = (size_t)i * g->w + j;
                bad += !same_float(a, wk.ref_a[k]) || !same_float(bh, wk.ref.h[k]) ||
                       !same_float(bv, wk.ref.v[k]) || !same_float(bd, wk.ref.d[k]);
            }
        free(in);
    }
    CHECK(bad == 0);
    if (bad)
        printf("float_adm dwt %ux%u pattern %d: %d outputs differ\n", w, h, pattern, bad);
    free(src);
    free(mem);
    ev_fex_float_adm.close(&s);
}

/* The twin keeps its band planes from scale to scale and frame to frame without clearing them
 * (and with other strides), so float_adm must read only what the frame's own stages wrote:
 * the reference's scores with its work memory filled with zeros and with NaN must agree. */
static void test_adm_no_stale_reads(const unsigned w, const unsigned h, const int pattern)
{
    FadmState s;
    if (!open_float_adm(&s, w, h, 8))
        return;
    uint8_t *luma[2];
    for (int k = 0; k < 2; k++) {
        luma[k] = malloc((size_t)w * h);
        for (size_t q = 0; q < (size_t)w * h; q++)
            luma[k][q] = pattern ? (uint8_t)rnd() : (uint8_t)(q * (k + 3));
    }
    EvPic pic[2];
    memset(pic, 0, sizeof(pic));
    for (int k = 0; k < 2; k++) {
        pic[k].bpc = 8;
        pic[k].layout = EV_PIX_420;
        pic[k].w[0] = w;
        pic[k].h[0] = h;
        pic[k].stride[0] = (ptrdiff_t)w;
        pic[k].data[0] = luma[k];
    }
    FadmWork wk;
    const size_t bytes = fadm_work_layout(&s, NULL, &wk);
    float *mem = malloc(bytes);
    AdmScaleScore sc[2][4];
    for (int fill = 0; fill < 2; fill++) {
        for (size_t q = 0; q < bytes / sizeof(float); q++)
            mem[q] = fill ? NAN : 0.0f;
        fadm_work_layout(&s, mem, &wk);
        fadm_score_frame(&s, &wk, &pic[0], &pic[1], sc[fill]);
    }
    int bad = 0;
    for (int k = 0; k < 4; k++)
        bad += !same_float(sc[0][k].num, sc[1][k].num) || !same_float(sc[0][k].den, sc[1][k].den) ||
               !same_float(sc[0][k].aim, sc[1][k].aim);
    CHECK(bad == 0);
    if (bad)
        printf("float_adm %ux%u reads memory its stages did not write\n", w, h);
    free(mem);
    free(luma[0]);
    free(luma[1]);
    ev_fex_float_adm.close(&s);
}

/* The twin writes motion2/motion3 of every frame at flush from the frames' SAD scores
 * (ev_float_motion_put_motion23); the reference writes them one frame late. With fps weight 1
 * and no clip, the reference's debug "motion" of frame i is its SAD score: feed those back and
 * compare every motion2/motion3 value. */
static void test_motion23(const unsigned n, const char *spec, const int pattern)
{
    const unsigned w = 40, h = 30;
    FloatMotionOpts o;
    ev_options_defaults(&ev_fex_float_motion, &o);
    if (ev_options_parse(&ev_fex_float_motion, &o, spec, NULL)) {
        CHECK(0);
        return;
    }
    FloatMotionState *s = calloc(1, sizeof(*s));
    const EvPicInfo info = { w, h, 8, EV_PIX_444, 0 };
    if (ev_fex_float_motion.init(s, &o, &info, NULL)) {
        CHECK(0);
        free(s);
        return;
    }
    EvCollector cpu, twin;
    ev_collector_init(&cpu, NULL);
    ev_collector_init(&twin, NULL);
    uint8_t *luma = malloc((size_t)w * h);
    int err = 0;
    for (unsigned f = 0; f < n && !err; f++) {
        for (size_t q = 0; q < (size_t)w * h; q++)
            luma[q] = pattern == 1 && f % 3 == 2 ? luma[q] : (uint8_t)(rnd() >> (f % 5));
        EvPic pic;
        memset(&pic, 0, sizeof(pic));
        pic.bpc = 8;
        pic.layout = EV_PIX_444;
        pic.w[0] = w;
        pic.h[0] = h;
        pic.stride[0] = (ptrdiff_t)w;
        pic.data[0] = luma;
        EvCollectorSink sink = ev_sink(&cpu, f, 0);
        err = ev_fex_float_motion.extract(s, NULL, &pic, &pic, f, &sink.base);
    }
    EvCollectorSink flush = ev_sink(&cpu, EV_EPOCH_FLUSH, 0);
    if (!err)
        err = ev_fex_float_motion.flush(s, n, &flush.base);
    CHECK(!err);
    const EvFeatureVec *motion = ev_collector_find(&cpu, s->name[NAME_MOTION]);
    double *sad = calloc(n, sizeof(double));
    for (unsigned f = 1; f < n && motion; f++)
        sad[f] = motion->value[f];
    EvCollectorSink all = ev_sink(&twin, EV_EPOCH_FLUSH, 0);
    CHECK(motion && !ev_float_motion_put_motion23(s, sad, n, &all.base));
    int bad = 0;
    for (int k = NAME_MOTION2; k <= NAME_MOTION3; k++) {
        const EvFeatureVec *a = ev_collector_find(&cpu, s->name[k]);
        const EvFeatureVec *b = ev_collector_find(&twin, s->name[k]);
        if (!a || !b) {
            bad++;
            continue;
        }
        for (unsigned f = 0; f < n; f++)
            bad += f >= a->cap || f >= b->cap || !a->written[f] || !b->written[f] ||
                   memcmp(&a->value[f], &b->value[f], sizeof(double));
    }
    CHECK(bad == 0);
    if (bad)
        printf("float_motion motion2/3 of %u frames (%s): %d values differ\n", n, spec, bad);
    free(sad);
    free(luma);
    ev_collector_free(&cpu);
    ev_collector_free(&twin);
    ev_fex_float_motion.close(s);
    free(s);
}

int main(void)
{
    test_vif_all();
    static const unsigned adm_sizes[][2] = { { 17, 17 }, { 33, 20 }, { 64, 64 }, { 131, 77 } };
    for (int s = 0; s < 4; s++)
        for (int pattern = 0; pattern < 4; pattern++)
            test_adm_dwt(adm_sizes[s][0], adm_sizes[s][1], pattern);
    static const unsigned stale_sizes[][2] = { { 17, 17 }, { 18, 29 },  { 33, 33 },
                                               { 64, 36 }, { 150, 17 }, { 301, 171 } };
    for (int s = 0; s < 6; s++)
        for (int pattern = 0; pattern < 2; pattern++)
            test_adm_no_stale_reads(stale_sizes[s][0], stale_sizes[s][1], pattern);
    static const char *const motion_specs[] = { "",
                                                "motion_blend_factor=0.5:motion_blend_offset=1.0",
                                                "motion_filter_size=3:motion_add_scale1=true" };
    static const unsigned motion_frames[] = { 1, 2, 3, 4, 9 };
    for (int k = 0; k < 3; k++)
        for (int f = 0; f < 5; f++)
            for (int pattern = 0; pattern < 2; pattern++)
                test_motion23(motion_frames[f], motion_specs[k], pattern);
    return check_report("float_twin_steps");
}
