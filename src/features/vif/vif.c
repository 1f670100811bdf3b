/* vif: integer VIF at four scales (integer_vif_scale0..3) and its debug totals, as libvmaf's
 * feature/integer_vif.c (scalar C). Frames are independent; any depth 8..16. */
#include <errno.h>
#include <stddef.h>

#include "base/extractor.h"
#include "features/vif/vif.h"
#include "features/vif/vif_dsp.h"
#include "features/vif/vif_log2.h"
#include "features/vif/vif_scale.h"

enum { VIF_MIN_SIZE = 16 }; /* scale 3 (1/8 size) needs 2 samples per side to reflect */

/* Per-worker memory: the row kernels' scratch, then ref and dis of scales 1..3. */
typedef struct VifScratch {
    void *rows;
    uint16_t *img[4][2];
} VifScratch;

extern const EvExtractorClass ev_fex_vif;

static const EvOption vif_options[] = {
    { "debug", NULL, "debug mode: enable additional output", EV_OPT_BOOL, offsetof(VifOpts, debug),
      0, 0, 1, 0 },
    { "vif_enhn_gain_limit", "egl",
      "enhancement gain imposed on vif, must be >= 1.0, where 1.0 means the gain is "
      "completely disabled",
      EV_OPT_DOUBLE, offsetof(VifOpts, enhn_gain_limit), 100.0, 1.0, 100.0, EV_OPT_FEATURE_PARAM },
    { "vif_skip_scale0", "ssclz", "when set, skip scale 0 calculations", EV_OPT_BOOL,
      offsetof(VifOpts, skip_scale0), 0, 0, 1, EV_OPT_FEATURE_PARAM },
    { 0 },
};

static size_t align64(const size_t n)
{
    return (n + 63) & ~(size_t)63;
}

static size_t img_bytes(const VifState *s, const int scale)
{
    return align64((size_t)(s->w >> scale) * (size_t)(s->h >> scale) * sizeof(uint16_t));
}

size_t ev_vif_scratch_size(const void *state)
{
    const VifState *s = state;
    size_t n = align64(vif_dsp_tmp_size(s->w));
    for (int scale = 1; scale < 4; scale++)
        n += 2 * img_bytes(s, scale);
    return n;
}

static VifScratch carve_scratch(const VifState *s, void *mem)
{
    VifScratch sc = { 0 };
    sc.rows = mem;
    unsigned char *p = (unsigned char *)mem + align64(vif_dsp_tmp_size(s->w));
    for (int scale = 1; scale < 4; scale++) {
        for (int k = 0; k < 2; k++, p += img_bytes(s, scale))
            sc.img[scale][k] = (uint16_t *)p;
    }
    return sc;
}

static int vif_init(void *state, const void *opts, const EvPicInfo *info, const EvLog *log)
{
    VifState *s = state;
    s->opts = *(const VifOpts *)opts;
    if (info->bpc < 8 || info->bpc > 16) {
        ev_log(log, EV_LOG_ERROR, "vif: bit depth %u is not supported (8..16)", info->bpc);
        return -EINVAL;
    }
    if (info->width < VIF_MIN_SIZE || info->height < VIF_MIN_SIZE) {
        ev_log(log, EV_LOG_ERROR, "vif: frame %ux%u is too small (minimum %dx%d)", info->width,
               info->height, VIF_MIN_SIZE, VIF_MIN_SIZE);
        return -EINVAL;
    }
    s->w = (int)info->width;
    s->h = (int)info->height;
    s->bpc = info->bpc;
    vif_names_init(&s->names, "integer_vif", &ev_fex_vif, opts);
    vif_log2_table_build(s->log2_table);
    s->log2_table[VIF_LOG2_TABLE_SIZE] = s->log2_table[VIF_LOG2_TABLE_SIZE + 1] = 0;
    vif_dsp_init(&s->dsp, info->cpu);
    vif_dsp_init(&s->dsp_c, 0);
    return 0;
}

static VifPlane luma_plane(const EvPic *p)
{
    const VifPlane v = { p->data[0], p->stride[0], (int)p->w[0], (int)p->h[0], p->bpc == 8 };
    return v;
}

/* The frame's scores through dsp's kernels. check: stop at the first luma sample above the
 * depth (vif_scale_run) and return 1. */
