/*
 * --plot FILE.svg and --report FILE.html (docs/REPORTS.md): after every distorted is scored,
 * the series are gathered (cli_series.h) and each page is written as -o is, through a temporary
 * file renamed over the target. The report is one self-contained HTML page that fetches nothing:
 * the pooled table (sortable by any column, by an inline script), the per-frame curves, the
 * lows with each distorted's worst frames, the bitrates and the rate-quality curve (cli_svg.h).
 */
#ifndef EV_TOOLS_CLI_REPORT_H
#define EV_TOOLS_CLI_REPORT_H

#include "cli_output.h"
#include "cli_settings.h"

/* The worst frames a report lists for each distorted. */
#define CLI_REPORT_WORST 5

/* Check --plot and --report as -o is checked (before any input is read). @return 0, or -1
 * with one line in err. */
int cli_pages_check(const CliSettings *s, CliOutput *plot, CliOutput *report, char *err,
                    size_t err_size);

/* Write the pages s asks for, from ctx[0..n-1] (flushed; paths[i] is ctx[i]'s distorted).
 * @return 0, or -1 after printing one line. */
int cli_pages_write(const CliSettings *s, EvContext *const *ctx, const char *const *paths,
                    unsigned n, const CliOutput *plot, const CliOutput *report);

#endif
