/*
 * The jobs of a many-encodes group (core/group.h), for the classes that score members together
 * (EvGroupScoring without by_reference): one context scores a frame for every member of the
 * group that runs the same extractor with the same options.
 *
 * The engine registers each member's distorted picture of a frame before any member's frame
 * is dispatched (ev_group_jobs_join), and withdraws it before the slot holding it is reused
 * (ev_group_jobs_leave: waits while a job reads it). The first member to ask for its values
 * claims the job and is given every member still in the frame (EV_GROUP_COMPUTE); it scores
 * them all, then ev_group_jobs_put(). A member that asks later waits for the job and takes its
 * own values (EV_GROUP_TAKEN). Anything unusual (no room, out of memory, a member that joined
 * late) gives EV_GROUP_ALONE: score alone. Thread-safe.
 */
#ifndef EV_CORE_GROUP_JOBS_H
#define EV_CORE_GROUP_JOBS_H

#include "base/extractor.h"
#include "core/engine_internal.h"

typedef enum EvGroupTake {
    EV_GROUP_TAKEN = 1,   /* *values hold the member's values of the frame */
    EV_GROUP_COMPUTE = 0, /* the caller holds the claim: score, then publish (nothing fallible
                             between the two: others may be waiting) */
    EV_GROUP_ALONE = -1,  /* score alone, publishing nothing */
} EvGroupTake;

typedef struct EvGroupJobs EvGroupJobs;

EvGroupJobs *ev_group_jobs_new(void);    /* NULL when out of memory */
void ev_group_jobs_free(EvGroupJobs *j); /* NULL-safe; no job may be running */

/* dis (a slot's distorted picture) is context c's frame `frame` of the group.
 * Returns 0, or -1 when it cannot be (the member then scores alone). */
int ev_group_jobs_join(EvGroupJobs *j, unsigned frame, const EvEngine *c, const EvPic *dis);
/* The slot holding dis (joined for frame) is done: waits while a job reads dis. */
void ev_group_jobs_leave(EvGroupJobs *j, unsigned frame, const EvPic *dis);

typedef struct EvGroupJob {
    unsigned n;                             /* members to score; [0] is the caller */
    const EvPic *dis[EV_GROUP_MAX_MEMBERS]; /* their distorted pictures */
    double *values; /* n x n_values: member k's at k * n_values, the caller fills */
    void *scratch;  /* the class's group scratch for n members, 64-byte aligned, or NULL */
    void *internal;
} EvGroupJob;

/* The values of frame `frame` for the member whose distorted is dis, run by registration reg
 * (its class's EvGroupScoring, its options the job's key). On EV_GROUP_COMPUTE the caller must
 * score job->n members and call ev_group_jobs_put(). */
EvGroupTake ev_group_jobs_take(EvGroupJobs *j, const EvRegistration *reg, unsigned frame,
                               const EvPic *dis, double *values, EvGroupJob *job);
void ev_group_jobs_put(EvGroupJobs *j, EvGroupJob *job);

/* Jobs run, members scored by them and job scratch buffers allocated so far (a buffer is kept
 * for the next job: as many as jobs run at once). */
void ev_group_jobs_counts(EvGroupJobs *j, unsigned long *jobs, unsigned long *scored,
                          unsigned long *allocs);

#endif
