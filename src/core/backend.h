/* Choosing the backend at the first frame: the CPU references or their CUDA twins. */
#ifndef EV_CORE_BACKEND_H
#define EV_CORE_BACKEND_H

#include "core/engine_internal.h"

/* Where the CUDA work would run (c->cuda: the caller's context and its device, or the device of
 * gpu_index) and whether that device answers: 0, else a negative code and why, in one line. */
int ev_backend_place(EvEngine *c, char *why, size_t n);

/* Set c->use_cuda and each registration's run class from c->settings.backend. EV_BACKEND_CUDA
 * fails (-ENODEV, -ENOSYS) when it cannot be honoured; EV_BACKEND_AUTO falls back to the CPU
 * and logs one warning line saying why. */
int ev_select_backend(EvEngine *c);

#endif
