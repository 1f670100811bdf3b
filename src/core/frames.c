/* The frame scheduler: admitting frames, slots, worker threads, extraction, flush. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/backend.h"
#include "base/cpu.h"
#include "core/engine_internal.h"
#include "core/frames.h"
#include "core/registration.h"
#include "core/group.h"
#include "cuda/runtime.h"

/* Frames in flight on the CUDA backend: 2 per stream for 8 streams, plus the one being read. */
#define EV_CUDA_MAX_SLOTS 17

static int check_picture(EvEngine *c, const EvPicture *p, const char *which)
{
    if (!p) {
        ev_log(&c->log, EV_LOG_ERROR, "%s picture is NULL", which);
        return -EINVAL;
    }
    if (!p->width || !p->height || p->bitdepth < 8 || p->bitdepth > 16 ||
        (p->layout != EV_PIX_420 && p->layout != EV_PIX_422 && p->layout != EV_PIX_444 &&
         p->layout != EV_PIX_400)) {
        ev_log(&c->log, EV_LOG_ERROR, "%s picture: unsupported %ux%u %u-bit layout %d", which,
               p->width, p->height, p->bitdepth, (int)p->layout);
        return -EINVAL;
    }
    const unsigned bytes = p->bitdepth > 8 ? 2 : 1;
    for (unsigned i = 0; i < 3; i++) {
        unsigned pw, ph;
        ev_pic_plane_size(p->width, p->height, p->layout, i, &pw, &ph);
        if (pw && ph && (!p->data[i] || p->stride[i] < (ptrdiff_t)pw * bytes)) {
            ev_log(&c->log, EV_LOG_ERROR, "%s picture: plane %u has no data or a short stride",
                   which, i);
            return -EINVAL;
        }
    }
    return 0;
}

static int same_geometry(const EvPicture *a, const EvPicInfo *b)
{
    return a->width == b->width && a->height == b->height && a->bitdepth == b->bpc &&
           a->layout == b->layout;
}

void ev_worker_free(EvEngine *c, EvWorker *w)
{
    ev_cuda_worker_close(&w->gpu);
    if (!w->scratch)
        return;
    for (unsigned r = 0; r < c->n_reg; r++)
        free(w->scratch_block[r]);
    free(w->scratch);
    w->scratch = w->scratch_block = NULL;
}

/* Each registration's scratch: calloc's zeroed block (a large one comes as fresh zero pages,
 * faulted in when first used: no pass of its own over 100 MB at 4K), 64-byte aligned. */
static int alloc_scratch(EvEngine *c, EvWorker *w)
{
    const unsigned n = c->n_reg ? c->n_reg : 1;
    w->scratch = calloc(2 * (size_t)n, sizeof(*w->scratch));
    if (!w->scratch)
        return -ENOMEM;
    w->scratch_block = w->scratch + n;
    for (unsigned r = 0; r < c->n_reg; r++) {
        if (!c->reg[r].scratch_size)
            continue;
        uint8_t *block = calloc(1, c->reg[r].scratch_size + 63);
        if (!(w->scratch_block[r] = block))
            return -ENOMEM;
        w->scratch[r] = block + (-(uintptr_t)block & 63);
    }
    if (c->use_cuda)
        return ev_cuda_worker_open(&w->gpu, &c->cuda, 2 * c->frame_bytes, &c->log);
    return 0;
}

static int start_workers(EvEngine *c);

/* Streams the CUDA backend was asked for beyond n_threads (EvSettings.cuda_streams): the
 * scheduler's arrays grow before the first frame, when nothing is queued or allocated yet. */
#define EV_CUDA_MAX_STREAMS 8
static int more_cuda_workers(EvEngine *c)
{
    unsigned want = c->settings.cuda_streams;
    if (want > EV_CUDA_MAX_STREAMS)
        want = EV_CUDA_MAX_STREAMS;
    if (want <= c->n_threads || want < 2)
        return 0;
    EvSlot *slots = calloc(want + 3, sizeof(*slots));
    unsigned *queue = calloc(want + 3, sizeof(*queue));
    EvWorker *workers = calloc(want, sizeof(*workers));
    if (!slots || !queue || !workers) {
        free(slots);
        free(queue);
        free(workers);
        return -ENOMEM;
    }
    free(c->slots);
    free(c->queue);
    free(c->workers);
    c->slots = slots;
    c->queue = queue;
    c->workers = workers;
    c->n_threads = want;
    c->n_slots = want + 3;
    return 0;
}

/* The first frame waits for the CUDA start that ev_engine_open began (nothing to wait for
 * on the CPU backend or with a caller's context), and says at debug level how long it took. */
static double seconds_now(void);
static void wait_warm_start(EvEngine *c)
{
    if (!c->warm)
        return;
    const double t0 = seconds_now();
    const double took = ev_cuda_warm_wait(c->warm);
    ev_log(&c->log, EV_LOG_DEBUG, "cuda: the warm start took %.3f s, the first frame waited %.3f s",
           took, seconds_now() - t0);
}

/* First frame: fix the geometry, choose the backend, initialise every extractor, allocate
 * slots and per-worker scratch. */
static int start_stream(EvEngine *c, const EvPicture *ref)
{
    c->info = (EvPicInfo){ ref->width, ref->height, ref->bitdepth, ref->layout,
                           ev_cpu_allowed(c->settings.cpu_mask) };
    c->have_geometry = 1;
    const unsigned bytes = ref->bitdepth > 8 ? 2 : 1;
    c->frame_bytes = 0;
    for (unsigned p = 0; p < 3; p++) {
        unsigned pw, ph;
        ev_pic_plane_size(ref->width, ref->height, ref->layout, p, &pw, &ph);
        c->frame_bytes += (size_t)pw * ph * bytes;
    }
    const double t0 = seconds_now();
    wait_warm_start(c);
    int err = ev_select_backend(c);
    if (!err && c->use_cuda)
        err = more_cuda_workers(c);
    /* the CUDA set-up below runs in the engine's context; the caller's thread gets its own
     * context back */
    void *saved = NULL;
    if (!err && c->use_cuda)
        err = ev_cuda_enter(&c->cuda, &saved, &c->log);
    /* the runtime holds the primary context now, if it is used at all: the warm start's
     * reference goes (and with it a context that the CPU backend does not need) */
    ev_cuda_warm_close(&c->warm);
    if (err)
        return err;
    err = start_workers(c);
    if (c->use_cuda)
        ev_cuda_restore(saved);
    ev_log(&c->log, EV_LOG_DEBUG, "backend %s: the first frame's start took %.3f s",
           c->use_cuda ? "cuda" : "cpu", seconds_now() - t0);
    return err;
}

