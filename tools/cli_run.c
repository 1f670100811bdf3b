/* The steps of a scoring run (cli_run.h), for the single run (exactvmaf.c) and many encodes
 * (cli_multi.c). Public API only. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_args.h"
#include "cli_info.h"
#include "cli_output.h"
#include "cli_run.h"
#include "exactvmaf/exactvmaf.h"
#include "exactvmaf/video.h"

static const char *app = "exactvmaf";

/* The library's lines on stderr. A warning equal to the one before it is not printed again:
 * with many encodes each context says the same (the thread cap, say), once is enough. Lines
 * come from the library's threads too, hence the lock. */
void cli_log_line(void *user, EvLogLevel level, const char *line)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static char last_warning[512];
    CliLogUser *u = user;
    pthread_mutex_lock(&lock);
    int again = level == EV_LOG_WARNING && !strncmp(line, last_warning, sizeof(last_warning));
    if (level == EV_LOG_WARNING && !again)
        snprintf(last_warning, sizeof(last_warning), "%s", line);
    const char *file = NULL;
    if (level == EV_LOG_ERROR && u) {
        again = u->said_error && strstr(line, ": failed at frame ");
        u->said_error = 1;
        file = strstr(line, "distorted")   ? u->dis_path
               : strstr(line, "reference") ? u->ref_path
                                           : NULL;
    }
    if (!again)
        fprintf(stderr, "%s: %s%s%s%s\n", app, level == EV_LOG_WARNING ? "warning: " : "",
                file ? file : "", file ? ": " : "", line);
    pthread_mutex_unlock(&lock);
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One warning line per y4m tag the two inputs disagree on (both must have it). */
static void warn_tag_mismatch(const char *ref_path, const EvVideo *ref, const char *dis_path,
                              const EvVideo *dis)
{
    EvVideoTags a, b;
    ev_video_tags(ref, &a);
    ev_video_tags(dis, &b);
    if (a.fps_den && b.fps_den &&
        (unsigned long long)a.fps_num * b.fps_den != (unsigned long long)b.fps_num * a.fps_den)
        fprintf(stderr,
                "%s: warning: %s is %u:%u fps but %s is %u:%u fps: frames are paired by "
                "index\n",
                app, ref_path, a.fps_num, a.fps_den, dis_path, b.fps_num, b.fps_den);
    const char ia = a.interlace == 'p' ? 0 : a.interlace, ib = b.interlace == 'p' ? 0 : b.interlace;
    if (ia != ib)
        fprintf(stderr, "%s: warning: %s is %s but %s is %s\n", app, ref_path,
                ia ? "interlaced" : "progressive", dis_path, ib ? "interlaced" : "progressive");
}

CliDecoder cli_decoder_of(const CliSettings *s, const unsigned input)
{
    if (!s->n_decoders)
        return CLI_DECODER_DEFAULT;
    return s->decoder[input < s->n_decoders ? input : s->n_decoders - 1];
}

/* Do the inputs' decoders differ (--decoder nvdec,cpu)? */
static int decoders_differ(const CliSettings *s)
{
    for (unsigned i = 1; i < s->n_decoders; i++)
        if (s->decoder[i] != s->decoder[0])
            return 1;
    return 0;
}

