/* Parsing the command line into CliSettings (cli_settings.h). */
#ifndef EV_TOOLS_CLI_ARGS_H
#define EV_TOOLS_CLI_ARGS_H

#include <stdio.h>

#include "cli_settings.h"

/* Parse argv. On a bad argument, writes one line to err and returns -1. */
int cli_parse(int argc, char **argv, CliSettings *s, char *err, size_t err_size);
void cli_usage(FILE *f, const char *app);

#endif
