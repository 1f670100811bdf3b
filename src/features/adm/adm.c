/* adm: integer ADM of libvmaf (feature/integer_adm.c, extractor "adm"): options, tables built
 * at init, and the per-frame outputs in Netflix's order and names. The stages live in
 * adm_frame.c (the pipeline) and adm_rows.c (the row kernels, adm_kernels.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "features/adm/adm_csf_factors.h"
#include "features/adm/adm_dsp.h"
#include "features/adm/adm_internal.h"
#include "features/adm/adm_math.h"

const EvExtractorClass ev_fex_adm;

#define FP EV_OPT_FEATURE_PARAM
static const EvOption adm_options[] = {
    { "debug", NULL, "debug mode: enable additional output", EV_OPT_BOOL, offsetof(AdmOpts, debug),
      0, 0, 1, 0 },
    { "adm_csf_scale", "scf", "scale of the h and v CSF terms (Barten)", EV_OPT_DOUBLE,
      offsetof(AdmOpts, csf_scale), 1.0, 0.0, 50.0, FP },
    { "adm_csf_diag_scale", "scfd", "scale of the diagonal CSF term (Barten)", EV_OPT_DOUBLE,
      offsetof(AdmOpts, csf_diag_scale), 1.0, 0.0, 50.0, FP },
    { "adm_dlm_weight", "dlmw", "weight of DLM against AIM in adm3; 1 is DLM only", EV_OPT_DOUBLE,
      offsetof(AdmOpts, dlm_weight), 0.5, 0.0, 1.0, FP },
    { "adm_enhn_gain_limit", "egl", "enhancement gain limit, >= 1; 1 disables the gain",
      EV_OPT_DOUBLE, offsetof(AdmOpts, enhn_gain_limit), 100.0, 1.0, 100.0, FP },
    { "adm_norm_view_dist", "nvd", "viewing distance / display height", EV_OPT_DOUBLE,
      offsetof(AdmOpts, norm_view_dist), 3.0, 0.75, 24.0, FP },
    { "adm_ref_display_height", "rdh", "reference display height in pixels", EV_OPT_INT,
      offsetof(AdmOpts, ref_display_height), 1080, 1, 4320, FP },
    { "adm_csf_mode", "csf", "CSF: 0 Watson97, 1 Barten, 2 Barten/Watson blend, 3 blend (MAE)",
      EV_OPT_INT, offsetof(AdmOpts, csf_mode), 0, 0, 3, FP },
    { "adm_noise_weight", "nw", "noise weight", EV_OPT_DOUBLE, offsetof(AdmOpts, noise_weight),
      0.03125, 0.0, 1500.0, FP },
    { "adm_skip_aim", NULL, "skip the calculation of AIM", EV_OPT_BOOL, offsetof(AdmOpts, skip_aim),
      0, 0, 1, 0 },
    { "adm_skip_scale0", "ssz", "skip the calculation of scale 0", EV_OPT_BOOL,
      offsetof(AdmOpts, skip_scale0), 0, 0, 1, FP },
    { "adm_min_val", "min", "lower bound of adm3", EV_OPT_DOUBLE, offsetof(AdmOpts, min_val), 0.0,
      0.0, 1.0, FP },
    { 0 },
};
#undef FP

/* Output names as Netflix prints them (aliases of the VMAF_integer_feature_* names). */
enum { N_MAIN = 7, N_ALL = 18 };
static const char *const adm_base_names[N_ALL] = {
    "integer_adm2",           "integer_aim",
    "integer_adm3",           "integer_adm_scale0",
    "integer_adm_scale1",     "integer_adm_scale2",
    "integer_adm_scale3",     "integer_adm",
    "integer_adm_num",        "integer_adm_den",
    "integer_adm_num_scale0", "integer_adm_den_scale0",
    "integer_adm_num_scale1", "integer_adm_den_scale1",
    "integer_adm_num_scale2", "integer_adm_den_scale2",
    "integer_adm_num_scale3", "integer_adm_den_scale3"
};

/* The DWT reads 4 taps mirrored once (adm_dwt_index): every scale's input needs >= 5 lines. */
enum { ADM_MIN_DWT_INPUT = 5, ADM_MIN_SIZE = 33 };

static float csf_factor(const AdmOpts *o, const int lambda, const int diag)
{
    const double nvd = o->norm_view_dist;
    const int rdh = o->ref_display_height;
    switch (o->csf_mode) {
    case ADM_CSF_BARTEN:
        return adm_barten_factor(lambda, nvd, rdh, 100.0, diag ? o->csf_diag_scale : o->csf_scale);
    case ADM_CSF_BLEND: return adm_blend_factor(lambda, diag, nvd, rdh, 0);
    case ADM_CSF_BLEND_MAE: return adm_blend_factor(lambda, diag, nvd, rdh, 1);
    default: return adm_watson_factor(lambda, diag, nvd, rdh);
    }
}

