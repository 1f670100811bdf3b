/* The CLI's discoverability: --list_features, --list_models, --version. Everything printed is
 * read from the library (its extractor option tables, built-in models, build), not written
 * here, so a new extractor or model appears without a change to the CLI. */
#ifndef EV_TOOLS_CLI_INFO_H
#define EV_TOOLS_CLI_INFO_H

#include <stdio.h>

void cli_list_features(FILE *f);
void cli_list_models(FILE *f);
void cli_version(FILE *f, const char *app);

#endif
