/* The CLI's output file: checked before anything is read or scored, written atomically after. */
#ifndef EV_TOOLS_CLI_OUTPUT_H
#define EV_TOOLS_CLI_OUTPUT_H

#include <stdio.h>
#include <sys/types.h>

#include "cli_args.h"

typedef struct CliOutput {
    const char *path; /* as the user gave it; "-" is standard output */
    int direct;       /* write in place: stdout, a device, a pipe, a link, or a folder that
                           takes no temporary file */
    int exists;       /* a regular file is there: the replacement keeps its mode */
    mode_t mode;
} CliOutput;

/* Check -o before any input is opened: not one of the inputs (also through stdin), its folder
 * exists, and it can be written as fopen(path, "w") would. On a problem, writes one line to
 * err naming the user's path and returns -1. */
int cli_output_check(const CliSettings *s, CliOutput *o, char *err, size_t err_size);

/* The same for one output path of several (cli_multi.h); path is kept in o, not copied. */
int cli_output_check_path(const CliSettings *s, const char *path, CliOutput *o, char *err,
                          size_t err_size);

/* Write the results: through a temporary file beside the target, renamed over it (a failed
 * run leaves no partial file, an existing file keeps its mode). @return 0, or -1 with one line
 * in err. */
int cli_output_write(const CliOutput *o, const EvContext *ctx, const EvOutputOptions *opts,
                     char *err, size_t err_size);

/* The name the outputs of a distorted are named after, into name: its file name without the
 * folder and the last extension ("enc/a.mp4.y4m": "a.mp4"; standard input "-": "stdin"). Also
 * the distorted's label on the --plot and --report pages. */
void cli_output_base_name(const char *dis_path, char *name, size_t size);

/* The same for any writer (the --plot and --report pages): write(f, user) returns 0, or not 0
 * on a failure. */
int cli_output_write_with(const CliOutput *o, int (*write)(FILE *f, void *user), void *user,
                          char *err, size_t err_size);

#endif
