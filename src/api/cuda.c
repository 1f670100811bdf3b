/* exactvmaf/cuda.h: device pictures in, and the device memory they may live in (the engine's
 * CUDA context, core/frames.c). */
#include <errno.h>

#include "api/context.h"
#include "core/frames.h"
#include "exactvmaf/cuda.h"

int ev_lend_device_pictures(EvContext *const c, const EvPicture *const ref,
                            const EvPicture *const dis, void *const stream,
                            const EvReleaseCallback release, void *const user)
{
    if (!c) {
        if (release)
            release(user);
        return -EINVAL;
    }
    return ev_engine_lend(c->engine, ref, dis, 1, stream, release, user);
}

int ev_device_alloc(EvContext *const c, const size_t bytes, void **const out)
{
    if (!out)
        return -EINVAL;
    *out = NULL;
    return c ? ev_engine_device_memory(c->engine, bytes, out, 0, NULL) : -EINVAL;
}

int ev_device_zero(EvContext *const c, void *const p, const size_t bytes)
{
    void *at = p;
    return c && p ? ev_engine_device_memory(c->engine, bytes, &at, 1, NULL) : -EINVAL;
}

void ev_device_free(EvContext *const c, void *const p)
{
    if (c && p)
        ev_engine_device_memory(c->engine, 0, NULL, 0, p);
}
