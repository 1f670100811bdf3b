/* Many encodes against one reference (cli_multi.h). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_fail.h"
#include "cli_multi.h"
#include "cli_output.h"
#include "cli_reader.h"
#include "cli_report.h"
#include "cli_run.h"
#include "exactvmaf/cuda.h"

static const char *app = "exactvmaf";

/* One distorted and what scores it. */
typedef struct Scoring {
    const char *path;
    EvVideo *video;
    EvContext *ctx;
    CliLogUser log; /* the logger's view of ctx: the reference and this distorted */
    CliOutput out;
    SideReader reader; /* its reading thread (more than one --threads), when side */
    int side;
    unsigned frames; /* pairs pushed */
    int active;      /* its stream has not ended */
} Scoring;

static const char *format_extension(EvOutputFormat f)
{
    return f == EV_OUTPUT_JSON  ? "json"
           : f == EV_OUTPUT_CSV ? "csv"
           : f == EV_OUTPUT_SUB ? "sub"
                                : "xml";
}

/* pattern with every "{}" replaced by name. @return 0, -1 when it does not fit. */
static int expand_pattern(const char *pattern, const char *name, char *out, size_t size)
{
    size_t len = 0;
    for (const char *p = pattern; *p;) {
        const int braces = p[0] == '{' && p[1] == '}';
        const char *piece = braces ? name : p;
        const size_t n = braces ? strlen(name) : 1;
        if (len + n >= size)
            return -1;
        memcpy(out + len, piece, n);
        len += n;
        p += braces ? 2 : 1;
    }
    out[len] = '\0';
    return 0;
}

int cli_multi_output_paths(const CliSettings *s, char (*paths)[CLI_MULTI_PATH_SIZE], char *err,
                           size_t n)
{
    const char *o = s->out_path;
    for (unsigned i = 0; i < s->n_dis; i++)
        paths[i][0] = '\0';
    if (!o)
        return 0;
    struct stat st;
    const int pattern = strstr(o, "{}") != NULL;
    const size_t olen = strlen(o);
    const int folder = !pattern && strcmp(o, "-") &&
                       ((olen && o[olen - 1] == '/') || (!stat(o, &st) && S_ISDIR(st.st_mode)));
    if (!pattern && !folder)
        return cli_fail(err, n,
                        "%s: one output for %u distorted inputs: give -o a folder or a "
                        "pattern with {} (replaced by each distorted's name)",
                        o, s->n_dis);
    for (unsigned i = 0; i < s->n_dis; i++) {
        char name[1024];
        cli_output_base_name(s->dis_paths[i], name, sizeof(name));
        int bad = !name[0];
        if (pattern)
            bad = bad || expand_pattern(o, name, paths[i], CLI_MULTI_PATH_SIZE);
        else if (snprintf(paths[i], CLI_MULTI_PATH_SIZE, "%s%s%s.%s", o,
                          o[olen - 1] == '/' ? "" : "/", name,
                          format_extension(s->format)) >= CLI_MULTI_PATH_SIZE)
            bad = 1;
        if (bad)
            return cli_fail(err, n, "%s: no output name can be made for %s", o, s->dis_paths[i]);
        for (unsigned j = 0; j < i; j++)
            if (!strcmp(paths[i], paths[j]))
                return cli_fail(err, n,
                                "%s: %s and %s would both be written to %s: give each "
                                "distorted its own file name",
                                o, s->dis_paths[j], s->dis_paths[i], paths[i]);
    }
    return 0;
}

/* Does a distorted's pair end at this frame (the reference or it ended)? It is then no longer
 * active, with a warning when only it ended; *longer counts those still going. */
static int pair_ends(const CliSettings *s, Scoring *sc, const int ra, const int rb,
                     unsigned *longer)
{
    if (ra && rb)
        return 0;
    sc->active = 0;
    *longer += (unsigned)rb;
    if (ra && !s->quiet)
        fprintf(stderr, "%s: warning: %s ends after %u frames; scoring %u frames\n", app, sc->path,
                sc->frames, sc->frames);
    return 1;
}

/* Read one frame of the reference and of every distorted still going, each straight into a
 * frame slot borrowed from its context (the reference into one slot, copied into the others
 * at the submit), and push the pairs. @return 1 a frame was pushed, 0 the reference or every
 * distorted ended, -1 an error. */