/* With worker threads on the CPU, the sequential registrations whose class has an
 * EvWindowScoring score in each frame's window pass (extractor.h): mark them, and keep the
 * largest lookback, which the slots' references are held for. */
static void choose_windowed(EvEngine *c)
{
    for (unsigned r = 0; r < c->n_reg; r++) {
        EvRegistration *reg = &c->reg[r];
        const EvWindowScoring *win = reg->run->window;
        if (!win || !(reg->run->flags & EV_FEX_SEQUENTIAL) || win->n_values > EV_WINDOW_MAX_VALUES)
            continue;
        const unsigned lookback = win->lookback(reg->state);
        if (lookback < 1 || lookback > EV_WINDOW_MAX_LOOKBACK)
            continue;
        reg->windowed = 1;
        if (lookback > c->lookback)
            c->lookback = lookback;
    }
}

/* start_stream's second half: extractors, slots, workers. */
static int start_workers(EvEngine *c)
{
    int err = 0;
    /* Pinned slots are costly (an 8K pair is 100 MB) and a handful of frames in flight keeps
     * the copy engine busy (bench_twins: 4 streams reach 94-97% of the copy bound), so a CUDA
     * context keeps at most EV_CUDA_MAX_SLOTS, whatever the thread count. Nothing is queued
     * yet, so the ring can shrink. */
    if (c->use_cuda && c->n_slots > EV_CUDA_MAX_SLOTS)
        c->n_slots = EV_CUDA_MAX_SLOTS;
    for (unsigned r = 0; r < c->n_reg; r++) {
        EvRegistration *reg = &c->reg[r];
        if ((err = reg->run->init(reg->state, reg->opts, &c->info, &c->log)))
            return err;
        reg->initialised = 1;
        reg->scratch_size = reg->run->scratch_size ? reg->run->scratch_size(reg->state) : 0;
        if (reg->run->flags & EV_FEX_SEQUENTIAL)
            c->has_ordered = 1;
        ev_log(&c->log, EV_LOG_DEBUG, "%s: %zu bytes of scratch per worker", reg->cls->name,
               reg->scratch_size);
    }
    const unsigned n_workers = c->n_threads < 2 ? 0 : c->n_threads;
    if (n_workers && !c->use_cuda)
        choose_windowed(c);
    /* a held reference keeps its slot: one more per frame held, so that as many frames as
     * before can be in flight (ev_engine_open made the room; nothing is queued yet) */
    c->n_slots += c->lookback;
    for (unsigned i = 0; i < c->n_slots && c->lookback; i++)
        if (!(c->slots[i].window_values =
                  calloc((size_t)c->n_reg * EV_WINDOW_MAX_VALUES, sizeof(double))))
            return -ENOMEM;
    /* the caller scores frames only when there are no workers: else it needs no scratch */
    err = n_workers ? 0 : alloc_scratch(c, &c->caller);
    for (unsigned i = 0; !err && i < n_workers; i++) {
        EvWorker *w = &c->workers[i];
        w->ctx = c;
        /* a CPU worker allocates (and so first touches) its own scratch, on its own core and
         * in parallel with the others (ev_worker_main): at 4K that is over 100 MB each */
        if (c->use_cuda && (err = alloc_scratch(c, w))) {
            ev_worker_free(c, w);
            break;
        }
        if (pthread_create(&w->thread, NULL, ev_worker_main, w)) {
            ev_worker_free(c, w);
            err = -ENOMEM;
            break;
        }
        c->n_workers = i + 1; /* ev_close joins the ones that started */
    }
    return err;
}

/* Describe a picture stored packed at buf (planes one after another). */
static void describe_packed(const EvPicInfo *info, uint8_t *buf, EvPic *pic)
{
    const unsigned bytes = info->bpc > 8 ? 2 : 1;
    memset(pic, 0, sizeof(*pic));
    pic->bpc = info->bpc;
    pic->layout = info->layout;
    for (unsigned p = 0; p < 3; p++) {
        ev_pic_plane_size(info->width, info->height, info->layout, p, &pic->w[p], &pic->h[p]);
        pic->stride[p] = (ptrdiff_t)pic->w[p] * bytes;
        pic->data[p] = pic->w[p] && pic->h[p] ? buf : NULL; /* 4:0:0 has no chroma */
        buf += (size_t)pic->stride[p] * pic->h[p];
    }
}

/* Slot s's packed pair (the reference's planes, then the distorted's) described in s->ref and
 * s->dis. Its buffer is made at the slot's first packed pair, pinned with CUDA (in the engine's
 * context), so that a context fed only device pictures or lent host planes holds none: at 4K
 * with 16 threads a CUDA context's slots were 850 MB of pinned memory, most of a ladder's
 * start. @return 0, or -ENOMEM (logged). */
static int pack_slot(EvEngine *c, EvSlot *s)
{
    if (!s->buf) {
        const size_t n = 2 * c->frame_bytes;
        void *saved = NULL;
        if (!c->use_cuda)
            s->buf = malloc(n);
        else if (!ev_cuda_enter(&c->cuda, &saved, &c->log)) {
            s->buf = ev_cuda_host_alloc(n);
            ev_cuda_restore(saved);
        }
        if (!s->buf) {
            ev_log(&c->log, EV_LOG_ERROR, "no memory for a frame slot (%zu bytes%s)", n,
                   c->use_cuda ? ", pinned" : "");
            return -ENOMEM;
        }
    }
    describe_packed(&c->info, s->buf, &s->ref);
    describe_packed(&c->info, s->buf + c->frame_bytes, &s->dis);
    return 0;
}

