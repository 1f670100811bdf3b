/* A reader's ring of device frames (device_ring.h). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/picture.h"
#include "io/device_ring.h"
#include "io/gpu_mem.h"

struct EvDeviceRing {
    pthread_mutex_t lock;
    pthread_cond_t given_back;
    unsigned gpu, n, lent;
    int closed, interrupted;
    void *memory; /* one allocation: the frames one after another */
    EvVideoDeviceFrame frame[EV_DEVICE_RING_FRAMES];
};

/* Plane p's bytes, rounded up to 256 so that every plane starts aligned. */
static size_t plane_bytes(const EvVideoFormat *f, unsigned p, size_t *row)
{
    unsigned w, h;
    ev_pic_plane_size(f->width, f->height, f->layout, p, &w, &h);
    *row = (size_t)w * (f->bitdepth > 8 ? 2 : 1);
    return (*row * h + 255) & ~(size_t)255;
}

static void free_ring(EvDeviceRing *r)
{
    ev_gpu_mem_free(r->gpu, r->memory);
    pthread_cond_destroy(&r->given_back);
    pthread_mutex_destroy(&r->lock);
    free(r);
}

int ev_device_ring_open(EvDeviceRing **const out, const unsigned gpu,
                        const EvVideoFormat *const fmt, unsigned n, char *const why,
                        const size_t why_size)
{
    *out = NULL;
    n = n < 1 ? 1 : n > EV_DEVICE_RING_FRAMES ? EV_DEVICE_RING_FRAMES : n;
    EvDeviceRing *r = calloc(1, sizeof(*r));
    if (!r)
        return -ENOMEM;
    if (pthread_mutex_init(&r->lock, NULL)) {
        free(r);
        return -ENOMEM;
    }
    if (pthread_cond_init(&r->given_back, NULL)) {
        pthread_mutex_destroy(&r->lock);
        free(r);
        return -ENOMEM;
    }
    r->gpu = gpu;
    r->n = n;
    size_t row[3], bytes[3], frame_bytes = 0;
    for (unsigned p = 0; p < 3; p++)
        frame_bytes += bytes[p] = plane_bytes(fmt, p, &row[p]);
    const int err = ev_gpu_mem_alloc(gpu, frame_bytes * n, &r->memory, why, why_size);
    if (err) {
        free_ring(r);
        return err;
    }
    for (unsigned i = 0; i < n; i++) {
        EvVideoDeviceFrame *f = &r->frame[i];
        f->ring = r;
        f->pic = (EvPicture){ .width = fmt->width,
                              .height = fmt->height,
                              .bitdepth = fmt->bitdepth,
                              .layout = fmt->layout };
        uint8_t *at = (uint8_t *)r->memory + frame_bytes * i;
        for (unsigned p = 0; p < 3; p++) {
            if (row[p]) {
                f->pic.data[p] = at;
                f->pic.stride[p] = (ptrdiff_t)row[p];
            }
            at += bytes[p];
        }
    }
    *out = r;
    return 0;
}

EvVideoDeviceFrame *ev_device_ring_take(EvDeviceRing *const r)
{
    pthread_mutex_lock(&r->lock);
    EvVideoDeviceFrame *f = NULL;
    while (!f && !r->interrupted) {
        for (unsigned i = 0; i < r->n && !f; i++)
            if (!r->frame[i].lent)
                f = &r->frame[i];
        if (!f)
            pthread_cond_wait(&r->given_back, &r->lock);
    }
    if (r->interrupted)
        f = NULL;
    if (f) {
        f->lent = 1;
        r->lent++;
    }
    pthread_mutex_unlock(&r->lock);
    return f;
}

void ev_device_ring_interrupt(EvDeviceRing *const r)
{
    if (!r)
        return;
    pthread_mutex_lock(&r->lock);
    r->interrupted = 1;
    pthread_cond_broadcast(&r->given_back);
    pthread_mutex_unlock(&r->lock);
}

void ev_device_ring_give(EvVideoDeviceFrame *const f)
{
    if (!f)
        return;
    EvDeviceRing *r = f->ring;
    pthread_mutex_lock(&r->lock);
    f->lent = 0;
    r->lent--;
    const int last = r->closed && !r->lent;
    pthread_cond_broadcast(&r->given_back);
    pthread_mutex_unlock(&r->lock);
    if (last)
        free_ring(r);
}

void ev_device_ring_close(EvDeviceRing **const pr)
{
    EvDeviceRing *r = pr ? *pr : NULL;
    if (!r)
        return;
    *pr = NULL;
    pthread_mutex_lock(&r->lock);
    r->closed = 1;
    const int now = !r->lent;
    pthread_mutex_unlock(&r->lock);
    if (now)
        free_ring(r);
}