static int push_frame(const CliSettings *s, EvVideo *ref, Scoring *sc, unsigned n_dis,
                      const EvVideoFormat *fmt, unsigned n)
{
    EvContext *lent[CLI_MAX_ITEMS], *to[CLI_MAX_ITEMS];
    EvPicture ref_pic, dis[CLI_MAX_ITEMS];
    for (unsigned i = 0; i < n_dis; i++)
        lent[i] = sc[i].active ? sc[i].ctx : NULL;
    if (ev_borrow_pictures_multi(lent, n_dis, fmt->width, fmt->height, fmt->bitdepth, fmt->layout,
                                 &ref_pic, dis))
        return -1; /* the logger said why */
    /* every distorted on its reading thread (if any) while this one reads the reference; even
     * past the reference's end, as a single run does, to say which ended */
    for (unsigned i = 0; i < n_dis; i++)
        if (lent[i] && sc[i].side)
            side_reader_request(&sc[i].reader, &dis[i]);
    const int ra = ev_video_read_into(ref, &ref_pic);
    /* every pair is read before any is pushed: the contexts then score the frame in one group
     * job (core/group_jobs.h), the reference's part of vif once */
    int rb[CLI_MAX_ITEMS];
    for (unsigned i = 0; i < n_dis; i++)
        if (lent[i])
            rb[i] = sc[i].side ? side_reader_wait(&sc[i].reader)
                               : ev_video_read_into(sc[i].video, &dis[i]);
    EvVideo *failed = ra < 0 ? ref : NULL;
    unsigned active = 0, longer = 0;
    for (unsigned i = 0; i < n_dis && !failed; i++) {
        to[i] = NULL;
        if (!lent[i])
            continue;
        if (rb[i] < 0) {
            failed = sc[i].video;
            break;
        }
        if (pair_ends(s, &sc[i], ra, rb[i], &longer))
            continue;
        to[i] = sc[i].ctx;
        active++;
    }
    if (failed || !ra || !active) {
        ev_return_pictures_multi(lent, n_dis);
        if (failed)
            return fprintf(stderr, "%s: %s\n", app, ev_video_error(failed)), -1;
        if (!ra && longer && !s->quiet)
            fprintf(stderr, "%s: warning: %s ends after %u frames; scoring %u frames\n", app,
                    s->ref_path, n, n);
        return 0;
    }
    const int err = ev_submit_pictures_multi(to, n_dis, &ref_pic);
    for (unsigned i = 0; i < n_dis; i++) {
        if (lent[i] && !to[i])
            ev_return_pictures(lent[i]); /* ended: after the submit, which read its reference */
        sc[i].frames += !err && to[i];
    }
    return err ? -1 : 1;
}

/* One reference frame in device memory lent to every context of a frame: given back by the
 * last context done with it (the contexts' threads release in any order). */
typedef struct SharedReference {
    EvVideoDeviceFrame *frame;
    atomic_uint users;
} SharedReference;

typedef struct DeviceLoan {
    SharedReference *ref;
    EvVideoDeviceFrame *dis;
} DeviceLoan;

static void give_back_shared(SharedReference *r)
{
    if (atomic_fetch_sub(&r->users, 1) == 1) {
        ev_video_release_device(r->frame);
        free(r);
    }
}

static void give_back_loan(void *user)
{
    DeviceLoan *l = user;
    ev_video_release_device(l->dis);
    give_back_shared(l->ref);
    free(l);
}

/* push_frame for inputs whose frames NVDEC keeps on the device: the reference frame and each
 * distorted one are lent to the contexts where they are (ev_lend_device_pictures). */