/* cli_open_video with the decoder chosen: forced to the CPU (cpu), or as the settings say. */
static int open_video(const CliSettings *s, const char *path, const EvVideo *ref, EvVideo **v,
                      const unsigned input, const int cpu)
{
    char err[512];
    EvVideoOptions o;
    ev_video_default_options(&o);
    o.raw = s->raw ? &s->raw_fmt : NULL;
    o.scaler = s->scaler;
    o.gpu_index = s->gpu;
    /* NVDEC's frames stay on the device for the CUDA backend, whose twins read them there:
     * faster than libavcodec's threads on the H100 host for one pair at 1080p and 4K and for
     * a 4K ladder (docs/BENCHMARKS.md); copied to the host they are slower, so auto takes
     * NVDEC only where they stay (the library's EV_DECODE_AUTO with keep_on_device) */
    /* a decoder for each side (--decoder REF,DIS): the CPU's frames are uploaded, so that the
     * pair is read on the device whole */
    o.keep_on_device = cpu || s->backend == EV_BACKEND_CPU ? EV_KEEP_ON_HOST
                       : decoders_differ(s)                ? EV_KEEP_ALL_FRAMES
                                                           : EV_KEEP_NVDEC_FRAMES;
    const CliDecoder asked = cli_decoder_of(s, input);
    const CliDecoder d = cpu                                      ? CLI_DECODER_CPU
                         : asked != CLI_DECODER_DEFAULT           ? asked
                         : o.keep_on_device && ev_gpu_count() > 0 ? CLI_DECODER_AUTO
                                                                  : CLI_DECODER_CPU;
    o.decode_on = d == CLI_DECODER_NVDEC  ? EV_DECODE_NVDEC
                  : d == CLI_DECODER_AUTO ? EV_DECODE_AUTO
                                          : EV_DECODE_CPU;
    /* NVDEC: two decoders a stream for a pair (its 4K pair 1.10x on the H100 host, its 1080p
     * pair as fast; three were slower), one for more inputs (a ladder has a stream for most
     * engines already); libavcodec's threads keep the cores busy on one stream (docs/INPUT.md) */
    o.decode_sessions = s->decode_sessions                              ? s->decode_sessions
                        : o.decode_on != EV_DECODE_CPU && s->n_dis == 1 ? 2
                                                                        : 1;
    EvVideoFormat target;
    if (ref) { /* a distorted: an encode is converted to the reference's format */
        ev_video_format(ref, &target);
        o.convert_to = &target;
    }
    if (ev_video_open_with(v, path, &o, err, sizeof(err)))
        return fprintf(stderr, "%s: %s\n", app, err), -1;
    return 0;
}

int cli_open_video(const CliSettings *s, const char *path, const EvVideo *ref, EvVideo **v,
                   const unsigned input)
{
    return open_video(s, path, ref, v, input, 0);
}

int cli_settle_decoders(const CliSettings *s, EvVideo **v, const char *const *path, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        const CliDecoder d = cli_decoder_of(s, i);
        if (d != CLI_DECODER_DEFAULT && d != CLI_DECODER_AUTO)
            return 0; /* as asked */
    }
    unsigned kept = 0;
    for (unsigned i = 0; i < n; i++)
        kept += ev_video_on_device(v[i]) != 0;
    if (!kept || kept == n)
        return 0;
    for (unsigned i = 0; i < n; i++) /* the reference first: the distorted convert to it */
        if (ev_video_on_device(v[i])) {
            ev_video_close(&v[i]);
            if (open_video(s, path[i], i ? v[0] : NULL, &v[i], i, 1))
                return -1;
        }
    return 0;
}

int cli_check_pair(const CliSettings *s, const char *ref_path, const EvVideo *ref,
                   const char *dis_path, const EvVideo *dis)
{
    EvVideoFormat a, b;
    ev_video_format(ref, &a);
    ev_video_format(dis, &b);
    if (s->common_bitdepth && a.bitdepth != b.bitdepth && a.width == b.width &&
        a.height == b.height && a.layout == b.layout) {
        /* Netflix f85a8536 reads the shallower file with the deeper one's sample size there
         * (it loses framing and crashes), so there is no result to match: refuse */
        fprintf(stderr,
                "%s: %s is %u-bit but %s is %u-bit: --aom_ctc v6.0 and later accept "
                "inputs of different bit depths in Netflix's CLI, but scoring them at a "
                "common depth is not supported; convert one input first\n",
                app, ref_path, a.bitdepth, dis_path, b.bitdepth);
        return -1;
    }
    if (a.width != b.width || a.height != b.height || a.bitdepth != b.bitdepth ||
        a.layout != b.layout) {
        fprintf(stderr, "%s: %s is %ux%u %u-bit %s but %s is %ux%u %u-bit %s\n", app, ref_path,
                a.width, a.height, a.bitdepth, ev_layout_name(a.layout), dis_path, b.width,
                b.height, b.bitdepth, ev_layout_name(b.layout));
        return -1;
    }
    if (!s->quiet)
        warn_tag_mismatch(ref_path, ref, dis_path, dis);
    return 0;
}

