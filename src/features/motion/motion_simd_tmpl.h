/*
 * Integer motion row kernel for one vector width (MOTION_W 256: AVX2, 512: AVX-512 F/BW/DQ),
 * the executors of motion_kernels.h; the reference is motion_rows.c with motion_math.h's
 * arithmetic. N columns per step in 32-bit lanes. The vertical blur of prev - cur in int32
 * where its bound holds (bpc <= 15 and no sample above the depth in the row), in int64
 * otherwise (16 bits, such samples: the reference's int64 sums); the horizontal blur in int64
 * (its sums reach 2^32). An int64 sum is rounded and shifted right by s <= 16 and only its low
 * 32 bits are kept, so a logical shift (AVX2 has no arithmetic one) gives the same bits. |.|
 * is summed in 32-bit lanes mod 2^32, the reference's uint32. The last vertical step is moved
 * back to end at the row's end; the interior horizontal tail and the four mirrored columns are
 * computed as in the C. Rows narrower than MOTION_MIN_W samples run the C kernel.
 */
#include <immintrin.h>

#include "features/common/simd_reduce.h"

#include "features/motion/motion_kernels.h"
#include "features/motion/motion_math.h"

#if MOTION_W == 512
typedef __m512i V;
#define N 16
#define LOAD8(p) _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(p)))
#define LOAD16(p) _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(p)))
#define LOADU(p) _mm512_loadu_si512((const void *)(p))
#define STOREU(p, v) _mm512_storeu_si512((void *)(p), (v))
#define ZERO() _mm512_setzero_si512()
#define SET1_32 _mm512_set1_epi32
#define SET1_64 _mm512_set1_epi64
#define ADD32 _mm512_add_epi32
#define SUB32 _mm512_sub_epi32
#define MULLO32 _mm512_mullo_epi32
#define SRA32 _mm512_sra_epi32
#define SLLI32 _mm512_slli_epi32
#define ABS32 _mm512_abs_epi32
#define OR _mm512_or_si512
#define AND _mm512_and_si512
#define MUL32_64 _mm512_mul_epi32
#define ADD64 _mm512_add_epi64
#define SRLI64 _mm512_srli_epi64
#define SLLI64 _mm512_slli_epi64
#define SHR64 _mm512_sra_epi64
#define BLEND_ODD(e, o) _mm512_mask_blend_epi32(0xAAAA, (e), (o))
#define NONZERO(v) (!!_mm512_test_epi32_mask((v), (v)))
#define HSUM32(v) ev_hsum32_512(v)
#define FN(name) ev_##name##_avx512
#else
typedef __m256i V;
#define N 8
#define LOAD8(p) _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(p)))
#define LOAD16(p) _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(p)))
#define LOADU(p) _mm256_loadu_si256((const __m256i *)(p))
#define STOREU(p, v) _mm256_storeu_si256((__m256i *)(p), (v))
#define ZERO() _mm256_setzero_si256()
#define SET1_32 _mm256_set1_epi32
#define SET1_64 _mm256_set1_epi64x
#define ADD32 _mm256_add_epi32
#define SUB32 _mm256_sub_epi32
#define MULLO32 _mm256_mullo_epi32
#define SRA32 _mm256_sra_epi32
#define SLLI32 _mm256_slli_epi32
#define ABS32 _mm256_abs_epi32
#define OR _mm256_or_si256
#define AND _mm256_and_si256
#define MUL32_64 _mm256_mul_epi32
#define ADD64 _mm256_add_epi64
#define SRLI64 _mm256_srli_epi64
#define SLLI64 _mm256_slli_epi64
#define SHR64 _mm256_srl_epi64
#define BLEND_ODD(e, o) _mm256_blend_epi32((e), (o), 0xAA)
#define NONZERO(v) (!_mm256_testz_si256((v), (v)))
#define HSUM32(v) ev_hsum32_256(v)
#define FN(name) ev_##name##_avx2
#endif

enum { MOTION_MIN_W = 16 }; /* >= N: the last vertical step moved back stays in the row */

size_t FN(motion_tmp_size)(const int max_w)
{
    return ((size_t)max_w + 32) * sizeof(int32_t);
}

static V load32(const void *row, const int j, const int u16)
{
    return u16 ? LOAD16((const uint16_t *)row + j) : LOAD8((const uint8_t *)row + j);
}

/* 3571 (a + e) + 16004 (b + d) + 26386 c of the even 32-bit lanes, in int64 */
static V taps64(const V ae, const V bd, const V c)
{
    const V s = ADD64(MUL32_64(ae, SET1_64(3571)), MUL32_64(bd, SET1_64(16004)));
    return ADD64(s, MUL32_64(c, SET1_64(26386)));
}

