/* Reference-side values shared by a many-encodes group (see refshare.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine_internal.h"
#include "core/groupjob.h"
#include "core/refshare.h"

/* Frames kept per table: the contexts of a group are fed in lockstep (their sequential
 * extractors run at dispatch, one frame apart at most), so a small ring suffices; a frame that
 * fell out of it is computed again, never taken wrong. */
#define SHARE_RING 256
#define SHARE_MAX_VALUES 4

enum { ENTRY_EMPTY, ENTRY_COMPUTING, ENTRY_DONE };

typedef struct ShareEntry {
    unsigned frame;
    int state;
    double v[SHARE_MAX_VALUES];
} ShareEntry;

typedef struct ShareTable {
    struct ShareTable *next;
    const struct EvExtractorClass *cls;
    size_t opts_size;
    void *opts;
    ShareEntry ring[SHARE_RING];
} ShareTable;

struct EvRefShare {
    pthread_mutex_t lock;
    pthread_cond_t done; /* an entry was published */
    unsigned refs;
    unsigned frames;
    unsigned long published, taken;
    ShareTable *tables;
    EvGroupJobs *jobs;
};

EvRefShare *ev_refshare_new(void)
{
    EvRefShare *g = calloc(1, sizeof(*g));
    if (!g)
        return NULL;
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->done, NULL);
    g->refs = 1;
    g->jobs = ev_group_jobs_new(); /* NULL: every member computes alone */
    return g;
}

EvRefShare *ev_refshare_retain(EvRefShare *g)
{
    pthread_mutex_lock(&g->lock);
    g->refs++;
    pthread_mutex_unlock(&g->lock);
    return g;
}

void ev_refshare_release(EvRefShare *g)
{
    if (!g)
        return;
    pthread_mutex_lock(&g->lock);
    const unsigned left = --g->refs;
    pthread_mutex_unlock(&g->lock);
    if (left)
        return;
    for (ShareTable *t = g->tables, *next; t; t = next) {
        next = t->next;
        free(t->opts);
        free(t);
    }
    ev_group_jobs_free(g->jobs);
    pthread_cond_destroy(&g->done);
    pthread_mutex_destroy(&g->lock);
    free(g);
}

unsigned ev_refshare_frames(const EvRefShare *g)
{
    return g->frames;
}

void ev_refshare_advance(EvRefShare *g)
{
    g->frames++;
}

EvGroupJobs *ev_refshare_jobs(EvRefShare *g)
{
    return g->jobs;
}

/* The table of (cls, opts), created when missing; lock held. NULL when out of memory. */
static ShareTable *table_of(EvRefShare *g, const struct EvExtractorClass *cls, const void *opts,
                            size_t opts_size)
{
    for (ShareTable *t = g->tables; t; t = t->next)
        if (t->cls == cls && t->opts_size == opts_size && !memcmp(t->opts, opts, opts_size))
            return t;
    ShareTable *t = calloc(1, sizeof(*t));
    void *copy = malloc(opts_size ? opts_size : 1);
    if (!t || !copy) {
        free(t);
        free(copy);
        return NULL;
    }
    memcpy(copy, opts, opts_size);
    *t = (ShareTable){ g->tables, cls, opts_size, copy, { { 0 } } };
    g->tables = t;
    return t;
}

EvShareTake ev_refshare_take(EvRefShare *g, const struct EvExtractorClass *cls, const void *opts,
                             size_t opts_size, unsigned frame, double *values, unsigned n)
{
    if (n > SHARE_MAX_VALUES)
        return EV_SHARE_ALONE;
    pthread_mutex_lock(&g->lock);
    ShareTable *t = table_of(g, cls, opts, opts_size);
    EvShareTake got = EV_SHARE_ALONE;
    ShareEntry *e = t ? &t->ring[frame % SHARE_RING] : NULL;
    while (e && e->frame == frame && e->state == ENTRY_COMPUTING)
        pthread_cond_wait(&g->done, &g->lock);
    if (!e) {
        got = EV_SHARE_ALONE;
    } else if (e->frame == frame && e->state == ENTRY_DONE) {
        memcpy(values, e->v, n * sizeof(*values));
        g->taken++;
        got = EV_SHARE_TAKEN;
    } else if (e->state != ENTRY_COMPUTING) { /* empty, or an older frame's: claim it */
        e->frame = frame;
        e->state = ENTRY_COMPUTING;
        got = EV_SHARE_COMPUTE;
    } /* else another frame is being computed in this entry: compute alone */
    pthread_mutex_unlock(&g->lock);
    return got;
}

void ev_refshare_put(EvRefShare *g, const struct EvExtractorClass *cls, const void *opts,
                     size_t opts_size, unsigned frame, const double *values, unsigned n)
{
    pthread_mutex_lock(&g->lock);
    ShareTable *t = table_of(g, cls, opts, opts_size);
    ShareEntry *e = t ? &t->ring[frame % SHARE_RING] : NULL;
    if (e && e->frame == frame && e->state == ENTRY_COMPUTING) {
        memcpy(e->v, values, n * sizeof(*values));
        e->state = ENTRY_DONE;
        g->published++;
    }
    pthread_cond_broadcast(&g->done);
    pthread_mutex_unlock(&g->lock);
}

void ev_refshare_counts(EvRefShare *g, unsigned long *published, unsigned long *taken)
{
    pthread_mutex_lock(&g->lock);
    *published = g->published;
    *taken = g->taken;
    pthread_mutex_unlock(&g->lock);
}

/* Withdraw the slot's distorted from its group's jobs: after its frame's extractors, and before
 * a slot is given back or freed. */
void ev_slot_leave_jobs(EvSlot *s)
{
    if (!s->joined)
        return;
    EvGroupJobs *j = ev_refshare_jobs(s->joined);
    if (j)
        ev_group_leave(j, s->joined_frame, &s->dis);
    ev_refshare_release(s->joined);
    s->joined = NULL;
}

/* Join the slot (to be dispatched as c's next frame) to the jobs of group g. */
void ev_slot_join_jobs(EvEngine *c, EvSlot *s, EvRefShare *g)
{
    EvGroupJobs *j = g ? ev_refshare_jobs(g) : NULL;
    if (!j || c->use_cuda || ev_group_join(j, c->n_frames, c, &s->dis))
        return;
    s->joined = ev_refshare_retain(g);
    s->joined_frame = c->n_frames;
}

int ev_group_values(const void *state, void *scratch, const EvPic *ref, const EvPic *dis,
                    const unsigned frame, double *values, const unsigned n_values,
                    size_t (*scratch_size)(const void *state, unsigned n),
                    void (*score)(const void *state, void *scratch, const EvPic *ref,
                                  EvGroupJob *job))
{
    EvGroupJobs *j = ref->share ? ev_refshare_jobs(ref->share) : NULL;
    EvGroupJob job;
    switch (j ? ev_group_take(j, state, frame, dis, values, n_values, scratch_size, &job)
              : EV_SHARE_ALONE) {
    case EV_SHARE_TAKEN: return 1;
    case EV_SHARE_COMPUTE:
        score(state, scratch, ref, &job);
        memcpy(values, job.values, n_values * sizeof(*values)); /* member 0: the caller */
        ev_group_put(j, &job);
        return 1;
    default: return 0;
    }
}