static int vif_scores(const VifState *s, const VifDsp *dsp, void *scratch, const EvPic *ref,
                      const EvPic *dis, VifScaleScores *v, const int check)
{
    VifScratch sc = carve_scratch(s, scratch);
    VifPlane r = luma_plane(ref), d = luma_plane(dis);
    *v = (VifScaleScores){ .skip_scale0 = s->opts.skip_scale0 };
    const VifStatParams params = { s->log2_table, s->opts.enhn_gain_limit };
    for (int scale = 0; scale < 4; scale++) {
        const int stat = scale > 0 || !s->opts.skip_scale0;
        const ptrdiff_t stride = (ptrdiff_t)(r.w / 2) * (ptrdiff_t)sizeof(uint16_t);
        uint16_t *next_r = scale < 3 ? sc.img[scale + 1][0] : NULL;
        uint16_t *next_d = scale < 3 ? sc.img[scale + 1][1] : NULL;
        VifSums sums = { 0 };
        /* the downscaled images stay within the depth when scale 0's input does */
        if (vif_scale_run(stat ? &sums : NULL, next_r, next_d, stride, &r, &d, scale, ref->bpc,
                          &params, dsp, sc.rows, check && scale == 0))
            return 1;
        if (stat)
            ev_vif_scale_result(v, scale, &sums);
        if (next_r) {
            const VifPlane rn = { next_r, stride, r.w / 2, r.h / 2, 0 };
            const VifPlane dn = { next_d, stride, r.w / 2, r.h / 2, 0 };
            r = rn;
            d = dn;
        }
    }
    return 0;
}

int ev_vif_extract_reference(const VifState *s, void *scratch, const EvPic *ref, const EvPic *dis,
                             const unsigned frame, EvSink *sink)
{
    VifScaleScores v;
    vif_scores(s, &s->dsp_c, scratch, ref, dis, &v, 0);
    return ev_vif_emit(s, &v, frame, sink);
}

/* The SIMD kernels hold samples in 16-bit lanes with the depth's headroom, so a frame with a
 * luma sample above 2^bpc - 1 (which libvmaf's C takes as it is) is run again by the C
 * reference. 8 and 16 bits have no such samples; the C reference needs no check. */
static int needs_depth_check(const VifState *s)
{
    return s->bpc > 8 && s->bpc < 16 && s->dsp.stat_row_u16 != s->dsp_c.stat_row_u16;
}

static void vif_scores_checked(const VifState *s, void *scratch, const EvPic *ref, const EvPic *dis,
                               VifScaleScores *v)
{
    if (vif_scores(s, &s->dsp, scratch, ref, dis, v, needs_depth_check(s)))
        vif_scores(s, &s->dsp_c, scratch, ref, dis, v, 0);
}

/* ---- many encodes: one context scores a frame for every member (EvGroupScoring) ---- */

enum { VIF_VALUES = 12 }; /* score, num, den of each scale */

static void pack_scores(double *out, const VifScaleScores *v)
{
    for (int k = 0; k < 4; k++) {
        out[k] = v->score[k];
        out[4 + k] = v->num[k];
        out[8 + k] = v->den[k];
    }
}

static void unpack_scores(VifScaleScores *v, const double *in, const VifState *s)
{
    *v = (VifScaleScores){ .skip_scale0 = s->opts.skip_scale0 };
    for (int k = 0; k < 4; k++) {
        v->score[k] = in[k];
        v->num[k] = (float)in[4 + k]; /* floats, exact through the doubles */
        v->den[k] = (float)in[8 + k];
    }
}

/* A job's scratch: the reference's cache of the parts, then each distorted's scales 1..3 (the
 * reference's and the row buffers are the worker's own scratch). */
static size_t cache_bytes(const VifState *s)
{
    return s->dsp.ref_cache_size ? align64(s->dsp.ref_cache_size(s->w)) : 0;
}

static size_t group_scratch_size(const void *state, const unsigned n)
{
    const VifState *s = state;
    size_t per = 0;
    for (int scale = 1; scale < 4; scale++)
        per += img_bytes(s, scale);
    return cache_bytes(s) + n * per + 64;
}

