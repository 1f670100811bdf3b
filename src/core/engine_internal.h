/* Inside the engine (engine.c, frames.c, backend.c, group.c, group_jobs.c): the registrations, frame slots,
 * workers and scheduler state. Nothing outside src/core/ includes this. */
#ifndef EV_CORE_ENGINE_INTERNAL_H
#define EV_CORE_ENGINE_INTERNAL_H

#include <pthread.h>

#include "base/extractor.h"
#include "core/collector.h"
#include "cuda/runtime.h"

typedef struct EvEngine EvEngine;

typedef struct EvRegistration {
    const EvExtractorClass *cls;  /* the CPU reference (options, names) */
    const EvExtractorClass *twin; /* its CUDA twin, or NULL */
    const EvExtractorClass *run;  /* what runs: cls, or its CUDA twin */
    void *opts;                   /* cls->opts_size bytes */
    void *state;                  /* cls->state_size bytes, set up by init */
    size_t scratch_size;
    int initialised;
    /* its EvWindowScoring runs: score() in the parallel pass, emit() in the ordered one
     * (the CPU with workers; set at the first frame) */
    int windowed;
} EvRegistration;

/* One frame in flight: private copies of both pictures. */
typedef struct EvSlot {
    unsigned frame;
    int busy; /* taken: being filled or borrowed, or a frame not finished */
    /* set at dispatch, while the frame is unfinished: its ordered pass (the EV_FEX_SEQUENTIAL
     * extractors) and its parallel pass still to run; the slot is free again when both ran */
    int dispatched, ordered_left, parallel_left;
    uint8_t *buf; /* ref planes then dis planes */
    EvPic ref, dis;
    /* lent by ev_borrow_pictures_multi: the group of that call, or NULL, and the data[0] of
     * the reference it lent, which a submit must give for the frame to count as the group's */
    struct EvGroup *group;
    const void *group_ref;
    /* set at dispatch: the many-encodes group (core/group.h) whose contexts get this slot's
     * reference as their frame `frame`, or NULL */
    struct EvGroup *frame_group;
    /* the group whose jobs (core/group_jobs.h) this slot's distorted joined as frame
     * joined_frame, held until the slot leaves them; else NULL */
    struct EvGroup *joined;
    unsigned joined_frame;
    /* a lent pair (frames.c's ev_engine_lend): ref/dis are the caller's planes, read in place,
     * its host data (EV_LENT_HOST) or its device planes in dev (EV_LENT_DEVICE, data NULL);
     * release(release_user) once both passes ran. ready: an event recorded on the caller's
     * stream, which the twins wait for when wait_ready is set. dev_buf: the device copy of a device pair that could not be
     * read in place (2 * frame_bytes, made at its first use) */
    int lent;
    EvReleaseCallback release;
    void *release_user;
    void *ready; /* the slot's event (made at its first device pair) */
    int wait_ready;
    void *dev_buf;
    /* windowed registrations (EvRegistration.windowed), set at dispatch: the slots of the
     * frames 1..lookback before this one (NULL before the stream's start), which its parallel
     * pass reads; how many later frames' parallel passes are still to read this slot's
     * reference (the slot stays taken until none is); the values score() gave, per
     * registration (EV_WINDOW_MAX_VALUES each), for the ordered pass */
    struct EvSlot *window_prev[EV_WINDOW_MAX_LOOKBACK];
    unsigned window_holds;
    int window_left; /* its window pass (the scores) is still to run: its ordered pass waits */
    double *window_values;
} EvSlot;

enum { EV_LENT_NONE = 0, EV_LENT_HOST = 1, EV_LENT_DEVICE = 2 };

typedef struct EvWorker {
    struct EvEngine *ctx;
    pthread_t thread;
    void **scratch;           /* one block per registration, 64-byte aligned */
    void **scratch_block;     /* what was allocated for each (freed at the close) */
    struct EvCudaWorker *gpu; /* stream + device frame (CUDA backend), else NULL */
    /* where its time went, in seconds (updated and read under the engine's lock): waiting for
     * a frame, in parallel passes, in ordered passes; the caller's wait: for a free slot */
    double t_idle, t_parallel, t_ordered, t_wait;
    double t_setup; /* allocating its scratch, before its first frame */
    unsigned n_frames;
} EvWorker;

struct EvEngine {
    EvSettings settings;
    EvLog log;
    EvCollector collector;

    EvRegistration *reg;
    unsigned n_reg;

    /* geometry of the first frame; every frame must match it */
    int have_geometry;
    EvPicInfo info;
    size_t frame_bytes; /* one picture, planes packed */

    int use_cuda;     /* decided at the first frame (settings.backend) */
    EvCudaPlace cuda; /* where the CUDA work runs: settings.cuda_context or gpu_index */
    EvCudaWarm *warm; /* the CUDA start begun at ev_engine_open, until the first frame */
    EvSlot *borrowed; /* slot lent by ev_borrow_pictures, until submitted */

    unsigned n_frames;     /* pairs pushed */
    struct EvGroup *group; /* the many-encodes group this context is aligned with, or NULL
                              (left for good at a pair pushed outside the group's calls) */
    int flushed;
    int error; /* first error of any frame, 0 if none */

    /* scheduler: n_workers threads (0 = everything on the caller) over n_slots slots. With
     * n_threads > 1 there are n_threads workers and the caller only reads and dispatches; with
     * CUDA each worker drives a stream. A frame's ordered pass runs on a worker too, frame after
     * frame, on whichever worker finds the next frame's pass runnable (frames.c), so that no
     * thread ever waits for it. */
    unsigned n_threads;
    unsigned n_workers;
    EvWorker *workers;
    EvWorker caller; /* scratch for work done on the calling thread (only without workers) */
    EvSlot *slots;
    unsigned n_slots;
    unsigned *queue; /* ring of slot indices waiting for a worker */
    unsigned q_head, q_len;
    int has_ordered;       /* some registration is EV_FEX_SEQUENTIAL */
    unsigned lookback;     /* the largest lookback of the windowed registrations, or 0; else
                              a frame's ordered pass waits for its window pass (its values) */
    unsigned ordered_next; /* the frame whose ordered pass runs next */
    int ordered_running;   /* a worker is running ordered passes */
    int stopping;
    pthread_mutex_t lock;
    pthread_cond_t work_ready; /* a slot was queued, or stopping */
    pthread_cond_t slot_free;  /* a slot finished */
};

#endif
