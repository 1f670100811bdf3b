/* Netflix vmaf's XML layout (vmaf_write_output_xml): every attribute is followed by a space. */
#include "output/output_layouts.h"
#include "output/output_pool.h"

static void xml_attr(const EvOut *const o, const char *const name, const double x)
{
    fprintf(o->f, "%s=\"", name);
    ev_out_number(o, x);
    fputs("\" ", o->f);
}

static void xml_frames(const EvOut *const o)
{
    fputs("  <frames>\n", o->f);
    for (unsigned i = 0; i < o->n_rows; i++) {
        if (!ev_out_frame_values(o, i))
            continue;
        fprintf(o->f, "    <frame frameNum=\"%u\" ", i);
        for (unsigned j = 0; j < o->col->n_feat; j++) {
            const EvFeatureVec *const fv = &o->col->feat[j];
            if (ev_out_written(fv, i))
                xml_attr(o, fv->name, fv->value[i]);
        }
        fputs("/>\n", o->f);
    }
    fputs("  </frames>\n", o->f);
}

/* A pooling method that fails (a frame lacks the feature) is left out, as Netflix does. */
static void xml_pooled(const EvOut *const o)
{
    fputs("  <pooled_metrics>\n", o->f);
    for (unsigned j = 0; j < o->col->n_feat; j++) {
        const EvFeatureVec *const fv = &o->col->feat[j];
        fprintf(o->f, "    <metric name=\"%s\" ", fv->name);
        for (EvPoolMethod m = EV_POOL_MIN; m <= EV_POOL_HARMONIC_MEAN; m++) {
            double v;
            if (!ev_pool(fv, o->n_frames, o->step, m, &v))
                xml_attr(o, ev_out_pool_name[m], v);
        }
        for (unsigned k = 0; k < o->n_pool; k++) {
            double v;
            char name[64];
            ev_pool_stat_format(o->pool[k], name, sizeof(name));
            if (!ev_pool_stat(fv, o->n_frames, o->step, o->pool[k], &v))
                xml_attr(o, name, v);
        }
        fputs("/>\n", o->f);
    }
    fputs("  </pooled_metrics>\n", o->f);
}

void ev_write_xml(const EvOut *const o)
{
    fprintf(o->f, "<VMAF version=\"%s\">\n", o->version);
    fprintf(o->f, "  <params qualityWidth=\"%u\" qualityHeight=\"%u\" />\n", o->width, o->height);
    fprintf(o->f, "  <fyi fps=\"%.2f\" />\n", o->fps);
    xml_frames(o);
    xml_pooled(o);
    fputs("  <aggregate_metrics ", o->f);
    for (unsigned i = 0; i < o->col->n_agg; i++)
        xml_attr(o, o->col->agg[i].name, o->col->agg[i].value);
    fputs("/>\n", o->f);
    fputs("</VMAF>\n", o->f);
}
