/*
 * What the --plot and --report pages show, gathered from flushed contexts through the public API
 * (docs/REPORTS.md): for each distorted the per-frame values of one metric, its pooled
 * statistics, its bitrate, and the scene cuts of the reference.
 *
 * The metric is the first model's score (its name=, default "vmaf"), or with -n the first
 * feature. Scene cuts come from the motion extractor's per-frame SAD of the reference
 * (VMAF_integer_feature_motion_sad_score, or float_motion's VMAF_feature_motion_score): frame
 * i >= 1 starts a new scene when its SAD is at least CLI_CUT_MIN_SAD and at least
 * CLI_CUT_RATIO times the SAD of each neighbour it has among frames 2.. (frame 0's SAD is 0 by
 * definition, so frame 1 is compared with frame 2 only). Without a motion feature no cut is
 * marked.
 */
#ifndef EV_TOOLS_CLI_SERIES_H
#define EV_TOOLS_CLI_SERIES_H

#include "cli_settings.h"
#include "exactvmaf/exactvmaf.h"

#define CLI_CUT_MIN_SAD 10.0
#define CLI_CUT_RATIO 2.5
/* Netflix's four pooled statistics, then the page's (--pool, or CLI_DEFAULT_STATS). */
#define CLI_MAX_STATS (4 + CLI_MAX_ITEMS)

typedef struct CliSeries {
    const char *path; /* the distorted */
    char name[256];   /* its output name (cli_output_base_name) */
    double bitrate;   /* kbit/s, or NaN when not given */
    unsigned n_frames;
    double *score;                /* n_frames values of the metric, NaN where a frame has none */
    double *sad;                  /* n_frames motion SAD values, or NULL */
    double pooled[CLI_MAX_STATS]; /* NaN where the statistic fails */
} CliSeries;

typedef struct CliSeriesSet {
    char metric[256];
    const char *ref_path;
    EvPoolStat stat[CLI_MAX_STATS];
    char stat_name[CLI_MAX_STATS][32];
    unsigned n_stat;
    CliSeries *series;
    unsigned n_series;
    unsigned *cuts; /* frames that start a scene, from the first series with a SAD */
    unsigned n_cuts;
} CliSeriesSet;

/* Gather every context's series; paths[i] is ctx[i]'s distorted. @return 0, or -1 with one line
 * in err. */
int cli_series_gather(CliSeriesSet *set, const CliSettings *s, EvContext *const *ctx,
                      const char *const *paths, unsigned n, char *err, size_t err_size);
void cli_series_free(CliSeriesSet *set);

/* The frames of sad[0..n-1] that start a scene (the rule above), into cuts; their count. */
unsigned cli_scene_cuts(const double *sad, unsigned n, unsigned *cuts);

#endif
