/* Output names and the per-frame writer shared by vif and float_vif: four per-scale scores,
 * then (debug) the totals and each scale's numerator and denominator, in libvmaf's order. */
#ifndef EV_FEATURES_VIF_NAMES_H
#define EV_FEATURES_VIF_NAMES_H

#include "base/extractor.h"

enum { VIF_N_OUTPUTS = 15, VIF_NAME_LEN = 256 };

/* Printed names, with libvmaf's suffixes for non-default options: <p>_scale0..3, <p>,
 * <p>_num, <p>_den, then <p>_num_scaleK and <p>_den_scaleK for K = 0..3. */
typedef struct VifNames {
    char name[VIF_N_OUTPUTS][VIF_NAME_LEN];
} VifNames;

/* One frame's results. score[] holds the per-scale outputs as each extractor forms them. */
typedef struct VifScaleScores {
    double score[4];
    float num[4], den[4];
    int skip_scale0; /* scale 0 not computed: num/den debug outputs 0 and -1 */
} VifScaleScores;

void vif_names_init(VifNames *n, const char *prefix, const EvExtractorClass *cls, const void *opts);

/* Write the four scores, then with debug the totals (sum over the computed scales in scale
 * order, in double; 1.0 when the denominator is 0) and the per-scale num/den. */
int vif_put_scores(EvSink *sink, unsigned frame, const VifNames *n, const VifScaleScores *v,
                   int debug);

#endif
