/* One run's results in the chosen layout (output.h). */
#include "output/output.h"
#include "output/output_layouts.h"

/* Writes exist only below n_frames; looping to the longest vector is Netflix's bound and
 * prints exactly what the collector holds. */
static unsigned longest_vector(const EvCollector *const col)
{
    unsigned n = 0;
    for (unsigned j = 0; j < col->n_feat; j++)
        if (col->feat[j].cap > n)
            n = col->feat[j].cap;
    return n;
}

void ev_output_write(EvOut *const o, const EvOutputFormat format)
{
    o->n_rows = longest_vector(o->col);
    switch (format) {
    case EV_OUTPUT_XML: ev_write_xml(o); break;
    case EV_OUTPUT_JSON: ev_write_json(o); break;
    case EV_OUTPUT_CSV: ev_write_csv(o); break;
    case EV_OUTPUT_SUB: ev_write_sub(o); break;
    }
}
