/* Netflix's CTC presets as data. Each version is the version it derives from plus a few steps;
 * the steps append to the --model and --feature lists in Netflix's order (so the output order
 * is Netflix's too) or change one setting. */
#include <stdio.h>
#include <string.h>

#include "cli_fail.h"
#include "cli_presets.h"

typedef enum StepKind {
    STEP_END,
    STEP_MODEL,           /* append a --model spec */
    STEP_FEATURE,         /* append a --feature name with options */
    STEP_SET_FEATURE,     /* replace the options of the first feature of that name, in place;
                             append it if there is none */
    STEP_COMMON_BITDEPTH, /* inputs may differ in bit depth (scored at the larger one) */
} StepKind;

typedef struct Step {
    StepKind kind;
    const char *name;    /* model spec or feature name */
    const char *options; /* feature options or NULL */
} Step;

#define MAX_STEPS 8

typedef struct Preset {
    const char *version;
    const char *base; /* the version this one extends, or NULL */
    Step steps[MAX_STEPS];
} Preset;

/* Every preset scores a model and its "neg" variant (no enhancement gain), as vmaf and
 * vmaf_neg. */
#define MODEL_AND_NEG(version)                                                                     \
    { STEP_MODEL, "version=" version ":name=vmaf", NULL },                                         \
    {                                                                                              \
        STEP_MODEL, "version=" version "neg:name=vmaf_neg", NULL                                   \
    }

/* The SSIM features' options wherever a preset adds them: in dB, clipped */
#define SSIM_DB "enable_db=true:clip_db=true"

/* AOM common test conditions, versions 1.0 to 7.0 */
static const Preset aom_ctc[] = {
    { "v1.0",
      NULL,
      { MODEL_AND_NEG("vmaf_v0.6.1"),
        { STEP_FEATURE, "psnr", "reduced_hbd_peak=true:enable_apsnr=true:min_sse=0.5" },
        { STEP_FEATURE, "ciede", NULL },
        { STEP_FEATURE, "float_ssim", SSIM_DB },
        { STEP_FEATURE, "float_ms_ssim", SSIM_DB },
        { STEP_FEATURE, "psnr_hvs", NULL },
        { STEP_END, NULL, NULL } } },
    { "v2.0", "v1.0", { { STEP_END, NULL, NULL } } },
    { "v3.0", "v2.0", { { STEP_FEATURE, "cambi", NULL }, { STEP_END, NULL, NULL } } },
    { "v4.0", "v3.0", { { STEP_END, NULL, NULL } } },
    { "v5.0", "v4.0", { { STEP_END, NULL, NULL } } },
    { "v6.0", "v5.0", { { STEP_COMMON_BITDEPTH, NULL, NULL }, { STEP_END, NULL, NULL } } },
    { "v7.0",
      "v6.0",
      { { STEP_SET_FEATURE, "float_ssim", "scale=1:" SSIM_DB }, { STEP_END, NULL, NULL } } },
};

/* Netflix common test conditions */
static const Preset nflx_ctc[] = {
    { "v1.0",
      NULL,
      { MODEL_AND_NEG("vmaf_4k_v0.6.1"),
        { STEP_FEATURE, "psnr", "enable_chroma=true:enable_apsnr=true" },
        { STEP_FEATURE, "float_ssim", SSIM_DB },
        { STEP_FEATURE, "cambi", NULL },
        { STEP_END, NULL, NULL } } },
};

static const Preset *find(const Preset *table, size_t count, const char *version)
{
    for (size_t i = 0; i < count; i++)
        if (!strcmp(table[i].version, version))
            return &table[i];
    return NULL;
}

static int append_feature(CliSettings *s, const char *name, const char *options, char *err,
                          size_t n)
{
    if (s->n_features == CLI_MAX_ITEMS)
        return cli_fail(err, n, "at most %d --feature options are supported", CLI_MAX_ITEMS);
    CliFeature *f = &s->feature[s->n_features++];
    snprintf(f->name, sizeof(f->name), "%s", name);
    f->options = options;
    return 0;
}

static int apply_step(CliSettings *s, const Step *st, char *err, size_t n)
{
    switch (st->kind) {
    case STEP_MODEL:
        if (s->n_models == CLI_MAX_ITEMS)
            return cli_fail(err, n, "at most %d models are supported", CLI_MAX_ITEMS);
        s->model[s->n_models++] = st->name;
        return 0;
    case STEP_FEATURE: return append_feature(s, st->name, st->options, err, n);
    case STEP_SET_FEATURE:
        for (unsigned i = 0; i < s->n_features; i++)
            if (!strcmp(s->feature[i].name, st->name)) {
                s->feature[i].options = st->options;
                return 0;
            }
        return append_feature(s, st->name, st->options, err, n);
    case STEP_COMMON_BITDEPTH: s->common_bitdepth = 1; return 0;
    case STEP_END: return 0;
    }
    return 0;
}

/* The base chain first (v1.0's steps before v3.0's), then p's own steps. */
static int apply(CliSettings *s, const Preset *table, size_t count, const Preset *p, char *err,
                 size_t n)
{
    if (p->base && apply(s, table, count, find(table, count, p->base), err, n))
        return -1;
    for (const Step *st = p->steps; st->kind != STEP_END; st++)
        if (apply_step(s, st, err, n))
            return -1;
    return 0;
}

int cli_apply_preset(CliSettings *s, CliPresetFamily family, const char *version, char *err,
                     size_t n)
{
    const int aom = family == CLI_PRESET_AOM_CTC;
    const Preset *table = aom ? aom_ctc : nflx_ctc;
    const size_t count =
        aom ? sizeof(aom_ctc) / sizeof(*aom_ctc) : sizeof(nflx_ctc) / sizeof(*nflx_ctc);
    if (aom && !strcmp(version, "proposed"))
        return cli_fail(err, n, "`--aom_ctc proposed` is deprecated; use a version: %s",
                        cli_preset_versions(family));
    const Preset *p = find(table, count, version);
    if (!p)
        return cli_fail(err, n, "bad %s version \"%s\": want one of %s",
                        aom ? "aom_ctc" : "nflx_ctc", version, cli_preset_versions(family));
    return apply(s, table, count, p, err, n);
}

const char *cli_preset_versions(CliPresetFamily family)
{
    return family == CLI_PRESET_AOM_CTC ? "v1.0, v2.0, v3.0, v4.0, v5.0, v6.0, v7.0" : "v1.0";
}
