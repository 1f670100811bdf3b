/* Every pooled statistic of a feature vector (exactvmaf.h EvPoolStat): Netflix's four through
 * model/pool.c, percentiles and lows through stats/percentile.c, over the frames Netflix pools
 * (0, step, 2 step... below n_frames). Used by the layouts and by ev_get_pooled_stat. */
#ifndef EV_OUTPUT_OUTPUT_POOL_H
#define EV_OUTPUT_OUTPUT_POOL_H

#include <stddef.h>

#include "core/collector.h"

/* 1 when the method is known and the level fits it (percentile 0..100, low (0, 100]). */
int ev_pool_stat_valid(EvPoolStat st);

/* @return 0, -ENODATA (no frame, or a frame lacks f), -EINVAL (not valid), -ENOMEM. */
int ev_pool_stat(const EvFeatureVec *f, unsigned n_frames, unsigned step, EvPoolStat st,
                 double *out);

/* The statistic's name in the layouts ("mean", "p5", "low1"; "" when not valid), as snprintf. */
int ev_pool_stat_format(EvPoolStat st, char *buf, size_t size);

#endif