/* Copy a caller's picture into a packed picture. */
static void copy_picture(const EvPicture *src, const EvPic *dst)
{
    for (unsigned p = 0; p < 3; p++) {
        const size_t row = (size_t)dst->stride[p];
        uint8_t *out = (uint8_t *)dst->data[p];
        for (unsigned y = 0; y < dst->h[p]; y++)
            memcpy(out + y * row, (const uint8_t *)src->data[p] + (ptrdiff_t)y * src->stride[p],
                   row);
    }
}

static void set_error(EvEngine *c, int err)
{
    pthread_mutex_lock(&c->lock);
    if (!c->error)
        c->error = err;
    pthread_mutex_unlock(&c->lock);
}

/* Slot s's window pass (before its parallel pass, on the same worker): each windowed
 * registration's score() of the frame, its values into the slot for the ordered pass's emit(),
 * the earlier references read from the slots it holds. A frame of a many-encodes group has
 * none (its ordered pass scores through the group). */
static void run_window_pass(const EvEngine *c, const EvWorker *w, const EvSlot *s)
{
    const EvPic *prev[EV_WINDOW_MAX_LOOKBACK] = { NULL };
    for (unsigned k = 0; k < EV_WINDOW_MAX_LOOKBACK; k++)
        prev[k] = s->window_prev[k] ? &s->window_prev[k]->ref : NULL;
    for (unsigned r = 0; r < c->n_reg && w->scratch && !s->frame_group; r++) {
        const EvRegistration *reg = &c->reg[r];
        if (reg->windowed && ev_reg_runs_now(c, reg, s->frame, 1))
            reg->run->window->score(reg->state, w->scratch[r], &s->ref, prev, s->frame,
                                    s->window_values + (size_t)r * EV_WINDOW_MAX_VALUES);
    }
}

/* Run the extractors of one kind (sequential or parallel) on one slot. With CUDA the slot is
 * uploaded once here and every twin of the set reads that copy; the twins with a launch()
 * queue their work first, then every extractor writes its results (extractor.h). */
static int run_extractors(EvEngine *c, EvWorker *w, const EvSlot *s, int sequential)
{
    EvPic ref = s->ref, dis = s->dis;
    int twins = 0, luma_only = 1;
    for (unsigned r = 0; r < c->n_reg; r++)
        if (ev_reg_runs_now(c, &c->reg[r], s->frame, sequential) &&
            (c->reg[r].run->flags & EV_FEX_CUDA)) {
            twins = 1;
            if (!(c->reg[r].run->flags & EV_FEX_CUDA_LUMA))
                luma_only = 0;
        }
    int err = 0;
    if (twins && s->lent == EV_LENT_DEVICE)
        err = ev_cuda_adopt(w->gpu, &ref, &dis, s->wait_ready ? s->ready : NULL);
    else if (twins && s->lent == EV_LENT_HOST)
        err = ev_cuda_upload_planes(w->gpu, &ref, &dis, luma_only);
    else if (twins)
        err = ev_cuda_upload(w->gpu, s->buf, &ref, &dis, luma_only);
    const char *failed = err ? "upload" : NULL;
    for (unsigned r = 0; r < c->n_reg; r++) {
        const EvRegistration *reg = &c->reg[r];
        if (!ev_reg_runs_now(c, reg, s->frame, sequential) || !reg->run->launch)
            continue;
        const int e = err ? reg->run->launch(reg->state, w->scratch[r], NULL, NULL, s->frame)
                          : reg->run->launch(reg->state, w->scratch[r], &ref, &dis, s->frame);
        if (!err && e) {
            err = e;
            failed = reg->cls->name;
        }
    }
    if (err) {
        ev_log(&c->log, EV_LOG_ERROR, "%s: failed at frame %u (%s)", failed, s->frame,
               strerror(-err));
        return err;
    }
    for (unsigned r = 0; r < c->n_reg; r++) {
        const EvRegistration *reg = &c->reg[r];
        const int window = reg->windowed && !s->frame_group;
        if (!ev_reg_runs_now(c, reg, s->frame, sequential))
            continue;
        EvCollectorSink sink = ev_sink(&c->collector, s->frame, r);
        if (window)
            err = reg->run->window->emit(reg->state, w->scratch[r], &ref, s->frame,
                                         s->window_values + (size_t)r * EV_WINDOW_MAX_VALUES,
                                         &sink.base);
        else
            err = s->frame_group ? ev_group_extract(reg, w->scratch[r], s, &ref, &dis, &sink.base)
                                 : reg->run->extract(reg->state, w->scratch[r], &ref, &dis,
                                                     s->frame, &sink.base);
        if (err) {
            ev_log(&c->log, EV_LOG_ERROR, "%s: failed at frame %u (%s)", reg->cls->name, s->frame,
                   strerror(-err));
            return err;
        }
    }
    /* a lent pair is given back after its passes: nothing the twins queued may still read it */
    return twins && s->lent ? ev_cuda_finish(w->gpu, "finish a lent frame") : 0;
}

/* Give a lent pair back to its owner (once; lock not held). */
static void give_back(EvSlot *s)
{
    const EvReleaseCallback release = s->release;
    s->release = NULL;
    if (release)
        release(s->release_user);
}

