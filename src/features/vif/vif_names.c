/* Output names and per-frame writer of vif and float_vif (see vif_names.h). */
#include <errno.h>
#include <stdio.h>

#include "features/vif/vif_names.h"

enum { NAME_SCORE = 0, NAME_TOTAL = 4, NAME_NUM = 5, NAME_DEN = 6, NAME_SCALE_NUM = 7 };

void vif_names_init(VifNames *n, const char *prefix, const EvExtractorClass *cls, const void *opts)
{
    char base[VIF_NAME_LEN];
    for (int k = 0; k < 4; k++) {
        snprintf(base, sizeof(base), "%s_scale%d", prefix, k);
        ev_options_feature_name(n->name[NAME_SCORE + k], VIF_NAME_LEN, base, cls, opts);
        snprintf(base, sizeof(base), "%s_num_scale%d", prefix, k);
        ev_options_feature_name(n->name[NAME_SCALE_NUM + 2 * k], VIF_NAME_LEN, base, cls, opts);
        snprintf(base, sizeof(base), "%s_den_scale%d", prefix, k);
        ev_options_feature_name(n->name[NAME_SCALE_NUM + 2 * k + 1], VIF_NAME_LEN, base, cls, opts);
    }
    ev_options_feature_name(n->name[NAME_TOTAL], VIF_NAME_LEN, prefix, cls, opts);
    snprintf(base, sizeof(base), "%s_num", prefix);
    ev_options_feature_name(n->name[NAME_NUM], VIF_NAME_LEN, base, cls, opts);
    snprintf(base, sizeof(base), "%s_den", prefix);
    ev_options_feature_name(n->name[NAME_DEN], VIF_NAME_LEN, base, cls, opts);
}

static int put_debug(EvSink *sink, const unsigned frame, const VifNames *n, const VifScaleScores *v)
{
    double num = 0.0, den = 0.0;
    for (int k = v->skip_scale0 ? 1 : 0; k < 4; k++) {
        num += v->num[k];
        den += v->den[k];
    }
    int err = ev_sink_put(sink, n->name[NAME_TOTAL], frame, den == 0.0 ? 1.0 : num / den);
    err |= ev_sink_put(sink, n->name[NAME_NUM], frame, num);
    err |= ev_sink_put(sink, n->name[NAME_DEN], frame, den);
    for (int k = 0; k < 4; k++) {
        const int skipped = k == 0 && v->skip_scale0;
        err |= ev_sink_put(sink, n->name[NAME_SCALE_NUM + 2 * k], frame,
                           skipped ? 0.0 : (double)v->num[k]);
        err |= ev_sink_put(sink, n->name[NAME_SCALE_NUM + 2 * k + 1], frame,
                           skipped ? -1.0 : (double)v->den[k]);
    }
    return err;
}

int vif_put_scores(EvSink *sink, const unsigned frame, const VifNames *n, const VifScaleScores *v,
                   const int debug)
{
    int err = 0;
    for (int k = 0; k < 4; k++)
        err |= ev_sink_put(sink, n->name[NAME_SCORE + k], frame, v->score[k]);
    if (!err && debug)
        err = put_debug(sink, frame, n, v);
    return err ? -ENOMEM : 0;
}