/* Every libm-derived constant, once: factors, their cubes and fixed-point forms. Barten factors
 * exceed 1 and overflow the reference's (uint16_t)/(uint32_t) conversions (undefined in C);
 * adm_gcc_double_to_u16/u32 give GCC's x86-64 bits in defined C (adm_csf_factors.h). */
static void set_factors(AdmState *s)
{
    const AdmOpts *o = &s->opts;
    for (int k = 0; k < 4; k++) {
        const float hv = csf_factor(o, k, 0), d = csf_factor(o, k, 1);
        const float rf[3] = { hv, hv, d };
        for (int b = 0; b < 3; b++) {
            s->rfactor[k][b] = rf[b];
            s->rfactor_cubed[k][b] = pow(rf[b], 3);
            s->irf[k][b] = k ? adm_gcc_double_to_u32(rf[b] * pow(2, 32)) : 0;
        }
    }
    /* scale 0 at 3H on 1080 lines uses hard-coded factors (the formula gives 36451, 49414) */
    if (fabs(o->norm_view_dist * o->ref_display_height - 3.0 * 1080) < 1.0e-8 &&
        o->csf_mode == ADM_CSF_WATSON97) {
        s->irf0[0] = s->irf0[1] = 36453;
        s->irf0[2] = 49417;
    } else {
        s->irf0[0] = adm_gcc_double_to_u16(s->rfactor[0][0] * pow(2, 21));
        s->irf0[1] = adm_gcc_double_to_u16(s->rfactor[0][1] * pow(2, 21));
        s->irf0[2] = adm_gcc_double_to_u16(s->rfactor[0][2] * pow(2, 23));
    }
    s->cos_1deg_sq = adm_cos_1deg_sq();
}

static int check_config(const AdmState *s, const EvPicInfo *info, const EvLog *log)
{
    const AdmOpts *o = &s->opts;
    /* the reference refuses (at its first frame) what its 16-bit pipeline cannot represent */
    if (o->norm_view_dist * o->ref_display_height < 3.0 * 1080) {
        ev_log(log, EV_LOG_ERROR,
               "adm: adm_norm_view_dist x adm_ref_display_height = %g x %d "
               "is below 3 x 1080, which the integer ADM cannot compute",
               o->norm_view_dist, o->ref_display_height);
        return -EINVAL;
    }
    if (info->bpc < 8 || info->bpc > 16) {
        ev_log(log, EV_LOG_ERROR, "adm: unsupported bit depth %u (8..16)", info->bpc);
        return -EINVAL;
    }
    if ((o->csf_mode == ADM_CSF_BLEND || o->csf_mode == ADM_CSF_BLEND_MAE) &&
        adm_blend_factor(0, 0, o->norm_view_dist, o->ref_display_height, 0) < 0.0f)
        ev_log(log, EV_LOG_WARNING,
               "adm: adm_csf_mode=%d has no table for %g x %d; like "
               "libvmaf, its factor is -22 and the scores are meaningless",
               o->csf_mode, o->norm_view_dist, o->ref_display_height);
    return 0;
}

static int adm_init(void *state, const void *opts, const EvPicInfo *info, const EvLog *log)
{
    AdmState *s = state;
    s->opts = *(const AdmOpts *)opts;
    s->width = info->width;
    s->height = info->height;
    s->bpc = info->bpc;
    int err = check_config(s, info, log);
    if (err)
        return err;
    if ((err = adm_set_geometry(s->geom, s->width, s->height, ADM_MIN_DWT_INPUT, &s->indices))) {
        if (err == -EINVAL)
            ev_log(log, EV_LOG_ERROR, "adm: frame %ux%u is too small (minimum %dx%d)", info->width,
                   info->height, ADM_MIN_SIZE, ADM_MIN_SIZE);
        goto fail;
    }
    if (!(s->div_lookup = malloc(65537 * sizeof(int32_t)))) {
        err = -ENOMEM;
        goto fail;
    }
    s->div_lookup[32768] = 0;
    for (int i = 1; i <= 32768; i++) {
        s->div_lookup[32768 + i] = adm_div_entry(i);
        s->div_lookup[32768 - i] = adm_div_entry(-i);
    }
    set_factors(s);
    adm_dsp_init(&s->dsp, info->cpu);
    for (int k = 0; k < N_ALL; k++)
        ev_options_feature_name(s->names[k], sizeof(s->names[k]), adm_base_names[k], &ev_fex_adm,
                                opts);
    return 0;
fail:
    free(s->indices);
    s->indices = NULL;
    return err;
}

static size_t adm_scratch_size(const void *state)
{
    AdmWork unused;
    return adm_work_layout(state, NULL, &unused);
}