/* Frames the run will score, for progress: when both counts are known (regular files) or
 * estimated (an encode's container); -1 otherwise. */
long long cli_expected_frames(const CliSettings *s, const EvVideo *ref, const EvVideo *dis)
{
    unsigned long long a, b;
    if (ev_video_frame_estimate(ref, &a) || ev_video_frame_estimate(dis, &b))
        return -1;
    a = a > s->frame_skip_ref ? a - s->frame_skip_ref : 0;
    b = b > s->frame_skip_dist ? b - s->frame_skip_dist : 0;
    unsigned long long n = a < b ? a : b;
    if (s->frame_cnt && n > s->frame_cnt)
        n = s->frame_cnt;
    return (long long)n;
}

int cli_skip_frames(EvVideo *v, unsigned n, const char *path)
{
    const int err = ev_video_skip(v, n);
    if (err == -ENODATA)
        fprintf(stderr, "%s: %s: cannot skip %u frames: the stream ends first\n", app, path, n);
    else if (err)
        fprintf(stderr, "%s: %s\n", app, ev_video_error(v));
    return err;
}

/* Models first, then extractors: Netflix's registration order, hence its output order. Without
 * --model and -n, Netflix's default model. */
static int use_features(EvContext *ctx, const CliSettings *s)
{
    if (s->no_prediction && !s->n_features && !s->n_models)
        return fprintf(stderr,
                       "%s: nothing to compute: -n/--no_prediction without --feature "
                       "or --model (see --list_features)\n",
                       app),
               -1;
    if (!s->no_prediction && !s->n_models && ev_use_model(ctx, "version=vmaf_v0.6.1"))
        return -1;
    /* with -n a model still brings its features, unscored, as in Netflix's CLI */
    for (unsigned i = 0; i < s->n_models; i++)
        if ((s->no_prediction ? ev_use_model_features : ev_use_model)(ctx, s->model[i]))
            return -1; /* the logger said why */
    for (unsigned i = 0; i < s->n_features; i++)
        if (ev_use_feature(ctx, s->feature[i].name, s->feature[i].options))
            return -1; /* the logger said why */
    return 0;
}

int cli_open_context(const CliSettings *s, CliLogUser *log, EvContext **ctx)
{
    EvSettings es;
    ev_default_settings(&es);
    es.n_threads = s->threads;
    es.n_subsample = s->subsample;
    es.log = cli_log_line;
    es.log_user = log;
    es.log_level = s->quiet ? EV_LOG_ERROR : EV_LOG_WARNING; /* -q: no warnings */
    es.backend = s->backend;
    es.gpu_index = (int)s->gpu;
    es.cpu_mask = s->cpumask;
    if (ev_open(ctx, &es))
        return fprintf(stderr, "%s: cannot start: out of memory\n", app), -1;
    return use_features(*ctx, s);
}

/* "\r12/300 frames (4.0%), 25.31 fps, ETA 0:11" with a known total, else "\r12 frames, 25.31
 * fps"; spaces clear what a longer previous line left. */
void cli_show_progress(unsigned frames, long long total, double start, int final)
{
    const double dt = cli_now() - start;
    const double fps = dt > 0 ? frames / dt : 0.0;
    if (total > 0) {
        const double left = fps > 0 && total > frames ? (total - frames) / fps : 0.0;
        const unsigned secs = left > 359999 ? 359999 : (unsigned)(left + 0.5);
        char eta[32];
        if (secs >= 3600)
            snprintf(eta, sizeof(eta), "%u:%02u:%02u", secs / 3600, secs / 60 % 60, secs % 60);
        else
            snprintf(eta, sizeof(eta), "%u:%02u", secs / 60, secs % 60);
        fprintf(stderr, "\r%u/%lld frames (%.1f%%), %.2f fps, ETA %s   %s", frames, total,
                100.0 * frames / (double)total, fps, eta, final ? "\n" : "");
    } else {
        fprintf(stderr, "\r%u frames, %.2f fps   %s", frames, fps, final ? "\n" : "");
    }
    fflush(stderr);
}

