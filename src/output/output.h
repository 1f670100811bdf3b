/*
 * The writers of Netflix vmaf's output layouts (reference: libvmaf/src/output.c). Each prints
 * the collector of a flushed run (output_xml.c, output_json.c, output_text.c) with the helpers
 * of output_common.c; output.c dispatches. They never fail: the caller (src/api/output.c)
 * validates first and reports the stream's write errors.
 */
#ifndef EV_OUTPUT_OUTPUT_H
#define EV_OUTPUT_OUTPUT_H

#include "output/output_common.h"

/* Print the results in one layout (output.c). */
void ev_output_write(EvOut *o, EvOutputFormat format);

#endif