/* Scores of n distorted against ref, the reference's work once (vif_scale_run_multi). */
static void vif_scores_multi(const VifState *s, void *scratch, void *job_scratch, const EvPic *ref,
                             const EvPic *const *dis, const unsigned n, VifScaleScores *v)
{
    VifScratch sc = carve_scratch(s, scratch);
    unsigned char *p = job_scratch;
    void *cache = s->dsp.ref_cache_size ? p : NULL;
    p += cache_bytes(s);
    uint16_t *img[EV_GROUP_MAX_MEMBERS][4];
    VifPlane r = luma_plane(ref), d[EV_GROUP_MAX_MEMBERS];
    for (unsigned k = 0; k < n; k++) {
        for (int scale = 1; scale < 4; scale++) {
            img[k][scale] = (uint16_t *)p;
            p += img_bytes(s, scale);
        }
        d[k] = luma_plane(dis[k]);
        v[k] = (VifScaleScores){ .skip_scale0 = s->opts.skip_scale0 };
    }
    const VifStatParams params = { s->log2_table, s->opts.enhn_gain_limit };
    for (int scale = 0; scale < 4; scale++) {
        const int stat = scale > 0 || !s->opts.skip_scale0;
        const ptrdiff_t stride = (ptrdiff_t)(r.w / 2) * (ptrdiff_t)sizeof(uint16_t);
        uint16_t *next_r = scale < 3 ? sc.img[scale + 1][0] : NULL;
        uint16_t *next_d[EV_GROUP_MAX_MEMBERS];
        for (unsigned k = 0; k < n; k++)
            next_d[k] = scale < 3 ? img[k][scale + 1] : NULL;
        VifSums sums[EV_GROUP_MAX_MEMBERS] = { { 0 } };
        vif_scale_run_multi(stat ? sums : NULL, next_r, next_d, stride, &r, d, (int)n, scale,
                            ref->bpc, &params, &s->dsp, sc.rows, cache);
        for (unsigned k = 0; stat && k < n; k++)
            ev_vif_scale_result(&v[k], scale, &sums[k]);
        if (!next_r)
            break;
        r = (VifPlane){ next_r, stride, r.w / 2, r.h / 2, 0 };
        for (unsigned k = 0; k < n; k++)
            d[k] = (VifPlane){ next_d[k], stride, r.w, r.h, 0 };
    }
}

/* The group's values: the members whose lumas are within the depth together, any other (or
 * all, when the reference is not) through vif_scores_checked. */
static void vif_group_score(const void *state, void *scratch, void *group_scratch, const EvPic *ref,
                            const EvPic *const *dis, const unsigned n, const unsigned frame,
                            double *values)
{
    const VifState *s = state;
    const int check = needs_depth_check(s);
    const VifPlane rp = luma_plane(ref);
    const int ref_over = check && vif_plane_over_depth(&rp, s->bpc);
    const EvPic *together[EV_GROUP_MAX_MEMBERS];
    unsigned at[EV_GROUP_MAX_MEMBERS], m = 0;
    VifScaleScores v[EV_GROUP_MAX_MEMBERS];
    for (unsigned k = 0; k < n; k++) {
        const VifPlane d = luma_plane(dis[k]);
        if (ref_over || (check && vif_plane_over_depth(&d, s->bpc))) {
            vif_scores_checked(s, scratch, ref, dis[k], &v[0]);
            pack_scores(values + (size_t)k * VIF_VALUES, &v[0]);
            continue;
        }
        together[m] = dis[k];
        at[m++] = k;
    }
    if (m)
        vif_scores_multi(s, scratch, group_scratch, ref, together, m, v);
    for (unsigned i = 0; i < m; i++)
        pack_scores(values + (size_t)at[i] * VIF_VALUES, &v[i]);
}

static int vif_group_emit(const void *state, void *scratch, const EvPic *ref, const unsigned frame,
                          const double *values, EvSink *sink)
{
    const VifState *s = state;
    VifScaleScores v;
    unpack_scores(&v, values, s);
    return ev_vif_emit(s, &v, frame, sink);
}

static const EvGroupScoring vif_group = { .n_values = VIF_VALUES,
                                          .scratch_size = group_scratch_size,
                                          .score = vif_group_score,
                                          .emit = vif_group_emit };

static int vif_extract(const void *state, void *scratch, const EvPic *ref, const EvPic *dis,
                       unsigned frame, EvSink *sink)
{
    const VifState *s = state;
    VifScaleScores v;
    vif_scores_checked(s, scratch, ref, dis, &v);
    return ev_vif_emit(s, &v, frame, sink);
}

void ev_vif_scale_result(VifScaleScores *v, const int scale, const VifSums *sums)
{
    v->num[scale] = vif_scale_num(sums);
    v->den[scale] = vif_scale_den(sums);
    v->score[scale] = v->num[scale] / v->den[scale]; /* a float quotient, widened */
}

int ev_vif_emit(const VifState *s, const VifScaleScores *v, const unsigned frame, EvSink *sink)
{
    return vif_put_scores(sink, frame, &s->names, v, s->opts.debug);
}

/* both scratch sizes: the twin leaves some frames to the C reference */
#define VIF_CLASS                                                                                  \
    EV_CLASS_COMMON("vif", VifState), EV_CLASS_OPTIONS(vif_options, VifOpts),                      \
        .init = vif_init, .scratch_size = ev_vif_scratch_size
const EvExtractorClass ev_fex_vif = { VIF_CLASS, .extract = vif_extract, .group = &vif_group };

#ifdef EV_HAVE_CUDA
/* The CUDA twin: the same options, init and outputs; the scales on the device (vif.cu). */
const EvExtractorClass ev_cuda_vif = { VIF_CLASS, .flags = EV_FEX_CUDA | EV_FEX_CUDA_LUMA,
                                       .launch = ev_vif_launch_cuda,
                                       .extract = ev_vif_extract_cuda };
#endif
