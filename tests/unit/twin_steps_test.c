/* The CUDA twins' per-output steps (vif_twin.h, motion_math.h's motion_vblur_at, adm_twin.h)
 * run on the host, output by output as the kernels do, against the C references' row
 * kernels: every total, image and band compared bit for bit, on random and extreme frames of
 * many sizes (the smallest each extractor accepts, odd, wider than a tile) and every depth.
 * CI has no GPU: this is where the decomposition of each twin is proven. */
#include <stdlib.h>
#include <string.h>

#include "features/vif/vif_dsp.h"
#include "features/adm/adm_twin.h"
#include "features/motion/motion_dsp.h"
#include "features/motion/motion_math.h"
#include "features/vif/vif_log2.h"
#include "features/vif/vif_scale.h"
#include "features/vif/vif_twin.h"
#include "features/registry_list.h"
#include "unit/check.h"

static uint32_t rng_state = 12345;

static uint32_t rnd(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

/* A w x h plane of bpc-bit samples, packed: pattern 0 noise, 1 flat, 2 full-range
 * alternating, 3 smooth ramp plus small noise, 4 all max. */
static void *make_plane(const int w, const int h, const unsigned bpc, const int pattern)
{
    const size_t bytes = bpc > 8 ? 2 : 1, n = (size_t)w * h;
    void *p = malloc(n * bytes);
    const uint32_t max = (1u << bpc) - 1;
    for (size_t k = 0; k < n; k++) {
        const int x = (int)(k % (size_t)w), y = (int)(k / (size_t)w);
        uint32_t v;
        switch (pattern) {
        case 0: v = rnd() & max; break;
        case 1: v = max / 3; break;
        case 2: v = (x + y) & 1 ? max : 0; break;
        case 3: v = ((uint32_t)(x * 7 + y * 3) * (max / 255) + (rnd() & 3)) & max; break;
        default: v = max; break;
        }
        if (bytes == 1)
            ((uint8_t *)p)[k] = (uint8_t)v;
        else
            ((uint16_t *)p)[k] = (uint16_t)v;
    }
    return p;
}

/* A 4:4:4 picture whose luma is the packed plane p (make_plane's); the chroma planes are
 * absent. */
static EvPic luma_pic(const void *const p, const int w, const int h, const unsigned bpc)
{
    return (EvPic){ .bpc = bpc,
                    .layout = EV_PIX_444,
                    .w = { (unsigned)w },
                    .h = { (unsigned)h },
                    .stride = { (ptrdiff_t)w * (bpc > 8 ? 2 : 1) },
                    .data = { p } };
}

/* ---- vif ---- */

static uint16_t log2_table[VIF_LOG2_TABLE_PADDED];

static int same_sums(const VifSums *a, const VifSums *b)
{
    return a->num_log == b->num_log && a->den_log == b->den_log &&
           a->num_non_log == b->num_non_log && a->den_non_log == b->den_non_log;
}

/* One scale as vif.cu's kernels visit it: per output row, the vertical results of every
 * column, reflected into a window row, then each output's horizontal pass; the next scale's
 * images at even rows and columns the same way. */
static void vif_twin_scale(VifSums *sums, uint16_t *out_ref, uint16_t *out_dis,
                           const VifTwinPlane *r, const VifTwinPlane *d, const int scale,
                           const unsigned bpc, const double egl)
{
    const VifFilter f = vif_filter(scale);
    const int rad = f.n / 2, w = r->w, h = r->h;
    VifVert *win = malloc(sizeof(VifVert) * (size_t)(w + 2 * VIF_MAX_RADIUS));
    for (int i = 0; i < h; i++) {
        for (int s = 0; s < w + 2 * rad; s++)
            win[s] =
                vif_twin_stat_vert(r, d, &f, vif_shifts(scale, bpc), i, vif_reflect(s - rad, w));
        for (int j = 0; j < w; j++)
            vif_twin_stat_horiz(sums, win + j, &f, log2_table, egl);
    }
    free(win);
    if (!out_ref)
        return;
    const VifFilter g = vif_filter(scale + 1);
    const int rg = g.n / 2, w_out = w / 2;
    uint32_t *line = malloc(sizeof(uint32_t) * (size_t)(w + 2 * VIF_MAX_RADIUS));
    for (int p = 0; p < 2; p++) {
        const VifTwinPlane *in = p ? d : r;
        uint16_t *out = p ? out_dis : out_ref;
        for (int k = 0; k < h / 2; k++) {
            for (int s = 0; s < 2 * w_out + 2 * rg - 1; s++)
                line[s] = vif_twin_down_vert(in, &g, vif_shifts(scale, bpc).mu_shift, k,
                                             vif_reflect(s - rg, w));
            for (int j = 0; j < w_out; j++)
                out[(size_t)k * w_out + j] = vif_twin_down_horiz(line + 2 * j, &g);
        }
    }
    free(line);
}

static void test_vif(const int w, const int h, const unsigned bpc, const int pattern)
{
    void *ref = make_plane(w, h, bpc, pattern);
    void *dis = make_plane(w, h, bpc, pattern == 1 ? 0 : (pattern + 1) % 5);
    VifDsp dsp;
    vif_dsp_init(&dsp, 0);
    void *tmp = aligned_alloc(64, (vif_dsp_tmp_size(w) + 63) & ~(size_t)63);
    const size_t bytes = bpc > 8 ? 2 : 1;
    VifTwinPlane tr = { ref, (ptrdiff_t)(w * bytes), w, h, bpc == 8 };
    VifTwinPlane td = { dis, (ptrdiff_t)(w * bytes), w, h, bpc == 8 };
    VifPlane cr = { ref, (ptrdiff_t)(w * bytes), w, h, bpc == 8 };
    VifPlane cd = { dis, (ptrdiff_t)(w * bytes), w, h, bpc == 8 };
    const double egl = pattern == 3 ? 1.0 : 100.0;
    const VifStatParams params = { log2_table, egl };
    for (int scale = 0; scale < 4; scale++) {
        const int w_out = cr.w / 2, h_out = cr.h / 2;
        const size_t n_out = (size_t)w_out * h_out;
        uint16_t *img[4];
        for (int k = 0; k < 4; k++)
            img[k] = scale < 3 ? calloc(n_out ? n_out : 1, sizeof(uint16_t)) : NULL;
        VifSums want = { 0, 0, 0, 0 }, got = { 0, 0, 0, 0 };
        vif_scale_run(&want, img[0], img[1], (ptrdiff_t)w_out * 2, &cr, &cd, scale, bpc, &params,
                      &dsp, tmp, 0);
        vif_twin_scale(&got, img[2], img[3], &tr, &td, scale, bpc, egl);
        if (!same_sums(&got, &want))
            printf("vif %dx%d %u-bit pattern %d scale %d: sums differ\n", w, h, bpc, pattern,
                   scale);
        CHECK(same_sums(&got, &want));
        if (scale < 3) {
            CHECK(!memcmp(img[0], img[2], n_out * 2) && !memcmp(img[1], img[3], n_out * 2));
            free(scale ? (void *)cr.data : NULL);
            free(scale ? (void *)cd.data : NULL);
            free(img[2]);
            free(img[3]);
            cr = (VifPlane){ img[0], (ptrdiff_t)w_out * 2, w_out, h_out, 0 };
            cd = (VifPlane){ img[1], (ptrdiff_t)w_out * 2, w_out, h_out, 0 };
            tr = (VifTwinPlane){ img[0], (ptrdiff_t)w_out * 2, w_out, h_out, 0 };
            td = (VifTwinPlane){ img[1], (ptrdiff_t)w_out * 2, w_out, h_out, 0 };
        } else {
            free((void *)cr.data);
            free((void *)cd.data);
        }
    }
    free(tmp);
    free(ref);
    free(dis);
}

/* ---- motion ---- */

/* The SAD of two lumas as motion.cu's kernel: per row, the vertical results at every
 * (mirrored) column a tile reads, each output's horizontal pass, the row's sum truncated to
 * uint32, rows added in uint64. */
static uint64_t motion_twin_sad(const void *prev, const void *cur, const int w, const int h,
                                const unsigned bpc)
{
    const ptrdiff_t stride = (ptrdiff_t)w * (bpc > 8 ? 2 : 1);
    int32_t *ys = malloc(sizeof(int32_t) * (size_t)(w + 2 * MOTION_RADIUS));
    uint64_t total = 0;
    for (int i = 0; i < h; i++) {
        for (int s = 0; s < w + 2 * MOTION_RADIUS; s++)
            ys[s] =
                motion_vblur_at(prev, cur, stride, h, bpc, i, motion_mirror(s - MOTION_RADIUS, w));
        uint64_t row = 0;
        for (int j = 0; j < w; j++)
            row += motion_hblur_abs(ys + j);
        total += (uint32_t)row;
    }
    free(ys);
    return total;
}

static uint64_t motion_cpu_sad(const void *prev, const void *cur, const int w, const int h,
                               const unsigned bpc)
{
    const size_t bytes = bpc > 8 ? 2 : 1;
    void *tmp = malloc(motion_dsp_tmp_size(w));
    uint64_t total = 0;
    for (int i = 0; i < h; i++) {
        const void *rp[5], *rc[5];
        for (int k = 0; k < 5; k++) {
            const int y = motion_mirror(i - MOTION_RADIUS + k, h);
            rp[k] = (const char *)prev + (size_t)y * w * bytes;
            rc[k] = (const char *)cur + (size_t)y * w * bytes;
        }
        total += motion_sad_row_c(rp, rc, w, bpc, tmp);
    }
    free(tmp);
    return total;
}

static void test_motion(const int w, const int h, const unsigned bpc, const int pattern)
{
    void *a = make_plane(w, h, bpc, pattern), *b = make_plane(w, h, bpc, (pattern + 2) % 5);
    const uint64_t got = motion_twin_sad(a, b, w, h, bpc), want = motion_cpu_sad(a, b, w, h, bpc);
    if (got != want)
        printf("motion %dx%d %u-bit pattern %d: %llu, want %llu\n", w, h, bpc, pattern,
               (unsigned long long)got, (unsigned long long)want);
    CHECK(got == want);
    free(a);
    free(b);
}

/* ---- adm ---- */

/* A band of w x h positions of one scale, per band b. */
typedef struct Bands3 {
    int32_t *b[3];
} Bands3;

static Bands3 bands_new(const size_t n, const int32_t poison)
{
    Bands3 x;
    for (int b = 0; b < 3; b++) {
        x.b[b] = malloc(n * sizeof(int32_t));
        for (size_t k = 0; k < n; k++)
            x.b[b][k] = poison;
    }
    return x;
}

static void bands_free(Bands3 *x)
{
    for (int b = 0; b < 3; b++)
        free(x->b[b]);
}

static void bands_at(const Bands3 *x, const size_t at, int32_t v[3])
{
    for (int b = 0; b < 3; b++)
        v[b] = x->b[b][at];
}

/* The window's band-summed masking values of one pass (adm_twin_thr's layout). */
static void window_values(const uint32_t *flt, const int rows[3], const int cols[3], const int w,
                          uint32_t v[9])
{
    for (int rr = 0; rr < 3; rr++)
        for (int cc = 0; cc < 3; cc++)
            v[3 * rr + cc] = flt[(size_t)rows[rr] * w + cols[cc]];
}

static uint32_t *poisoned(const size_t n, const uint32_t poison)
{
    uint32_t *p = malloc(n * sizeof(uint32_t));
    for (size_t k = 0; k < n; k++)
        p[k] = poison;
    return p;
}

/* One frame as adm.cu runs it: per scale, DWT of every position, band stage in the CSF
 * rectangle (masking values outside it stay poisoned: a read there would show), denominator
 * rows, masking at the visited positions, then the fold. */
static void adm_twin_frame(const AdmState *s, const void *ref, const void *dis, AdmScaleScore sc[4])
{
    const void *in[2] = { ref, dis };
    void *low[2] = { NULL, NULL };
    for (int scale = 0; scale < 4; scale++) {
        const AdmScaleGeom *g = &s->geom[scale];
        const size_t n = (size_t)g->w * g->h;
        Bands3 band[2] = { bands_new(n, 0), bands_new(n, 0) };
        void *next[2];
        for (int p = 0; p < 2; p++) {
            next[p] = malloc(n * (scale == 0 ? sizeof(int16_t) : sizeof(int32_t)));
            for (int i = 0; i < g->h; i++)
                for (int j = 0; j < g->w; j++) {
                    int32_t v[4];
                    if (scale == 0)
                        adm_twin_dwt0(in[p], (ptrdiff_t)g->in_w * (s->bpc > 8 ? 2 : 1), g->in_w,
                                      g->in_h, s->bpc, i, j, v);
                    else
                        adm_twin_dwt123(low[p], g->in_w, g->in_h, scale, i, j, v);
                    const size_t at = (size_t)i * g->w + j;
                    if (scale == 0)
                        ((int16_t *)next[p])[at] = (int16_t)v[0];
                    else
                        ((int32_t *)next[p])[at] = v[0];
                    for (int b = 0; b < 3; b++)
                        band[p].b[b][at] = v[1 + b];
                }
            free(low[p]);
            low[p] = next[p];
        }
        if (scale == 0 && s->opts.skip_scale0) {
            sc[0] = adm_skipped_scale0();
        } else {
            const AdmTwinScale tp = adm_twin_scale(s, scale);
            const AdmTwinScale *P = &tp;
            uint32_t *flt_a = poisoned(n, 0x5A5A5A5Au), *flt_r = poisoned(n, 0xC3C3C3C4u);
            uint64_t *den = calloc((size_t)3 * g->h, sizeof(uint64_t));
            int64_t *num = calloc((size_t)3 * g->h, sizeof(int64_t));
            int64_t *aim = calloc((size_t)3 * g->h, sizeof(int64_t));
            for (int i = 0; i < g->h; i++)
                for (int j = 0; j < g->w; j++) {
                    const size_t at = (size_t)i * g->w + j;
                    int32_t o[3], t[3];
                    bands_at(&band[0], at, o);
                    bands_at(&band[1], at, t);
                    if (adm_twin_in_rect(&P->csf, i, j))
                        adm_twin_band(P, s->div_lookup, o, t, &flt_a[at], &flt_r[at]);
                    if (adm_twin_in_rect(&P->cm, i, j))
                        for (int b = 0; b < 3; b++)
                            den[3 * i + b] += adm_twin_den_cube(P, o[b]);
                }
            for (int k = 0; k < g->h; k++) {
                if (!adm_twin_visits(&P->rows, k))
                    continue;
                for (int j = 0; j < g->w; j++) {
                    if (!adm_twin_visits(&P->cols, j))
                        continue;
                    const size_t at = (size_t)k * g->w + j;
                    int32_t o[3], t[3];
                    uint32_t flt[9];
                    bands_at(&band[0], at, o);
                    bands_at(&band[1], at, t);
                    AdmTwinCentre c;
                    adm_twin_centre(P, s->div_lookup, o, t, &c);
                    int wr[3], wc[3];
                    adm_twin_window(k, j, g->w, g->h, wr, wc);
                    int64_t cube[3];
                    window_values(flt_a, wr, wc, g->w, flt);
                    adm_twin_cubes(P, &c, 0, flt, cube);
                    for (int b = 0; b < 3; b++)
                        num[3 * k + b] = adm_add64(num[3 * k + b], cube[b]);
                    if (!P->skip_aim) {
                        window_values(flt_r, wr, wc, g->w, flt);
                        adm_twin_cubes(P, &c, 1, flt, cube);
                        for (int b = 0; b < 3; b++)
                            aim[3 * k + b] = adm_add64(aim[3 * k + b], cube[b]);
                    }
                }
            }
            AdmScaleSums sums;
            memset(&sums, 0, sizeof(sums));
            for (int i = 0; i < g->h; i++)
                for (int b = 0; b < 3; b++) {
                    if (i >= P->cm.top && i < P->cm.bottom)
                        sums.den[b] += adm_twin_fold_den(P, den[3 * i + b]);
                    if (adm_twin_visits(&P->rows, i)) {
                        sums.num[b] =
                            adm_add64(sums.num[b], adm_fold_row(num[3 * i + b], P->cm_sr));
                        sums.aim[b] =
                            adm_add64(sums.aim[b], adm_fold_row(aim[3 * i + b], P->cm_sr));
                    }
                }
            const AdmScaleShifts x = adm_scale_shifts(s, scale);
            sc[scale] = adm_scale_score(s, scale, &x, &sums);
            free(flt_a);
            free(flt_r);
            free(den);
            free(num);
            free(aim);
        }
        bands_free(&band[0]);
        bands_free(&band[1]);
    }
    free(low[0]);
    free(low[1]);
}

static int same_float(const float a, const float b)
{
    return !memcmp(&a, &b, sizeof(a));
}

static void test_adm(const int w, const int h, const unsigned bpc, const int pattern,
                     const char *options)
{
    const EvExtractorClass *cls = &ev_fex_adm;
    void *opts = calloc(1, cls->opts_size), *state = calloc(1, cls->state_size);
    ev_options_defaults(cls, opts);
    const EvLog log = { NULL, NULL, EV_LOG_ERROR };
    CHECK(ev_options_parse(cls, opts, options, &log) == 0);
    const EvPicInfo info = { (unsigned)w, (unsigned)h, bpc, EV_PIX_444, 0 };
    if (cls->init(state, opts, &info, &log)) {
        printf("adm %dx%d: init failed\n", w, h);
        CHECK(0);
        return;
    }
    void *ref = make_plane(w, h, bpc, pattern);
    void *dis = make_plane(w, h, bpc, pattern == 4 ? 0 : (pattern + 1) % 5);
    const EvPic pr = luma_pic(ref, w, h, bpc), pd = luma_pic(dis, w, h, bpc);
    const size_t scratch_bytes = cls->scratch_size(state);
    void *scratch = aligned_alloc(64, (scratch_bytes + 63) & ~(size_t)63);
    memset(scratch, 0, scratch_bytes);
    AdmWork wk;
    adm_work_layout(state, scratch, &wk);
    AdmScaleScore want[4], got[4];
    adm_score_frame(state, &wk, &pr, &pd, want);
    adm_twin_frame(state, ref, dis, got);
    for (int k = 0; k < 4; k++) {
        const int same = same_float(got[k].num, want[k].num) &&
                         same_float(got[k].den, want[k].den) && same_float(got[k].aim, want[k].aim);
        if (!same)
            printf("adm %dx%d %u-bit pattern %d '%s' scale %d: num %.9g/%.9g den %.9g/%.9g "
                   "aim %.9g/%.9g\n",
                   w, h, bpc, pattern, options, k, (double)got[k].num, (double)want[k].num,
                   (double)got[k].den, (double)want[k].den, (double)got[k].aim,
                   (double)want[k].aim);
        CHECK(same);
    }
    free(scratch);
    cls->close(state);
    free(ref);
    free(dis);
    free(opts);
    free(state);
}

static void test_adm_all(void)
{
    static const int sizes[][2] = { { 33, 33 }, { 40, 37 }, { 96, 54 }, { 161, 90 }, { 300, 170 } };
    static const unsigned depths[] = { 8, 10, 16 };
    for (int s = 0; s < 5; s++)
        for (int d = 0; d < 3; d++)
            for (int pattern = 0; pattern < 5; pattern++)
                test_adm(sizes[s][0], sizes[s][1], depths[d], pattern, "");
    static const char *const option_sets[] = {
        "adm_skip_aim=true",
        "adm_skip_scale0=true",
        "adm_enhn_gain_limit=1.0",
        "adm_csf_mode=1",
        "adm_csf_mode=2:adm_norm_view_dist=4.0",
        "adm_csf_mode=3",
        "adm_noise_weight=0.5:adm_dlm_weight=0.8",
        "adm_ref_display_height=2160",
        "adm_csf_scale=3.0:adm_csf_diag_scale=0.5:adm_csf_mode=1"
    };
    for (int k = 0; k < 9; k++)
        for (int pattern = 0; pattern < 5; pattern += 2)
            test_adm(96, 54, pattern == 2 ? 12 : 8, pattern, option_sets[k]);
}

int main(void)
{
    vif_log2_table_build(log2_table);
    static const int sizes[][2] = { { 16, 16 }, { 17, 19 },  { 33, 34 },
                                    { 70, 41 }, { 131, 37 }, { 200, 18 } };
    static const unsigned depths[] = { 8, 10, 12, 16 };
    for (int s = 0; s < 6; s++)
        for (int d = 0; d < 4; d++)
            for (int pattern = 0; pattern < 5; pattern++) {
                test_vif(sizes[s][0], sizes[s][1], depths[d], pattern);
                test_motion(sizes[s][0], sizes[s][1], depths[d], pattern);
            }
    test_motion(3, 3, 8, 0);
    test_motion(5, 4, 16, 2);
    /* samples above the depth (passed on unchecked): 65535s stacked against 0s overflow the
     * in-range int32 sums; the twin's steps and the C reference keep libvmaf's int64 */
    for (unsigned bpc = 9; bpc <= 15; bpc += 3) {
        const int w = 37, h = 21;
        uint16_t *a = make_plane(w, h, bpc, 0), *b = make_plane(w, h, bpc, 3);
        for (int k = 0; k < w * h; k += 3) {
            a[k] = (uint16_t)(65535 - k % 97);
            b[k] = (uint16_t)(k % 5);
        }
        const uint64_t got = motion_twin_sad(a, b, w, h, bpc);
        CHECK(got == motion_cpu_sad(a, b, w, h, bpc));
        CHECK(got != 0);
        free(a);
        free(b);
    }
    test_adm_all();
    return check_report("twin_steps");
}