/* Totals over scales in double, the reference's floor on tiny totals, then adm2, aim, adm3. */
int ev_adm_emit(const AdmState *s, const AdmScaleScore sc[4], const unsigned frame, EvSink *sink)
{
    double num = 0, den = 0, aim_num = 0;
    for (int k = 0; k < 4; k++) {
        num += sc[k].num;
        den += sc[k].den;
        aim_num += sc[k].aim;
    }
    const double limit = 1e-10 * (int)(s->width * s->height) / (1920.0 * 1080.0);
    num = num < limit ? 0 : num;
    den = den < limit ? 0 : den;
    /* den == 0 (a flat reference): adm2 is 1 and the reference leaves aim uninitialised; 0 here */
    const double adm2 = den == 0.0 ? 1.0 : num / den;
    const double aim = den == 0.0 ? 0.0 : aim_num / den;
    const double dlmw = s->opts.dlm_weight;
    const double adm3_raw = adm2 * dlmw + (1 - aim) * (1 - dlmw);
    return adm_put_values(s->names, s->opts.debug, adm2, aim,
                          adm3_raw > s->opts.min_val ? adm3_raw : s->opts.min_val, num, den, sc,
                          frame, sink);
}

/* ---- many encodes: one context scores a frame for every member (EvGroupScoring) ---- */

enum { ADM_VALUES = 12 }; /* num, den, aim of each scale */

static void pack_scores(double *out, const AdmScaleScore sc[4])
{
    for (int k = 0; k < 4; k++) {
        out[3 * k] = sc[k].num;
        out[3 * k + 1] = sc[k].den;
        out[3 * k + 2] = sc[k].aim;
    }
}

static void unpack_scores(AdmScaleScore sc[4], const double *in)
{
    for (int k = 0; k < 4; k++) /* floats, exact through the doubles */
        sc[k] = (AdmScaleScore){ (float)in[3 * k], (float)in[3 * k + 1], (float)in[3 * k + 2] };
}

/* A job's scratch: each member's distorted buffers (the reference's are the worker's). */
static size_t group_scratch_size(const void *state, const unsigned n)
{
    AdmWork shared = { .row_len = 0 }, member;
    adm_work_layout(state, NULL, &shared);
    return n * adm_member_layout(state, NULL, &member, &shared);
}

static void adm_group_score(const void *state, void *scratch, void *group_scratch, const EvPic *ref,
                            const EvPic *const *dis, const unsigned n, const unsigned frame,
                            double *values)
{
    const AdmState *s = state;
    AdmWork shared, wk[ADM_MAX_MEMBERS];
    adm_work_layout(s, scratch, &shared);
    char *p = group_scratch;
    for (unsigned k = 0; k < n; k++)
        p += adm_member_layout(s, p, &wk[k], &shared);
    AdmScaleScore sc[ADM_MAX_MEMBERS][4];
    adm_score_frame_multi(s, wk, n, ref, dis, sc);
    for (unsigned k = 0; k < n; k++)
        pack_scores(values + (size_t)k * ADM_VALUES, sc[k]);
}

static int adm_group_emit(const void *state, void *scratch, const EvPic *ref, const unsigned frame,
                          const double *values, EvSink *sink)
{
    AdmScaleScore sc[4];
    unpack_scores(sc, values);
    return ev_adm_emit(state, sc, frame, sink);
}

static const EvGroupScoring adm_group = { .n_values = ADM_VALUES,
                                          .scratch_size = group_scratch_size,
                                          .score = adm_group_score,
                                          .emit = adm_group_emit };

static int adm_extract(const void *state, void *scratch, const EvPic *ref, const EvPic *dis,
                       const unsigned frame, EvSink *sink)
{
    const AdmState *s = state;
    AdmScaleScore sc[4];
    AdmWork wk;
    adm_work_layout(s, scratch, &wk);
    adm_score_frame(s, &wk, ref, dis, sc);
    return ev_adm_emit(s, sc, frame, sink);
}

static void adm_close(void *state)
{
    AdmState *s = state;
    free(s->indices);
    free(s->div_lookup);
}

#define ADM_CLASS                                                                                  \
    EV_CLASS_COMMON("adm", AdmState), EV_CLASS_OPTIONS(adm_options, AdmOpts), .init = adm_init,    \
                                                                              .close = adm_close
const EvExtractorClass ev_fex_adm = { ADM_CLASS, .scratch_size = adm_scratch_size,
                                      .extract = adm_extract, .group = &adm_group };

#ifdef EV_HAVE_CUDA
/* The CUDA twin: the same options, init and outputs; the scales on the device (adm.cu). */
const EvExtractorClass ev_cuda_adm = { ADM_CLASS, .flags = EV_FEX_CUDA | EV_FEX_CUDA_LUMA,
                                       .launch = ev_adm_launch_cuda,
                                       .extract = ev_adm_extract_cuda };
#endif
