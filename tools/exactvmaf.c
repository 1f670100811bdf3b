/* exactvmaf: the command-line tool. Accepts Netflix vmaf's flags; uses only the public API. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli_args.h"
#include "cli_bdrate.h"
#include "cli_guard.h"
#include "cli_info.h"
#include "cli_multi.h"
#include "cli_output.h"
#include "cli_reader.h"
#include "cli_report.h"
#include "cli_run.h"
#include "exactvmaf/cuda.h"
#include "exactvmaf/exactvmaf.h"
#include "exactvmaf/video.h"

static const char *app = "exactvmaf";

static int open_inputs(const CliSettings *s, EvVideo **ref, EvVideo **dis)
{
    if (cli_open_video(s, s->ref_path, NULL, ref, 0) ||
        cli_open_video(s, s->dis_path, *ref, dis, 1))
        return -1;
    EvVideo *both[2] = { *ref, *dis };
    const char *paths[2] = { s->ref_path, s->dis_path };
    const int err = cli_settle_decoders(s, both, paths, 2);
    *ref = both[0];
    *dis = both[1];
    if (err)
        return -1;
    return cli_check_pair(s, s->ref_path, *ref, s->dis_path, *dis);
}

/* How reading pair n ended, from what the two reads returned: -1 (one failed: its message
 * printed), 0 (a stream ended: the shorter one named unless quiet) or 1 (both frames read). */
static int pair_status(const CliSettings *s, EvVideo *ref, EvVideo *dis, const int ra, const int rb,
                       const unsigned n)
{
    if (ra < 0 || rb < 0) {
        fprintf(stderr, "%s: %s\n", app, ev_video_error(ra < 0 ? ref : dis));
        return -1;
    }
    if (!ra || !rb) {
        if ((ra || rb) && !s->quiet)
            fprintf(stderr, "%s: warning: %s ends after %u frames; scoring %u frames\n", app,
                    ra ? s->dis_path : s->ref_path, n, n);
        return 0;
    }
    return 1;
}

static int read_pair(EvContext *ctx, const CliSettings *s, EvVideo *ref, EvVideo *dis,
                     SideReader *side, const EvVideoFormat *fmt, unsigned n)
{
    EvPicture a, b;
    if (ev_borrow_pictures(ctx, fmt->width, fmt->height, fmt->bitdepth, fmt->layout, &a, &b))
        return -1;
    int ra, rb;
    if (side) {
        /* the two files at once: the distorted one on the second reading thread */
        side_reader_request(side, &b);
        ra = ev_video_read_into(ref, &a);
        rb = side_reader_wait(side);
        rb = ra < 0 ? 0 : rb;
    } else {
        ra = ev_video_read_into(ref, &a);
        rb = ra < 0 ? 0 : ev_video_read_into(dis, &b);
    }
    const int status = pair_status(s, ref, dis, ra, rb, n);
    if (status <= 0) {
        ev_return_pictures(ctx);
        return status;
    }
    return ev_submit_pictures(ctx) ? -1 : 1;
}

/* The two frames of a pair read in place (ev_video_read_mapped), unmapped once scored. */
typedef struct MappedPair {
    EvVideoFrameMap *map[2];
} MappedPair;

static void unmap_pair(void *user)
{
    MappedPair *p = user;
    ev_video_unmap(p->map[0]);
    ev_video_unmap(p->map[1]);
    free(p);
}

/* read_pair for two regular files: each frame's pages are lent to the workers where they lie in
 * the page cache, with no copy (a frame that could not be mapped is sent, and so copied). */
static int read_pair_mapped(EvContext *ctx, const CliSettings *s, EvVideo *ref, EvVideo *dis,
                            const unsigned n)
{
    MappedPair *p = calloc(1, sizeof(*p));
    if (!p)
        return fprintf(stderr, "%s: out of memory\n", app), -1;
    EvPicture a, b;
    const int ra = ev_video_read_mapped(ref, &a, &p->map[0]);
    const int rb = ra < 0 ? 0 : ev_video_read_mapped(dis, &b, &p->map[1]);
    const int status = pair_status(s, ref, dis, ra, rb, n);
    if (status <= 0) {
        unmap_pair(p);
        return status;
    }
    if (p->map[0] && p->map[1])
        return ev_lend_pictures(ctx, &a, &b, unmap_pair, p) ? -1 : 1;
    const int err = ev_send_pictures(ctx, &a, &b);
    unmap_pair(p);
    return err ? -1 : 1;
}

/* The two frames of a pair in device memory (ev_video_read_device), given back once scored. */
typedef struct DevicePair {
    EvVideoDeviceFrame *frame[2];
} DevicePair;

static void give_back_device_pair(void *user)
{
    DevicePair *p = user;
    ev_video_release_device(p->frame[0]);
    ev_video_release_device(p->frame[1]);
    free(p);
}

/* read_pair for two encodes whose frames NVDEC keeps on the device: lent to the twins where
 * they are, with no copy through the host. */