static int push_frame_device(const CliSettings *s, EvVideo *ref, Scoring *sc, unsigned n_dis,
                             unsigned n)
{
    EvPicture ref_pic, dis[CLI_MAX_ITEMS];
    EvVideoDeviceFrame *frame[CLI_MAX_ITEMS] = { NULL };
    SharedReference *shared = calloc(1, sizeof(*shared));
    if (!shared)
        return fprintf(stderr, "%s: out of memory\n", app), -1;
    atomic_init(&shared->users, 1); /* this call's own hold, dropped at its end */
    for (unsigned i = 0; i < n_dis; i++)
        if (sc[i].active && sc[i].side)
            side_reader_request_device(&sc[i].reader);
    const int ra = ev_video_read_device(ref, &ref_pic, &shared->frame);
    int rb[CLI_MAX_ITEMS];
    for (unsigned i = 0; i < n_dis; i++)
        if (sc[i].active)
            rb[i] = sc[i].side ? side_reader_wait_device(&sc[i].reader, &dis[i], &frame[i])
                               : ev_video_read_device(sc[i].video, &dis[i], &frame[i]);
    EvVideo *failed = ra < 0 ? ref : NULL;
    unsigned active = 0, longer = 0;
    int err = 0;
    for (unsigned i = 0; i < n_dis && !failed; i++)
        if (sc[i].active && rb[i] < 0)
            failed = sc[i].video;
    for (unsigned i = 0; i < n_dis && !failed; i++) {
        if (!sc[i].active)
            continue;
        if (pair_ends(s, &sc[i], ra, rb[i], &longer))
            continue;
        DeviceLoan *loan = malloc(sizeof(*loan));
        if (!loan) {
            fprintf(stderr, "%s: out of memory\n", app);
            err = -1;
            break;
        }
        *loan = (DeviceLoan){ shared, frame[i] };
        frame[i] = NULL; /* the loan's now */
        atomic_fetch_add(&shared->users, 1);
        if (ev_lend_device_pictures(sc[i].ctx, &ref_pic, &dis[i], NULL, give_back_loan, loan)) {
            err = -1; /* given back; the logger said why */
            break;
        }
        sc[i].frames++;
        active++;
    }
    for (unsigned i = 0; i < n_dis; i++)
        ev_video_release_device(frame[i]); /* not lent: ended, failed or out of memory */
    give_back_shared(shared);
    if (failed)
        return fprintf(stderr, "%s: %s\n", app, ev_video_error(failed)), -1;
    if (err)
        return -1;
    if (!ra || !active) {
        if (!ra && longer && !s->quiet)
            fprintf(stderr, "%s: warning: %s ends after %u frames; scoring %u frames\n", app,
                    s->ref_path, n, n);
        return 0;
    }
    return 1;
}

/* Are the reference and every distorted read into device memory, for the CUDA backend? */
static int all_on_device(const CliSettings *s, const EvVideo *ref, const Scoring *sc,
                         unsigned n_dis)
{
    int all = s->backend != EV_BACKEND_CPU && ev_video_on_device(ref);
    for (unsigned i = 0; i < n_dis && all; i++)
        all = ev_video_on_device(sc[i].video);
    return all;
}

/* Reference frames while any distorted lasts, or up to --frame_cnt; then every flush. */
static int score_all(const CliSettings *s, EvVideo *ref, Scoring *sc, unsigned n_dis,
                     long long total, double *fps)
{
    const int progress = !s->quiet && isatty(STDERR_FILENO);
    const double start = cli_now();
    double last = start;
    EvVideoFormat fmt;
    ev_video_format(ref, &fmt);
    for (unsigned i = 0; i < n_dis && s->threads != 1; i++)
        sc[i].side = !side_reader_start(&sc[i].reader, sc[i].video);
    const int on_device = all_on_device(s, ref, sc, n_dis);
    unsigned n = 0;
    int r = 1;
    while (!s->frame_cnt || n < s->frame_cnt) {
        r = on_device ? push_frame_device(s, ref, sc, n_dis, n)
                      : push_frame(s, ref, sc, n_dis, &fmt, n);
        if (r <= 0)
            break;
        n++;
        if (progress && cli_now() - last > 0.5) {
            cli_show_progress(n, total, start, 0);
            last = cli_now();
        }
    }
    for (unsigned i = 0; i < n_dis; i++)
        if (sc[i].side) {
            side_reader_stop(&sc[i].reader);
            sc[i].side = 0;
        }
    if (r < 0)
        return -1;
    for (unsigned i = 0; i < n_dis; i++)
        if (!sc[i].frames)
            return fprintf(stderr, "%s: %s: no frames to score\n", app, sc[i].path), -1;
    for (unsigned i = 0; i < n_dis; i++)
        if (ev_flush(sc[i].ctx))
            return -1;
    const double dt = cli_now() - start;
    *fps = dt > 0 ? n / dt : 0.0;
    if (progress)
        cli_show_progress(n, total, start, 1);
    return 0;
}

/* Frames the longest-lasting distorted will be scored on, when every count is known. */
static long long expected_total(const CliSettings *s, const EvVideo *ref, const Scoring *sc,
                                unsigned n_dis)
{
    long long total = 0;
    for (unsigned i = 0; i < n_dis; i++) {
        const long long t = cli_expected_frames(s, ref, sc[i].video);
        if (t < 0)
            return -1;
        total = t > total ? t : total;
    }
    return total;
}

