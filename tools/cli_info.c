/* --list_features, --list_models, --version (cli_info.h). */
#include <float.h>
#include <string.h>

#include "cli_info.h"
#include "exactvmaf/exactvmaf.h"
#include "exactvmaf/video.h"

/* A bound as a user writes it: "max" for the largest double, else %g. */
static void put_number(FILE *f, const char *type, double v)
{
    if (v >= DBL_MAX)
        fputs("max", f);
    else if (v <= -DBL_MAX)
        fputs("-max", f);
    else if (!strcmp(type, "bool"))
        fputs(v ? "true" : "false", f);
    else
        fprintf(f, "%g", v);
}

static void list_options(FILE *f, const char *name)
{
    EvOptionInfo o;
    unsigned i = 0;
    for (; !ev_extractor_option(name, i, &o); i++) {
        fprintf(f, "    %s (%s, default ", o.name, o.type);
        if (o.def_text) {
            fprintf(f, "\"%s\"", o.def_text);
            for (unsigned k = 0; o.choices && o.choices[k]; k++)
                fprintf(f, "%s%s", k ? "|" : "; one of ", o.choices[k]);
        } else {
            put_number(f, o.type, o.def);
        }
        if (!o.def_text && strcmp(o.type, "bool")) {
            fputs(", ", f);
            put_number(f, o.type, o.min);
            fputs("..", f);
            put_number(f, o.type, o.max);
        }
        if (o.renames)
            fprintf(f, "; names get _%s", o.alias ? o.alias : o.name);
        fprintf(f, "): %s\n", o.help ? o.help : "");
    }
    if (!i)
        fputs("    (no options)\n", f);
}

void cli_list_features(FILE *f)
{
    fputs("Feature extractors (--feature NAME[=option=value:...]); options with their type,\n"
          "default and range:\n",
          f);
    const char *const *names = ev_extractor_names();
    for (unsigned i = 0; names[i]; i++) {
        fprintf(f, "%s%s\n", names[i], ev_extractor_has_twin(names[i]) ? " (CUDA twin)" : "");
        list_options(f, names[i]);
    }
}

void cli_list_models(FILE *f)
{
    fputs("Built-in models (--model version=NAME; a file: --model path=FILE.json):\n", f);
    const char *const *v = ev_model_versions();
    for (unsigned i = 0; v[i]; i++)
        fprintf(f, "%s%s\n", v[i], !strcmp(v[i], "vmaf_v0.6.1") ? " (default)" : "");
}

static void put_levels(FILE *f, unsigned levels)
{
    static const struct {
        unsigned bit;
        const char *name;
    } names[] = {
        { 1, "sse2" }, { 2, "ssse3" },   { 4, "sse4.1" },
        { 8, "avx2" }, { 16, "avx512" }, { 32, "avx512icl" },
    };
    int any = 0;
    for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (levels & names[i].bit)
            fprintf(f, "%s%s", any++ ? " " : "", names[i].name);
    if (!any)
        fputs("none", f);
}

void cli_version(FILE *f, const char *app)
{
    fprintf(f, "%s %s\n", app, ev_version());
    fprintf(f, "matches Netflix libvmaf %s, commit %s, bit for bit\n", ev_netflix_version(),
            ev_netflix_commit());
    const int gpus = ev_gpu_count();
    fprintf(f, "backends: cpu");
    if (gpus < 0)
        fprintf(f, " (this build has no CUDA)\n");
    else
        fprintf(f, ", cuda (%d device%s found)\n", gpus, gpus == 1 ? "" : "s");
    const char *libav = ev_video_decoder_libraries();
    if (*libav)
        fprintf(f, "input: y4m, raw .yuv, encoded video (%s)\n", libav);
    else
        fputs("input: y4m, raw .yuv (this build decodes no encoded video)\n", f);
    fputs("SIMD kernels built (beside the C reference): ", f);
    put_levels(f, ev_simd_levels(1));
    fputs("; this CPU: ", f);
    put_levels(f, ev_simd_levels(0));
    fputc('\n', f);
}
