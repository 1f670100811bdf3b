/*
 * Netflix vmaf's line-per-frame layouts (vmaf_write_output_csv, vmaf_write_output_sub): only
 * per-frame values. A value a frame lacks is left out, not left empty, so CSV columns can shift;
 * every field, the last included, is followed by its separator.
 *
 * exactvmaf's --pool adds a pooled part after the frames (docs/REPORTS.md), one line per
 * statistic, Netflix's four first: in CSV a row whose first field is the statistic's name, a
 * statistic a feature lacks left empty (so the columns stay the header's); in SUB a line
 * {N}{N+1}pooled: NAME|feature: value|... with N the frame count.
 */
#include "output/output_layouts.h"
#include "output/output_pool.h"

/* The statistics of the pooled part: Netflix's four, then --pool's. */
static unsigned pooled_rows(const EvOut *o)
{
    return o->n_pool ? EV_POOL_HARMONIC_MEAN + o->n_pool : 0;
}

static EvPoolStat pooled_row(const EvOut *o, unsigned r)
{
    if (r < EV_POOL_HARMONIC_MEAN)
        return (EvPoolStat){ (EvPoolMethod)(EV_POOL_MIN + r), 0.0 };
    return o->pool[r - EV_POOL_HARMONIC_MEAN];
}

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
    for (unsigned r = 0; r < pooled_rows(o); r++) {
        char name[64];
        ev_pool_stat_format(pooled_row(o, r), name, sizeof(name));
        fprintf(o->f, "%s,", name);
        for (unsigned j = 0; j < o->col->n_feat; j++) {
            double v;
            if (!ev_pool_stat(&o->col->feat[j], o->n_frames, o->step, pooled_row(o, r), &v))
                ev_out_number(o, v);
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
    for (unsigned r = 0; r < pooled_rows(o); r++) {
        char name[64];
        ev_pool_stat_format(pooled_row(o, r), name, sizeof(name));
        fprintf(o->f, "{%u}{%u}pooled: %s|", o->n_frames, o->n_frames + 1, name);
        for (unsigned j = 0; j < o->col->n_feat; j++) {
            double v;
            if (ev_pool_stat(&o->col->feat[j], o->n_frames, o->step, pooled_row(o, r), &v))
                continue;
            fprintf(o->f, "%s: ", o->col->feat[j].name);
            ev_out_number(o, v);
            fputs("|", o->f);
        }
        fputs("\n", o->f);
    }
}
