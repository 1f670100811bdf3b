/* float_adm: float ADM of libvmaf (feature/float_adm.c, adm.c, adm_tools.c, extractor
 * "float_adm"): options, init, and the per-frame outputs in Netflix's order and names. Its
 * division uses AMD's (or, with rcp_estimate=1, Intel's) rcpss estimate, emulated, on every CPU
 * (see float_adm_math.h). */
#include <errno.h>
#include <stdlib.h>

#include "features/adm/adm_csf_factors.h"
#include "features/adm/adm_math.h"
#include "features/adm/float_adm_internal.h"
#include "features/common/sample_math.h"

const EvExtractorClass ev_fex_float_adm;

static const EvOption float_adm_options[] = {
    { "debug", NULL, "debug mode: enable additional output", EV_OPT_BOOL, offsetof(FadmOpts, debug),
      0, 0, 1, 0 },
    { "adm_enhn_gain_limit", "egl", "enhancement gain limit, >= 1; 1 disables the gain",
      EV_OPT_DOUBLE, offsetof(FadmOpts, enhn_gain_limit), 100.0, 1.0, 100.0, EV_OPT_FEATURE_PARAM },
    /* exactvmaf's own: Netflix's float_adm takes rcpss from the CPU it runs on (adm_rcp.h) */
    { "rcp_estimate", NULL,
      "whose rcpss reciprocal estimate: 0 AMD (the golden; Netflix on AMD), 1 Intel (Netflix on "
      "Intel)",
      EV_OPT_INT, offsetof(FadmOpts, rcp_estimate), 0, 0, 1, 0 },
    { 0 },
};

enum { N_MAIN = 7, N_ALL = 18 };
static const char *const float_adm_base_names[N_ALL] = { "adm2",           "aim",
                                                         "adm3",           "adm_scale0",
                                                         "adm_scale1",     "adm_scale2",
                                                         "adm_scale3",     "adm",
                                                         "adm_num",        "adm_den",
                                                         "adm_num_scale0", "adm_den_scale0",
                                                         "adm_num_scale1", "adm_den_scale1",
                                                         "adm_num_scale2", "adm_den_scale2",
                                                         "adm_num_scale3", "adm_den_scale3" };

/* Every band needs 2 lines (the 3x3 window), so every scale's DWT input 3: 17x17 frames. */
enum { FADM_MIN_DWT_INPUT = 3, FADM_MIN_SIZE = 17 };

static int float_adm_init(void *state, const void *opts, const EvPicInfo *info, const EvLog *log)
{
    FadmState *s = state;
    s->opts = *(const FadmOpts *)opts;
    s->width = info->width;
    s->height = info->height;
    s->bpc = info->bpc;
    s->scaler = sample_scaler(info->bpc);
    const int err = adm_set_geometry(s->geom, s->width, s->height, FADM_MIN_DWT_INPUT, &s->indices);
    if (err == -EINVAL)
        ev_log(log, EV_LOG_ERROR, "float_adm: frame %ux%u is too small (minimum %dx%d)",
               info->width, info->height, FADM_MIN_SIZE, FADM_MIN_SIZE);
    if (err)
        return err;
    for (int k = 0; k < 4; k++) {
        const float hv = adm_watson_factor(k, 0, 3.0, 1080), d = adm_watson_factor(k, 1, 3.0, 1080);
        s->rfactor[k][0] = s->rfactor[k][1] = hv;
        s->rfactor[k][2] = d;
    }
    s->cos_1deg_sq = adm_cos_1deg_sq();
    s->noise_weight = 0.03125;
    for (int k = 0; k < N_ALL; k++)
        ev_options_feature_name(s->names[k], sizeof(s->names[k]), float_adm_base_names[k],
                                &ev_fex_float_adm, opts);
    return 0;
}

static size_t float_adm_scratch_size(const void *state)
{
    FadmWork unused;
    return fadm_work_layout(state, NULL, &unused);
}

/* Totals in double; aim is its own ratio clipped at 1 (unlike the integer ADM). */
int fadm_emit(const FadmState *s, const AdmScaleScore sc[4], const unsigned frame, EvSink *sink)
{
    double num = 0, den = 0, aim_num = 0, aim_den = 0;
    for (int k = 0; k < 4; k++) {
        num += sc[k].num;
        den += sc[k].den;
        aim_den += sc[k].den;
        aim_num += sc[k].aim;
    }
    const double limit = 1e-10 * (int)(s->width * s->height) / (1920.0 * 1080.0);
    num = num < limit ? 0 : num;
    den = den < limit ? 0 : den;
    /* den == 0: adm2 is 1 and the reference leaves aim uninitialised; 0 here */
    const double adm2 = den == 0.0 ? 1.0 : num / den;
    const double aim_ratio = aim_num / aim_den;
    const double aim = den == 0.0 ? 0.0 : (aim_ratio < 1.0f ? aim_ratio : 1.0f);
    const double adm3 = adm2 * 0.5 + (1 - aim) * (1 - 0.5);
    return adm_put_values(s->names, s->opts.debug, adm2, aim, adm3 > 0.0 ? adm3 : 0.0, num, den, sc,
                          frame, sink);
}

static int float_adm_extract(const void *state, void *scratch, const EvPic *ref, const EvPic *dis,
                             const unsigned frame, EvSink *sink)
{
    const FadmState *s = state;
    FadmWork wk;
    fadm_work_layout(s, scratch, &wk);
    AdmScaleScore sc[4];
    fadm_score_frame(s, &wk, ref, dis, sc);
    return fadm_emit(s, sc, frame, sink);
}

static void float_adm_close(void *state)
{
    FadmState *s = state;
    free(s->indices);
}

#define FLOAT_ADM_CLASS                                                                            \
    EV_CLASS_COMMON("float_adm", FadmState), EV_CLASS_OPTIONS(float_adm_options, FadmOpts),        \
        .init = float_adm_init, .close = float_adm_close
const EvExtractorClass ev_fex_float_adm = { FLOAT_ADM_CLASS, .scratch_size = float_adm_scratch_size,
                                            .extract = float_adm_extract };

#ifdef EV_HAVE_CUDA
/* The CUDA twin: the same options, init and outputs; the scales on the device (float_adm.cu). */
const EvExtractorClass ev_cuda_float_adm = { FLOAT_ADM_CLASS,
                                             .flags = EV_FEX_CUDA | EV_FEX_CUDA_LUMA,
                                             .launch = ev_float_adm_launch_cuda,
                                             .extract = ev_float_adm_extract_cuda };
#endif
