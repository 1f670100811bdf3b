/* Integer motion: the C reference of the row kernel (motion_kernels.h). */
#include "features/motion/motion_kernels.h"
#include "features/motion/motion_math.h"

/* Vertical pass of samples of type T into y[]; returns the OR of the row (0: all 0). DIFF is
 * motion_vblur_diff32 for 8-bit samples, else the int64 form of the reference (exact for any
 * uint16 sample, also one above the depth; the SIMD kernels' int32 sums assume the depth). */
#define VBLUR_ROW(T, DIFF)                                                                         \
    const T *restrict p0 = prev[0], *restrict p1 = prev[1], *restrict p2 = prev[2];                \
    const T *restrict p3 = prev[3], *restrict p4 = prev[4];                                        \
    const T *restrict c0 = cur[0], *restrict c1 = cur[1], *restrict c2 = cur[2];                   \
    const T *restrict c3 = cur[3], *restrict c4 = cur[4];                                          \
    int32_t any = 0;                                                                               \
    for (int j = 0; j < w; j++) {                                                                  \
        const int32_t d[5] = { p0[j] - c0[j], p1[j] - c1[j], p2[j] - c2[j], p3[j] - c3[j],         \
                               p4[j] - c4[j] };                                                    \
        y[j] = DIFF(d, shift);                                                                     \
        any |= y[j];                                                                               \
    }                                                                                              \
    return any

static int32_t vblur_row8(const void *const *prev, const void *const *cur, const int w,
                          int32_t *restrict y)
{
    const unsigned shift = 8;
    VBLUR_ROW(uint8_t, motion_vblur_diff32);
}

static int32_t vblur_row16(const void *const *prev, const void *const *cur, const int w,
                           const unsigned shift, int32_t *restrict y)
{
    VBLUR_ROW(uint16_t, motion_vblur_diff);
}
#undef VBLUR_ROW

/* Horizontal pass of one row: the row's SAD in the reference's wrapping uint32. */
static uint32_t hblur_row_sad(const int32_t *y, const int n)
{
    const int inside_end = n - MOTION_RADIUS;
    uint32_t sad = motion_hblur_abs_mirrored(y, 0, n) + motion_hblur_abs_mirrored(y, 1, n);
    int j = MOTION_RADIUS;
    for (; j < inside_end; j++)
        sad += motion_hblur_abs(y + j - MOTION_RADIUS);
    for (; j < n; j++)
        sad += motion_hblur_abs_mirrored(y, j, n);
    return sad;
}

uint32_t motion_sad_row_c(const void *const *prev, const void *const *cur, const int w,
                          const unsigned bpc, void *tmp)
{
    int32_t *y = tmp;
    const int32_t any = bpc == 8 ? vblur_row8(prev, cur, w, y) : vblur_row16(prev, cur, w, bpc, y);
    /* an all-zero row adds 0: skipped, as the reference */
    return any ? hblur_row_sad(y, w) : 0;
}
