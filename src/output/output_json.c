/*
 * Netflix vmaf's JSON layout (vmaf_write_output_json), quirks included:
 *  - a non-finite value is null, and a null per-frame metric line has no newline after it;
 *  - a frame i > 0 is preceded by ",\n" even when no frame was printed before it;
 *  - "fps" is null when not finite.
 */
#include <math.h>
#include <string.h>

#include "output/output_layouts.h"
#include "output/output_pool.h"

static void json_metric(const EvOut *const o, const char *const name, const double x,
                        const int last)
{
    const char *const comma = last ? "" : ",";
    fprintf(o->f, "        \"%s\": ", name);
    if (isfinite(x)) {
        ev_out_number(o, x);
        fprintf(o->f, "%s\n", comma);
    } else {
        fprintf(o->f, "null%s", comma);
    }
}

static void json_frame(const EvOut *const o, const unsigned i, const unsigned n_values)
{
    fputs(i > 0 ? ",\n" : "\n", o->f);
    fputs("    {\n", o->f);
    fprintf(o->f, "      \"frameNum\": %u,\n", i);
    fputs("      \"metrics\": {\n", o->f);
    unsigned k = 0;
    for (unsigned j = 0; j < o->col->n_feat; j++) {
        const EvFeatureVec *const fv = &o->col->feat[j];
        if (!ev_out_written(fv, i))
            continue;
        k++;
        json_metric(o, fv->name, fv->value[i], k == n_values);
    }
    fputs("      }\n", o->f);
    fputs("    }", o->f);
}

static void json_frames(const EvOut *const o)
{
    fputs("  \"frames\": [", o->f);
    for (unsigned i = 0; i < o->n_rows; i++) {
        const unsigned n_values = ev_out_frame_values(o, i);
        if (n_values)
            json_frame(o, i, n_values);
    }
    fputs("\n  ],\n", o->f);
}

/* A pooling method that fails is left out; the separator depends on the method, not on what
 * was printed before it, as in Netflix's writer. */
static void json_pooled(const EvOut *const o)
{
    fputs("  \"pooled_metrics\": {", o->f);
    for (unsigned j = 0; j < o->col->n_feat; j++) {
        const EvFeatureVec *const fv = &o->col->feat[j];
        fputs(j > 0 ? ",\n" : "\n", o->f);
        fprintf(o->f, "    \"%s\": {", fv->name);
        for (EvPoolMethod m = EV_POOL_MIN; m <= EV_POOL_HARMONIC_MEAN; m++) {
            double v;
            if (ev_pool(fv, o->n_frames, o->step, m, &v))
                continue;
            fputs(m > EV_POOL_MIN ? ",\n" : "\n", o->f);
            fprintf(o->f, "      \"%s\": ", ev_out_pool_name[m]);
            ev_out_json_number(o, v);
        }
        for (unsigned k = 0; k < o->n_pool; k++) {
            double v;
            char name[64];
            ev_pool_stat_format(o->pool[k], name, sizeof(name));
            if (ev_pool_stat(fv, o->n_frames, o->step, o->pool[k], &v))
                continue;
            fprintf(o->f, ",\n      \"%s\": ", name);
            ev_out_json_number(o, v);
        }
        fputs("\n    }", o->f);
    }
    fputs("\n  },\n", o->f);
}

static void json_aggregates(const EvOut *const o)
{
    fputs("  \"aggregate_metrics\": {", o->f);
    for (unsigned i = 0; i < o->col->n_agg; i++) {
        fprintf(o->f, "\n    \"%s\": ", o->col->agg[i].name);
        ev_out_json_number(o, o->col->agg[i].value);
        fputs(i + 1 < o->col->n_agg ? "," : "", o->f);
    }
    fputs("\n  }\n", o->f);
}

/* exactvmaf's addition: which backend computed each feature, written only when a CUDA twin
 * did (a CPU run keeps Netflix's layout byte for byte). */
static void json_backends(const EvOut *o)
{
    if (strcmp(o->backend, "cuda"))
        return;
    fputs("  \"backends\": {", o->f);
    for (unsigned j = 0; j < o->col->n_feat; j++)
        fprintf(o->f, "%s\n    \"%s\": \"%s\"", j ? "," : "", o->col->feat[j].name, o->backend);
    fputs("\n  },\n", o->f);
}

void ev_write_json(const EvOut *const o)
{
    fputs("{\n", o->f);
    fprintf(o->f, "  \"version\": \"%s\",\n", o->version);
    if (isfinite(o->fps))
        fprintf(o->f, "  \"fps\": %.2f,\n", o->fps);
    else
        fputs("  \"fps\": null,\n", o->f);
    json_backends(o);
    json_frames(o);
    json_pooled(o);
    json_aggregates(o);
    fputs("}\n", o->f);
}
