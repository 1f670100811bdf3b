/*
 * Integer motion row kernel in AVX-512 (F, BW, DQ), an executor of motion_dsp.h; the reference is
 * motion_rows.c. 16 columns per step in 32-bit lanes: the vertical blur of prev - cur in int32
 * where its bound holds (bpc <= 15 and no sample above the depth in the step's lanes), in int64
 * otherwise (16 bits, such samples: the reference's int64 sums); the horizontal blur
 * in int64 (its sums reach 2^32), |.| summed in 32-bit lanes mod 2^32, the reference's uint32.
 * The four mirrored edge columns are computed as in the C.
 */
#include <immintrin.h>

#include "features/common/simd_reduce.h"

#include "features/motion/motion_dsp.h"
#include "features/motion/motion_math.h"

size_t ev_motion_tmp_size_avx512(const int max_w)
{
    return ((size_t)max_w + 32) * sizeof(int32_t);
}

static __mmask16 mask16(const int left)
{
    return left >= 16 ? 0xFFFF : (__mmask16)((1u << left) - 1);
}

static __m512i load32(const void *row, const int j, const __mmask16 m, const int u16)
{
    return u16 ? _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m, (const uint16_t *)row + j))
               : _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, (const uint8_t *)row + j));
}

/* 3571 (a + e) + 16004 (b + d) + 26386 c of the even 32-bit lanes, in int64 */
static __m512i taps64(const __m512i ae, const __m512i bd, const __m512i c)
{
    const __m512i s = _mm512_add_epi64(_mm512_mul_epi32(ae, _mm512_set1_epi64(3571)),
                                       _mm512_mul_epi32(bd, _mm512_set1_epi64(16004)));
    return _mm512_add_epi64(s, _mm512_mul_epi32(c, _mm512_set1_epi64(26386)));
}

/* ((taps + 2^(s-1)) >> s) of 16 lanes, int64 sums, int32 results */
static __m512i taps_round64(const __m512i ae, const __m512i bd, const __m512i c, const int s)
{
    const __m512i add = _mm512_set1_epi64(INT64_C(1) << (s - 1));
    const __m128i sh = _mm_cvtsi32_si128(s);
    const __m512i e = _mm512_sra_epi64(_mm512_add_epi64(taps64(ae, bd, c), add), sh);
    const __m512i o = _mm512_sra_epi64(_mm512_add_epi64(taps64(_mm512_srli_epi64(ae, 32),
                                                                _mm512_srli_epi64(bd, 32),
                                                                _mm512_srli_epi64(c, 32)), add), sh);
    return _mm512_mask_blend_epi32(0xAAAA, e, _mm512_slli_epi64(o, 32));
}

/* The lanes' bound of the int32 vertical sum: with |a + e|, |b + d| <= 65535 and |c| <= 32767
 * it stays below 2^31 - 2^14 (motion_math.h), which holds for any samples within a depth of
 * at most 15 bits. bound() ORs |a + e|, |b + d| and 2|c|: a bit at or above 16 anywhere in a
 * row means a sample above the depth (which the API passes on) might overflow it. */
static __m512i bound(const __m512i ae, const __m512i bd, const __m512i c)
{
    return _mm512_or_si512(_mm512_or_si512(_mm512_abs_epi32(ae), _mm512_abs_epi32(bd)),
                           _mm512_slli_epi32(_mm512_abs_epi32(c), 1));
}

/* Vertical pass into y; returns the OR of the row. int64: the sums in int64 (16 bits, and
 * 9..15-bit rows that the int32 bound does not cover: the reference's int64 sums). */
static int32_t vblur_pass(int32_t *y, const void *const *prev, const void *const *cur,
                          const int w, const unsigned bpc, const int int64, int *out_of_bound)
{
    const int u16 = bpc > 8;
    const int shift = bpc == 8 ? 8 : (int)bpc;
    const __m512i r32 = _mm512_set1_epi32(1 << (shift - 1));
    const __m128i sh = _mm_cvtsi32_si128(shift);
    __m512i any = _mm512_setzero_si512(), big = _mm512_setzero_si512();
    for (int j = 0; j < w; j += 16) {
        const __mmask16 m = mask16(w - j);
        __m512i d[5];
        for (int k = 0; k < 5; k++)
            d[k] = _mm512_sub_epi32(load32(prev[k], j, m, u16), load32(cur[k], j, m, u16));
        const __m512i ae = _mm512_add_epi32(d[0], d[4]), bd = _mm512_add_epi32(d[1], d[3]);
        __m512i v;
        if (!int64) {
            /* the int32 sum of motion_vblur_diff32 */
            v = _mm512_add_epi32(_mm512_mullo_epi32(ae, _mm512_set1_epi32(3571)),
                                 _mm512_mullo_epi32(bd, _mm512_set1_epi32(16004)));
            v = _mm512_add_epi32(v, _mm512_mullo_epi32(d[2], _mm512_set1_epi32(26386)));
            v = _mm512_sra_epi32(_mm512_add_epi32(v, r32), sh);
            if (u16)
                big = _mm512_or_si512(big, bound(ae, bd, d[2]));
        } else {
            v = taps_round64(ae, bd, d[2], shift);
        }
        v = _mm512_maskz_mov_epi32(m, v);
        any = _mm512_or_si512(any, v);
        _mm512_mask_storeu_epi32(y + j, m, v);
    }
    *out_of_bound = !!_mm512_test_epi32_mask(big, _mm512_set1_epi32((int)0xFFFF0000u));
    return !!_mm512_test_epi32_mask(any, any);
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

uint32_t ev_motion_sad_row_avx512(const void *const *prev, const void *const *cur, const int w,
                                  const unsigned bpc, void *tmp)
{
    int32_t *y = tmp;
    if (!vblur(y, prev, cur, w, bpc))
        return 0;   /* an all-zero row adds 0: skipped, as the reference */
    uint32_t sad = hblur_abs_mirrored(y, 0, w) + hblur_abs_mirrored(y, 1, w);
    const int end = w - MOTION_RADIUS;
    __m512i acc = _mm512_setzero_si512();
    for (int j = MOTION_RADIUS; j < end; j += 16) {
        const __mmask16 m = mask16(end - j);
        const __m512i a = _mm512_maskz_loadu_epi32(m, y + j - 2), b = _mm512_maskz_loadu_epi32(m, y + j - 1);
        const __m512i c = _mm512_maskz_loadu_epi32(m, y + j), d = _mm512_maskz_loadu_epi32(m, y + j + 1);
        const __m512i e = _mm512_maskz_loadu_epi32(m, y + j + 2);
        /* |y| <= 2^16: the folded pairs fit int32, the taps' sum needs int64 */
        const __m512i v = taps_round64(_mm512_add_epi32(a, e), _mm512_add_epi32(b, d), c, 16);
        acc = _mm512_add_epi32(acc, _mm512_abs_epi32(v));
    }
    sad += ev_hsum32_512(acc);
    for (int j = end > MOTION_RADIUS ? end : MOTION_RADIUS; j < w; j++)
        sad += hblur_abs_mirrored(y, j, w);
    return sad;
}
