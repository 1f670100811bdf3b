/* The engine's frames (frames.c): pictures in, the scheduler's workers, the flush. The calls
 * mirror the public ones of the same names (include/exactvmaf/exactvmaf.h). */
#ifndef EV_CORE_FRAMES_H
#define EV_CORE_FRAMES_H

#include "base/picture.h"

typedef struct EvEngine EvEngine;

int ev_engine_send(EvEngine *e, const EvPicture *ref, const EvPicture *dis);
int ev_engine_borrow(EvEngine *e, unsigned width, unsigned height, unsigned bitdepth,
                     EvPixelLayout layout, EvPicture *ref, EvPicture *dis);
int ev_engine_submit(EvEngine *e);
void ev_engine_return(EvEngine *e);
/* A lent pair (ev_lend_pictures; on_device: ev_lend_device_pictures, after the work on stream). */
int ev_engine_lend(EvEngine *e, const EvPicture *ref, const EvPicture *dis, int on_device,
                   void *stream, EvReleaseCallback release, void *user);
/* Device memory in the engine's CUDA context: allocate bytes into *out, or zero bytes at *out
 * (zero), or free free_this (ev_device_alloc, ev_device_zero, ev_device_free). */
int ev_engine_device_memory(EvEngine *e, size_t bytes, void **out, int zero, void *free_this);
int ev_engine_send_multi(EvEngine *const *e, unsigned n, const EvPicture *ref,
                         const EvPicture *const *dis);
int ev_engine_borrow_multi(EvEngine *const *e, unsigned n, unsigned width, unsigned height,
                           unsigned bitdepth, EvPixelLayout layout, EvPicture *ref, EvPicture *dis);
int ev_engine_submit_multi(EvEngine *const *e, unsigned n, const EvPicture *ref);
void ev_engine_return_multi(EvEngine *const *e, unsigned n);
/* Finish every frame and run the extractors' flush. The collector is left open: the layers
 * above add their values (model scores) through ev_engine_results(), then finish it.
 * @return 0, or the first error of any frame (also on later calls). */
int ev_engine_flush(EvEngine *e);

/* A worker thread's loop, and the release of a worker's scratch and stream (engine.c's close). */
struct EvWorker;
void *ev_worker_main(void *arg);
void ev_worker_free(EvEngine *c, struct EvWorker *w);
/* At a close without a flush, after the workers stopped: give the pairs still lent back
 * (the last frames' references, held for frames that never came). */
void ev_engine_give_back_lent(EvEngine *c);

#endif