/* Read one pair straight into a borrowed frame slot of the library (no copy). @return 1 a pair
 * was submitted, 0 a stream ended (with a warning if only one did), -1 on an error. */
int cli_write_results(const EvContext *ctx, const CliSettings *s, const CliOutput *out, double fps)
{
    EvOutputOptions o;
    ev_default_output_options(&o);
    o.format = s->format;
    o.precision = s->precision;
    o.fps = fps;
    o.pool = s->pool;
    o.n_pool = s->n_pool;
    char err[4400];
    if (cli_output_write(out, ctx, &o, err, sizeof(err)))
        return fprintf(stderr, "%s: %s\n", app, err), -1;
    return 0;
}

/* The value of key= in a --model spec (the last one wins, as in Netflix's parser), or def. */
const char *cli_spec_value(const char *spec, const char *key, char *buf, size_t size,
                           const char *def)
{
    const size_t klen = strlen(key);
    const char *found = def;
    for (const char *p = spec; p && *p;) {
        const char *end = strchr(p, ':');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > klen && !strncmp(p, key, klen) && p[klen] == '=') {
            snprintf(buf, size, "%.*s", (int)(len - klen - 1), p + klen + 1);
            found = buf;
        }
        p = end ? end + 1 : NULL;
    }
    return found;
}

/* --pool's statistics of a model's score on one line: "<label>: p1 90.1, low1 89.2". */
static void print_pool_stats(FILE *f, const EvContext *ctx, const CliSettings *s,
                             const char *prefix, const char *label, const char *name)
{
    if (!s->n_pool)
        return;
    fprintf(f, "%s%s:", prefix, label);
    for (unsigned k = 0; k < s->n_pool; k++) {
        char stat[32];
        double v;
        ev_pool_stat_name(s->pool[k], stat, sizeof(stat));
        if (!ev_get_pooled_stat(ctx, name, s->pool[k], &v))
            fprintf(f, "%s %s %f", k ? "," : "", stat, v);
    }
    fputs("\n", f);
}

/* Netflix prints each model's pooled mean on a terminal, "<version or path>: <mean>", then a
 * line per bootstrap collection with its confidence interval and spread. */
static void print_model_scores(FILE *f, const EvContext *ctx, const CliSettings *s,
                               const char *prefix)
{
    const unsigned n = s->n_models ? s->n_models : 1;
    for (int pass = 0; pass < 2; pass++)
        for (unsigned i = 0; i < n; i++) {
            const char *spec = s->n_models ? s->model[i] : "version=vmaf_v0.6.1";
            char label[1024], name[256], key[300];
            const char *lab = cli_spec_value(spec, "version", label, sizeof(label), NULL);
            lab = lab ? lab : cli_spec_value(spec, "path", label, sizeof(label), "?");
            const char *nm = cli_spec_value(spec, "name", name, sizeof(name), "vmaf");
            double v[4];
            static const char *const stat[4] = { "_bagging", "_ci_p95_lo", "_ci_p95_hi",
                                                 "_stddev" };
            int have = 1;
            for (unsigned k = 0; k < 4 && have; k++) {
                snprintf(key, sizeof(key), "%s%s", nm, stat[k]);
                have = !ev_get_pooled(ctx, key, EV_POOL_MEAN, &v[k]);
            }
            if (pass == 1 && have)
                fprintf(f, "%s%s: %f, ci.p95: [%f, %f], stddev: %f\n", prefix, lab, v[0], v[1],
                        v[2], v[3]);
            else if (pass == 0 && !ev_get_pooled(ctx, nm, EV_POOL_MEAN, &v[0])) {
                fprintf(f, "%s%s: %f\n", prefix, lab, v[0]);
                print_pool_stats(f, ctx, s, prefix, lab, nm);
            }
        }
}

void cli_report_scores(const EvContext *ctx, const CliSettings *s, const char *prefix)
{
    if (s->no_prediction)
        return;
    if (!s->out_path)
        print_model_scores(stdout, ctx, s, prefix);
    else if (!s->quiet && isatty(STDERR_FILENO))
        print_model_scores(stderr, ctx, s, prefix);
}