void ev_engine_give_back_lent(EvEngine *c)
{
    for (unsigned i = 0; i < c->n_slots; i++)
        give_back(&c->slots[i]);
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A frame whose two passes ran is finished: its slot leaves the group's jobs and is free
 * (lock held, and held again on return). */
static void finish_slot(EvEngine *c, EvSlot *s)
{
    s->window_prev[0] = s->window_prev[1] = NULL;
    /* finishing: while the lock is let go below, no other thread may finish it again (several
     * may see it done: its own passes' threads, and those of the frames that held it) */
    s->dispatched = 0;
    pthread_mutex_unlock(&c->lock);
    give_back(s);
    ev_group_leave_slot(s);
    pthread_mutex_lock(&c->lock);
    s->busy = 0;
    pthread_cond_broadcast(&c->slot_free);
}

/* Finish s when both its passes ran and no later frame is still to read its reference (lock
 * held, and held again on return). */
static void finish_if_done(EvEngine *c, EvSlot *s)
{
    if (s->dispatched && !s->ordered_left && !s->parallel_left && !s->window_holds)
        finish_slot(c, s);
}

/* s's window pass ran: the earlier slots it read are held for one frame fewer (lock held,
 * and held again on return). */
static void drop_window_holds(EvEngine *c, EvSlot *s)
{
    for (unsigned k = 0; k < EV_WINDOW_MAX_LOOKBACK; k++) {
        EvSlot *p = s->window_prev[k];
        s->window_prev[k] = NULL;
        if (p) {
            p->window_holds--;
            finish_if_done(c, p);
        }
    }
}

/* The dispatched slot of the frame whose ordered pass is next, when that pass is still to run;
 * else NULL (lock held). */
static EvSlot *next_ordered(EvEngine *c)
{
    for (unsigned i = 0; i < c->n_slots; i++) {
        EvSlot *s = &c->slots[i];
        if (s->dispatched && s->ordered_left && s->frame == c->ordered_next && !s->window_left)
            return s;
    }
    return NULL;
}

/* Run the ordered passes that can run now, frame after frame, with w's scratch (lock held, and
 * held again on return). Only one thread runs them at a time; a thread finding them taken, or
 * the next frame not dispatched yet, goes on: whoever runs frame n's pass runs frame n + 1's
 * after it when that frame is dispatched by then, and the worker that takes a frame from the
 * queue runs its pass when it is the next one. So no thread waits for another's frame. */
static void run_ordered(EvEngine *c, EvWorker *w)
{
    EvSlot *s;
    while (c->has_ordered && !c->ordered_running && (s = next_ordered(c))) {
        c->ordered_running = 1;
        pthread_mutex_unlock(&c->lock);
        const double t0 = seconds_now();
        const int err = w->scratch ? run_extractors(c, w, s, 1) : -ENOMEM;
        const double t1 = seconds_now();
        pthread_mutex_lock(&c->lock);
        w->t_ordered += t1 - t0;
        if (err && !c->error)
            c->error = err;
        c->ordered_running = 0;
        c->ordered_next++;
        s->ordered_left = 0;
        finish_if_done(c, s);
    }
}

/* Run the frame at the head of the queue with w's scratch (lock held, and held again on
 * return): its parallel pass, and the ordered passes that are runnable before and after it;
 * the first error kept. */
static void run_queued(EvEngine *c, EvWorker *w)
{
    EvSlot *s = &c->slots[c->queue[c->q_head]];
    c->q_head = (c->q_head + 1) % c->n_slots;
    c->q_len--;
    run_ordered(c, w);
    pthread_mutex_unlock(&c->lock);
    const double t0 = seconds_now();
    if (s->window_left) {
        /* first the windowed scores: then the earlier references go, and the frame's ordered
         * pass may run while its parallel pass does */
        run_window_pass(c, w, s);
        pthread_mutex_lock(&c->lock);
        s->window_left = 0;
        drop_window_holds(c, s);
        run_ordered(c, w);
        pthread_mutex_unlock(&c->lock);
    }
    const int err = w->scratch ? run_extractors(c, w, s, 0) : -ENOMEM;
    const double t1 = seconds_now();
    pthread_mutex_lock(&c->lock);
    w->t_parallel += t1 - t0;
    w->n_frames++;
    if (err && !c->error)
        c->error = err;
    s->parallel_left = 0;
    finish_if_done(c, s);
    run_ordered(c, w);
}

void *ev_worker_main(void *arg)
{
    EvWorker *w = arg;
    EvEngine *c = w->ctx;
    /* without its scratch, the worker still takes frames, failing them (-ENOMEM): none waits */
    const double t_setup = seconds_now();
    const int err = w->scratch ? 0 : alloc_scratch(c, w);
    const double setup = seconds_now() - t_setup; /* before it first takes the lock */
    if (err)
        ev_worker_free(c, w);
    pthread_mutex_lock(&c->lock);
    w->t_setup = setup; /* under the lock: a flush's schedule line may read it before this
                         * worker has started (found by ThreadSanitizer in unit_window) */
    if (err) {
        ev_log(&c->log, EV_LOG_ERROR, "worker: no memory for its scratch");
        if (!c->error)
            c->error = err;
    }
    for (;;) {
        const double t0 = seconds_now();
        while (!c->q_len && !c->stopping)
            pthread_cond_wait(&c->work_ready, &c->lock);
        w->t_idle += seconds_now() - t0;
        if (!c->q_len)
            break;
        run_queued(c, w);
    }
    pthread_mutex_unlock(&c->lock);
    return NULL;
}

static EvSlot *take_free_slot(EvEngine *c)
{
    pthread_mutex_lock(&c->lock);
    EvSlot *s = NULL;
    const double t0 = seconds_now();
    while (!s) {
        for (unsigned i = 0; i < c->n_slots && !s; i++)
            if (!c->slots[i].busy)
                s = &c->slots[i];
        if (!s)
            pthread_cond_wait(&c->slot_free, &c->lock);
    }
    c->caller.t_wait += seconds_now() - t0;
    s->busy = 1;
    s->lent = EV_LENT_NONE;
    s->release = NULL;
    pthread_mutex_unlock(&c->lock);
    return s;
}

static void release_slot(EvEngine *c, EvSlot *s)
{
    give_back(s);
    ev_group_leave_slot(s);
    pthread_mutex_lock(&c->lock);
    s->busy = 0;
    pthread_cond_broadcast(&c->slot_free);
    pthread_mutex_unlock(&c->lock);
}

/* The slot of frame, dispatched and not finished (lock held), or NULL. */
static EvSlot *slot_of_frame(EvEngine *c, unsigned frame)
{
    for (unsigned i = 0; i < c->n_slots; i++)
        if (c->slots[i].dispatched && c->slots[i].frame == frame)
            return &c->slots[i];
    return NULL;
}

/* A new frame s with windowed registrations: it reads the references of the lookback frames
 * before it, still held for it (their window_holds count it), and its own reference is held
 * for the lookback frames after it (lock held). */
static void hold_window(EvEngine *c, EvSlot *s)
{
    s->window_holds = c->lookback;
    s->window_left = c->lookback > 0;
    for (unsigned k = 0; k < EV_WINDOW_MAX_LOOKBACK; k++)
        s->window_prev[k] =
            k < c->lookback && s->frame > k ? slot_of_frame(c, s->frame - 1 - k) : NULL;
}

/* At the flush no frame follows the last ones: drop their holds for the frames that will
 * never come (lock not held). */
static void drop_final_holds(EvEngine *c)
{
    pthread_mutex_lock(&c->lock);
    for (unsigned i = 0; i < c->n_slots; i++) {
        EvSlot *s = &c->slots[i];
        if (!s->dispatched || !s->window_holds)
            continue;
        for (unsigned k = 1; k <= c->lookback; k++)
            if (s->frame + k >= c->n_frames)
                s->window_holds--;
        finish_if_done(c, s);
    }
    pthread_mutex_unlock(&c->lock);
}

/* A filled slot becomes frame n, queued for the workers (with no workers, both passes run
 * now). group: the group whose aligned contexts get this reference as their frame n, or NULL. */
static int dispatch(EvEngine *c, EvSlot *s, EvGroup *group)
{
    s->frame = c->n_frames++;
    s->frame_group = group ? ev_group_retain(group) : NULL; /* released with the slot */
    if (!c->n_workers) {
        /* on the caller's thread, which gets its CUDA context back */
        void *const saved = c->use_cuda ? ev_cuda_current_context() : NULL;
        int err = run_extractors(c, &c->caller, s, 1);
        if (!err)
            err = run_extractors(c, &c->caller, s, 0);
        if (c->use_cuda)
            ev_cuda_restore(saved);
        if (err)
            set_error(c, err);
        release_slot(c, s);
        return err;
    }
    pthread_mutex_lock(&c->lock);
    s->dispatched = 1;
    s->ordered_left = c->has_ordered;
    s->parallel_left = 1;
    hold_window(c, s);
    c->queue[(c->q_head + c->q_len) % c->n_slots] = (unsigned)(s - c->slots);
    c->q_len++;
    pthread_cond_signal(&c->work_ready);
    pthread_mutex_unlock(&c->lock);
    return 0;
}

/* The checks every new frame passes: state, geometry, earlier errors. */
static int admit_frame(EvEngine *c, const EvPicture *ref)
{
    if (c->flushed) {
        ev_log(&c->log, EV_LOG_ERROR, "pictures sent after flush");
        return -EINVAL;
    }
    if (c->borrowed) {
        ev_log(&c->log, EV_LOG_ERROR, "a borrowed pair has not been submitted");
        return -EINVAL;
    }
    int err;
    if (!c->have_geometry) {
        if ((err = start_stream(c, ref)))
            return c->error = err;
    } else if (!same_geometry(ref, &c->info)) {
        ev_log(&c->log, EV_LOG_ERROR,
               "frame %u is %ux%u %u-bit %s, but the first frame was %ux%u %u-bit %s", c->n_frames,
               ref->width, ref->height, ref->bitdepth, ev_pic_layout_name(ref->layout),
               c->info.width, c->info.height, c->info.bpc, ev_pic_layout_name(c->info.layout));
        return -EINVAL;
    }
    return c->error;
}

/* This context's frames are its own from now on: it shares nothing more with its group. */
static void leave_group(EvEngine *c)
{
    ev_group_release(c->group);
    c->group = NULL;
}

/* Check a pair and copy it into a free slot (*slot), not yet dispatched. */
static int prepare_pair(EvEngine *const c, const EvPicture *const ref, const EvPicture *const dis,
                        EvSlot **slot)
{
    int err = check_picture(c, ref, "reference");
    if (!err)
        err = check_picture(c, dis, "distorted");
    if (err)
        return err;
    if (ref->width != dis->width || ref->height != dis->height || ref->bitdepth != dis->bitdepth ||
        ref->layout != dis->layout) {
        ev_log(&c->log, EV_LOG_ERROR,
               "reference (%ux%u %u-bit %s) and distorted (%ux%u %u-bit %s) differ", ref->width,
               ref->height, ref->bitdepth, ev_pic_layout_name(ref->layout), dis->width, dis->height,
               dis->bitdepth, ev_pic_layout_name(dis->layout));
        return -EINVAL;
    }
    if ((err = admit_frame(c, ref)))
        return err;
    EvSlot *s = take_free_slot(c);
    if ((err = pack_slot(c, s))) {
        release_slot(c, s);
        return err;
    }
    copy_picture(ref, &s->ref);
    copy_picture(dis, &s->dis);
    *slot = s;
    return 0;
}

static int send_pair(EvEngine *const c, const EvPicture *const ref, const EvPicture *const dis,
                     EvGroup *group)
{
    EvSlot *s;
    const int err = prepare_pair(c, ref, dis, &s);
    return err ? err : dispatch(c, s, group);
}

int ev_engine_send(EvEngine *const c, const EvPicture *const ref, const EvPicture *const dis)
{
    if (!c)
        return -EINVAL;
    leave_group(c);
    return send_pair(c, ref, dis, NULL);
}

/* The group of one many-encodes call over the contexts taking a frame (ctx[i] != NULL, and
 * dis[i] != NULL when dis is given): their common group when each is aligned with it (has
 * pushed exactly the group's frames), a new one at the first call of two or more fresh
 * contexts, else NULL, and then each of them leaves its group. */
static EvGroup *call_group(EvEngine *const *ctx, unsigned n, const EvPicture *const *dis)
{
    EvGroup *g = NULL;
    unsigned taking = 0;
    int aligned = 1, fresh = 1;
    for (unsigned i = 0; i < n; i++) {
        EvEngine *const c = ctx[i];
        if (!c || (dis && !dis[i]))
            continue;
        if (!taking++)
            g = c->group;
        if (!g || c->group != g || c->n_frames != ev_group_frames(g))
            aligned = 0;
        if (c->group || c->n_frames)
            fresh = 0;
    }
    if (aligned)
        return g;
    g = fresh && taking > 1 ? ev_group_new() : NULL;
    for (unsigned i = 0; i < n; i++) {
        EvEngine *const c = ctx[i];
        if (!c || (dis && !dis[i]))
            continue;
        leave_group(c);
        if (g)
            c->group = ev_group_retain(g);
    }
    ev_group_release(g); /* the contexts hold it */
    return g;
}

/* One context per distorted, each given its own copy of the reference; the contexts aligned
 * with one group run the frame as a group (core/group.h): every member's pair is in its slot,
 * joined to the group's jobs, before the first is dispatched. */
int ev_engine_send_multi(EvEngine *const *const ctx, const unsigned n, const EvPicture *const ref,
                         const EvPicture *const *const dis)
{
    if (!ctx || !dis)
        return -EINVAL;
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; ctx[i] && k < i; k++)
            if (ctx[k] == ctx[i]) {
                ev_log(&ctx[i]->log, EV_LOG_ERROR, "many encodes: context %u is context %u", i, k);
                return -EINVAL;
            }
    EvGroup *const g = call_group(ctx, n, dis);
    EvSlot *stack[16] = { NULL }, **slots = n <= 16 ? stack : calloc(n, sizeof(*slots));
    int err = 0;
    for (unsigned i = 0; i < n && !err; i++) {
        if (!ctx[i] || !dis[i])
            continue; /* that distorted has ended */
        if (!slots) { /* no memory for the slots' list: push each at once, alone */
            err = send_pair(ctx[i], ref, dis[i], g);
            continue;
        }
        if ((err = prepare_pair(ctx[i], ref, dis[i], &slots[i])) == 0)
            ev_group_join_slot(ctx[i], slots[i], g);
    }
    /* the pairs prepared before a failure are pushed */
    for (unsigned i = 0; slots && i < n; i++) {
        if (!ctx[i] || !dis[i] || !slots[i])
            continue;
        const int e = dispatch(ctx[i], slots[i], g);
        err = err ? err : e;
    }
    if (slots != stack)
        free(slots);
    if (g)
        ev_group_advance(g);
    return err;
}

