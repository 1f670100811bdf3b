/* speed_prescale resampling as libvmaf's vif_tools.c (scalar C): output position (i + 0.5) x
 * ratio - 0.5 with ratio = (float)src / dst, float weights, mirrored source indices, float sums
 * in the reference's tap order. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "features/speed/speed_scale.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* vif_tools.c mirror() on float arguments, for integral i: reflect at 0 and at right. */
static int mirror_index(const int i, const int right)
{
    return i < 0 ? -i : i > right ? 2 * right - i : i;
}

static float bicubic_weight(float t)
{
    const float a = -0.75f;
    if (t < 0)
        t = -t;
    if (t < 1)
        return ((a + 2) * t - (a + 3)) * t * t + 1;
    if (t < 2)
        return (((t - 5) * t + 8) * t - 4) * a;
    return 0;
}

static float lanczos4_weight(const float x, const float a)
{
    if (x == 0.0)
        return 1.0f;
    if (x > -a && x < a)
        return (float)(a * sin(M_PI * x) * sin(M_PI * x / a) / (M_PI * M_PI * x * x));
    return 0.0f;
}

/* One axis of n outputs from a source of length len. */
static void fill_axis(const SpeedScaleAxis *ax, const SpeedScaleMethod method, const int len,
                      const int n)
{
    const float ratio = (float)len / n;
    for (int i = 0; i < n; i++) {
        int *idx = ax->index + (size_t)i * SPEED_SCALE_TAPS;
        float *wt = ax->weight + (size_t)i * SPEED_SCALE_TAPS;
        const float pos = (float)((i + 0.5) * ratio - 0.5);
        const int p0 = (int)floor(pos);
        const float d = pos - p0;
        switch (method) {
        case SPEED_NEAREST: idx[0] = (int)(i * ratio); break;
        case SPEED_BILINEAR:
            idx[0] = mirror_index((int)floor(pos), len - 1);
            idx[1] = mirror_index((int)ceil(pos), len - 1);
            wt[0] = pos - idx[0]; /* the distance to the mirrored lower index */
            break;
        case SPEED_BICUBIC:
            for (int k = -1; k <= 2; k++) {
                idx[k + 1] = mirror_index(p0 + k, len - 1);
                wt[k + 1] = bicubic_weight(k - d);
            }
            break;
        case SPEED_LANCZOS4:
            for (int k = -4; k <= 4; k++) {
                idx[k + 4] = mirror_index(p0 + k, len - 1);
                wt[k + 4] = lanczos4_weight(k - d, 4.0f);
            }
            break;
        }
    }
}

static int alloc_axis(SpeedScaleAxis *ax, const int n)
{
    ax->index = malloc((size_t)n * SPEED_SCALE_TAPS * sizeof(int));
    ax->weight = calloc((size_t)n * SPEED_SCALE_TAPS, sizeof(float));
    return ax->index && ax->weight ? 0 : -ENOMEM;
}

int speed_scale_init(SpeedScale *s, const SpeedScaleMethod method, const int src_w, const int src_h,
                     const int dst_w, const int dst_h)
{
    *s = (SpeedScale){ .method = method,
                       .src_w = src_w,
                       .src_h = src_h,
                       .dst_w = dst_w,
                       .dst_h = dst_h,
                       .identity = src_w == dst_w && src_h == dst_h };
    if (s->identity)
        return 0;
    if (alloc_axis(&s->x, dst_w) || alloc_axis(&s->y, dst_h))
        return -ENOMEM;
    fill_axis(&s->x, method, src_w, dst_w);
    fill_axis(&s->y, method, src_h, dst_h);
    return 0;
}

void speed_scale_close(SpeedScale *s)
{
    free(s->x.index);
    free(s->x.weight);
    free(s->y.index);
    free(s->y.weight);
    s->x = s->y = (SpeedScaleAxis){ 0 };
}

void speed_scale_apply(const SpeedScale *s, const float *src, const ptrdiff_t src_stride,
                       float *dst, const ptrdiff_t dst_stride, const unsigned char *need)
{
    for (int y = 0; y < s->dst_h; y++) {
        if (need && !need[y])
            continue;
        float *out = dst + y * dst_stride;
        if (s->identity) {
            memcpy(out, src + y * src_stride, (size_t)s->dst_w * sizeof(float));
            continue;
        }
        for (int x = 0; x < s->dst_w; x++)
            out[x] = speed_scale_px(s->method, src, src_stride, s->x.index, s->x.weight, s->y.index,
                                    s->y.weight, y, x);
    }
}
