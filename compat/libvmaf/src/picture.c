/* VmafPicture: planes in one reference-counted block, and a pool that gives blocks back.
 *
 * ffmpeg's libvmaf filter allocates two pictures a frame with vmaf_picture_alloc() and hands
 * them over with vmaf_read_pictures(), which lends them to the engine (no copy) until their
 * frame is scored. A freed block goes to the pool and comes back at the next allocation of its
 * size, so that a stream of frames reuses a working set of blocks already in memory instead of
 * mapping, faulting in and unmapping megabytes a frame. The pool keeps at most CV_POOL_BLOCKS
 * blocks; it is process-wide (vmaf_picture_alloc() knows no context). */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "compat.h"

#define CV_ALIGN 64
#define CV_POOL_BLOCKS 64

/* The reference count lies in front of the planes, one alignment unit. */
struct VmafRef {
    atomic_int count;
    size_t bytes;               /* the planes' bytes (a block's size class) */
    struct VmafRef *next;       /* in the pool */
    void (*free_fn)(VmafRef *); /* NULL: a host block (back to the pool); else its owner's */
    void *owner;                /* free_fn's */
};
_Static_assert(sizeof(struct VmafRef) <= CV_ALIGN, "the header fits the alignment unit");

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static VmafRef *pool;
static unsigned pool_count;

static VmafRef *pool_take(const size_t bytes)
{
    pthread_mutex_lock(&pool_lock);
    VmafRef **at = &pool;
    while (*at && (*at)->bytes != bytes)
        at = &(*at)->next;
    VmafRef *r = *at;
    if (r) {
        *at = r->next;
        pool_count--;
    }
    pthread_mutex_unlock(&pool_lock);
    return r;
}

static void pool_give(VmafRef *r)
{
    pthread_mutex_lock(&pool_lock);
    if (pool_count < CV_POOL_BLOCKS) {
        r->next = pool;
        pool = r;
        pool_count++;
        r = NULL;
    }
    pthread_mutex_unlock(&pool_lock);
    free(r);
}

int cv_plane_geometry(const enum VmafPixelFormat pix_fmt, const unsigned bpc, const unsigned w,
                      const unsigned h, const unsigned align, VmafPicture *const pic,
                      size_t offset[3], size_t *const total)
{
    if (!pic || !w || !h || bpc < 8 || bpc > 16)
        return -EINVAL;
    unsigned ss_x, ss_y, planes = 3;
    switch (pix_fmt) {
    case VMAF_PIX_FMT_YUV420P:
        ss_x = 1;
        ss_y = 1;
        break;
    case VMAF_PIX_FMT_YUV422P:
        ss_x = 1;
        ss_y = 0;
        break;
    case VMAF_PIX_FMT_YUV444P:
        ss_x = 0;
        ss_y = 0;
        break;
    case VMAF_PIX_FMT_YUV400P:
        ss_x = 1;
        ss_y = 1;
        planes = 1;
        break;
    default: return -EINVAL;
    }
    memset(pic, 0, sizeof(*pic));
    pic->pix_fmt = pix_fmt;
    pic->bpc = bpc;
    const size_t bytes = bpc > 8 ? 2 : 1;
    *total = 0;
    for (unsigned p = 0; p < 3; p++) {
        offset[p] = 0;
        if (p >= planes)
            continue; /* yuv400p: chroma 0 x 0, data NULL, as Netflix's */
        pic->w[p] = p ? w >> ss_x : w;
        pic->h[p] = p ? h >> ss_y : h;
        const size_t stride = (pic->w[p] * bytes + align - 1) / align * align;
        pic->stride[p] = (ptrdiff_t)stride;
        offset[p] = *total;
        *total += stride * pic->h[p];
    }
    return 0;
}

int vmaf_picture_alloc(VmafPicture *const pic, const enum VmafPixelFormat pix_fmt,
                       const unsigned bpc, const unsigned w, const unsigned h)
{
    size_t offset[3], total;
    const int err = cv_plane_geometry(pix_fmt, bpc, w, h, CV_ALIGN, pic, offset, &total);
    if (err)
        return err;
    VmafRef *ref = pool_take(total);
    if (!ref) {
        ref = aligned_alloc(CV_ALIGN, CV_ALIGN + total);
        if (!ref)
            return -ENOMEM;
        ref->bytes = total;
        ref->free_fn = NULL;
        ref->owner = NULL;
    }
    atomic_init(&ref->count, 1);
    pic->ref = ref;
    uint8_t *const planes = (uint8_t *)ref + CV_ALIGN;
    for (unsigned p = 0; p < 3; p++)
        if (pic->w[p])
            pic->data[p] = planes + offset[p];
    return 0;
}

VmafRef *cv_ref_new(void (*free_fn)(VmafRef *), void *owner)
{
    VmafRef *r = calloc(1, sizeof(*r));
    if (r) {
        r->free_fn = free_fn;
        r->owner = owner;
    }
    return r;
}

void *cv_ref_owner(const VmafRef *r)
{
    return r->owner;
}

void cv_ref_reset(VmafRef *r)
{
    atomic_init(&r->count, 1);
}

void cv_ref_drop(VmafRef *r)
{
    if (atomic_fetch_sub(&r->count, 1) != 1)
        return;
    if (r->free_fn)
        r->free_fn(r);
    else
        pool_give(r);
}

int vmaf_picture_unref(VmafPicture *const pic)
{
    if (!pic || !pic->ref)
        return -EINVAL;
    cv_ref_drop(pic->ref);
    memset(pic, 0, sizeof(*pic));
    return 0;
}
