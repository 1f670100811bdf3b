/* The jobs of a many-encodes group (see group_jobs.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine_internal.h"
#include "core/registration.h"
#include "core/group_jobs.h"

/* Frames with members registered at once: the contexts of a group are fed in lockstep, each
 * with a few frames in flight; a frame whose entry is still taken computes alone. */
#define GROUP_RING 128

typedef struct Member {
    const EvEngine *ctx;
    const EvPic *dis;    /* read only while the member is in the frame, or pinned */
    const void *samples; /* dis->data[0] at the join: the member's key */
    int left;            /* its slot is done with the frame */
    unsigned pins;       /* running jobs that read dis */
} Member;

struct Frame;

typedef struct Job {
    struct Job *next;
    struct Frame *frame; /* in use while the job's members are pinned */
    const EvExtractorClass *run;
    void *opts; /* a copy of the claiming registration's */
    int done;
    unsigned n;
    unsigned member[EV_GROUP_MAX_MEMBERS]; /* indices into the frame's members */
    unsigned n_values;
    double *values;
    void *scratch;
    size_t scratch_size; /* its allocation's */
} Job;

typedef struct Frame {
    int used;
    unsigned frame;
    unsigned n_members, n_left;
    Member m[EV_GROUP_MAX_MEMBERS];
    Job *jobs;
} Frame;

typedef struct Spare { /* a job's scratch, kept for the next job */
    struct Spare *next;
    size_t size;
    void *mem;
} Spare;

struct EvGroupJobs {
    pthread_mutex_t lock;
    pthread_cond_t changed; /* a job finished */
    Frame ring[GROUP_RING];
    Spare *spares;
    unsigned long jobs, scored, allocs;
};

EvGroupJobs *ev_group_jobs_new(void)
{
    EvGroupJobs *j = calloc(1, sizeof(*j));
    if (!j)
        return NULL;
    pthread_mutex_init(&j->lock, NULL);
    pthread_cond_init(&j->changed, NULL);
    return j;
}

static void free_jobs(Frame *f)
{
    for (Job *b = f->jobs, *next; b; b = next) {
        next = b->next;
        free(b->values);
        free(b->opts);
        free(b);
    }
    f->jobs = NULL;
}

void ev_group_jobs_free(EvGroupJobs *j)
{
    if (!j)
        return;
    for (unsigned i = 0; i < GROUP_RING; i++)
        free_jobs(&j->ring[i]);
    for (Spare *s = j->spares, *next; s; s = next) {
        next = s->next;
        free(s->mem);
        free(s);
    }
    pthread_cond_destroy(&j->changed);
    pthread_mutex_destroy(&j->lock);
    free(j);
}

static Frame *frame_of(EvGroupJobs *j, const unsigned frame)
{
    Frame *f = &j->ring[frame % GROUP_RING];
    return f->used && f->frame == frame ? f : NULL;
}

/* A member by its distorted's samples (extractors see a copy of the slot's EvPic; a member
 * that left may have its slot rewritten already, so the key is a copy). */
static int member_of(const Frame *f, const EvPic *dis)
{
    for (unsigned i = 0; i < f->n_members; i++)
        if (f->m[i].samples == dis->data[0])
            return (int)i;
    return -1;
}

int ev_group_jobs_join(EvGroupJobs *j, const unsigned frame, const EvEngine *c, const EvPic *dis)
{
    pthread_mutex_lock(&j->lock);
    Frame *f = &j->ring[frame % GROUP_RING];
    int rc = -1;
    if (!f->used) {
        f->used = 1;
        f->frame = frame;
        f->n_members = f->n_left = 0;
    }
    if (f->frame == frame && f->n_members < EV_GROUP_MAX_MEMBERS) {
        f->m[f->n_members++] = (Member){ c, dis, dis->data[0], 0, 0 };
        rc = 0;
    }
    pthread_mutex_unlock(&j->lock);
    return rc;
}

void ev_group_jobs_leave(EvGroupJobs *j, const unsigned frame, const EvPic *dis)
{
    pthread_mutex_lock(&j->lock);
    Frame *f = frame_of(j, frame);
    const int k = f ? member_of(f, dis) : -1;
    if (k >= 0 && !f->m[k].left) {
        while (f->m[k].pins)
            pthread_cond_wait(&j->changed, &j->lock);
        f->m[k].left = 1;
        if (++f->n_left == f->n_members) { /* every member is done: the entry is free */
            free_jobs(f);
            f->used = 0;
        }
    }
    pthread_mutex_unlock(&j->lock);
}

static Job *job_of(const Frame *f, const EvExtractorClass *run, const void *opts)
{
    for (Job *b = f->jobs; b; b = b->next)
        if (b->run == run && !memcmp(b->opts, opts, run->opts_size))
            return b;
    return NULL;
}

static int job_has(const Job *b, const unsigned k)
{
    for (unsigned i = 0; i < b->n; i++)
        if (b->member[i] == k)
            return 1;
    return 0;
}

