/*
 * The charts of --plot and --report as SVG 1.1, written by hand (no library): the per-frame
 * scores, one line per distorted with the scene cuts as dashed lines, and the rate-quality curve
 * (pooled mean against bitrate). The same markup is the --plot file and the report's inline
 * figures; element classes (line-N, cut, point) let tests and style sheets find the parts.
 */
#ifndef EV_TOOLS_CLI_SVG_H
#define EV_TOOLS_CLI_SVG_H

#include <stdio.h>

#include "cli_series.h"

/* The colour of series i (a ten-colour palette, repeating). */
const char *cli_svg_color(unsigned i);

/* text with &, <, >, " and ' as XML entities. */
void cli_xml_text(FILE *f, const char *text);

/* One chart; document = 1 writes the XML declaration first (a file of its own). */
void cli_svg_frames(FILE *f, const CliSeriesSet *set, int document);
void cli_svg_rate_quality(FILE *f, const CliSeriesSet *set, int document);

#endif
