#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_fail.h"
#include "cli_args.h"
#include "cli_presets.h"

enum {
    ARG_XML = 256,
    ARG_JSON,
    ARG_CSV,
    ARG_SUB,
    ARG_THREADS,
    ARG_FEATURE,
    ARG_SUBSAMPLE,
    ARG_CPUMASK,
    ARG_GPUMASK,
    ARG_AOM_CTC,
    ARG_NFLX_CTC,
    ARG_FRAME_CNT,
    ARG_FRAME_SKIP_REF,
    ARG_FRAME_SKIP_DIST,
    ARG_PRECISION,
    ARG_HELP,
    ARG_LIST,
    ARG_BACKEND,
    ARG_GPU,
    ARG_LIST_MODELS,
    ARG_POOL,
    ARG_BITRATE,
    ARG_PLOT,
    ARG_REPORT,
    ARG_SCALER,
    ARG_DECODER,
    ARG_DECODE_SESSIONS,
};

static const struct option long_opts[] = {
    { "reference", 1, NULL, 'r' },
    { "distorted", 1, NULL, 'd' },
    { "width", 1, NULL, 'w' },
    { "height", 1, NULL, 'h' },
    { "pixel_format", 1, NULL, 'p' },
    { "bitdepth", 1, NULL, 'b' },
    { "model", 1, NULL, 'm' },
    { "output", 1, NULL, 'o' },
    { "xml", 0, NULL, ARG_XML },
    { "json", 0, NULL, ARG_JSON },
    { "csv", 0, NULL, ARG_CSV },
    { "sub", 0, NULL, ARG_SUB },
    { "threads", 1, NULL, ARG_THREADS },
    { "feature", 1, NULL, ARG_FEATURE },
    { "subsample", 1, NULL, ARG_SUBSAMPLE },
    { "cpumask", 1, NULL, ARG_CPUMASK },
    { "gpumask", 1, NULL, ARG_GPUMASK },
    { "aom_ctc", 1, NULL, ARG_AOM_CTC },
    { "nflx_ctc", 1, NULL, ARG_NFLX_CTC },
    { "frame_cnt", 1, NULL, ARG_FRAME_CNT },
    { "frame_skip_ref", 1, NULL, ARG_FRAME_SKIP_REF },
    { "frame_skip_dist", 1, NULL, ARG_FRAME_SKIP_DIST },
    { "precision", 1, NULL, ARG_PRECISION },
    { "no_prediction", 0, NULL, 'n' },
    { "version", 0, NULL, 'v' },
    { "quiet", 0, NULL, 'q' },
    { "help", 0, NULL, ARG_HELP },
    { "list_features", 0, NULL, ARG_LIST },
    { "backend", 1, NULL, ARG_BACKEND },
    { "gpu", 1, NULL, ARG_GPU },
    { "list_models", 0, NULL, ARG_LIST_MODELS },
    { "pool", 1, NULL, ARG_POOL },
    { "bitrate", 1, NULL, ARG_BITRATE },
    { "plot", 1, NULL, ARG_PLOT },
    { "report", 1, NULL, ARG_REPORT },
    { "scaler", 1, NULL, ARG_SCALER },
    { "decoder", 1, NULL, ARG_DECODER },
    { "decode_sessions", 1, NULL, ARG_DECODE_SESSIONS },
    { NULL, 0, NULL, 0 },
};

