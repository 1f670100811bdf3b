/* libvmaf_cuda: a CUDA state (a context to run in) and preallocated device pictures, on
 * exactvmaf/cuda.h. A device picture is one block of device memory (the planes, rows packed:
 * what the twins read in place) with a reference count: vmaf_read_pictures() lends it to the
 * engine, which scores it where it is, and its last reference gives it back to its context's
 * pool. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "compat.h"
#include "exactvmaf/cuda.h"
#include "libvmaf/libvmaf_cuda.h"

#define CV_PITCH 1 /* device pictures' rows are packed (no padding): the twins read them in place */

struct VmafCudaState {
    void *cu_ctx;
};

typedef struct CvDevicePicture {
    struct CvDevicePool *pool;
    VmafRef *ref;
    void *mem;
    struct CvDevicePicture *next_free, *next_all;
} CvDevicePicture;

struct CvDevicePool {
    VmafContext *vmaf;
    enum VmafCudaPicturePreallocationMethod method;
    VmafPicture shape; /* geometry, strides; data NULL */
    size_t offset[3], bytes;
    pthread_mutex_t lock;
    CvDevicePicture *free_list, *all;
};

int vmaf_cuda_state_init(VmafCudaState **const cu_state, const VmafCudaConfiguration cfg)
{
    if (!cu_state)
        return -EINVAL;
    *cu_state = NULL;
    if (ev_gpu_count() <= 0)
        return -EINVAL; /* libvmaf's code when CUDA cannot be had */
    VmafCudaState *s = calloc(1, sizeof(*s));
    if (!s)
        return -ENOMEM;
    s->cu_ctx = cfg.cu_ctx;
    *cu_state = s;
    return 0;
}

int vmaf_cuda_state_free(VmafCudaState *const cu_state)
{
    free(cu_state);
    return 0;
}

int vmaf_cuda_import_state(VmafContext *const vmaf, VmafCudaState *const cu_state)
{
    if (!vmaf || !cu_state)
        return -EINVAL;
    if (vmaf->used || vmaf->pic_cnt || vmaf->device_pool) {
        cv_log(&vmaf->log, EV_LOG_ERROR,
               "vmaf_cuda_import_state: import the CUDA state before adding features, models "
               "or pictures");
        return -EINVAL;
    }
    EvSettings s = vmaf->settings;
    s.backend = EV_BACKEND_CUDA;
    s.cuda_context = cu_state->cu_ctx;
    EvContext *ev = NULL;
    const int err = ev_open(&ev, &s);
    if (err)
        return err;
    ev_close(&vmaf->ev);
    vmaf->ev = ev;
    vmaf->settings = s;
    return 0;
}

void cv_device_pool_free(CvDevicePool **const pp)
{
    CvDevicePool *const pool = *pp;
    if (!pool)
        return;
    for (CvDevicePicture *d = pool->all, *next; d; d = next) {
        next = d->next_all;
        ev_device_free(pool->vmaf->ev, d->mem);
        free(d->ref);
        free(d);
    }
    pthread_mutex_destroy(&pool->lock);
    free(pool);
    *pp = NULL;
}

int vmaf_cuda_preallocate_pictures(VmafContext *const vmaf, const VmafCudaPictureConfiguration cfg)
{
    if (!vmaf || vmaf->device_pool)
        return -EINVAL;
    switch (cfg.pic_prealloc_method) {
    case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE:
    case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE:
    case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST:
    case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED: break;
    default:
        cv_log(&vmaf->log, EV_LOG_ERROR, "unknown cuda picture preallocation method");
        return -EINVAL;
    }
    CvDevicePool *pool = calloc(1, sizeof(*pool));
    if (!pool)
        return -ENOMEM;
    pool->vmaf = vmaf;
    pool->method = cfg.pic_prealloc_method;
    pthread_mutex_init(&pool->lock, NULL);
    const int err =
        cv_plane_geometry(cfg.pic_params.pix_fmt, cfg.pic_params.bpc, cfg.pic_params.w,
                          cfg.pic_params.h, CV_PITCH, &pool->shape, pool->offset, &pool->bytes);
    if (err && cfg.pic_prealloc_method != VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE) {
        cv_log(&vmaf->log, EV_LOG_ERROR,
               "vmaf_cuda_preallocate_pictures: unsupported picture %ux%u, %u bits, format %d",
               cfg.pic_params.w, cfg.pic_params.h, cfg.pic_params.bpc, (int)cfg.pic_params.pix_fmt);
        cv_device_pool_free(&pool);
        return err;
    }
    vmaf->device_pool = pool;
    return 0;
}

