/* Horizontal sums of 256-bit and 512-bit vectors with intrinsics only, for the kernel files of
 * each ISA (each width only where the file's ISA flags enable it). GCC's _mm512_reduce_add_* use C arithmetic on signed lanes,
 * undefined (and flagged by UBSan) where the reference's sums wrap; these wrap, modulo 2^64
 * or 2^32, as the reference's unsigned sums do. */
#ifndef EV_FEATURES_SIMD_REDUCE_H
#define EV_FEATURES_SIMD_REDUCE_H

#include <immintrin.h>
#include <stdint.h>

#ifdef __AVX2__
static inline uint64_t ev_hsum64_256(const __m256i v)
{
    const __m128i s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return (uint64_t)_mm_cvtsi128_si64(s) + (uint64_t)_mm_extract_epi64(s, 1);
}

static inline uint32_t ev_hsum32_256(const __m256i v)
{
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return (uint32_t)_mm_cvtsi128_si32(s);
}
#endif

#ifdef __AVX512F__
static inline uint64_t ev_hsum64_512(const __m512i v)
{
    const __m256i a = _mm256_add_epi64(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
    const __m128i b = _mm_add_epi64(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
    return (uint64_t)_mm_cvtsi128_si64(_mm_add_epi64(b, _mm_unpackhi_epi64(b, b)));
}

static inline uint32_t ev_hsum32_512(const __m512i v)
{
    const __m256i a = _mm256_add_epi32(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
    __m128i b = _mm_add_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
    b = _mm_add_epi32(b, _mm_shuffle_epi32(b, 0x4E));
    b = _mm_add_epi32(b, _mm_shuffle_epi32(b, 0xB1));
    return (uint32_t)_mm_cvtsi128_si32(b);
}
#endif

#endif