/* A caller's picture as the engine's, its planes where they are: in data (on the host) or in
 * dev (on the device). */
static void describe_lent(const EvPicture *p, int on_device, EvPic *out)
{
    memset(out, 0, sizeof(*out));
    out->bpc = p->bitdepth;
    out->layout = p->layout;
    for (unsigned i = 0; i < 3; i++) {
        ev_pic_plane_size(p->width, p->height, p->layout, i, &out->w[i], &out->h[i]);
        if (!out->w[i] || !out->h[i])
            continue;
        out->stride[i] = p->stride[i];
        if (on_device)
            out->dev[i] = p->data[i];
        else
            out->data[i] = p->data[i];
    }
}

/* Whether the CPU kernels can read the pair in place: one stride per plane for both pictures
 * (they index ref and dis rows alike). */
static int same_strides(const EvPicture *ref, const EvPicture *dis)
{
    for (unsigned i = 0; i < 3; i++) {
        unsigned pw, ph;
        ev_pic_plane_size(ref->width, ref->height, ref->layout, i, &pw, &ph);
        if (pw && ph && ref->stride[i] != dis->stride[i])
            return 0;
    }
    return 1;
}

/* Whether the twins can read a device pair in place: packed rows, as a frame slot's (the plane
 * sums read a plane as one run of samples). */