/* A device picture's last reference: back to the free list. */
static void give_back(VmafRef *const ref)
{
    CvDevicePicture *const d = cv_ref_owner(ref);
    pthread_mutex_lock(&d->pool->lock);
    d->next_free = d->pool->free_list;
    d->pool->free_list = d;
    pthread_mutex_unlock(&d->pool->lock);
}

/* A free device picture of the pool, or a new one (zeroed: ffmpeg's filter copies only luma,
 * and a plane never written must not hold another process's bytes). */
static int take(CvDevicePool *const pool, CvDevicePicture **const out)
{
    pthread_mutex_lock(&pool->lock);
    CvDevicePicture *d = pool->free_list;
    if (d)
        pool->free_list = d->next_free;
    pthread_mutex_unlock(&pool->lock);
    if (d) {
        cv_ref_reset(d->ref);
        *out = d;
        return 0;
    }
    d = calloc(1, sizeof(*d));
    if (!d)
        return -ENOMEM;
    d->pool = pool;
    d->ref = cv_ref_new(give_back, d);
    EvContext *const ev = pool->vmaf->ev;
    int err = d->ref ? ev_device_alloc(ev, pool->bytes, &d->mem) : -ENOMEM;
    if (!err)
        err = ev_device_zero(ev, d->mem, pool->bytes);
    if (err) {
        ev_device_free(ev, d->mem);
        free(d->ref);
        free(d);
        return err;
    }
    pthread_mutex_lock(&pool->lock);
    d->next_all = pool->all;
    pool->all = d;
    pthread_mutex_unlock(&pool->lock);
    *out = d;
    return 0;
}

int vmaf_cuda_fetch_preallocated_picture(VmafContext *const vmaf, VmafPicture *const pic)
{
    if (!vmaf || !pic || !vmaf->device_pool)
        return -EINVAL;
    CvDevicePool *const pool = vmaf->device_pool;
    switch (pool->method) {
    case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE: break;
    case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST:
    case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED:
        return vmaf_picture_alloc(pic, pool->shape.pix_fmt, pool->shape.bpc, pool->shape.w[0],
                                  pool->shape.h[0]);
    default:
        cv_log(&vmaf->log, EV_LOG_ERROR, "undefined cuda picture preallocation method");
        return -EINVAL;
    }
    CvDevicePicture *d;
    const int err = take(pool, &d);
    if (err)
        return err;
    *pic = pool->shape;
    for (unsigned p = 0; p < 3; p++)
        if (pic->w[p])
            pic->data[p] = (char *)d->mem + pool->offset[p];
    pic->ref = d->ref;
    pic->priv = d;
    return 0;
}

int cv_device_picture_of(const CvDevicePool *const pool, const VmafPicture *const pic)
{
    if (!pool || !pic->priv || !pic->ref)
        return 0;
    const CvDevicePicture *const d = pic->priv;
    int found = 0;
    pthread_mutex_lock((pthread_mutex_t *)&pool->lock);
    for (const CvDevicePicture *a = pool->all; a && !found; a = a->next_all) /* a handful */
        found = a == d && d->ref == pic->ref;
    pthread_mutex_unlock((pthread_mutex_t *)&pool->lock);
    return found;
}
