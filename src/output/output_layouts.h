/* The four layouts, each in its own file (output_xml.c, output_json.c, output_text.c). */
#ifndef EV_OUTPUT_OUTPUT_LAYOUTS_H
#define EV_OUTPUT_OUTPUT_LAYOUTS_H

#include "output/output_common.h"

void ev_write_xml(const EvOut *o);
void ev_write_json(const EvOut *o);
void ev_write_csv(const EvOut *o);
void ev_write_sub(const EvOut *o);

#endif
