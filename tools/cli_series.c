/* The series of the report pages (cli_series.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_fail.h"
#include "cli_output.h"
#include "cli_run.h"
#include "cli_series.h"

/* The page's statistics when --pool gives none: the lows and the usual percentiles. */
static const EvPoolStat default_stats[] = { { EV_POOL_LOW, 1 },
                                            { EV_POOL_LOW, 5 },
                                            { EV_POOL_PERCENTILE, 1 },
                                            { EV_POOL_PERCENTILE, 5 },
                                            { EV_POOL_PERCENTILE, 50 } };

static const char *const sad_names[] = { "VMAF_integer_feature_motion_sad_score",
                                         "VMAF_feature_motion_score" };

static void pick_stats(CliSeriesSet *set, const CliSettings *s)
{
    set->n_stat = 0;
    for (EvPoolMethod m = EV_POOL_MEAN; m <= EV_POOL_HARMONIC_MEAN; m++)
        set->stat[set->n_stat++] = (EvPoolStat){ m, 0 };
    set->stat[set->n_stat++] = (EvPoolStat){ EV_POOL_MIN, 0 };
    set->stat[set->n_stat++] = (EvPoolStat){ EV_POOL_MAX, 0 };
    const unsigned n = s->n_pool ? s->n_pool : sizeof(default_stats) / sizeof(default_stats[0]);
    for (unsigned i = 0; i < n; i++)
        set->stat[set->n_stat++] = s->n_pool ? s->pool[i] : default_stats[i];
    for (unsigned i = 0; i < set->n_stat; i++)
        ev_pool_stat_name(set->stat[i], set->stat_name[i], sizeof(set->stat_name[i]));
}

static void pick_metric(CliSeriesSet *set, const CliSettings *s, const EvContext *ctx)
{
    if (!s->no_prediction) {
        const char *spec = s->n_models ? s->model[0] : "";
        char buf[256];
        snprintf(set->metric, sizeof(set->metric), "%s",
                 cli_spec_value(spec, "name", buf, sizeof(buf), "vmaf"));
        return;
    }
    const char *first = ev_feature_name(ctx, 0);
    snprintf(set->metric, sizeof(set->metric), "%s", first ? first : "");
}

/* n values of feature name, NaN where a frame has none; NULL when no frame has it. */
static double *frame_values(const EvContext *ctx, const char *name, unsigned n, int *oom)
{
    double *v = malloc((n ? n : 1) * sizeof(*v));
    *oom = !v;
    unsigned found = 0;
    for (unsigned i = 0; v && i < n; i++) {
        v[i] = NAN;
        found += !ev_get_score(ctx, name, i, &v[i]);
    }
    if (!found) {
        free(v);
        return NULL;
    }
    return v;
}

static int gather_one(CliSeries *se, const CliSeriesSet *set, const EvContext *ctx,
                      const char *path, double bitrate, char *err, size_t n)
{
    se->path = path;
    cli_output_base_name(path, se->name, sizeof(se->name));
    se->bitrate = bitrate;
    se->n_frames = ev_frame_count(ctx);
    int oom;
    se->score = frame_values(ctx, set->metric, se->n_frames, &oom);
    if (!se->score)
        return cli_fail(err, n,
                        oom ? "report: out of memory" : "report: %s has no values of %s to plot",
                        path, set->metric);
    for (unsigned k = 0; k < sizeof(sad_names) / sizeof(sad_names[0]) && !se->sad; k++)
        se->sad = frame_values(ctx, sad_names[k], se->n_frames, &oom);
    for (unsigned k = 0; k < set->n_stat; k++)
        if (ev_get_pooled_stat(ctx, set->metric, set->stat[k], &se->pooled[k]))
            se->pooled[k] = NAN;
    return 0;
}

unsigned cli_scene_cuts(const double *sad, const unsigned n, unsigned *cuts)
{
    unsigned count = 0;
    for (unsigned i = 1; i < n; i++) {
        const double v = sad[i];
        int cut = v >= CLI_CUT_MIN_SAD;
        if (i >= 2)
            cut = cut && v >= CLI_CUT_RATIO * sad[i - 1];
        if (i + 1 < n)
            cut = cut && v >= CLI_CUT_RATIO * sad[i + 1];
        if (cut)
            cuts[count++] = i;
    }
    return count;
}

int cli_series_gather(CliSeriesSet *set, const CliSettings *s, EvContext *const *ctx,
                      const char *const *paths, const unsigned n, char *err, const size_t size)
{
    memset(set, 0, sizeof(*set));
    set->ref_path = s->ref_path;
    pick_stats(set, s);
    pick_metric(set, s, ctx[0]);
    set->series = calloc(n, sizeof(*set->series));
    if (!set->series)
        return cli_fail(err, size, "report: out of memory");
    set->n_series = n;
    for (unsigned i = 0; i < n; i++)
        if (gather_one(&set->series[i], set, ctx[i], paths[i], s->n_bitrate ? s->bitrate[i] : NAN,
                       err, size))
            return -1;
    for (unsigned i = 0; i < n; i++) {
        const CliSeries *se = &set->series[i];
        if (!se->sad)
            continue;
        set->cuts = malloc((se->n_frames ? se->n_frames : 1) * sizeof(*set->cuts));
        if (!set->cuts)
            return cli_fail(err, size, "report: out of memory");
        set->n_cuts = cli_scene_cuts(se->sad, se->n_frames, set->cuts);
        break;
    }
    return 0;
}

void cli_series_free(CliSeriesSet *set)
{
    for (unsigned i = 0; set->series && i < set->n_series; i++) {
        free(set->series[i].score);
        free(set->series[i].sad);
    }
    free(set->series);
    free(set->cuts);
    memset(set, 0, sizeof(*set));
}
