/*
 * Integer motion row kernel in AVX2, an executor of motion_dsp.h; the reference is
 * motion_rows.c, the arithmetic that of motion_avx512.c (int64 vertical sums where samples
 * above the depth could pass int32's): 8 columns per step in 32-bit lanes,
 * the horizontal blur's sums in int64 (their low 32 bits after the shift by 16 are all that is
 * kept, so the logical shift serves), the last vertical step moved back to end at the row's
 * end, the interior horizontal tail and the four mirrored columns computed as in the C. Rows
 * narrower than 16 samples run the C kernel.
 */
#include <immintrin.h>

#include "features/motion/motion_dsp.h"
#include "features/motion/motion_math.h"

size_t ev_motion_tmp_size_avx2(const int max_w)
{
    return ((size_t)max_w + 32) * sizeof(int32_t);
}

static __m256i load32(const void *row, const int j, const int u16)
{
    return u16 ? _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)((const uint16_t *)row + j)))
               : _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)((const uint8_t *)row + j)));
}

/* 3571 (a + e) + 16004 (b + d) + 26386 c of the even lanes in int64, + add, >> 16: low 32 bits */
static __m256i taps_shift16(const __m256i ae, const __m256i bd, const __m256i c, const __m256i add)
{
    __m256i s = _mm256_add_epi64(_mm256_mul_epi32(ae, _mm256_set1_epi64x(3571)),
                                 _mm256_mul_epi32(bd, _mm256_set1_epi64x(16004)));
    s = _mm256_add_epi64(s, _mm256_mul_epi32(c, _mm256_set1_epi64x(26386)));
    return _mm256_srli_epi64(_mm256_add_epi64(s, add), 16);
}

static __m256i taps16(const __m256i ae, const __m256i bd, const __m256i c)
{
    const __m256i add = _mm256_set1_epi64x(32768);
    const __m256i e = taps_shift16(ae, bd, c, add);
    const __m256i o = taps_shift16(_mm256_srli_epi64(ae, 32), _mm256_srli_epi64(bd, 32),
                                   _mm256_srli_epi64(c, 32), add);
    return _mm256_blend_epi32(e, _mm256_slli_epi64(o, 32), 0xAA);
}

/* ((3571 (a + e) + 16004 (b + d) + 26386 c) + 2^(s-1)) >> s in int64, 8 lanes, s <= 15: the
 * low 32 bits of the logical shift are those of the arithmetic one, and hold the result. */
static __m256i taps_shift_bpc(const __m256i ae, const __m256i bd, const __m256i c, const int s)
{
    const __m256i add = _mm256_set1_epi64x(INT64_C(1) << (s - 1));
    const __m128i sh = _mm_cvtsi32_si128(s);
    const __m256i k1 = _mm256_set1_epi64x(3571), k2 = _mm256_set1_epi64x(16004);
    const __m256i k3 = _mm256_set1_epi64x(26386);
    __m256i e = _mm256_add_epi64(_mm256_mul_epi32(ae, k1), _mm256_mul_epi32(bd, k2));
    e = _mm256_srl_epi64(_mm256_add_epi64(_mm256_add_epi64(e, _mm256_mul_epi32(c, k3)), add), sh);
    const __m256i ao = _mm256_srli_epi64(ae, 32), bo = _mm256_srli_epi64(bd, 32);
    __m256i o = _mm256_add_epi64(_mm256_mul_epi32(ao, k1), _mm256_mul_epi32(bo, k2));
    o = _mm256_add_epi64(o, _mm256_mul_epi32(_mm256_srli_epi64(c, 32), k3));
    o = _mm256_srl_epi64(_mm256_add_epi64(o, add), sh);
    return _mm256_blend_epi32(e, _mm256_slli_epi64(o, 32), 0xAA);
}

/* |a + e| | |b + d| | 2|c|: a bit at or above 16 in a row means its int32 sums may overflow
 * (samples above the depth; see motion_avx512.c). */
static __m256i bound(const __m256i ae, const __m256i bd, const __m256i c)
{
    return _mm256_or_si256(_mm256_or_si256(_mm256_abs_epi32(ae), _mm256_abs_epi32(bd)),
                           _mm256_slli_epi32(_mm256_abs_epi32(c), 1));
}

/* Vertical pass into y; returns the OR of the row. int64: the sums in int64 (16 bits, and
 * 9..15-bit rows outside the int32 bound). */