/* ((taps + 2^(s-1)) >> s) of N lanes, s <= 16, int64 sums, int32 results */
static V taps_round64(const V ae, const V bd, const V c, const int s)
{
    const V add = SET1_64(INT64_C(1) << (s - 1));
    const __m128i sh = _mm_cvtsi32_si128(s);
    const V e = SHR64(ADD64(taps64(ae, bd, c), add), sh);
    const V o = SHR64(ADD64(taps64(SRLI64(ae, 32), SRLI64(bd, 32), SRLI64(c, 32)), add), sh);
    return BLEND_ODD(e, SLLI64(o, 32));
}

/* The lanes' bound of the int32 vertical sum: with |a + e|, |b + d| <= 65535 and |c| <= 32767
 * it stays below 2^31 - 2^14 (motion_math.h), which holds for any samples within a depth of
 * at most 15 bits. bound() ORs |a + e|, |b + d| and 2|c|: a bit at or above 16 anywhere in a
 * row means a sample above the depth (which the API passes on) might overflow it. */
static V bound(const V ae, const V bd, const V c)
{
    return OR(OR(ABS32(ae), ABS32(bd)), SLLI32(ABS32(c), 1));
}

/* Vertical pass into y; returns the OR of the row. int64: the sums in int64 (16 bits, and
 * 9..15-bit rows that the int32 bound does not cover: the reference's int64 sums). */
static int32_t vblur_pass(int32_t *y, const void *const *prev, const void *const *cur, const int w,
                          const unsigned bpc, const int int64, int *out_of_bound)
{
    const int u16 = bpc > 8;
    const int shift = bpc == 8 ? 8 : (int)bpc;
    const V r32 = SET1_32(1 << (shift - 1));
    const __m128i sh = _mm_cvtsi32_si128(shift);
    V any = ZERO(), big = ZERO();
    for (int j0 = 0; j0 < w; j0 += N) {
        const int j = j0 + N <= w ? j0 : w - N;
        V d[5];
        for (int k = 0; k < 5; k++)
            d[k] = SUB32(load32(prev[k], j, u16), load32(cur[k], j, u16));
        const V ae = ADD32(d[0], d[4]), bd = ADD32(d[1], d[3]);
        V v;
        if (!int64) {
            /* the int32 sum of motion_vblur_diff32 */
            v = ADD32(MULLO32(ae, SET1_32(3571)), MULLO32(bd, SET1_32(16004)));
            v = ADD32(v, MULLO32(d[2], SET1_32(26386)));
            v = SRA32(ADD32(v, r32), sh);
            if (u16)
                big = OR(big, bound(ae, bd, d[2]));
        } else {
            v = taps_round64(ae, bd, d[2], shift);
        }
        any = OR(any, v);
        STOREU(y + j, v);
    }
    const V high = AND(big, SET1_32((int)0xFFFF0000u));
    *out_of_bound = NONZERO(high);
    return NONZERO(any);
}

static int32_t vblur(int32_t *y, const void *const *prev, const void *const *cur, const int w,
                     const unsigned bpc)
{
    int out_of_bound;
    const int32_t any = vblur_pass(y, prev, cur, w, bpc, bpc == 16, &out_of_bound);
    return out_of_bound ? vblur_pass(y, prev, cur, w, bpc, 1, &out_of_bound) : any;
}

uint32_t FN(motion_sad_row)(const void *const *prev, const void *const *cur, const int w,
                            const unsigned bpc, void *tmp)
{
    if (w < MOTION_MIN_W)
        return motion_sad_row_c(prev, cur, w, bpc, tmp);
    int32_t *y = tmp;
    if (!vblur(y, prev, cur, w, bpc))
        return 0; /* an all-zero row adds 0: skipped, as the reference */
    uint32_t sad = motion_hblur_abs_mirrored(y, 0, w) + motion_hblur_abs_mirrored(y, 1, w);
    const int end = w - MOTION_RADIUS;
    V acc = ZERO();
    int j = MOTION_RADIUS;
    for (; j + N <= end; j += N) {
        const V a = LOADU(y + j - 2), b = LOADU(y + j - 1), c = LOADU(y + j);
        const V d = LOADU(y + j + 1), e = LOADU(y + j + 2);
        /* |y| <= 2^16: the folded pairs fit int32, the taps' sum needs int64 */
        acc = ADD32(acc, ABS32(taps_round64(ADD32(a, e), ADD32(b, d), c, 16)));
    }
    sad += HSUM32(acc);
    for (; j < end; j++)
        sad += motion_hblur_abs(y + j - MOTION_RADIUS);
    for (j = end; j < w; j++)
        sad += motion_hblur_abs_mirrored(y, j, w);
    return sad;
}
