/*
 * Netflix vmaf's line-per-frame layouts (vmaf_write_output_csv, vmaf_write_output_sub): only
 * per-frame values. A value a frame lacks is left out, not left empty, so CSV columns can shift;
 * every field, the last included, is followed by its separator.
 */
#include "output/output_layouts.h"

void ev_write_csv(const EvOut *const o)
{
    fputs("Frame,", o->f);
    for (unsigned j = 0; j < o->col->n_feat; j++)
        fprintf(o->f, "%s,", o->col->feat[j].name);
    fputs("\n", o->f);
    for (unsigned i = 0; i < o->n_rows; i++) {
        if (!ev_out_frame_values(o, i))
            continue;
        fprintf(o->f, "%u,", i);
        for (unsigned j = 0; j < o->col->n_feat; j++) {
            const EvFeatureVec *const fv = &o->col->feat[j];
            if (!ev_out_written(fv, i))
                continue;
            ev_out_number(o, fv->value[i]);
            fputs(",", o->f);
        }
        fputs("\n", o->f);
    }
}

void ev_write_sub(const EvOut *const o)
{
    for (unsigned i = 0; i < o->n_rows; i++) {
        if (!ev_out_frame_values(o, i))
            continue;
        fprintf(o->f, "{%u}{%u}frame: %u|", i, i + 1, i);
        for (unsigned j = 0; j < o->col->n_feat; j++) {
            const EvFeatureVec *const fv = &o->col->feat[j];
            if (!ev_out_written(fv, i))
                continue;
            fprintf(o->f, "%s: ", fv->name);
            ev_out_number(o, fv->value[i]);
            fputs("|", o->f);
        }
        fputs("\n", o->f);
    }
}
