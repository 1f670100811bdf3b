/* Command-line settings of the exactvmaf CLI: Netflix vmaf's flags plus exactvmaf's own
 * (parsed by cli_args.c, extended by cli_presets.c). */
#ifndef EV_TOOLS_CLI_SETTINGS_H
#define EV_TOOLS_CLI_SETTINGS_H

#include "exactvmaf/exactvmaf.h"
#include "exactvmaf/video.h"

#define CLI_MAX_ITEMS 32

typedef struct CliFeature {
    char name[64];
    const char *options; /* "k=v:k=v" or NULL, points into argv */
} CliFeature;

/* --decoder; DEFAULT: auto where the CUDA backend may score and a device exists, else cpu */
typedef enum CliDecoder {
    CLI_DECODER_DEFAULT = 0,
    CLI_DECODER_CPU,
    CLI_DECODER_NVDEC,
    CLI_DECODER_AUTO
} CliDecoder;

typedef struct CliSettings {
    const char *ref_path, *dis_path, *out_path; /* dis_path: the first -d */
    const char *dis_paths[CLI_MAX_ITEMS];       /* every -d, in order (several: one reference,
                                               many distorted; see cli_multi.h) */
    unsigned n_dis;
    int raw; /* any of -w -h -p -b given: raw .yuv */
    EvVideoFormat raw_fmt;
    const char *scaler; /* --scaler: libswscale flags for converting an encoded distorted */
    /* --decoder's words: the reference's, then each -d's in order, the last one repeating
     * (none given: CLI_DECODER_DEFAULT for every input; cli_decoder_of()) */
    CliDecoder decoder[CLI_MAX_ITEMS + 1];
    unsigned n_decoders;
    unsigned decode_sessions; /* --decode_sessions: decoders per encode; 0: automatic */
    EvOutputFormat format;
    int precision; /* EV_PRECISION_* or 0..17 */
    CliFeature feature[CLI_MAX_ITEMS];
    unsigned n_features;
    const char *model[CLI_MAX_ITEMS];
    unsigned n_models;
    unsigned threads;  /* 0: one per core */
    EvBackend backend; /* default EV_BACKEND_AUTO */
    unsigned gpu;      /* CUDA device ordinal */
    unsigned cpumask;  /* EvSettings.cpu_mask */
    unsigned subsample;
    unsigned frame_cnt; /* 0: all */
    unsigned frame_skip_ref, frame_skip_dist;
    int common_bitdepth; /* --aom_ctc v6.0+: the inputs' depths may differ */
    int no_prediction, quiet, version, list;
    /* exactvmaf's reports (docs/REPORTS.md) */
    EvPoolStat pool[CLI_MAX_ITEMS]; /* --pool: percentiles and lows, after Netflix's four */
    unsigned n_pool;
    double bitrate[CLI_MAX_ITEMS]; /* --bitrate, kbit/s, one per -d in order */
    unsigned n_bitrate;
    const char *plot_path, *report_path; /* --plot FILE.svg, --report FILE.html */
} CliSettings;

#endif