static int open_all(const CliSettings *s, EvVideo **ref, Scoring *sc, unsigned n_dis)
{
    /* the contexts first: CUDA engines bring the device up while the inputs open */
    for (unsigned i = 0; i < n_dis; i++) {
        sc[i].log = (CliLogUser){ s->ref_path, sc[i].path, 0 };
        if (cli_open_context(s, &sc[i].log, &sc[i].ctx))
            return -1;
    }
    if (cli_open_video(s, s->ref_path, NULL, ref, 0))
        return -1;
    for (unsigned i = 0; i < n_dis; i++)
        if (cli_open_video(s, sc[i].path, *ref, &sc[i].video, i + 1) ||
            cli_check_pair(s, s->ref_path, *ref, sc[i].path, sc[i].video))
            return -1;
    EvVideo *all[CLI_MAX_ITEMS + 1];
    const char *paths[CLI_MAX_ITEMS + 1];
    all[0] = *ref;
    paths[0] = s->ref_path;
    for (unsigned i = 0; i < n_dis; i++) {
        all[i + 1] = sc[i].video;
        paths[i + 1] = sc[i].path;
    }
    const int err = cli_settle_decoders(s, all, paths, n_dis + 1);
    *ref = all[0];
    for (unsigned i = 0; i < n_dis; i++)
        sc[i].video = all[i + 1];
    if (err)
        return -1;
    if (cli_skip_frames(*ref, s->frame_skip_ref, s->ref_path))
        return -1;
    for (unsigned i = 0; i < n_dis; i++)
        if (cli_skip_frames(sc[i].video, s->frame_skip_dist, sc[i].path))
            return -1;
    return 0;
}

static int finish_all(const CliSettings *s, Scoring *sc, unsigned n_dis, double fps,
                      const CliOutput *plot, const CliOutput *report)
{
    int rc = 0;
    for (unsigned i = 0; i < n_dis; i++) {
        char prefix[4200];
        snprintf(prefix, sizeof(prefix), "%s: ", sc[i].path);
        cli_report_scores(sc[i].ctx, s, prefix);
        if (s->out_path && cli_write_results(sc[i].ctx, s, &sc[i].out, fps))
            rc = -1; /* said why; the other outputs are still written */
    }
    EvContext *ctx[CLI_MAX_ITEMS];
    for (unsigned i = 0; i < n_dis; i++)
        ctx[i] = sc[i].ctx;
    if (cli_pages_write(s, ctx, s->dis_paths, n_dis, plot, report))
        rc = -1;
    return rc;
}

int cli_run_multi(const CliSettings *s)
{
    const unsigned n_dis = s->n_dis;
    char(*paths)[CLI_MULTI_PATH_SIZE] = calloc(n_dis, sizeof(*paths));
    Scoring *sc = calloc(n_dis, sizeof(*sc));
    EvVideo *ref = NULL;
    int rc = 1;
    char err[4400];
    if (!paths || !sc) {
        fprintf(stderr, "%s: cannot start: out of memory\n", app);
        goto done;
    }
    /* every output is checked before any input is read */
    CliOutput plot, report;
    if (cli_multi_output_paths(s, paths, err, sizeof(err)) ||
        cli_pages_check(s, &plot, &report, err, sizeof(err)))
        goto failed;
    for (unsigned i = 0; i < n_dis; i++) {
        sc[i].path = s->dis_paths[i];
        sc[i].active = 1;
        if (cli_output_check_path(s, s->out_path ? paths[i] : NULL, &sc[i].out, err, sizeof(err)))
            goto failed;
    }
    double fps = 0;
    if (open_all(s, &ref, sc, n_dis) ||
        score_all(s, ref, sc, n_dis, expected_total(s, ref, sc, n_dis), &fps) ||
        finish_all(s, sc, n_dis, fps, &plot, &report))
        goto done;
    rc = 0;
    goto done;
failed:
    fprintf(stderr, "%s: %s\n", app, err);
done:
    for (unsigned i = 0; sc && i < n_dis; i++) {
        ev_close(&sc[i].ctx);
        ev_video_close(&sc[i].video);
    }
    ev_video_close(&ref);
    free(sc);
    free(paths);
    return rc;
}