/* A spare of at least *size bytes, or a new one, and *size its size; lock held. NULL when out
 * of memory. */
static void *take_scratch(EvGroupJobs *j, size_t *size)
{
    for (Spare **s = &j->spares; *s; s = &(*s)->next)
        if ((*s)->size >= *size) {
            Spare *got = *s;
            void *mem = got->mem;
            *size = got->size;
            *s = got->next;
            free(got);
            return mem;
        }
    *size = (*size + 63) & ~(size_t)63;
    j->allocs++;
    return aligned_alloc(64, *size);
}

/* Keep a job's scratch for the next; lock held. */
static void give_scratch(EvGroupJobs *j, void *mem, const size_t size)
{
    Spare *s = malloc(sizeof(*s));
    if (!s) {
        free(mem);
        return;
    }
    *s = (Spare){ j->spares, size, mem };
    j->spares = s;
}

/* Claim the job of (run, opts) for member k: every member still in the frame that runs the
 * same, k first; lock held. NULL when there is no one else or no memory. */
static Job *claim(EvGroupJobs *j, Frame *f, const unsigned k, const EvRegistration *reg)
{
    const EvGroupScoring *how = reg->run->group;
    const unsigned n_values = how->n_values;
    Job *b = calloc(1, sizeof(*b));
    const size_t opts_size = reg->run->opts_size;
    if (!b || !(b->opts = malloc(opts_size ? opts_size : 1))) {
        free(b);
        return NULL;
    }
    memcpy(b->opts, reg->opts, opts_size);
    b->frame = f;
    b->run = reg->run;
    b->n_values = n_values;
    b->member[b->n++] = k;
    for (unsigned i = 0; i < f->n_members; i++)
        if (i != k && !f->m[i].left && ev_context_runs(f->m[i].ctx, reg->run, reg->opts, f->frame))
            b->member[b->n++] = i;
    int ok = 0;
    if (b->n > 1 && (b->values = calloc((size_t)b->n * n_values, sizeof(double)))) {
        b->scratch_size = how->scratch_size ? how->scratch_size(reg->state, b->n) : 0;
        b->scratch = b->scratch_size ? take_scratch(j, &b->scratch_size) : NULL;
        ok = !b->scratch_size || b->scratch;
    }
    if (!ok) {
        free(b->values);
        free(b->opts);
        free(b);
        return NULL;
    }
    for (unsigned i = 0; i < b->n; i++)
        f->m[b->member[i]].pins++;
    b->next = f->jobs;
    f->jobs = b;
    return b;
}

EvGroupTake ev_group_jobs_take(EvGroupJobs *j, const EvRegistration *reg, const unsigned frame,
                               const EvPic *dis, double *values, EvGroupJob *job)
{
    const unsigned n_values = reg->run->group->n_values;
    pthread_mutex_lock(&j->lock);
    EvGroupTake got = EV_GROUP_ALONE;
    Frame *f = frame_of(j, frame);
    const int k = f ? member_of(f, dis) : -1;
    if (k >= 0 && !f->m[k].left) {
        Job *b = job_of(f, reg->run, reg->opts);
        if (b && job_has(b, (unsigned)k)) {
            while (!b->done)
                pthread_cond_wait(&j->changed, &j->lock);
            unsigned at = 0;
            while (b->member[at] != (unsigned)k)
                at++;
            memcpy(values, b->values + (size_t)at * n_values, n_values * sizeof(double));
            got = EV_GROUP_TAKEN;
        } else if (!b && (b = claim(j, f, (unsigned)k, reg))) {
            job->n = b->n;
            for (unsigned i = 0; i < b->n; i++)
                job->dis[i] = f->m[b->member[i]].dis;
            job->values = b->values;
            job->scratch = b->scratch;
            job->internal = b;
            j->jobs++;
            j->scored += b->n;
            got = EV_GROUP_COMPUTE;
        }
    }
    pthread_mutex_unlock(&j->lock);
    return got;
}

void ev_group_jobs_put(EvGroupJobs *j, EvGroupJob *job)
{
    Job *b = job->internal;
    pthread_mutex_lock(&j->lock);
    for (unsigned i = 0; i < b->n; i++)
        b->frame->m[b->member[i]].pins--;
    if (b->scratch)
        give_scratch(j, b->scratch, b->scratch_size);
    b->scratch = NULL;
    b->done = 1;
    pthread_cond_broadcast(&j->changed);
    pthread_mutex_unlock(&j->lock);
}

void ev_group_jobs_counts(EvGroupJobs *j, unsigned long *jobs, unsigned long *scored,
                          unsigned long *allocs)
{
    pthread_mutex_lock(&j->lock);
    *jobs = j->jobs;
    *scored = j->scored;
    *allocs = j->allocs;
    pthread_mutex_unlock(&j->lock);
}
