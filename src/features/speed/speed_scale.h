/* SpEED's speed_prescale resampling (libvmaf vif_tools.c vif_scale_frame_s: nearest, bilinear,
 * bicubic, lanczos4). The per-column and per-row indices and weights depend only on the output
 * position, so they are tabulated once (the reference recomputes them per pixel: same bits). */
#ifndef EV_FEATURES_SPEED_SCALE_H
#define EV_FEATURES_SPEED_SCALE_H

#include <stddef.h>

typedef enum SpeedScaleMethod {
    SPEED_NEAREST,
    SPEED_BILINEAR,
    SPEED_BICUBIC,
    SPEED_LANCZOS4,
} SpeedScaleMethod;

enum { SPEED_SCALE_TAPS = 9 };  /* lanczos4's window; bilinear uses 2, bicubic 4 */

/* One axis: for output position i, its source indices and weights. */
typedef struct SpeedScaleAxis {
    int *index;     /* n x SPEED_SCALE_TAPS */
    float *weight;  /* n x SPEED_SCALE_TAPS (bilinear: weight[0] is dx, the rest unused) */
} SpeedScaleAxis;

typedef struct SpeedScale {
    SpeedScaleMethod method;
    int src_w, src_h, dst_w, dst_h;
    int identity;   /* sizes equal: the reference copies */
    SpeedScaleAxis x, y;
} SpeedScale;

/* Tables for src -> dst. Returns 0 or -ENOMEM. */
int speed_scale_init(SpeedScale *s, SpeedScaleMethod method, int src_w, int src_h, int dst_w,
                     int dst_h);
void speed_scale_close(SpeedScale *s);

/* dst (dst_w x dst_h, row stride dst_stride floats) resampled from src (stride src_stride);
 * only output rows with need[y] != 0 are written (need NULL: all). */
void speed_scale_apply(const SpeedScale *s, const float *src, ptrdiff_t src_stride, float *dst,
                       ptrdiff_t dst_stride, const unsigned char *need);

#endif
