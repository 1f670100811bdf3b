/*
 * Reference-side values shared by the contexts of one many-encodes group
 * (ev_send_pictures_multi, ev_submit_pictures_multi): every context of the group receives the
 * same reference picture as its frame n, so a per-frame value that depends only on the
 * reference frames 0..n and the extractor's options (motion's SAD score) is computed by the
 * first context that needs it and taken by the others. The engine sets EvPic.share on a
 * reference only for frames that came through such a call while the context was aligned with
 * its group (core/frames.c); an extractor never shares otherwise.
 *
 * Results cannot depend on the sharing: a value is published only by a context that computed
 * it from the same reference frames with the same options (the key is the extractor class and
 * its option bytes), and a context that finds nothing computes the value itself.
 * Thread-safe: contexts of one group may run on different threads.
 */
#ifndef EV_CORE_REFSHARE_H
#define EV_CORE_REFSHARE_H

#include <stddef.h>

#include "core/groupjob.h"

struct EvExtractorClass;
typedef struct EvRefShare EvRefShare;

/* A new group, one reference held by the caller; NULL when out of memory. */
EvRefShare *ev_refshare_new(void);
EvRefShare *ev_refshare_retain(EvRefShare *g);
void ev_refshare_release(EvRefShare *g); /* NULL-safe; frees at the last reference */

/* Frames the group's calls have pushed so far (an aligned context has pushed as many); advanced
 * once per call by the thread making the many-encodes calls. */
unsigned ev_refshare_frames(const EvRefShare *g);
void ev_refshare_advance(EvRefShare *g);

/* The n doubles of frame `frame` for (cls, opts[0..opts_size)). Waits while another context
 * computes them. A caller given EV_SHARE_COMPUTE must call ev_refshare_put() for that frame
 * (others may be waiting): compute nothing fallible between the two. */
EvShareTake ev_refshare_take(EvRefShare *g, const struct EvExtractorClass *cls, const void *opts,
                             size_t opts_size, unsigned frame, double *values, unsigned n);
/* Values published and values taken so far, over every table (for tests and benchmarks). */
void ev_refshare_counts(EvRefShare *g, unsigned long *published, unsigned long *taken);

/* The group's jobs (core/groupjob.h), or NULL when they could not be set up. */
EvGroupJobs *ev_refshare_jobs(EvRefShare *g);

void ev_refshare_put(EvRefShare *g, const struct EvExtractorClass *cls, const void *opts,
                     size_t opts_size, unsigned frame, const double *values, unsigned n);

struct EvSlot;
/* The engine's slot s, to be dispatched as c's next frame, joins the jobs of group g (no-op
 * without jobs, on CUDA, or when the jobs refuse it: its member then computes alone). */
void ev_slot_join_jobs(struct EvEngine *c, struct EvSlot *s, EvRefShare *g);
/* Withdraw s's distorted from its group's jobs: after its frame's extractors, and before the
 * slot is given back or freed (waits while a job reads it); no-op when it joined none. */
void ev_slot_leave_jobs(struct EvSlot *s);

/* An extractor's whole use of the jobs for one frame: when ref belongs to a group, its
 * n_values doubles of the frame into values, taken from the job or scored by the job this call
 * runs (score(state, scratch, ref, job) fills job->values); returns 1. Returns 0 when the
 * caller must score the pair alone. */
int ev_group_values(const void *state, void *scratch, const EvPic *ref, const EvPic *dis,
                    unsigned frame, double *values, unsigned n_values,
                    size_t (*scratch_size)(const void *state, unsigned n),
                    void (*score)(const void *state, void *scratch, const EvPic *ref,
                                  EvGroupJob *job));

#endif
