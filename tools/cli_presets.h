/* The --aom_ctc and --nflx_ctc presets of Netflix's vmaf CLI (f85a8536): fixed sets of models
 * and extractors appended to the settings where the flag stands among --model and --feature. */
#ifndef EV_TOOLS_CLI_PRESETS_H
#define EV_TOOLS_CLI_PRESETS_H

#include <stddef.h>

#include "cli_settings.h"

typedef enum CliPresetFamily { CLI_PRESET_AOM_CTC, CLI_PRESET_NFLX_CTC } CliPresetFamily;

/* Apply preset VERSION ("v1.0", ...) of FAMILY to s. On an unknown or deprecated version, or
 * when the lists would overflow, writes one line to err and returns -1. */
int cli_apply_preset(CliSettings *s, CliPresetFamily family, const char *version, char *err,
                     size_t err_size);

/* "v1.0, v2.0, ..." for --help. */
const char *cli_preset_versions(CliPresetFamily family);

#endif
