/*
 * Many encodes against one reference: exactvmaf -r REF -d A -d B ... reads the reference once
 * and scores every distorted against it, each in its own context (ev_send_pictures_multi), so
 * every result is the bits a run of REF against that distorted alone gives.
 *
 * Outputs, one per distorted, named from NAME, the distorted's file name without its folder and
 * its last extension ("enc/a.mp4.y4m": "a.mp4"; standard input: "stdin"):
 *  - -o containing "{}": a pattern, every "{}" replaced by NAME ("out/{}_vmaf.json"), also
 *    with a single -d (which is then scored here);
 *  - else, with several -d, -o an existing folder, or a path ending in "/": FOLDER/NAME.xml
 *    (.json, .csv, .sub after the layout flag; with one -d a folder stays refused);
 *  - anything else (a plain file, "-") is refused: it cannot hold several results.
 * Two distorted whose outputs would be the same path are refused, and every output is checked
 * as a single run checks its one (not an input, folder there, writable) before any input is
 * read.
 *
 * Frames: each distorted is scored on the frames a run of its own would score: the reference's
 * frames while both last (a distorted that ends first stops there, with a warning naming it),
 * within --frame_skip_ref/--frame_skip_dist (the same skip for every distorted) and
 * --frame_cnt. --threads applies to each distorted's context (results never depend on it).
 */
#ifndef EV_TOOLS_CLI_MULTI_H
#define EV_TOOLS_CLI_MULTI_H

#include "cli_args.h"
#include "cli_output.h"

/* The output path of each distorted into paths[i] (PATH_SIZE bytes each), before anything is
 * read; -1 with one line in err for an -o that cannot hold several results or two distorted
 * with the same output. Without -o, every paths[i] is "". */
#define CLI_MULTI_PATH_SIZE 4096
int cli_multi_output_paths(const CliSettings *s, char (*paths)[CLI_MULTI_PATH_SIZE], char *err,
                           size_t err_size);

/* The whole run; the exit status (0 or 1). */
int cli_run_multi(const CliSettings *s);

#endif
