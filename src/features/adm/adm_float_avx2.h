/*
 * (float) of four int64 lanes, as doubles, with AVX2 (which has no int64 conversion): the
 * reference's `(float)ot_dp` of ADM's angle test (adm_math.h's adm_angle_flag), one rounding.
 * For |s| < 2^62 (the caller sends the rest to the C kernel).
 *
 * Below 2^53 the int64 is exactly a double, built from its 32-bit halves, and the float is
 * rounded from that. From 2^53 on the int64 is first rounded to odd at 2^11: the multiple of
 * 2^11 below it (the AND of two's complement is the floor), with bit 11 set when bits were
 * dropped. That value is a double (at most 52 bits above bit 11), and it rounds to the same
 * float: the float's rounding bit is at 2^29 or above, and whether bits below it were set
 * survives as the odd bit 11. Without this step the double would round first, and a sum just
 * off a float's midpoint would round to the midpoint and then to even (the test:
 * tests/unit/adm_float_avx2_test.c). Include with AVX2 enabled.
 */
#ifndef EV_ADM_FLOAT_AVX2_H
#define EV_ADM_FLOAT_AVX2_H

#include <immintrin.h>
#include <stdint.h>

/* Lanes of s with |s| > lim, all ones. */
static inline __m256i adm_i64_above_avx2(const __m256i s, const int64_t lim)
{
    const __m256i l = _mm256_set1_epi64x(lim);
    return _mm256_or_si256(_mm256_cmpgt_epi64(s, l),
                           _mm256_cmpgt_epi64(_mm256_sub_epi64(_mm256_setzero_si256(), l), s));
}

static inline __m256d adm_float_of_i64_avx2(const __m256i s)
{
    const __m256i low = _mm256_set1_epi64x(0x7FF);
    const __m256i dropped =
        _mm256_andnot_si256(_mm256_cmpeq_epi64(_mm256_and_si256(s, low), _mm256_setzero_si256()),
                            _mm256_set1_epi64x(0x800));
    const __m256i odd = _mm256_or_si256(_mm256_andnot_si256(low, s), dropped);
    const __m256i x = _mm256_blendv_epi8(s, odd, adm_i64_above_avx2(s, INT64_C(1) << 53));
    /* the high halves (signed) of the four lanes, then the low halves (unsigned) */
    const __m256i gather = _mm256_setr_epi32(1, 3, 5, 7, 0, 2, 4, 6);
    const __m128i high = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(x, gather));
    const __m256d hi = _mm256_mul_pd(_mm256_cvtepi32_pd(high), _mm256_set1_pd(4294967296.0));
    const __m256i lo = _mm256_and_si256(x, _mm256_set1_epi64x(0xFFFFFFFF));
    const __m256d magic = _mm256_set1_pd(4503599627370496.0); /* 2^52 */
    const __m256d lod =
        _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(lo, _mm256_castpd_si256(magic))), magic);
    /* hi + lod is x exactly; one rounding to float */
    return _mm256_cvtps_pd(_mm256_cvtpd_ps(_mm256_add_pd(hi, lod)));
}

#endif
