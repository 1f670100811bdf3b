/* Pooling a feature over the frames, as libvmaf's vmaf_feature_score_pooled. */
#ifndef EV_MODEL_POOL_H
#define EV_MODEL_POOL_H

#include "core/collector.h"

/* Pool f over frames 0, step, 2 step... below n_frames: running double sums in frame order; the
 * harmonic mean is n / sum(1 / (x + 1)) - 1; min and max start from frame 0.
 * @return 0, -ENODATA (no frame, or a frame lacks f), -EINVAL (unknown method). */
int ev_pool(const EvFeatureVec *f, unsigned n_frames, unsigned step, EvPoolMethod m, double *out);

#endif
