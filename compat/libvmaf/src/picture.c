/* VmafPicture: planes in one reference-counted block. */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "compat.h"

struct VmafRef {
    atomic_int count;
};

#define CV_ALIGN 64

int vmaf_picture_alloc(VmafPicture *const pic, const enum VmafPixelFormat pix_fmt,
                       const unsigned bpc, const unsigned w, const unsigned h)
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
    size_t total = 0, offset[3] = { 0 };
    for (unsigned p = 0; p < 3; p++) {
        if (p >= planes)
            continue; /* yuv400p: chroma 0 x 0, data NULL, as Netflix's */
        pic->w[p] = p ? w >> ss_x : w;
        pic->h[p] = p ? h >> ss_y : h;
        const size_t stride = (pic->w[p] * bytes + CV_ALIGN - 1) / CV_ALIGN * CV_ALIGN;
        pic->stride[p] = (ptrdiff_t)stride;
        offset[p] = total;
        total += stride * pic->h[p];
    }
    /* the reference count lies in front of the planes, one alignment unit */
    uint8_t *block = aligned_alloc(CV_ALIGN, CV_ALIGN + total);
    if (!block)
        return -ENOMEM;
    VmafRef *ref = (VmafRef *)block;
    atomic_init(&ref->count, 1);
    pic->ref = ref;
    for (unsigned p = 0; p < planes; p++)
        pic->data[p] = block + CV_ALIGN + offset[p];
    return 0;
}

int vmaf_picture_unref(VmafPicture *const pic)
{
    if (!pic || !pic->ref)
        return -EINVAL;
    if (atomic_fetch_sub(&pic->ref->count, 1) == 1)
        free(pic->ref);
    memset(pic, 0, sizeof(*pic));
    return 0;
}
