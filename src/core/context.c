/* Context lifecycle and extractor registration (frames: core/frames.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/context.h"
#include "core/refshare.h"
#include "model/model_context.h"
#include "cuda/runtime.h"

const char *ev_version(void)
{
    return "0.1.0";
}

unsigned ev_version_api(void)
{
    return (EV_API_VERSION_MAJOR << 16) | (EV_API_VERSION_MINOR << 8) | EV_API_VERSION_PATCH;
}

void ev_default_settings(EvSettings *const s)
{
    memset(s, 0, sizeof(*s));
    s->log_level = EV_LOG_WARNING;
}

void ev_plane_size(const unsigned width, const unsigned height, const EvPixelLayout layout,
                   const unsigned p, unsigned *const plane_w, unsigned *const plane_h)
{
    const unsigned ss_x = p && layout != EV_PIX_444;
    const unsigned ss_y = p && layout == EV_PIX_420;
    const unsigned absent = p && layout == EV_PIX_400;
    *plane_w = absent ? 0 : width >> ss_x;
    *plane_h = absent ? 0 : height >> ss_y;
}

static unsigned online_cores(void)
{
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

int ev_open(EvContext **const out, const EvSettings *const s)
{
    if (!out || !s)
        return -EINVAL;
    *out = NULL;
    EvContext *c = calloc(1, sizeof(*c));
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
    c->n_threads = s->n_threads ? s->n_threads : online_cores();
    c->n_slots = c->n_threads > 1 ? c->n_threads + 2 : 1;
    c->caller.ctx = c;
    c->slots = calloc(c->n_slots, sizeof(*c->slots));
    c->queue = calloc(c->n_slots, sizeof(*c->queue));
    c->workers = c->n_threads > 1 ? calloc(c->n_threads, sizeof(*c->workers)) : NULL;
    if (!c->slots || !c->queue || (c->n_threads > 1 && !c->workers)) {
        err = -ENOMEM;
        goto fail_sync;
    }
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

void ev_close(EvContext **const pc)
{
    if (!pc || !*pc)
        return;
    EvContext *c = *pc;
    pthread_mutex_lock(&c->lock);
    c->stopping = 1;
    pthread_cond_broadcast(&c->work_ready);
    pthread_mutex_unlock(&c->lock);
    for (unsigned i = 0; i < c->n_workers; i++) {
        pthread_join(c->workers[i].thread, NULL);
        ev_worker_free(c, &c->workers[i]);
    }
    ev_worker_free(c, &c->caller);
    /* out of the group's jobs before the registrations go: another member's job claim reads
     * them (every dispatched slot left already; this is for the rest) */
    for (unsigned i = 0; i < c->n_slots; i++)
        ev_slot_leave_jobs(&c->slots[i]);
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
    }
    free(c->reg);
    ev_refshare_release(c->share);
    ev_models_free(c->models);
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

int ev_use_feature(EvContext *const c, const char *const extractor, const char *const options)
{
    if (!c || !extractor)
        return -EINVAL;
    if (c->have_geometry || c->flushed) {
        ev_log(&c->log, EV_LOG_ERROR, "%s: extractors must be added before the first picture",
               extractor);
        return -EINVAL;
    }
    const EvExtractorClass *cls = ev_find_extractor(extractor);
    if (!cls) {
        char known[512] = "";
        const char *const *names = ev_extractor_names();
        for (unsigned i = 0; names[i]; i++)
            snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s",
                     i ? ", " : "", names[i]);
        ev_log(&c->log, EV_LOG_ERROR, "unknown feature extractor \"%s\" (extractors: %s)",
               extractor, known);
        return -ENOENT;
    }
    void *opts = calloc(1, cls->opts_size ? cls->opts_size : 1);
    if (!opts)
        return -ENOMEM;
    ev_options_defaults(cls, opts);
    const int err = ev_options_parse(cls, opts, options, &c->log);
    if (err) {
        free(opts);
        return err;
    }
    /* One registration per set of output names, as libvmaf f85a8536 keeps them
     * (feature_extractor_vector_append): a later use of an extractor whose name-forming options
     * equal an earlier one's is dropped, options and all, so `--feature vif=debug=true` beside
     * a model that already runs vif adds nothing. */
    for (unsigned r = 0; r < c->n_reg; r++) {
        if (c->reg[r].cls == cls && ev_options_same_names(cls, c->reg[r].opts, opts)) {
            ev_log(&c->log, EV_LOG_DEBUG, "%s%s%s: already registered with the same output "
                   "names; this use is dropped, as libvmaf drops it", extractor,
                   options && *options ? "=" : "", options ? options : "");
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
    c->reg[c->n_reg++] = (EvRegistration){ .cls = cls, .run = cls, .opts = opts, .state = state };
    return 0;
}

const char *ev_backend_name(const EvContext *const c)
{
    return c && c->use_cuda ? "cuda" : "cpu";
}

unsigned ev_frame_count(const EvContext *const c)
{
    return c ? c->n_frames : 0;
}