void cli_usage(FILE *f, const char *app)
{
    fprintf(
        f,
        "Usage: %s -r REF -d DIS [options]\n"
        "Scores DIS against REF with Netflix's VMAF (default model vmaf_v0.6.1) and any\n"
        "--feature; the results equal Netflix libvmaf's bit for bit (--version says which).\n"
        "\n"
        "Input, recognised by its content (YUV4MPEG2: y4m whatever its name; a container\n"
        "ffmpeg's libraries read: decoded, when this build has them, see --version):\n"
        " --reference/-r $path:        reference: an encode (mp4, mkv, webm, ivf, ts, ...),\n"
        "                              .y4m or raw .yuv; - reads standard input\n"
        " --distorted/-d $path:        distorted, the same kinds; an encode is converted\n"
        "                              to the reference's size, depth and layout as\n"
        "                              ffmpeg's scale filter does (--scaler)\n"
        "                              (only one input can be -). Repeat -d to score many\n"
        "                              encodes against one reference read once: one\n"
        "                              output each, -o a folder or a pattern with {}\n"
        " --width/-w $unsigned:        raw .yuv width   } all four for raw input, for both\n"
        " --height/-h $unsigned:       raw .yuv height  } files; odd sizes use ffmpeg's\n"
        " --pixel_format/-p $layout:   420|422|444|400  } layout (chroma rounded up), 400 gray\n"
        " --bitdepth/-b 8..16:         raw bit depth    } (16-bit samples little-endian)\n"
        " --scaler $flags:             libswscale flags for that conversion, as in\n"
        "                              scale=W:H:flags=...: bicubic (default), lanczos,\n"
        "                              bilinear, spline, area, ...[+accurate_rnd]\n"
        " --decoder cpu|nvdec|auto:    where encodes are decoded: cpu, nvdec, or auto\n"
        "                              (NVDEC where its frames stay on the GPU for the CUDA\n"
        "                              backend, else the CPU); default: auto where the\n"
        "                              CUDA backend may score and a GPU exists, else cpu;\n"
        "                              REF,DIS... (e.g. nvdec,cpu): the reference's, then\n"
        "                              each -d's (the last repeats); the CPU's frames are\n"
        "                              then uploaded to the GPU\n"
        " --decode_sessions $unsigned: decoders for each HEVC or H.264 encode (mp4, mkv):\n"
        "                              2-8 cut it at its random-access points and decode\n"
        "                              the pieces at once, the same frames; 1: one decoder;\n"
        "                              default: 2 for a pair NVDEC decodes, else 1\n"
        " --frame_cnt $unsigned:       score at most N frames (0 = all)\n"
        " --frame_skip_ref $unsigned:  skip the first N frames of the reference\n"
        " --frame_skip_dist $unsigned: skip the first N frames of the distorted\n"
        " --subsample $unsigned:       score every Nth frame (0 or 1 = every frame)\n"
        "\n"
        "What to compute:\n"
        " --model/-m $params:          a model, colon-separated: version=NAME (see\n"
        "                              --list_models) or path=FILE.json; name=OUT (default\n"
        "                              vmaf); enable_transform; disable_clip; and\n"
        "                              EXTRACTOR.OPTION=VALUE; repeat for several models\n"
        " --feature $name[=k=v:...]:   add an extractor with options (see --list_features)\n"
        " --no_prediction/-n:          no score: the --feature extractors and the\n"
        "                              extractors of each --model only\n"
        " --aom_ctc $version:          AOM CTC preset (v1.0..v7.0): models vmaf_v0.6.1 (vmaf)\n"
        "                              and vmaf_v0.6.1neg (vmaf_neg); psnr, ciede, float_ssim,\n"
        "                              float_ms_ssim (dB), psnr_hvs; v3.0+ cambi; v7.0\n"
        "                              float_ssim scale=1 (v6.0+ inputs of different bit\n"
        "                              depths: refused). Added where it stands among\n"
        "                              --model and --feature, as in Netflix's CLI\n"
        " --nflx_ctc $version:         Netflix CTC preset (v1.0): vmaf_4k_v0.6.1 (vmaf),\n"
        "                              vmaf_4k_v0.6.1neg (vmaf_neg), psnr with chroma and\n"
        "                              apsnr, float_ssim (dB), cambi\n"
        "\n"
        "Output:\n"
        " --output/-o $path:           write the results there; - = standard output;\n"
        "                              none: only the pooled score on a terminal. With\n"
        "                              several -d: a folder (FOLDER/NAME.xml|json|csv|sub)\n"
        "                              or a pattern, each {} replaced by NAME, where NAME\n"
        "                              is the distorted file name without its last\n"
        "                              extension (a.mp4.y4m: a.mp4; stdin: stdin). Checked\n"
        "                              before scoring; nothing is written if scoring fails;\n"
        "                              an input file is never overwritten\n"
        " --xml | --json | --csv | --sub  layout (default XML), byte for byte Netflix's\n"
        " --precision $N|max:          %%.Nf for every value (0..17), or max = %%.17g (every\n"
        "                              double exactly); default Netflix's %%.6f\n"
        " --quiet/-q:                  no progress line and no warnings (errors still)\n"
        "\n"
        "Reports (docs/REPORTS.md):\n"
        " --pool $list:                pooled statistics besides mean, harmonic_mean, min\n"
        "                              and max, in every layout: pN (numpy's percentile,\n"
        "                              N in 0..100) and lowN (mean of the worst N%%),\n"
        "                              comma-separated, e.g. p1,p5,p50,low1\n"
        " --plot $path.svg:            per-frame scores, one line per distorted, scene cuts\n"
        "                              marked where motion jumps\n"
        " --report $path.html:         one self-contained page: pooled table (sortable),\n"
        "                              per-frame curves, lows, bitrates, rate-quality curve\n"
        " --bitrate $kbps:             each distorted's bitrate, once per -d in order\n"
        " %s bdrate A B [--metric NAME]: BD-rate and BD-score of ladder B against A\n"
        "\n"
        "Where to compute:\n"
        " --threads $unsigned:         threads; 0 (default) = one per core; results are\n"
        "                              the same bits for every count\n"
        " --backend cpu|cuda|auto:     default auto: CUDA when a device exists and every\n"
        "                              extractor has a CUDA twin, else the CPU\n"
        " --gpu $unsigned:             CUDA device ordinal (default 0)\n"
        " --cpumask $bitmask:          CPU instruction sets not to use: 1 SSE2, 2 SSSE3,\n"
        "                              4 SSE4.1, 8 AVX2, 16 AVX-512, 32 AVX-512 ICL (8: the C\n"
        "                              reference; the same bits for every mask)\n"
        " --gpumask $bitmask:          accepted for Netflix compatibility; no effect\n"
        "\n"
        "Information:\n"
        " --list_features:             the extractors, their options, defaults and ranges\n"
        " --list_models:               the built-in models\n"
        " --version/-v:                version, the Netflix libvmaf matched, backends, SIMD\n"
        " --help:                      this text\n",
        app, app);
}

