/* Which of an engine's registrations run on a frame: the scheduler's (frames.c) and the group
 * jobs' (group_jobs.c) common view of the registrations. */
#ifndef EV_CORE_REGISTRATION_H
#define EV_CORE_REGISTRATION_H

#include "core/engine_internal.h"

/* 1 when reg runs on frame in this pass (sequential: the EV_FEX_SEQUENTIAL pass, else the
 * parallel one): not skipped by n_subsample unless it runs on every frame. */
int ev_reg_runs_now(const EvEngine *c, const EvRegistration *reg, unsigned frame, int sequential);
/* 1 when c runs the parallel extractor `run` on the CPU with options opts (run->opts_size
 * bytes) at frame `frame`. */
int ev_context_runs(const EvEngine *c, const EvExtractorClass *run, const void *opts,
                    unsigned frame);

#endif
