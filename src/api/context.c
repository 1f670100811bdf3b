/* The context's lifecycle, its extractors and its pictures: the public calls, each driving the
 * engine (core/engine.h); at the flush the engine, then the models, then the collector's order. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/context.h"
#include "core/frames.h"
#include "features/registry.h"

void ev_default_settings(EvSettings *const s)
{
    memset(s, 0, sizeof(*s));
    s->log_level = EV_LOG_WARNING;
}

void ev_plane_size(const unsigned width, const unsigned height, const EvPixelLayout layout,
                   const unsigned p, unsigned *const plane_w, unsigned *const plane_h)
{
    ev_pic_plane_size(width, height, layout, p, plane_w, plane_h);
}

const char *ev_layout_name(const EvPixelLayout layout)
{
    return ev_pic_layout_name(layout);
}

int ev_open(EvContext **const out, const EvSettings *const s)
{
    if (!out || !s)
        return -EINVAL;
    *out = NULL;
    EvContext *c = calloc(1, sizeof(*c));
    if (!c)
        return -ENOMEM;
    c->log = (EvLog){ s->log, s->log_user, s->log_level };
    const int err = ev_engine_open(&c->engine, s);
    if (err) {
        free(c);
        return err;
    }
    *out = c;
    return 0;
}

void ev_close(EvContext **const pc)
{
    if (!pc || !*pc)
        return;
    ev_engine_close(&(*pc)->engine);
    ev_models_free((*pc)->models);
    free(*pc);
    *pc = NULL;
}

static void log_unknown(const EvContext *const c, const char *const extractor)
{
    char known[512] = "";
    const char *const *names = ev_registry_names();
    for (unsigned i = 0; names[i]; i++)
        snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s", i ? ", " : "",
                 names[i]);
    ev_log(&c->log, EV_LOG_ERROR, "unknown feature extractor \"%s\" (extractors: %s)", extractor,
           known);
}

int ev_use_feature(EvContext *const c, const char *const extractor, const char *const options)
{
    if (!c || !extractor)
        return -EINVAL;
    if (ev_engine_started(c->engine)) {
        ev_log(&c->log, EV_LOG_ERROR, "%s: extractors must be added before the first picture",
               extractor);
        return -EINVAL;
    }
    const EvExtractorClass *cls = ev_find_extractor(extractor);
    if (!cls) {
        log_unknown(c, extractor);
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
    return ev_engine_register(c->engine, cls, ev_find_twin(extractor), opts);
}

int ev_send_pictures(EvContext *const c, const EvPicture *const ref, const EvPicture *const dis)
{
    return c ? ev_engine_send(c->engine, ref, dis) : -EINVAL;
}

int ev_lend_pictures(EvContext *const c, const EvPicture *const ref, const EvPicture *const dis,
                     const EvReleaseCallback release, void *const user)
{
    if (!c || !release) {
        if (release)
            release(user);
        return -EINVAL;
    }
    return ev_engine_lend(c->engine, ref, dis, 0, NULL, release, user);
}

int ev_borrow_pictures(EvContext *const c, const unsigned width, const unsigned height,
                       const unsigned bitdepth, const EvPixelLayout layout, EvPicture *const ref,
                       EvPicture *const dis)
{
    return c ? ev_engine_borrow(c->engine, width, height, bitdepth, layout, ref, dis) : -EINVAL;
}

int ev_submit_pictures(EvContext *const c)
{
    return c ? ev_engine_submit(c->engine) : -EINVAL;
}

void ev_return_pictures(EvContext *const c)
{
    if (c)
        ev_engine_return(c->engine);
}

/* The engines of n contexts (NULL where the context is NULL), in buf when n fits, else in
 * *heap (freed by the caller). NULL when out of memory. */
#define EV_STACK_ENGINES 32
static EvEngine **engines_of(EvContext *const *const ctx, const unsigned n, EvEngine **const buf,
                             EvEngine ***const heap)
{
    *heap = NULL;
    EvEngine **e = buf;
    if (n > EV_STACK_ENGINES && !(e = *heap = malloc(n * sizeof(*e))))
        return NULL;
    for (unsigned i = 0; i < n; i++)
        e[i] = ctx[i] ? ctx[i]->engine : NULL;
    return e;
}

int ev_send_pictures_multi(EvContext *const *const ctx, const unsigned n,
                           const EvPicture *const ref, const EvPicture *const *const dis)
{
    if (!ctx)
        return ev_engine_send_multi(NULL, n, ref, dis);
    EvEngine *buf[EV_STACK_ENGINES], **heap;
    EvEngine **e = engines_of(ctx, n, buf, &heap);
    const int err = e ? ev_engine_send_multi(e, n, ref, dis) : -ENOMEM;
    free(heap);
    return err;
}

int ev_borrow_pictures_multi(EvContext *const *const ctx, const unsigned n, const unsigned width,
                             const unsigned height, const unsigned bitdepth,
                             const EvPixelLayout layout, EvPicture *const ref, EvPicture *const dis)
{
    if (!ctx)
        return ev_engine_borrow_multi(NULL, n, width, height, bitdepth, layout, ref, dis);
    EvEngine *buf[EV_STACK_ENGINES], **heap;
    EvEngine **e = engines_of(ctx, n, buf, &heap);
    const int err =
        e ? ev_engine_borrow_multi(e, n, width, height, bitdepth, layout, ref, dis) : -ENOMEM;
    free(heap);
    return err;
}

int ev_submit_pictures_multi(EvContext *const *const ctx, const unsigned n,
                             const EvPicture *const ref)
{
    if (!ctx)
        return ev_engine_submit_multi(NULL, n, ref);
    EvEngine *buf[EV_STACK_ENGINES], **heap;
    EvEngine **e = engines_of(ctx, n, buf, &heap);
    const int err = e ? ev_engine_submit_multi(e, n, ref) : -ENOMEM;
    free(heap);
    return err;
}

void ev_return_pictures_multi(EvContext *const *const ctx, const unsigned n)
{
    if (!ctx)
        return;
    EvEngine *buf[EV_STACK_ENGINES], **heap;
    EvEngine **e = engines_of(ctx, n, buf, &heap);
    if (e)
        ev_engine_return_multi(e, n);
    free(heap);
}

const char *ev_backend_name(const EvContext *const c)
{
    return c ? ev_engine_backend_name(c->engine) : "cpu";
}

unsigned ev_frame_count(const EvContext *const c)
{
    return c ? ev_engine_frame_count(c->engine) : 0;
}

int ev_flush(EvContext *const c)
{
    if (!c)
        return -EINVAL;
    if (c->flushed)
        return c->error;
    int err = ev_engine_flush(c->engine);
    const EvEngineResults r = ev_engine_results(c->engine);
    if (!err)
        err = ev_models_predict(c->models, &r);
    ev_collector_finish(r.collector);
    c->flushed = 1;
    c->error = err;
    return err;
}