/* One --decoder word of len characters at w. @return 0, or -1 for another word. */
static int parse_decoder(const char *w, const size_t len, CliDecoder *out)
{
    static const struct {
        const char *name;
        CliDecoder decoder;
    } words[] = { { "cpu", CLI_DECODER_CPU },
                  { "nvdec", CLI_DECODER_NVDEC },
                  { "auto", CLI_DECODER_AUTO } };
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
        if (strlen(words[i].name) == len && !strncmp(w, words[i].name, len)) {
            *out = words[i].decoder;
            return 0;
        }
    return -1;
}

static int parse_unsigned(const char *arg, const char *opt, unsigned *out, char *err, size_t n)
{
    char *end;
    errno = 0;
    const unsigned long v = strtoul(arg, &end, 0);
    if (!*arg || *end || errno || v > UINT_MAX || arg[0] == '-')
        return cli_fail(err, n, "invalid value \"%s\" for %s: want an unsigned integer", arg, opt);
    *out = (unsigned)v;
    return 0;
}

static int parse_layout(const char *arg, EvPixelLayout *out, char *err, size_t n)
{
    if (!strcmp(arg, "420"))
        *out = EV_PIX_420;
    else if (!strcmp(arg, "422"))
        *out = EV_PIX_422;
    else if (!strcmp(arg, "444"))
        *out = EV_PIX_444;
    else if (!strcmp(arg, "400"))
        *out = EV_PIX_400; /* gray: luma only */
    else
        return cli_fail(err, n, "invalid pixel format \"%s\": want 420, 422, 444 or 400", arg);
    return 0;
}

