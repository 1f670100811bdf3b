/*
 * exactvmaf bdrate ANCHOR TEST [--metric NAME]: the Bjøntegaard delta rate and delta score of the
 * TEST ladder against the ANCHOR ladder (ev_bd_rate, exactvmaf/stats.h; docs/REPORTS.md).
 *
 * A ladder is a text file, one point a line: a bitrate (any unit, the same in both ladders),
 * then either the score or an exactvmaf (or Netflix vmaf) JSON output whose pooled mean of the
 * metric (default "vmaf") is the score; a relative path is taken from the ladder's folder.
 * Blank lines and lines starting with '#' are skipped; anything after the second field is
 * ignored. Prints "BD-rate: X%" and "BD-score: Y" (%.17g) on standard output.
 */
#ifndef EV_TOOLS_CLI_BDRATE_H
#define EV_TOOLS_CLI_BDRATE_H

/* argv[0] is "bdrate". @return the exit status (0; 1 with one line on stderr). */
int cli_bdrate_main(int argc, char **argv);

#endif
