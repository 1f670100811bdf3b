/* float_vif: floating-point VIF at four scales (vif_scale0..3) and its debug totals, as
 * libvmaf's feature/float_vif.c + vif.c + vif_tools.c (scalar C), on luma - 128. */
#include <errno.h>
#include <math.h>
#include <stddef.h>

#include "base/extractor.h"
#include "features/common/sample_math.h"
#include "features/vif/float_vif.h"
#include "features/vif/float_vif_dsp.h"

typedef struct FloatVifScratch {
    VifFloatRows rows;
    VifFloatImage img[4][2]; /* scale s: ref, dis */
} FloatVifScratch;

extern const EvExtractorClass ev_fex_float_vif;

#define FLOAT_VIF_OPT(field, name, alias, help, def, min, max)                                     \
    {                                                                                              \
        name, alias, help, EV_OPT_DOUBLE, offsetof(FloatVifOpts, field), def, min, max,            \
            EV_OPT_FEATURE_PARAM                                                                   \
    }

static const EvOption float_vif_options[] = {
    { "debug", NULL, "debug mode: enable additional output", EV_OPT_BOOL,
      offsetof(FloatVifOpts, debug), 0, 0, 1, 0 },
    FLOAT_VIF_OPT(enhn_gain_limit, "vif_enhn_gain_limit", "egl",
                  "enhancement gain imposed on vif, must be >= 1.0, where 1.0 means the gain "
                  "is completely disabled",
                  100.0, 1.0, 100.0),
    FLOAT_VIF_OPT(kernelscale, "vif_kernelscale", "ks",
                  "scaling factor for the gaussian kernel (2.0 means multiplying the standard "
                  "deviation by 2 and enlarge the kernel size accordingly",
                  1.0, 0.1, 4.0),
    FLOAT_VIF_OPT(prescale, "vif_prescale", "ps",
                  "scaling factor for the frame (2.0 means making the image twice as large on "
                  "each dimension); nearest-neighbour",
                  1.0, 0.1, 4.0),
    FLOAT_VIF_OPT(scale1_min_val, "vif_scale1_min_val", "s1miv",
                  "minimum value allowed; smaller values will be set to this value", 0.0, 0.0, 1.0),
    FLOAT_VIF_OPT(scale2_min_val, "vif_scale2_min_val", "s2miv",
                  "minimum value allowed; smaller values will be set to this value", 0.0, 0.0, 1.0),
    FLOAT_VIF_OPT(scale3_min_val, "vif_scale3_min_val", "s3miv",
                  "minimum value allowed; smaller values will be set to this value", 0.0, 0.0, 1.0),
    FLOAT_VIF_OPT(sigma_nsq, "vif_sigma_nsq", "snsq", "neural noise variance", 2.0, 0.0, 5.0),
    { "vif_skip_scale0", "ssclz", "when set, skip scale 0 calculations", EV_OPT_BOOL,
      offsetof(FloatVifOpts, skip_scale0), 0, 0, 1, EV_OPT_FEATURE_PARAM },
    { 0 },
};

static size_t align64(const size_t n)
{
    return (n + 63) & ~(size_t)63;
}

static size_t img_bytes(const FloatVifState *s, const int scale)
{
    return align64((size_t)(s->w >> scale) * (size_t)(s->h >> scale) * sizeof(float));
}

static size_t float_vif_scratch_size(const void *state)
{
    const FloatVifState *s = state;
    size_t n = align64(vif_float_rows_size(s->w, s->max_taps));
    for (int scale = 0; scale < 4; scale++)
        n += 2 * img_bytes(s, scale);
    return n;
}

static FloatVifScratch carve_scratch(const FloatVifState *s, void *mem)
{
    FloatVifScratch sc;
    vif_float_rows_init(&sc.rows, mem, s->w, s->max_taps);
    unsigned char *p = (unsigned char *)mem + align64(vif_float_rows_size(s->w, s->max_taps));
    for (int scale = 0; scale < 4; scale++) {
        for (int k = 0; k < 2; k++, p += img_bytes(s, scale)) {
            const VifFloatImage im = { (float *)p, s->w >> scale, s->w >> scale, s->h >> scale };
            sc.img[scale][k] = im;
        }
    }
    return sc;
}

/* The smallest side every used scale can filter: scale s (side >> s) needs more samples than
 * its filter radius, for the filters' single reflection to stay inside the image. */
static int min_side(const FloatVifState *s)
{
    int need = 1;
    for (int scale = s->opts.skip_scale0 ? 1 : 0; scale < 4; scale++) {
        const int side = (s->filter[scale].n / 2 + 1) << scale;
        need = side > need ? side : need;
    }
    return need;
}

static void setup_filters(FloatVifState *s)
{
    s->max_taps = 0;
    for (int scale = 0; scale < 4; scale++) {
        vif_float_filter_init(&s->filter[scale], scale, (float)s->opts.kernelscale);
        if (s->filter[scale].n > s->max_taps)
            s->max_taps = s->filter[scale].n;
    }
}

