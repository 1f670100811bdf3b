/* The steps of one scoring run (tools/cli_run.c), shared by the single-distorted run and the
 * one-reference, many-distorted run (cli_multi.c). Each prints its own one-line message on a
 * problem and returns -1. */
#ifndef EV_TOOLS_CLI_RUN_H
#define EV_TOOLS_CLI_RUN_H

#include "cli_args.h"
#include "cli_output.h"
#include "exactvmaf/exactvmaf.h"
#include "exactvmaf/video.h"

/* What the logger knows of one context: its two files, and whether it said an error yet. */
typedef struct CliLogUser {
    const char *ref_path, *dis_path;
    int said_error;
} CliLogUser;
/* The library's logger: "exactvmaf: [warning: ]line" on stderr. user: a CliLogUser or NULL.
 * An error line that names the distorted or the reference picture is prefixed with that
 * file's path; the engine's "NAME: failed at frame N (...)" after an extractor's own error
 * line says nothing more, and is left out: one message per problem. */
void cli_log_line(void *user, EvLogLevel level, const char *line);
/* Monotonic seconds. */
double cli_now(void);

/* Open an input (the raw flags of s; a y4m is recognised by its magic); ref != NULL: a
 * distorted, an encode converted to ref's format (--scaler).
 * input: 0 the reference, k the k-th -d (its --decoder word). */
int cli_open_video(const CliSettings *s, const char *path, const EvVideo *ref, EvVideo **v,
                   unsigned input);
/* The --decoder word of an input (0 the reference, k the k-th -d). */
CliDecoder cli_decoder_of(const CliSettings *s, unsigned input);
/* The automatic decoder (--decoder auto, or the default) keeps the frames of every input on the
 * device or of none: a pair lent to the twins is on the device or on the host, and NVDEC's
 * frames copied to the host come slower than libavcodec's threads. So where some of v[0..n)
 * (the reference, then the distorted) are on the device and some not, those are reopened on
 * the CPU. @return 0, or -1 (said why). */
int cli_settle_decoders(const CliSettings *s, EvVideo **v, const char *const *path, unsigned n);
/* The distorted must have the reference's geometry; warns (unless -q) on y4m tag mismatches. */
int cli_check_pair(const CliSettings *s, const char *ref_path, const EvVideo *ref,
                   const char *dis_path, const EvVideo *dis);
/* A context with s's settings, its models and features added (Netflix's order); log: its
 * logger's CliLogUser (the paths it names), which must outlive the context. */
int cli_open_context(const CliSettings *s, CliLogUser *log, EvContext **ctx);
/* Skip the first n frames of v (--frame_skip_*). */
int cli_skip_frames(EvVideo *v, unsigned n, const char *path);
/* Frames a run of ref against dis will score, when both counts are known; -1 otherwise. */
long long cli_expected_frames(const CliSettings *s, const EvVideo *ref, const EvVideo *dis);
/* The progress line on stderr (final: with its newline). */
void cli_show_progress(unsigned frames, long long total, double start, int final);
/* Each model's pooled mean ("<version or path>: <mean>", then a line per bootstrap collection),
 * every line starting with prefix: on stdout when there is no -o, whatever stdout is (a file,
 * a pipe); with -o, on stderr when it is a terminal and not -q (as Netflix's CLI); never with
 * -n. */
void cli_report_scores(const EvContext *ctx, const CliSettings *s, const char *prefix);
/* The value of key= in a --model spec (the last one wins, as in Netflix's parser), into buf, or
 * def when the spec has none. */
const char *cli_spec_value(const char *spec, const char *key, char *buf, size_t size,
                           const char *def);
/* Write the results to out in s's layout and precision. */
int cli_write_results(const EvContext *ctx, const CliSettings *s, const CliOutput *out, double fps);

#endif