static int read_pair_device(EvContext *ctx, const CliSettings *s, EvVideo *ref, EvVideo *dis,
                            SideReader *side, const unsigned n)
{
    DevicePair *p = calloc(1, sizeof(*p));
    if (!p)
        return fprintf(stderr, "%s: out of memory\n", app), -1;
    EvPicture a, b;
    int ra, rb;
    if (side) {
        side_reader_request_device(side);
        ra = ev_video_read_device(ref, &a, &p->frame[0]);
        rb = side_reader_wait_device(side, &b, &p->frame[1]);
        rb = ra < 0 ? 0 : rb;
    } else {
        ra = ev_video_read_device(ref, &a, &p->frame[0]);
        rb = ra < 0 ? 0 : ev_video_read_device(dis, &b, &p->frame[1]);
    }
    const int status = pair_status(s, ref, dis, ra, rb, n);
    if (status <= 0) {
        give_back_device_pair(p);
        return status;
    }
    return ev_lend_device_pictures(ctx, &a, &b, NULL, give_back_device_pair, p) ? -1 : 1;
}

/* Read pairs and push them; stops at the shorter stream (with a warning) or --frame_cnt. */
static int score_frames(EvContext *ctx, const CliSettings *s, EvVideo *ref, EvVideo *dis,
                        const long long total, double *fps)
{
    const int progress = !s->quiet && isatty(STDERR_FILENO);
    const double start = cli_now();
    double last = start;
    EvVideoFormat fmt;
    ev_video_format(ref, &fmt);
    unsigned n = 0;
    /* with more than one thread, the reference and the distorted are read in parallel; once the
     * first pair has chosen the CPU backend, two regular files are read in place (the CUDA
     * backend uploads from its pinned frame slots, faster than from the page cache's pages) */
    const int mappable = ev_video_mappable(ref) && ev_video_mappable(dis);
    int mapped = 0;
    const int on_device =
        s->backend != EV_BACKEND_CPU && ev_video_on_device(ref) && ev_video_on_device(dis);
    SideReader reader;
    SideReader *side = s->threads != 1 && !side_reader_start(&reader, dis) ? &reader : NULL;
    int r = 1;
    while (!s->frame_cnt || n < s->frame_cnt) {
        r = on_device ? read_pair_device(ctx, s, ref, dis, side, n)
            : mapped  ? read_pair_mapped(ctx, s, ref, dis, n)
                      : read_pair(ctx, s, ref, dis, side, &fmt, n);
        if (r <= 0)
            break;
        n++;
        if (n == 1 && mappable && !strcmp(ev_backend_name(ctx), "cpu") &&
            !cli_guard_mapped_inputs(app, s->ref_path, s->dis_path)) {
            if (side)
                side_reader_stop(side);
            side = NULL;
            mapped = 1; /* a truncated file is now one line and exit 1, not SIGBUS */
        }
        if (progress && cli_now() - last > 0.5) {
            cli_show_progress(n, total, start, 0);
            last = cli_now();
        }
    }
    if (side)
        side_reader_stop(side);
    if (r < 0)
        return -1;
    if (!n)
        return fprintf(stderr, "%s: no frames to score\n", app), -1;
    if (ev_flush(ctx))
        return -1;
    if (mapped) /* every mapped frame is scored and unmapped */
        cli_guard_release();
    const double dt = cli_now() - start;
    *fps = dt > 0 ? n / dt : 0.0;
    if (progress)
        cli_show_progress(n, total, start, 1);
    return 0;
}

static int run(const CliSettings *s)
{
    EvVideo *ref = NULL, *dis = NULL;
    EvContext *ctx = NULL;
    int rc = 1;
    CliOutput out, plot, report;
    char err[4400];
    if (cli_output_check(s, &out, err, sizeof(err)) ||
        cli_pages_check(s, &plot, &report, err, sizeof(err))) {
        fprintf(stderr, "%s: %s\n", app, err);
        return 1; /* before any input is read */
    }
    /* the context first: a CUDA engine brings the device up while the inputs open */
    CliLogUser log = { s->ref_path, s->dis_path, 0 };
    if (cli_open_context(s, &log, &ctx) || open_inputs(s, &ref, &dis))
        goto done;
    if (cli_skip_frames(ref, s->frame_skip_ref, s->ref_path) ||
        cli_skip_frames(dis, s->frame_skip_dist, s->dis_path))
        goto done;
    double fps = 0;
    if (score_frames(ctx, s, ref, dis, cli_expected_frames(s, ref, dis), &fps))
        goto done;
    cli_report_scores(ctx, s, "");
    if (s->out_path && cli_write_results(ctx, s, &out, fps))
        goto done;
    if (cli_pages_write(s, &ctx, &s->dis_path, 1, &plot, &report))
        goto done;
    rc = 0;
done:
    ev_close(&ctx);
    ev_video_close(&ref);
    ev_video_close(&dis);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "bdrate"))
        return cli_bdrate_main(argc - 1, argv + 1);
    CliSettings s;
    char err[512];
    if (cli_parse(argc, argv, &s, err, sizeof(err))) {
        fprintf(stderr, "%s: %s\n", app, err);
        return 1;
    }
    if (s.version == 1) {
        cli_version(stdout, app);
        return 0;
    }
    if (s.version == 2) {
        cli_usage(stdout, app);
        return 0;
    }
    if (s.list == 1)
        cli_list_features(stdout);
    if (s.list == 2)
        cli_list_models(stdout);
    if (s.list)
        return 0;
    /* an -o pattern ({}) is one even for one distorted */
    const int pattern = s.out_path && strstr(s.out_path, "{}");
    return s.n_dis > 1 || pattern ? cli_run_multi(&s) : run(&s);
}
