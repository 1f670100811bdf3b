/* The many-encodes group (see group.h): its life, the by_reference values and the runs. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/group.h"
#include "core/group_jobs.h"

/* Frames kept per table: the contexts of a group are fed in lockstep and each has at most its
 * frame slots in flight, so their frames stay close and a small ring suffices; a frame that
 * fell out of it is computed again, never taken wrong. */
#define VALUES_RING 256
#define VALUES_MAX 4

enum { ENTRY_EMPTY, ENTRY_COMPUTING, ENTRY_DONE };

typedef struct ValuesEntry {
    unsigned frame;
    int state;
    double v[VALUES_MAX];
} ValuesEntry;

typedef struct ValuesTable {
    struct ValuesTable *next;
    const struct EvExtractorClass *cls;
    size_t opts_size;
    void *opts;
    ValuesEntry ring[VALUES_RING];
} ValuesTable;

struct EvGroup {
    pthread_mutex_t lock;
    pthread_cond_t done; /* an entry was published */
    unsigned refs;
    unsigned frames;
    unsigned long published, taken;
    ValuesTable *tables;
    EvGroupJobs *jobs;
};

EvGroup *ev_group_new(void)
{
    EvGroup *g = calloc(1, sizeof(*g));
    if (!g)
        return NULL;
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->done, NULL);
    g->refs = 1;
    g->jobs = ev_group_jobs_new(); /* NULL: every member of a jobs class scores alone */
    return g;
}

EvGroup *ev_group_retain(EvGroup *g)
{
    pthread_mutex_lock(&g->lock);
    g->refs++;
    pthread_mutex_unlock(&g->lock);
    return g;
}

void ev_group_release(EvGroup *g)
{
    if (!g)
        return;
    pthread_mutex_lock(&g->lock);
    const unsigned left = --g->refs;
    pthread_mutex_unlock(&g->lock);
    if (left)
        return;
    for (ValuesTable *t = g->tables, *next; t; t = next) {
        next = t->next;
        free(t->opts);
        free(t);
    }
    ev_group_jobs_free(g->jobs);
    pthread_cond_destroy(&g->done);
    pthread_mutex_destroy(&g->lock);
    free(g);
}

unsigned ev_group_frames(const EvGroup *g)
{
    return g->frames;
}

void ev_group_advance(EvGroup *g)
{
    g->frames++;
}

/* The table of (cls, opts), created when missing; lock held. NULL when out of memory. */
static ValuesTable *table_of(EvGroup *g, const struct EvExtractorClass *cls, const void *opts,
                             size_t opts_size)
{
    for (ValuesTable *t = g->tables; t; t = t->next)
        if (t->cls == cls && t->opts_size == opts_size && !memcmp(t->opts, opts, opts_size))
            return t;
    ValuesTable *t = calloc(1, sizeof(*t));
    void *copy = malloc(opts_size ? opts_size : 1);
    if (!t || !copy) {
        free(t);
        free(copy);
        return NULL;
    }
    memcpy(copy, opts, opts_size);
    *t = (ValuesTable){ g->tables, cls, opts_size, copy, { { 0 } } };
    g->tables = t;
    return t;
}

/* The by_reference values of (cls, opts) for frame: taken (EV_GROUP_TAKEN), to be scored and
 * published by the caller (EV_GROUP_COMPUTE), or none to be had (EV_GROUP_ALONE). Waits while
 * another member scores them. */
static EvGroupTake take_values(EvGroup *g, const struct EvExtractorClass *cls, const void *opts,
                               size_t opts_size, unsigned frame, double *values, unsigned n)
{
    if (n > VALUES_MAX)
        return EV_GROUP_ALONE;
    pthread_mutex_lock(&g->lock);
    ValuesTable *t = table_of(g, cls, opts, opts_size);
    EvGroupTake got = EV_GROUP_ALONE;
    ValuesEntry *e = t ? &t->ring[frame % VALUES_RING] : NULL;
    while (e && e->frame == frame && e->state == ENTRY_COMPUTING)
        pthread_cond_wait(&g->done, &g->lock);
    if (!e) {
        got = EV_GROUP_ALONE;
    } else if (e->frame == frame && e->state == ENTRY_DONE) {
        memcpy(values, e->v, n * sizeof(*values));
        g->taken++;
        got = EV_GROUP_TAKEN;
    } else if (e->state != ENTRY_COMPUTING) { /* empty, or an older frame's: claim it */
        e->frame = frame;
        e->state = ENTRY_COMPUTING;
        got = EV_GROUP_COMPUTE;
    } /* else another frame is being computed in this entry: compute alone */
    pthread_mutex_unlock(&g->lock);
    return got;
}

