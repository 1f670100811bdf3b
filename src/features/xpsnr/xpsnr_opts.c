/* xpsnr's options (xpsnr_opts.h). ffmpeg's filter takes the frame rate from its input stream;
 * its stats_file is left to the caller (the library writes no files). */
#include <stddef.h>

#include "features/xpsnr/xpsnr_opts.h"

const EvOption ev_xpsnr_options[] = {
    { "frame_rate", NULL,
      "frames per second of the input, as ffmpeg's stream has it: its integer part below 32 "
      "takes the first-order temporal difference, from 32 the second-order one",
      EV_OPT_DOUBLE, offsetof(XpsnrOpts, frame_rate), 25.0, 0.0, 1e6, 0 },
    { 0 },
};