static int float_vif_init(void *state, const void *opts, const EvPicInfo *info, const EvLog *log)
{
    FloatVifState *s = state;
    s->opts = *(const FloatVifOpts *)opts;
    if (info->bpc < 8 || info->bpc > 16) {
        ev_log(log, EV_LOG_ERROR, "float_vif: bit depth %u is not supported (8..16)", info->bpc);
        return -EINVAL;
    }
    if (!vif_float_kernelscale_valid((float)s->opts.kernelscale)) {
        ev_log(log, EV_LOG_ERROR, "float_vif: invalid vif_kernelscale: %f", s->opts.kernelscale);
        return -EINVAL;
    }
    s->src_w = (int)info->width;
    s->src_h = (int)info->height;
    s->w = (int)(info->width * s->opts.prescale + 0.5);
    s->h = (int)(info->height * s->opts.prescale + 0.5);
    s->scaler = sample_scaler(info->bpc);
    setup_filters(s);
    vif_float_dsp_init(&s->dsp, info->cpu);
    const int need = min_side(s);
    if (s->w < need || s->h < need) {
        ev_log(log, EV_LOG_ERROR, "float_vif: frame %dx%d%s is too small (minimum %dx%d)", s->w,
               s->h, s->opts.prescale != 1.0 ? " (after vif_prescale)" : "", need, need);
        return -EINVAL;
    }
    s->params.gain_limit = (float)s->opts.enhn_gain_limit;
    s->params.sigma_nsq = s->opts.sigma_nsq;
    s->params.sigma_max_inv = (float)(powf((float)s->opts.sigma_nsq, 2.0f) / (255.0 * 255.0));
    vif_names_init(&s->names, "vif", &ev_fex_float_vif, opts);
    return 0;
}

/* Luma as libvmaf's float extractors see it: sample / scaler - 128. */
static void load_rows(VifFloatImage *dst, const EvPic *p, const float scaler)
{
    for (int y = 0; y < dst->h; y++) {
        float *out = dst->data + y * dst->stride;
        if (p->bpc > 8) {
            const uint16_t *in = ev_pic_row16(p, 0, (unsigned)y);
            for (int x = 0; x < dst->w; x++)
                out[x] = sample_to_float(in[x], scaler, -128);
        } else {
            const uint8_t *in = ev_pic_row8(p, 0, (unsigned)y);
            for (int x = 0; x < dst->w; x++)
                out[x] = sample_to_float(in[x], scaler, -128);
        }
    }
}

/* The same, resampled to the prescaled size by nearest neighbour (the reference's default
 * vif_prescale_method): source index (int)(i x (float)(src / dst)). */
static void load_luma(VifFloatImage *dst, const EvPic *p, const FloatVifState *s)
{
    if (s->w == s->src_w && s->h == s->src_h) {
        load_rows(dst, p, s->scaler);
        return;
    }
    const float ratio_x = (float)s->src_w / s->w, ratio_y = (float)s->src_h / s->h;
    for (int y = 0; y < dst->h; y++) {
        const unsigned sy = vif_float_nn_index(y, ratio_y);
        float *out = dst->data + y * dst->stride;
        for (int x = 0; x < dst->w; x++) {
            const unsigned sx = vif_float_nn_index(x, ratio_x);
            const uint32_t v = p->bpc > 8 ? ev_pic_row16(p, 0, sy)[sx] : ev_pic_row8(p, 0, sy)[sx];
            out[x] = sample_to_float(v, s->scaler, -128);
        }
    }
}

static double scale_score(const float num, const float den, const double min_val)
{
    const double q = (double)num / (double)den;
    return q > min_val ? q : min_val;
}

static int float_vif_extract(const void *state, void *scratch, const EvPic *ref, const EvPic *dis,
                             unsigned frame, EvSink *sink)
{
    const FloatVifState *s = state;
    FloatVifScratch sc = carve_scratch(s, scratch);
    load_luma(&sc.img[0][0], ref, s);
    load_luma(&sc.img[0][1], dis, s);
    VifScaleScores v = { .skip_scale0 = s->opts.skip_scale0 };
    for (int scale = s->opts.skip_scale0 ? 1 : 0; scale < 4; scale++) {
        const VifFloatFilter *f = &s->filter[scale];
        if (scale > 0) {
            vif_float_scale_down(&sc.img[scale][0], &sc.img[scale - 1][0], f, &s->dsp, &sc.rows);
            vif_float_scale_down(&sc.img[scale][1], &sc.img[scale - 1][1], f, &s->dsp, &sc.rows);
        }
        vif_float_scale_stat(&v.num[scale], &v.den[scale], &sc.img[scale][0], &sc.img[scale][1], f,
                             &s->params, &s->dsp, &sc.rows);
    }
    return ev_float_vif_emit(s, &v, frame, sink);
}

int ev_float_vif_emit(const FloatVifState *s, VifScaleScores *v, const unsigned frame, EvSink *sink)
{
    v->skip_scale0 = s->opts.skip_scale0;
    v->score[0] = s->opts.skip_scale0 ? 0.0 : (double)v->num[0] / (double)v->den[0];
    v->score[1] = scale_score(v->num[1], v->den[1], s->opts.scale1_min_val);
    v->score[2] = scale_score(v->num[2], v->den[2], s->opts.scale2_min_val);
    v->score[3] = scale_score(v->num[3], v->den[3], s->opts.scale3_min_val);
    return vif_put_scores(sink, frame, &s->names, v, s->opts.debug);
}

#define FLOAT_VIF_CLASS                                                                            \
    EV_CLASS_COMMON("float_vif", FloatVifState),                                                   \
        EV_CLASS_OPTIONS(float_vif_options, FloatVifOpts), .init = float_vif_init
const EvExtractorClass ev_fex_float_vif = { FLOAT_VIF_CLASS, .scratch_size = float_vif_scratch_size,
                                            .extract = float_vif_extract };

#ifdef EV_HAVE_CUDA
/* The CUDA twin: the same options, init and outputs; the scales on the device (float_vif.cu). */
const EvExtractorClass ev_cuda_float_vif = { FLOAT_VIF_CLASS,
                                             .flags = EV_FEX_CUDA | EV_FEX_CUDA_LUMA,
                                             .launch = ev_float_vif_launch_cuda,
                                             .extract = ev_float_vif_extract_cuda };
#endif