static int packed_rows(const EvPicture *p)
{
    const unsigned bytes = p->bitdepth > 8 ? 2 : 1;
    for (unsigned i = 0; i < 3; i++) {
        unsigned pw, ph;
        ev_pic_plane_size(p->width, p->height, p->layout, i, &pw, &ph);
        if (pw && ph && p->stride[i] != (ptrdiff_t)pw * bytes)
            return 0;
    }
    return 1;
}

/* A device picture's 16-bit samples must be 2-byte aligned (the twins read them as uint16). */
static int check_device_alignment(EvEngine *c, const EvPicture *p, const char *which)
{
    if (p->bitdepth == 8)
        return 0;
    for (unsigned i = 0; i < 3; i++) {
        unsigned pw, ph;
        ev_pic_plane_size(p->width, p->height, p->layout, i, &pw, &ph);
        if (pw && ph && (((uintptr_t)p->data[i] | (uintptr_t)p->stride[i]) & 1)) {
            ev_log(&c->log, EV_LOG_ERROR,
                   "%s device picture: plane %u's 16-bit samples are not 2-byte aligned", which, i);
            return -EINVAL;
        }
    }
    return 0;
}

/* The packed device copy of a slot (its first use makes it), described as ref and dis. */
static int device_copy_of(EvEngine *c, EvSlot *s)
{
    if (!s->dev_buf) {
        const int err = ev_cuda_device_alloc(2 * c->frame_bytes, &s->dev_buf, &c->log);
        if (err)
            return err;
    }
    EvPic *pics[2] = { &s->ref, &s->dis };
    uint8_t *at = s->dev_buf;
    for (unsigned k = 0; k < 2; k++) {
        describe_packed(&c->info, at, pics[k]);
        for (unsigned i = 0; i < 3; i++) {
            pics[k]->dev[i] = pics[k]->data[i];
            pics[k]->data[i] = NULL;
        }
        at += c->frame_bytes;
    }
    return 0;
}

/* Fill slot s with a device pair: in place (release kept for the finish), or copied into the
 * slot's device copy (on the CUDA backend) or its host buffer (on the CPU backend) after the
 * caller's work on stream, and released at once. With the engine's context current. */
static int fill_from_device(EvEngine *c, EvSlot *s, const EvPicture *ref, const EvPicture *dis,
                            void *stream, EvReleaseCallback release, void *user)
{
    EvPic src_ref, src_dis;
    describe_lent(ref, 1, &src_ref);
    describe_lent(dis, 1, &src_dis);
    int err;
    if (c->use_cuda && release && packed_rows(ref) && packed_rows(dis)) {
        s->ref = src_ref;
        s->dis = src_dis;
        s->lent = EV_LENT_DEVICE;
        s->release = release;
        s->release_user = user;
        s->wait_ready = 1;
        return ev_cuda_event_record(&s->ready, stream, &c->log);
    }
    if (c->use_cuda) {
        err = device_copy_of(c, s);
        if (!err)
            err = ev_cuda_copy_device_picture(&src_ref, &s->ref, 1, stream, &c->log);
        if (!err)
            err = ev_cuda_copy_device_picture(&src_dis, &s->dis, 1, stream, &c->log);
        s->lent = EV_LENT_DEVICE;
        s->release = NULL;
        s->wait_ready = 0; /* the copy waited for the stream */
    } else {
        err = pack_slot(c, s);
        if (!err)
            err = ev_cuda_copy_device_picture(&src_ref, &s->ref, 0, stream, &c->log);
        if (!err)
            err = ev_cuda_copy_device_picture(&src_dis, &s->dis, 0, stream, &c->log);
    }
    if (release)
        release(user);
    return err;
}

