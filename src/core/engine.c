/* The engine's lifecycle and its registrations (frames: core/frames.c). */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/engine.h"
#include "core/engine_internal.h"
#include "core/frames.h"
#include "core/group.h"
#include "cuda/runtime.h"

/* The cores this process may run on (its affinity mask: taskset, cgroup cpusets), else the
 * online ones. */
static unsigned usable_cores(void)
{
    cpu_set_t set;
    if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

/* The worker count: the one asked for (0: one per usable core), never more than the usable
 * cores, since a thread more than those does not help (each thread scores whole frames, one
 * frame slot each, so memory follows the count). One warning line when a count is capped. */
static unsigned thread_count(const EvSettings *s, const EvLog *log)
{
    const unsigned cores = usable_cores();
    if (!s->n_threads)
        return cores;
    if (s->n_threads <= cores)
        return s->n_threads;
    ev_log(log, EV_LOG_WARNING,
           "threads: %u asked for, %u used (the cores this process may run on; more do not help)",
           s->n_threads, cores);
    return cores;
}

int ev_engine_open(EvEngine **const out, const EvSettings *const s)
{
    if (!out || !s)
        return -EINVAL;
    *out = NULL;
    EvEngine *c = calloc(1, sizeof(*c));
    if (!c)
        return -ENOMEM;
    c->settings = *s;
    c->log = (EvLog){ s->log, s->log_user, s->log_level };
    int err = ev_collector_init(&c->collector, &c->log);
    if (err)
        goto fail_collector;
    if (pthread_mutex_init(&c->lock, NULL) || pthread_cond_init(&c->work_ready, NULL) ||
        pthread_cond_init(&c->slot_free, NULL)) {
        err = -ENOMEM;
        goto fail_sync;
    }
    /* the workers start with the first frame, once the backend is known (core/frames.c) */
    c->n_threads = thread_count(s, &c->log);
    /* with workers: one frame each, one being read and two queued; room for the references
     * that windowed registrations hold for later frames (frames.c adds them at the first
     * frame when some registration is windowed) */
    c->n_slots = c->n_threads > 1 ? c->n_threads + 3 : 1;
    const unsigned room = c->n_threads > 1 ? c->n_slots + EV_WINDOW_MAX_LOOKBACK : 1;
    c->caller.ctx = c;
    c->slots = calloc(room, sizeof(*c->slots));
    c->queue = calloc(room, sizeof(*c->queue));
    c->workers = c->n_threads > 1 ? calloc(c->n_threads, sizeof(*c->workers)) : NULL;
    if (!c->slots || !c->queue || (c->n_threads > 1 && !c->workers)) {
        err = -ENOMEM;
        goto fail_sync;
    }
    /* an engine that may use the device brings the driver and the primary context up while the
     * caller opens its inputs (a caller's own context is up already) */
    if (s->backend != EV_BACKEND_CPU && !s->cuda_context)
        c->warm = ev_cuda_warm_start(s->gpu_index);
    *out = c;
    return 0;

fail_sync:
    free(c->slots);
    free(c->queue);
    free(c->workers);
    ev_collector_free(&c->collector);
fail_collector:
    free(c);
    return err;
}

void ev_engine_close(EvEngine **const pc)
{
    if (!pc || !*pc)
        return;
    EvEngine *c = *pc;
    pthread_mutex_lock(&c->lock);
    c->stopping = 1;
    pthread_cond_broadcast(&c->work_ready);
    pthread_mutex_unlock(&c->lock);
    /* what is freed below in the engine's CUDA context; the caller's thread gets its own back */
    void *saved = NULL;
    const int in_cuda = c->use_cuda && !ev_cuda_enter(&c->cuda, &saved, &c->log);
    for (unsigned i = 0; i < c->n_workers; i++) {
        pthread_join(c->workers[i].thread, NULL);
        ev_worker_free(c, &c->workers[i]);
    }
    ev_worker_free(c, &c->caller);
    ev_cuda_warm_close(&c->warm); /* an engine closed before its first frame */
    ev_engine_give_back_lent(c);
    /* out of the group's jobs before the registrations go: another member's job claim reads
     * them (every dispatched slot left already; this is for the rest) */
    for (unsigned i = 0; i < c->n_slots; i++)
        ev_group_leave_slot(&c->slots[i]);
    for (unsigned r = 0; r < c->n_reg; r++) {
        if (c->reg[r].initialised && c->reg[r].run->close)
            c->reg[r].run->close(c->reg[r].state);
        free(c->reg[r].opts);
        free(c->reg[r].state);
    }
    for (unsigned i = 0; i < c->n_slots; i++) {
        if (c->use_cuda)
            ev_cuda_host_free(c->slots[i].buf);
        else
            free(c->slots[i].buf);
        free(c->slots[i].window_values);
        ev_cuda_event_free(c->slots[i].ready);
        ev_cuda_device_free(c->slots[i].dev_buf);
    }
    if (in_cuda)
        ev_cuda_restore(saved);
    free(c->reg);
    ev_group_release(c->group);
    free(c->slots);
    free(c->queue);
    free(c->workers);
    ev_collector_free(&c->collector);
    pthread_cond_destroy(&c->work_ready);
    pthread_cond_destroy(&c->slot_free);
    pthread_mutex_destroy(&c->lock);
    free(c);
    *pc = NULL;
}

int ev_engine_started(const EvEngine *const c)
{
    return c->have_geometry || c->flushed;
}

int ev_engine_register(EvEngine *const c, const EvExtractorClass *const cls,
                       const EvExtractorClass *const twin, void *const opts)
{
    if (ev_engine_started(c)) {
        ev_log(&c->log, EV_LOG_ERROR, "%s: extractors must be added before the first picture",
               cls->name);
        free(opts);
        return -EINVAL;
    }
    /* One registration per set of output names, as libvmaf f85a8536 keeps them
     * (feature_extractor_vector_append): a later use of an extractor whose name-forming options
     * equal an earlier one's is dropped, options and all, so `--feature vif=debug=true` beside
     * a model that already runs vif adds nothing. */
    for (unsigned r = 0; r < c->n_reg; r++) {
        if (c->reg[r].cls == cls && ev_options_same_names(cls, c->reg[r].opts, opts)) {
            ev_log(&c->log, EV_LOG_DEBUG,
                   "%s: already registered with the same output names; "
                   "this use is dropped, as libvmaf drops it",
                   cls->name);
            free(opts);
            return 0;
        }
    }
    EvRegistration *reg = realloc(c->reg, (c->n_reg + 1) * sizeof(*reg));
    if (!reg) {
        free(opts);
        return -ENOMEM;
    }
    c->reg = reg;
    void *state = calloc(1, cls->state_size ? cls->state_size : 1);
    if (!state) {
        free(opts);
        return -ENOMEM;
    }
    c->reg[c->n_reg++] =
        (EvRegistration){ .cls = cls, .twin = twin, .run = cls, .opts = opts, .state = state };
    return 0;
}

const char *ev_engine_backend_name(const EvEngine *const c)
{
    return c && c->use_cuda ? "cuda" : "cpu";
}

unsigned ev_engine_frame_count(const EvEngine *const c)
{
    return c ? c->n_frames : 0;
}

EvEngineResults ev_engine_results(const EvEngine *const c)
{
    const unsigned step = c->settings.n_subsample > 1 ? c->settings.n_subsample : 1;
    return (EvEngineResults){
        .collector = (EvCollector *)&c->collector,
        .n_frames = c->n_frames,
        .step = step,
        .first_free_sink = c->n_reg,
        .info = c->info,
        .flushed = c->flushed,
        .error = c->error,
        .log = &c->log,
    };
}