static void put_values(EvGroup *g, const struct EvExtractorClass *cls, const void *opts,
                       size_t opts_size, unsigned frame, const double *values, unsigned n)
{
    pthread_mutex_lock(&g->lock);
    ValuesTable *t = table_of(g, cls, opts, opts_size);
    ValuesEntry *e = t ? &t->ring[frame % VALUES_RING] : NULL;
    if (e && e->frame == frame && e->state == ENTRY_COMPUTING) {
        memcpy(e->v, values, n * sizeof(*values));
        e->state = ENTRY_DONE;
        g->published++;
    }
    pthread_cond_broadcast(&g->done);
    pthread_mutex_unlock(&g->lock);
}

void ev_group_counts(EvGroup *g, EvGroupCounts *counts)
{
    *counts = (EvGroupCounts){ 0 };
    pthread_mutex_lock(&g->lock);
    counts->published = g->published;
    counts->taken = g->taken;
    pthread_mutex_unlock(&g->lock);
    if (g->jobs)
        ev_group_jobs_counts(g->jobs, &counts->jobs, &counts->scored, &counts->allocs);
}

void ev_group_leave_slot(EvSlot *s)
{
    ev_group_release(s->frame_group);
    s->frame_group = NULL;
    if (!s->joined)
        return;
    if (s->joined->jobs)
        ev_group_jobs_leave(s->joined->jobs, s->joined_frame, &s->dis);
    ev_group_release(s->joined);
    s->joined = NULL;
}

void ev_group_join_slot(EvEngine *c, EvSlot *s, EvGroup *g)
{
    if (!g || !g->jobs || c->use_cuda || ev_group_jobs_join(g->jobs, c->n_frames, c, &s->dis))
        return;
    s->joined = ev_group_retain(g);
    s->joined_frame = c->n_frames;
}

/* by_reference: one member scores the frame's values for all. */
static int extract_by_reference(const EvRegistration *reg, void *scratch, const EvSlot *s,
                                const EvPic *ref, const EvPic *dis, EvSink *sink)
{
    const EvExtractorClass *run = reg->run;
    const EvGroupScoring *how = run->group;
    double values[VALUES_MAX];
    const EvGroupTake got = take_values(s->frame_group, run, reg->opts, run->opts_size, s->frame,
                                        values, how->n_values);
    if (got == EV_GROUP_ALONE)
        return run->extract(reg->state, scratch, ref, dis, s->frame, sink);
    if (got == EV_GROUP_COMPUTE) {
        how->score(reg->state, scratch, NULL, ref, &dis, 1, s->frame, values);
        put_values(s->frame_group, run, reg->opts, run->opts_size, s->frame, values, how->n_values);
    }
    return how->emit(reg->state, scratch, ref, s->frame, values, sink);
}

/* jobs: the first member to ask scores every member's pair. */
static int extract_in_job(const EvRegistration *reg, void *scratch, const EvSlot *s,
                          const EvPic *ref, const EvPic *dis, EvSink *sink)
{
    const EvExtractorClass *run = reg->run;
    const EvGroupScoring *how = run->group;
    EvGroupJobs *const j = s->joined ? s->joined->jobs : NULL;
    double stack[16],
        *values = how->n_values <= 16 ? stack : malloc(how->n_values * sizeof(*values));
    EvGroupJob job;
    const EvGroupTake got =
        j && values ? ev_group_jobs_take(j, reg, s->frame, dis, values, &job) : EV_GROUP_ALONE;
    int err;
    if (got == EV_GROUP_ALONE) {
        err = run->extract(reg->state, scratch, ref, dis, s->frame, sink);
    } else {
        if (got == EV_GROUP_COMPUTE) {
            how->score(reg->state, scratch, job.scratch, ref, job.dis, job.n, s->frame, job.values);
            memcpy(values, job.values, how->n_values * sizeof(*values)); /* [0]: the caller */
            ev_group_jobs_put(j, &job);
        }
        err = how->emit(reg->state, scratch, ref, s->frame, values, sink);
    }
    if (values != stack)
        free(values);
    return err;
}

int ev_group_extract(const EvRegistration *reg, void *scratch, const EvSlot *s, const EvPic *ref,
                     const EvPic *dis, EvSink *sink)
{
    const EvGroupScoring *how = reg->run->group;
    if (!how || !s->frame_group || (how->by_reference && how->n_values > VALUES_MAX))
        return reg->run->extract(reg->state, scratch, ref, dis, s->frame, sink);
    return how->by_reference ? extract_by_reference(reg, scratch, s, ref, dis, sink)
                             : extract_in_job(reg, scratch, s, ref, dis, sink);
}