int ev_engine_lend(EvEngine *const c, const EvPicture *const ref, const EvPicture *const dis,
                   const int on_device, void *const stream, const EvReleaseCallback release,
                   void *const user)
{
    if (!c || (!on_device && !release)) {
        if (release)
            release(user);
        return -EINVAL;
    }
    const char *what = on_device ? "device" : "lent";
    int err = check_picture(c, ref, "reference");
    if (!err)
        err = check_picture(c, dis, "distorted");
    if (!err && on_device)
        err = check_device_alignment(c, ref, "reference");
    if (!err && on_device)
        err = check_device_alignment(c, dis, "distorted");
    if (!err && (ref->width != dis->width || ref->height != dis->height ||
                 ref->bitdepth != dis->bitdepth || ref->layout != dis->layout)) {
        ev_log(&c->log, EV_LOG_ERROR, "%s pictures: reference and distorted differ", what);
        err = -EINVAL;
    }
    if (!err)
        err = admit_frame(c, ref);
    if (err) {
        if (release)
            release(user);
        return err;
    }
    leave_group(c);
    EvSlot *s = take_free_slot(c);
    if (on_device) {
        void *saved = NULL;
        err = ev_cuda_enter(&c->cuda, &saved, &c->log);
        if (!err)
            err = fill_from_device(c, s, ref, dis, stream, release, user);
        else if (release)
            release(user);
        ev_cuda_restore(saved);
    } else if (same_strides(ref, dis)) {
        describe_lent(ref, 0, &s->ref);
        describe_lent(dis, 0, &s->dis);
        s->lent = EV_LENT_HOST;
        s->release = release;
        s->release_user = user;
    } else {
        err = pack_slot(c, s);
        if (!err) {
            copy_picture(ref, &s->ref);
            copy_picture(dis, &s->dis);
        }
        release(user);
    }
    if (err) {
        release_slot(c, s);
        set_error(c, err);
        return err;
    }
    return dispatch(c, s, NULL);
}

int ev_engine_device_memory(EvEngine *const c, const size_t bytes, void **const out, const int zero,
                            void *const free_this)
{
    if (!c)
        return -EINVAL;
    char why[256] = "";
    int err = ev_backend_place(c, why, sizeof(why));
    if (err) {
        ev_log(&c->log, EV_LOG_ERROR, "device memory: %s", why);
        return err;
    }
    void *saved = NULL;
    if ((err = ev_cuda_enter(&c->cuda, &saved, &c->log)))
        return err;
    if (free_this)
        ev_cuda_device_free(free_this);
    else if (zero)
        err = ev_cuda_device_zero(*out, bytes, &c->log);
    else
        err = ev_cuda_device_alloc(bytes, out, &c->log);
    ev_cuda_restore(saved);
    return err;
}

static void public_view(const EvPic *p, EvPicture *out)
{
    *out = (EvPicture){ p->w[0], p->h[0], p->bpc, p->layout, { 0 }, { 0 } };
    for (unsigned i = 0; i < 3; i++) {
        out->data[i] = p->data[i];
        out->stride[i] = p->stride[i];
    }
}

int ev_engine_borrow(EvEngine *const c, const unsigned width, const unsigned height,
                     const unsigned bitdepth, const EvPixelLayout layout, EvPicture *const ref,
                     EvPicture *const dis)
{
    if (!c || !ref || !dis)
        return -EINVAL;
    memset(ref, 0, sizeof(*ref));
    memset(dis, 0, sizeof(*dis));
    static const uint8_t probe[1];
    const EvPicture want = { width,
                             height,
                             bitdepth,
                             layout,
                             { probe, probe, probe },
                             { (ptrdiff_t)width * 2, (ptrdiff_t)width * 2, (ptrdiff_t)width * 2 } };
    int err = check_picture(c, &want, "borrowed");
    if (!err)
        err = admit_frame(c, &want);
    if (err)
        return err;
    EvSlot *s = take_free_slot(c);
    if ((err = pack_slot(c, s))) {
        release_slot(c, s);
        return err;
    }
    public_view(&s->ref, ref);
    public_view(&s->dis, dis);
    s->group = NULL;
    s->group_ref = NULL;
    c->borrowed = s;
    return 0;
}

static int submit_pair(EvEngine *const c, EvGroup *group)
{
    EvSlot *s = c->borrowed;
    c->borrowed = NULL;
    return dispatch(c, s, group);
}

int ev_engine_submit(EvEngine *const c)
{
    if (!c || !c->borrowed)
        return -EINVAL;
    leave_group(c);
    return submit_pair(c, NULL);
}

void ev_engine_return(EvEngine *const c)
{
    if (!c || !c->borrowed)
        return;
    release_slot(c, c->borrowed);
    c->borrowed = NULL;
}

/* The first context still taking frames, or NULL. */
static EvEngine *first_taking(EvEngine *const *ctx, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (ctx[i])
            return ctx[i];
    return NULL;
}

int ev_engine_borrow_multi(EvEngine *const *const ctx, const unsigned n, const unsigned width,
                           const unsigned height, const unsigned bitdepth,
                           const EvPixelLayout layout, EvPicture *const ref, EvPicture *const dis)
{
    if (!ctx || !ref || !dis)
        return -EINVAL;
    memset(ref, 0, sizeof(*ref));
    memset(dis, 0, n * sizeof(*dis));
    EvEngine *const first = first_taking(ctx, n);
    if (!first)
        return -EINVAL;
    for (unsigned i = 0; i < n; i++) {
        if (!ctx[i])
            continue;
        EvPicture own_ref;
        const int err = ev_engine_borrow(ctx[i], width, height, bitdepth, layout,
                                         ctx[i] == first ? ref : &own_ref, &dis[i]);
        if (err) {
            ev_engine_return_multi(ctx, i);
            memset(ref, 0, sizeof(*ref));
            memset(dis, 0, n * sizeof(*dis));
            return err;
        }
    }
    /* frame numbers are fixed now (no pair can be pushed while one is borrowed): the group
     * of this frame is decided here, for the submits that give this reference */
    EvGroup *const g = call_group(ctx, n, NULL);
    for (unsigned i = 0; i < n; i++)
        if (ctx[i]) {
            ctx[i]->borrowed->group = g;
            ctx[i]->borrowed->group_ref = ref->data[0];
        }
    if (g)
        ev_group_advance(g);
    return 0;
}

