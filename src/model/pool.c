/* Pooling (pool.h). */
#include <errno.h>

#include "model/pool.h"

int ev_pool(const EvFeatureVec *const f, const unsigned n_frames, const unsigned step,
            const EvPoolMethod m, double *const out)
{
    if (!n_frames)
        return -ENODATA;
    unsigned cnt = 0;
    double sum = 0.0, inv_sum = 0.0, lo = 0.0, hi = 0.0;
    for (unsigned i = 0; i < n_frames; i += step) {
        if (i >= f->cap || !f->written[i])
            return -ENODATA;
        const double s = f->value[i];
        cnt++;
        sum += s;
        inv_sum += 1.0 / (s + 1.0);
        if (i == 0 || s < lo)
            lo = s;
        if (i == 0 || s > hi)
            hi = s;
    }
    switch (m) {
    case EV_POOL_MEAN: *out = sum / cnt; return 0;
    case EV_POOL_MIN: *out = lo; return 0;
    case EV_POOL_MAX: *out = hi; return 0;
    case EV_POOL_HARMONIC_MEAN: *out = cnt / inv_sum - 1.0; return 0;
    case EV_POOL_PERCENTILE:
    case EV_POOL_LOW: break; /* need a level: output/output_pool.c */
    }
    return -EINVAL;
}
