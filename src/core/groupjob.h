/*
 * Group jobs of a many-encodes group (core/refshare.h): one context scores a frame for every
 * member of the group, so that an extractor whose work has a reference-only part (vif's
 * filtered reference, its decimation) does that part once per frame instead of once per encode.
 *
 * The engine registers each member's distorted picture of a frame before any member's frame
 * is dispatched (ev_group_join), and withdraws it before the slot holding it is reused
 * (ev_group_leave: waits while a job reads it). An extractor that finds a group on its
 * reference (EvPic.share) asks ev_group_take() for its values: the first member to ask claims
 * the job and is given every member that runs the same extractor with the same options on that
 * frame (EV_SHARE_COMPUTE); it scores them all, then ev_group_put(). A member that asks later
 * waits for the job and takes its own values (EV_SHARE_TAKEN). Anything unusual (no room, out
 * of memory, a member that joined late) gives EV_SHARE_ALONE: compute alone. Values are those
 * a member computes alone, bit for bit: the job uses the same kernels' arithmetic.
 * Thread-safe.
 */
#ifndef EV_CORE_GROUPJOB_H
#define EV_CORE_GROUPJOB_H

#include <stddef.h>

#include "base/picture.h"

struct EvEngine;
typedef struct EvGroupJobs EvGroupJobs;

typedef enum EvShareTake {
    EV_SHARE_TAKEN = 1, /* *values hold the group's values of the frame */
    EV_SHARE_COMPUTE =
        0, /* the caller holds the claim: compute, then ev_refshare_put() or ev_group_put() */
    EV_SHARE_ALONE = -1, /* compute without publishing (no room, or out of memory) */
} EvShareTake;

EvGroupJobs *ev_group_jobs_new(void);    /* NULL when out of memory */
void ev_group_jobs_free(EvGroupJobs *j); /* NULL-safe; no job may be running */

/* Engine: dis (a slot's distorted picture) is context c's frame `frame` of the group.
 * Returns 0, or -1 when it cannot be (the member then computes alone). */
int ev_group_join(EvGroupJobs *j, unsigned frame, const struct EvEngine *c, const EvPic *dis);
/* Engine: the slot holding dis (joined for frame) is done: waits while a job reads dis. */
void ev_group_leave(EvGroupJobs *j, unsigned frame, const EvPic *dis);

enum { EV_GROUP_MAX_MEMBERS = 32 }; /* members of one frame; more compute alone */

typedef struct EvGroupJob {
    unsigned n;                             /* members to score; [0] is the caller */
    const EvPic *dis[EV_GROUP_MAX_MEMBERS]; /* their distorted pictures */
    double *values; /* n x n_values: member k's at k * n_values, the caller fills */
    void *scratch;  /* the scratch asked for, 64-byte aligned */
    void *job;      /* internal */
} EvGroupJob;

/* The n_values doubles of frame `frame` for the member whose distorted is dis, scored by the
 * registration whose state is `state` (its extractor class and options are the job's key).
 * scratch_size(state, n): the scratch a job of n members needs. On EV_SHARE_COMPUTE the caller
 * must score job->n members and call ev_group_put() with nothing fallible between. */
EvShareTake ev_group_take(EvGroupJobs *j, const void *state, unsigned frame, const EvPic *dis,
                          double *values, unsigned n_values,
                          size_t (*scratch_size)(const void *state, unsigned n), EvGroupJob *job);
void ev_group_put(EvGroupJobs *j, EvGroupJob *job);

/* Jobs run, members scored by them and job scratch buffers allocated so far (a buffer is kept
 * for the next job: as many as jobs run at once). For tests and benchmarks. */
void ev_group_counts(EvGroupJobs *j, unsigned long *jobs, unsigned long *scored,
                     unsigned long *allocs);

#endif
