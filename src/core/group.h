/*
 * The many-encodes group (ev_send_pictures_multi, ev_borrow_pictures_multi): contexts that
 * receive the same reference as their frame n, so that what depends on the reference alone is
 * done once per frame instead of once per encode. The engine decides which contexts form a
 * group (core/frames.c: those fed by one many-encodes call while aligned with it, having pushed
 * exactly the group's frames) and runs a registration's frame through the group when its class
 * declares how (EvGroupScoring, base/extractor.h); no extractor knows about groups.
 *
 * Two mechanisms, chosen by the class:
 *  - by_reference: a table of values per (class, options) and frame: the first member to ask
 *    scores them, the others wait for them and take them;
 *  - jobs (core/group_jobs.h): the first member to ask scores every member's pair at once.
 *
 * Results cannot depend on the grouping: values come from the class's own arithmetic, keyed by
 * its options' bytes, and a member the group cannot serve scores alone. Thread-safe: the members
 * of one group may run on different threads.
 */
#ifndef EV_CORE_GROUP_H
#define EV_CORE_GROUP_H

#include "base/extractor.h"
#include "core/engine_internal.h"

typedef struct EvGroup EvGroup;

/* A new group, one reference held by the caller; NULL when out of memory. */
EvGroup *ev_group_new(void);
EvGroup *ev_group_retain(EvGroup *g);
void ev_group_release(EvGroup *g); /* NULL-safe; frees at the last reference */

/* Frames the group's calls have pushed so far (an aligned context has pushed as many); advanced
 * once per call by the thread making the many-encodes calls. */
unsigned ev_group_frames(const EvGroup *g);
void ev_group_advance(EvGroup *g);

/* The engine's slot s, to be dispatched as c's next frame, joins g's jobs (no-op on CUDA, or
 * when the jobs refuse it: its member then scores alone). */
void ev_group_join_slot(EvEngine *c, EvSlot *s, EvGroup *g);
/* The slot is done with its groups: withdraws its distorted from the jobs it joined (waits while
 * a job reads it) and lets go of its frame's group. After its frame's extractors, and before
 * the slot is given back or freed; no-op when it is in none. */
void ev_group_leave_slot(EvSlot *s);

/* Run reg on the frame of slot s (a member of s->frame_group) with the worker's scratch: its
 * values from the group, scored here for the group, or (when the group cannot serve it) by
 * reg's extract() alone. Returns extract()'s or emit()'s result. */
int ev_group_extract(const EvRegistration *reg, void *scratch, const EvSlot *s, const EvPic *ref,
                     const EvPic *dis, EvSink *sink);

/* What the group has done so far, for tests and benchmarks. */
typedef struct EvGroupCounts {
    unsigned long published, taken;     /* by_reference values scored for and taken from it */
    unsigned long jobs, scored, allocs; /* jobs run, members they scored, scratch allocated */
} EvGroupCounts;
void ev_group_counts(EvGroup *g, EvGroupCounts *counts);

#endif