int ev_engine_submit_multi(EvEngine *const *const ctx, const unsigned n, const EvPicture *const ref)
{
    if (!ctx || !ref)
        return -EINVAL;
    /* first every pair is checked and its slot given the reference, then the group's pairs of
     * this call join its jobs (a distorted joins only once submitted: until then the caller may
     * still be writing it), then they are dispatched */
    unsigned char stack[64] = { 0 }, *ready = n <= 64 ? stack : calloc(n, 1);
    int err = 0;
    for (unsigned i = 0; i < n; i++) {
        EvEngine *const c = ctx[i];
        if (!c)
            continue;
        if (!c->borrowed) {
            ev_log(&c->log, EV_LOG_ERROR, "submit: no borrowed pair");
            err = err ? err : -EINVAL;
            continue;
        }
        if (err) { /* an earlier one failed: this pair is given back, not pushed */
            ev_engine_return(c);
            continue;
        }
        EvSlot *const s = c->borrowed;
        if (ref->data[0] != s->ref.data[0]) { /* not this slot's own half: copy it in */
            err = check_picture(c, ref, "reference");
            if (!err && !same_geometry(ref, &c->info)) {
                ev_log(&c->log, EV_LOG_ERROR, "submit: the reference is not the borrowed size");
                err = -EINVAL;
            }
            if (err) {
                ev_engine_return(c);
                continue;
            }
            copy_picture(ref, &s->ref);
        }
        if (ref->data[0] != s->group_ref || !s->group)
            leave_group(c); /* another reference than the group's: its frames are its own */
        if (!ready) {       /* no memory for the list: pushed at once, alone */
            const int e = submit_pair(c, ref->data[0] == s->group_ref ? s->group : NULL);
            err = err ? err : e;
            continue;
        }
        ready[i] = 1;
    }
    for (unsigned i = 0; ready && i < n; i++)
        if (ready[i] && ctx[i]->group)
            ev_group_join_slot(ctx[i], ctx[i]->borrowed, ctx[i]->borrowed->group);
    for (unsigned i = 0; ready && i < n; i++) {
        if (!ready[i])
            continue;
        EvSlot *const s = ctx[i]->borrowed;
        const int e = submit_pair(ctx[i], ctx[i]->group ? s->group : NULL);
        err = err ? err : e;
    }
    if (ready != stack)
        free(ready);
    return err;
}

void ev_engine_return_multi(EvEngine *const *const ctx, const unsigned n)
{
    for (unsigned i = 0; ctx && i < n; i++)
        ev_engine_return(ctx[i]);
}

static void wait_idle(EvEngine *c)
{
    pthread_mutex_lock(&c->lock);
    for (;;) {
        unsigned busy = 0;
        for (unsigned i = 0; i < c->n_slots; i++)
            busy += c->slots[i].busy;
        if (!busy)
            break;
        pthread_cond_wait(&c->slot_free, &c->lock);
    }
    pthread_mutex_unlock(&c->lock);
}

/* Where the threads' time went (a debug line, for bench/stages.sh's questions): the workers'
 * waits and passes, summed, and the caller's waits for a free slot (the rest of its time is
 * the reading, outside the engine). */
static void log_schedule(EvEngine *c)
{
    EvWorker sum = { 0 };
    pthread_mutex_lock(&c->lock);
    for (unsigned i = 0; i < c->n_workers; i++) {
        sum.t_idle += c->workers[i].t_idle;
        sum.t_setup += c->workers[i].t_setup;
        sum.t_parallel += c->workers[i].t_parallel;
        sum.t_ordered += c->workers[i].t_ordered;
        sum.n_frames += c->workers[i].n_frames;
    }
    const EvWorker caller = c->caller;
    pthread_mutex_unlock(&c->lock);
    ev_log(&c->log, EV_LOG_DEBUG,
           "schedule: %u workers, %u slots: scratch set-up %.3f s, idle %.3f s, parallel %.3f s "
           "(%u frames), ordered %.3f s; caller: waiting for a slot %.3f s",
           c->n_workers, c->n_slots, sum.t_setup, sum.t_idle, sum.t_parallel, sum.n_frames,
           sum.t_ordered, caller.t_wait);
}

int ev_engine_flush(EvEngine *const c)
{
    if (!c)
        return -EINVAL;
    if (c->flushed)
        return c->error;
    if (c->borrowed) {
        ev_log(&c->log, EV_LOG_WARNING, "flush: a borrowed pair was never submitted; dropped");
        release_slot(c, c->borrowed);
        c->borrowed = NULL;
    }
    if (c->lookback)
        drop_final_holds(c);
    wait_idle(c);
    log_schedule(c);
    c->flushed = 1;
    /* the twins' flush runs in the engine's context; the caller's thread gets its own back */
    void *saved = NULL;
    if (c->use_cuda && ev_cuda_enter(&c->cuda, &saved, &c->log) && !c->error)
        c->error = -EIO;
    for (unsigned r = 0; r < c->n_reg && !c->error; r++) {
        EvRegistration *reg = &c->reg[r];
        if (!reg->initialised || !reg->run->flush)
            continue;
        EvCollectorSink sink = ev_sink(&c->collector, EV_EPOCH_FLUSH, r);
        const int err = reg->run->flush(reg->state, c->n_frames, &sink.base);
        if (err) {
            ev_log(&c->log, EV_LOG_ERROR, "%s: flush failed (%s)", reg->cls->name, strerror(-err));
            c->error = err;
        }
    }
    if (c->use_cuda)
        ev_cuda_restore(saved);
    return c->error;
}
