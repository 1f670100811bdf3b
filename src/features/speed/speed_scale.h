/* SpEED's speed_prescale resampling (libvmaf vif_tools.c vif_scale_frame_s: nearest, bilinear,
 * bicubic, lanczos4). The per-column and per-row indices and weights depend only on the output
 * position, so they are tabulated once (the reference recomputes them per pixel: same bits). */
#ifndef EV_FEATURES_SPEED_SCALE_H
#define EV_FEATURES_SPEED_SCALE_H

#include <stddef.h>

#include "base/hd.h"

typedef enum SpeedScaleMethod {
    SPEED_NEAREST,
    SPEED_BILINEAR,
    SPEED_BICUBIC,
    SPEED_LANCZOS4,
} SpeedScaleMethod;

enum { SPEED_SCALE_TAPS = 9 }; /* lanczos4's window; bilinear uses 2, bicubic 4 */

/* One axis: for output position i, its source indices and weights. */
typedef struct SpeedScaleAxis {
    int *index;    /* n x SPEED_SCALE_TAPS */
    float *weight; /* n x SPEED_SCALE_TAPS (bilinear: weight[0] is dx, the rest unused) */
} SpeedScaleAxis;

typedef struct SpeedScale {
    SpeedScaleMethod method;
    int src_w, src_h, dst_w, dst_h;
    int identity; /* sizes equal: the reference copies */
    SpeedScaleAxis x, y;
} SpeedScale;

/* One output sample from its axes' entries (ix, wx: column x's; iy, wy: row y's), host +
 * device (speed_scale_apply and the CUDA twin). Bilinear: the four products in the reference's
 * order. Bicubic (taps 4: plain sum) and lanczos4 (taps 9: sum over the weights' sum): rows
 * outer, each weight wx * wy added to its float sums. */
EV_HD float speed_scale_bilinear_px(const float *r1, const float *r2, const int *ix, const float dx,
                                    const float dy)
{
    return (1 - dy) * (1 - dx) * r1[ix[0]] + (1 - dy) * dx * r1[ix[1]] + dy * (1 - dx) * r2[ix[0]] +
           dy * dx * r2[ix[1]];
}

EV_HD float speed_scale_window_px(const float *src, const ptrdiff_t stride, const int *iy,
                                  const float *wy, const int *ix, const float *wx, const int taps)
{
    float value = 0.0f, weight_sum = 0.0f;
    for (int j = 0; j < taps; j++) {
        const float *row = src + iy[j] * stride;
        for (int i = 0; i < taps; i++) {
            const float w = wx[i] * wy[j];
            weight_sum += w;
            value += row[ix[i]] * w;
        }
    }
    return taps == 4 ? value : value / weight_sum;
}

/* Output (y, x) of method m (not identity) from tables xi, xw (columns) and yi, yw (rows), as
 * laid out in SpeedScaleAxis. */
EV_HD float speed_scale_px(const SpeedScaleMethod m, const float *src, const ptrdiff_t stride,
                           const int *xi, const float *xw, const int *yi, const float *yw,
                           const int y, const int x)
{
    const int *iy = yi + (size_t)y * SPEED_SCALE_TAPS, *ix = xi + (size_t)x * SPEED_SCALE_TAPS;
    const float *wy = yw + (size_t)y * SPEED_SCALE_TAPS, *wx = xw + (size_t)x * SPEED_SCALE_TAPS;
    switch (m) {
    case SPEED_NEAREST: return src[iy[0] * stride + ix[0]];
    case SPEED_BILINEAR:
        return speed_scale_bilinear_px(src + iy[0] * stride, src + iy[1] * stride, ix, wx[0],
                                       wy[0]);
    case SPEED_BICUBIC: return speed_scale_window_px(src, stride, iy, wy, ix, wx, 4);
    default: return speed_scale_window_px(src, stride, iy, wy, ix, wx, 9);
    }
}

/* Tables for src -> dst. Returns 0 or -ENOMEM. */
int speed_scale_init(SpeedScale *s, SpeedScaleMethod method, int src_w, int src_h, int dst_w,
                     int dst_h);
void speed_scale_close(SpeedScale *s);

/* dst (dst_w x dst_h, row stride dst_stride floats) resampled from src (stride src_stride);
 * only output rows with need[y] != 0 are written (need NULL: all). */
void speed_scale_apply(const SpeedScale *s, const float *src, ptrdiff_t src_stride, float *dst,
                       ptrdiff_t dst_stride, const unsigned char *need);

#endif