static int parse_precision(const char *arg, int *out, char *err, size_t n)
{
    if (!strcmp(arg, "max")) {
        *out = EV_PRECISION_MAX;
        return 0;
    }
    unsigned v = 0;
    if (parse_unsigned(arg, "--precision", &v, err, n) || v > 17)
        return cli_fail(err, n, "invalid value \"%s\" for --precision: want 0..17 or max", arg);
    *out = (int)v;
    return 0;
}

/* --pool: pN and lowN, comma-separated; Netflix's four names are accepted (always there). */
static int parse_pool(CliSettings *s, const char *arg, char *err, size_t n)
{
    const char *p = arg;
    while (*p) {
        const char *end = strchr(p, ',');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        char item[64];
        if (!len || len >= sizeof(item))
            return cli_fail(err, n, "invalid --pool \"%s\": want a list like p1,p5,p50,low1", arg);
        memcpy(item, p, len);
        item[len] = '\0';
        p += len + (end ? 1 : 0);
        if (!strcmp(item, "mean") || !strcmp(item, "harmonic_mean") || !strcmp(item, "min") ||
            !strcmp(item, "max"))
            continue;
        const int low = !strncmp(item, "low", 3);
        const char *num = item + (low ? 3 : item[0] == 'p' ? 1 : 0);
        char *stop;
        errno = 0;
        const double level = num > item ? strtod(num, &stop) : -1.0;
        const EvPoolStat st = { low ? EV_POOL_LOW : EV_POOL_PERCENTILE, level };
        const int valid = num > item && *num && !*stop && !errno &&
                          (low ? level > 0.0 && level <= 100.0 : level >= 0.0 && level <= 100.0);
        if (!valid)
            return cli_fail(err, n,
                            "invalid --pool statistic \"%s\": want pN (0 <= N <= 100) or lowN "
                            "(0 < N <= 100)",
                            item);
        if (s->n_pool == CLI_MAX_ITEMS)
            return cli_fail(err, n, "at most %d --pool statistics are supported", CLI_MAX_ITEMS);
        s->pool[s->n_pool++] = st;
    }
    return 0;
}

static int parse_bitrate(CliSettings *s, const char *arg, char *err, size_t n)
{
    char *end;
    errno = 0;
    const double v = strtod(arg, &end);
    if (!*arg || *end || errno || !(v > 0.0) || v > 1e12)
        return cli_fail(err, n, "invalid value \"%s\" for --bitrate: want kbit/s above 0", arg);
    if (s->n_bitrate == CLI_MAX_ITEMS)
        return cli_fail(err, n, "at most %d --bitrate values are supported", CLI_MAX_ITEMS);
    s->bitrate[s->n_bitrate++] = v;
    return 0;
}

static int add_feature(CliSettings *s, const char *arg, char *err, size_t n)
{
    if (s->n_features == CLI_MAX_ITEMS)
        return cli_fail(err, n, "at most %d --feature options are supported", CLI_MAX_ITEMS);
    CliFeature *f = &s->feature[s->n_features];
    const char *eq = strchr(arg, '=');
    const size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    if (!len || len >= sizeof(f->name))
        return cli_fail(err, n, "invalid --feature \"%s\": want name[=option=value:...]", arg);
    memcpy(f->name, arg, len);
    f->name[len] = '\0';
    f->options = eq ? eq + 1 : NULL;
    s->n_features++;
    return 0;
}

