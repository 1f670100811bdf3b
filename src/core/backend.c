#include <errno.h>
#include <stdio.h>

#include "core/backend.h"
#include "cuda/runtime.h"

int ev_backend_place(EvEngine *const c, char *why, size_t n)
{
    c->cuda.context = c->settings.cuda_context;
    c->cuda.device = c->settings.gpu_index;
    int err = 0;
    if (c->cuda.context) /* the caller's context decides the device */
        err = ev_cuda_context_device(c->cuda.context, &c->cuda.device, why, n);
    return err ? err : ev_cuda_probe(c->cuda.device, why, n);
}

/* 0 when every registration has a twin and the device answers; else why, in one line. */
static int cuda_possible(EvEngine *c, char *why, size_t n)
{
    const int err = ev_backend_place(c, why, n);
    if (err)
        return err;
    for (unsigned r = 0; r < c->n_reg; r++) {
        if (!c->reg[r].twin) {
            snprintf(why, n, "%s has no CUDA twin yet", c->reg[r].cls->name);
            return -ENOSYS;
        }
    }
    return 0;
}

int ev_select_backend(EvEngine *const c)
{
    c->use_cuda = 0;
    if (c->settings.backend == EV_BACKEND_CPU)
        return 0;
    char why[256] = "";
    const int err = cuda_possible(c, why, sizeof(why));
    if (err) {
        if (c->settings.backend == EV_BACKEND_CUDA) {
            ev_log(&c->log, EV_LOG_ERROR, "backend cuda: %s", why);
            return err;
        }
        /* Nothing to say where there is nothing to choose: a build without CUDA, or a machine
         * without a device or driver. A device that the registrations cannot use is worth a
         * line. */
        if (ev_cuda_device_count() > 0)
            ev_log(&c->log, EV_LOG_WARNING, "using the CPU backend: %s", why);
        return 0;
    }
    c->use_cuda = 1;
    for (unsigned r = 0; r < c->n_reg; r++)
        c->reg[r].run = c->reg[r].twin;
    return 0;
}