static int32_t vblur_pass(int32_t *y, const void *const *prev, const void *const *cur,
                          const int w, const unsigned bpc, const int int64, int *out_of_bound)
{
    const int u16 = bpc > 8;
    const int shift = bpc == 8 ? 8 : (int)bpc;
    const __m256i r32 = _mm256_set1_epi32(1 << (shift - 1));
    const __m128i sh = _mm_cvtsi32_si128(shift);
    __m256i any = _mm256_setzero_si256(), big = _mm256_setzero_si256();
    for (int j0 = 0; j0 < w; j0 += 8) {
        const int j = j0 + 8 <= w ? j0 : w - 8;
        __m256i d[5];
        for (int k = 0; k < 5; k++)
            d[k] = _mm256_sub_epi32(load32(prev[k], j, u16), load32(cur[k], j, u16));
        const __m256i ae = _mm256_add_epi32(d[0], d[4]), bd = _mm256_add_epi32(d[1], d[3]);
        __m256i v;
        if (!int64) {
            v = _mm256_add_epi32(_mm256_mullo_epi32(ae, _mm256_set1_epi32(3571)),
                                 _mm256_mullo_epi32(bd, _mm256_set1_epi32(16004)));
            v = _mm256_add_epi32(v, _mm256_mullo_epi32(d[2], _mm256_set1_epi32(26386)));
            v = _mm256_sra_epi32(_mm256_add_epi32(v, r32), sh);
            if (u16)
                big = _mm256_or_si256(big, bound(ae, bd, d[2]));
        } else if (bpc < 16) {
            v = taps_shift_bpc(ae, bd, d[2], shift);
        } else {
            v = taps16(ae, bd, d[2]);   /* shift 16, the result fits 32 bits */
        }
        any = _mm256_or_si256(any, v);
        _mm256_storeu_si256((__m256i *)(y + j), v);
    }
    const __m256i high = _mm256_and_si256(big, _mm256_set1_epi32((int)0xFFFF0000u));
    *out_of_bound = !_mm256_testz_si256(high, high);
    return !_mm256_testz_si256(any, any);
}

static int32_t vblur(int32_t *y, const void *const *prev, const void *const *cur, const int w,
                     const unsigned bpc)
{
    int out_of_bound;
    const int32_t any = vblur_pass(y, prev, cur, w, bpc, bpc == 16, &out_of_bound);
    return out_of_bound ? vblur_pass(y, prev, cur, w, bpc, 1, &out_of_bound) : any;
}

static uint32_t hblur_abs_mirrored(const int32_t *y, const int j, const int w)
{
    int32_t t[5];
    for (int k = 0; k < 5; k++)
        t[k] = y[motion_mirror(j - MOTION_RADIUS + k, w)];
    return motion_hblur_abs(t);
}

uint32_t ev_motion_sad_row_avx2(const void *const *prev, const void *const *cur, const int w,
                                const unsigned bpc, void *tmp)
{
    if (w < 16)
        return motion_sad_row_c(prev, cur, w, bpc, tmp);
    int32_t *y = tmp;
    if (!vblur(y, prev, cur, w, bpc))
        return 0;   /* an all-zero row adds 0 */
    uint32_t sad = hblur_abs_mirrored(y, 0, w) + hblur_abs_mirrored(y, 1, w);
    const int end = w - MOTION_RADIUS;
    __m256i acc = _mm256_setzero_si256();
    int j = MOTION_RADIUS;
    for (; j + 8 <= end; j += 8) {
        const __m256i a = _mm256_loadu_si256((const __m256i *)(y + j - 2));
        const __m256i b = _mm256_loadu_si256((const __m256i *)(y + j - 1));
        const __m256i c = _mm256_loadu_si256((const __m256i *)(y + j));
        const __m256i d = _mm256_loadu_si256((const __m256i *)(y + j + 1));
        const __m256i e = _mm256_loadu_si256((const __m256i *)(y + j + 2));
        acc = _mm256_add_epi32(acc, _mm256_abs_epi32(taps16(_mm256_add_epi32(a, e),
                                                            _mm256_add_epi32(b, d), c)));
    }
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    sad += (uint32_t)_mm_cvtsi128_si32(s);
    for (; j < end; j++)
        sad += motion_hblur_abs(y + j - MOTION_RADIUS);
    for (j = end > MOTION_RADIUS ? end : MOTION_RADIUS; j < w; j++)
        sad += hblur_abs_mirrored(y, j, w);
    return sad;
}
