/* The bdrate command (cli_bdrate.h). */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_bdrate.h"
#include "cli_fail.h"
#include "exactvmaf/stats.h"

static const char *app = "exactvmaf";

#define MAX_POINTS 1024

/* The pooled mean of metric in a JSON output. @return 0, or -1 with one line in err. */
static int json_score(const char *path, const char *metric, double *score, char *err, size_t n)
{
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    if (!root)
        return cli_fail(err, n, "%s: not a JSON output: %s (line %d)", path, je.text, je.line);
    const json_t *mean =
        json_object_get(json_object_get(json_object_get(root, "pooled_metrics"), metric), "mean");
    const int ok = json_is_number(mean);
    if (ok)
        *score = json_number_value(mean);
    json_decref(root);
    return ok ? 0
              : cli_fail(err, n, "%s: no pooled mean of %s (pooled_metrics.%s.mean)", path, metric,
                         metric);
}

/* A number that is the whole field. */
static int whole_number(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return *s && !*end && !errno;
}

/* field 2 of a ladder line: a score, or a JSON output beside the ladder. */
static int point_score(const char *ladder, const char *field, const char *metric, double *score,
                       char *err, size_t n)
{
    if (whole_number(field, score))
        return 0;
    char path[8400];
    const char *slash = strrchr(ladder, '/');
    if (field[0] == '/' || !slash)
        snprintf(path, sizeof(path), "%s", field);
    else
        snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - ladder), ladder, field);
    return json_score(path, metric, score, err, n);
}

static int read_ladder(const char *path, const char *metric, EvRatePoint *p, size_t *count,
                       char *err, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return cli_fail(err, n, "%s: cannot read: %s", path, strerror(errno));
    char line[8192];
    unsigned lineno = 0;
    int rc = 0;
    *count = 0;
    while (!rc && fgets(line, sizeof(line), f)) {
        lineno++;
        char rate_text[512], second[4096];
        const int fields = sscanf(line, " %511s %4095s", rate_text, second);
        if (fields < 1 || rate_text[0] == '#')
            continue;
        double rate;
        if (fields < 2 || !whole_number(rate_text, &rate))
            rc = cli_fail(err, n, "%s:%u: want \"RATE SCORE\" or \"RATE OUTPUT.json\"", path,
                          lineno);
        else if (*count == MAX_POINTS)
            rc = cli_fail(err, n, "%s: more than %d points", path, MAX_POINTS);
        else if (!(rc = point_score(path, second, metric, &p[*count].score, err, n)))
            p[(*count)++].rate = rate;
    }
    fclose(f);
    return rc;
}

static int usage(void)
{
    fprintf(stderr, "%s: usage: %s bdrate ANCHOR TEST [--metric NAME] (see docs/REPORTS.md)\n", app,
            app);
    return 1;
}

static const char *bd_problem(int err)
{
    switch (err) {
    case -EINVAL: return "a rate that is not above 0, or a score that is not finite";
    case -EDOM:
        return "each ladder needs at least 4 distinct points whose scores rise strictly with "
               "the rate";
    case -ERANGE: return "the two ladders' scores (or rates) do not overlap";
    case -ENOMEM: return "out of memory";
    }
    return "failed";
}

int cli_bdrate_main(int argc, char **argv)
{
    const char *files[2] = { NULL, NULL }, *metric = "vmaf";
    unsigned n_files = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--metric") && i + 1 < argc)
            metric = argv[++i];
        else if (argv[i][0] == '-' && argv[i][1])
            return usage();
        else if (n_files < 2)
            files[n_files++] = argv[i];
        else
            return usage();
    }
    if (n_files != 2)
        return usage();
    static EvRatePoint pts[2][MAX_POINTS];
    size_t count[2];
    char err[16800];
    for (unsigned k = 0; k < 2; k++)
        if (read_ladder(files[k], metric, pts[k], &count[k], err, sizeof(err)))
            return fprintf(stderr, "%s: %s\n", app, err), 1;
    double rate, score;
    const int e = ev_bd_rate(pts[0], count[0], pts[1], count[1], &rate, &score);
    if (e)
        return fprintf(stderr, "%s: bdrate %s %s: %s\n", app, files[0], files[1], bd_problem(e)), 1;
    printf("BD-rate: %.17g%%\nBD-score: %.17g\n", 100.0 * rate, score);
    return 0;
}
