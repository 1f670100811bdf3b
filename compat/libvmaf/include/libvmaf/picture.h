/*
 * libvmaf 3.x compatibility (exactvmaf): pictures.
 * Same declarations, layout and enum values as Netflix libvmaf's public libvmaf/picture.h.
 */
#ifndef __VMAF_PICTURE_H__
#define __VMAF_PICTURE_H__

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum VmafPixelFormat {
    VMAF_PIX_FMT_UNKNOWN,
    VMAF_PIX_FMT_YUV420P,
    VMAF_PIX_FMT_YUV422P,
    VMAF_PIX_FMT_YUV444P,
    VMAF_PIX_FMT_YUV400P,
};

typedef struct VmafRef VmafRef; /* reference count of the planes (opaque) */

/** Three planes; for bpc 8 a sample is one byte, for 9..16 a uint16_t (LSB-aligned). */
typedef struct VmafPicture {
    enum VmafPixelFormat pix_fmt;
    unsigned bpc;
    unsigned w[3], h[3];
    ptrdiff_t stride[3];
    void *data[3];
    VmafRef *ref;
    void *priv;
} VmafPicture;

/** Allocate the planes of a w x h picture (chroma w >> ss_x by h >> ss_y).
 *  @return 0, -EINVAL (bad format, depth or size), -ENOMEM. */
int vmaf_picture_alloc(VmafPicture *pic, enum VmafPixelFormat pix_fmt, unsigned bpc, unsigned w,
                       unsigned h);

/** Drop one reference; the planes are freed with the last. The struct is zeroed.
 *  @return 0, -EINVAL. */
int vmaf_picture_unref(VmafPicture *pic);

#ifdef __cplusplus
}
#endif

#endif /* __VMAF_PICTURE_H__ */