static int parse_one(CliSettings *s, int opt, const char *arg, char *err, size_t n)
{
    switch (opt) {
    case 'r': s->ref_path = arg; return 0;
    case 'd':
        if (s->n_dis == CLI_MAX_ITEMS)
            return cli_fail(err, n, "at most %d --distorted inputs are supported", CLI_MAX_ITEMS);
        s->dis_paths[s->n_dis++] = arg;
        s->dis_path = s->dis_paths[0];
        return 0;
    case 'o': s->out_path = arg; return 0;
    case 'w': s->raw = 1; return parse_unsigned(arg, "--width", &s->raw_fmt.width, err, n);
    case 'h': s->raw = 1; return parse_unsigned(arg, "--height", &s->raw_fmt.height, err, n);
    case 'p': s->raw = 1; return parse_layout(arg, &s->raw_fmt.layout, err, n);
    case 'b':
        s->raw = 1;
        if (parse_unsigned(arg, "--bitdepth", &s->raw_fmt.bitdepth, err, n))
            return -1;
        if (s->raw_fmt.bitdepth < 8 || s->raw_fmt.bitdepth > 16)
            return cli_fail(err, n, "invalid bit depth %s: want 8..16", arg);
        return 0;
    case 'm':
        if (s->n_models == CLI_MAX_ITEMS)
            return cli_fail(err, n, "at most %d models are supported", CLI_MAX_ITEMS);
        s->model[s->n_models++] = arg;
        return 0;
    case ARG_XML: s->format = EV_OUTPUT_XML; return 0;
    case ARG_JSON: s->format = EV_OUTPUT_JSON; return 0;
    case ARG_CSV: s->format = EV_OUTPUT_CSV; return 0;
    case ARG_SUB: s->format = EV_OUTPUT_SUB; return 0;
    case ARG_THREADS: return parse_unsigned(arg, "--threads", &s->threads, err, n);
    case ARG_FEATURE: return add_feature(s, arg, err, n);
    case ARG_SUBSAMPLE: return parse_unsigned(arg, "--subsample", &s->subsample, err, n);
    case ARG_CPUMASK: return parse_unsigned(arg, "--cpumask", &s->cpumask, err, n);
    case ARG_GPUMASK: {
        unsigned ignored;
        return parse_unsigned(arg, "--gpumask", &ignored, err, n);
    }
    case ARG_AOM_CTC: return cli_apply_preset(s, CLI_PRESET_AOM_CTC, arg, err, n);
    case ARG_NFLX_CTC: return cli_apply_preset(s, CLI_PRESET_NFLX_CTC, arg, err, n);
    case ARG_FRAME_CNT: return parse_unsigned(arg, "--frame_cnt", &s->frame_cnt, err, n);
    case ARG_FRAME_SKIP_REF:
        return parse_unsigned(arg, "--frame_skip_ref", &s->frame_skip_ref, err, n);
    case ARG_FRAME_SKIP_DIST:
        return parse_unsigned(arg, "--frame_skip_dist", &s->frame_skip_dist, err, n);
    case ARG_PRECISION: return parse_precision(arg, &s->precision, err, n);
    case ARG_BACKEND:
        if (!strcmp(arg, "cpu"))
            s->backend = EV_BACKEND_CPU;
        else if (!strcmp(arg, "cuda"))
            s->backend = EV_BACKEND_CUDA;
        else if (!strcmp(arg, "auto"))
            s->backend = EV_BACKEND_AUTO;
        else
            return cli_fail(err, n, "invalid backend \"%s\": want cpu, cuda or auto", arg);
        return 0;
    case ARG_GPU: return parse_unsigned(arg, "--gpu", &s->gpu, err, n);
    case ARG_SCALER: s->scaler = arg; return 0;
    case ARG_DECODE_SESSIONS:
        if (parse_unsigned(arg, "--decode_sessions", &s->decode_sessions, err, n))
            return -1;
        if (s->decode_sessions < 1 || s->decode_sessions > 8)
            return cli_fail(err, n, "invalid value \"%s\" for --decode_sessions: want 1 to 8", arg);
        return 0;
    case ARG_DECODER: { /* WHERE[,WHERE...]: the reference's, then each -d's */
        s->n_decoders = 0;
        for (const char *w = arg;; w++) {
            const char *comma = strchr(w, ',');
            const size_t len = comma ? (size_t)(comma - w) : strlen(w);
            if (s->n_decoders == CLI_MAX_ITEMS + 1 ||
                parse_decoder(w, len, &s->decoder[s->n_decoders++]))
                return cli_fail(err, n,
                                "invalid decoder \"%s\": want cpu, nvdec or auto, or one for "
                                "the reference and each -d in order, comma-separated (e.g. "
                                "nvdec,cpu; the last one repeats)",
                                arg);
            if (!comma)
                return 0;
            w = comma;
        }
    }
    case 'n': s->no_prediction = 1; return 0;
    case 'q': s->quiet = 1; return 0;
    case 'v': s->version = 1; return 0;
    case ARG_HELP: s->version = 2; return 0;
    case ARG_LIST: s->list = 1; return 0;
    case ARG_LIST_MODELS: s->list = 2; return 0;
    case ARG_POOL: return parse_pool(s, arg, err, n);
    case ARG_BITRATE: return parse_bitrate(s, arg, err, n);
    case ARG_PLOT: s->plot_path = arg; return 0;
    case ARG_REPORT: s->report_path = arg; return 0;
    }
    return cli_fail(err, n, "unknown option (see --help)");
}

static int check_raw(const CliSettings *s, char *err, size_t n)
{
    if (!s->raw)
        return 0;
    if (!s->raw_fmt.width || !s->raw_fmt.height || !s->raw_fmt.layout || !s->raw_fmt.bitdepth)
        return cli_fail(err, n,
                        "raw .yuv input needs all of --width, --height, --pixel_format "
                        "and --bitdepth");
    return 0;
}

int cli_parse(int argc, char **argv, CliSettings *s, char *err, size_t n)
{
    memset(s, 0, sizeof(*s));
    s->format = EV_OUTPUT_XML;
    s->precision = EV_PRECISION_NETFLIX;
    s->backend = EV_BACKEND_AUTO;
    opterr = 0;
    optind = 1;
    int opt;
    while ((opt = getopt_long(argc, argv, ":r:d:w:h:p:b:m:o:nvq", long_opts, NULL)) != -1) {
        if (opt == '?')
            return cli_fail(err, n, "unknown option \"%s\" (see --help)", argv[optind - 1]);
        if (opt == ':')
            return cli_fail(err, n, "option \"%s\" needs a value", argv[optind - 1]);
        if (parse_one(s, opt, optarg, err, n))
            return -1;
    }
    if (optind < argc)
        return cli_fail(err, n, "unexpected argument \"%s\" (see --help)", argv[optind]);
    if (s->version || s->list)
        return 0;
    if (!s->ref_path || !s->dis_path)
        return cli_fail(err, n, "both --reference/-r and --distorted/-d are required (see --help)");
    unsigned from_stdin = !strcmp(s->ref_path, "-");
    for (unsigned i = 0; i < s->n_dis; i++)
        from_stdin += !strcmp(s->dis_paths[i], "-");
    if (from_stdin > 1)
        return cli_fail(err, n, "only one of --reference and --distorted can read stdin (-)");
    if (s->n_bitrate && s->n_bitrate != s->n_dis)
        return cli_fail(err, n,
                        "%u --bitrate values for %u --distorted inputs: give one each, in order",
                        s->n_bitrate, s->n_dis);
    if (s->n_decoders > s->n_dis + 1)
        return cli_fail(err, n,
                        "--decoder gives %u decoders for %u inputs: one for the reference and "
                        "one for each -d at most",
                        s->n_decoders, s->n_dis + 1);
    if ((s->plot_path && !strcmp(s->plot_path, "-")) ||
        (s->report_path && !strcmp(s->report_path, "-")))
        return cli_fail(err, n, "--plot and --report write files, not standard output (-)");
    return check_raw(s, err, n);
}
