/*
 * psnr row kernels for one vector width (PSNR_W 256: AVX2, 512: AVX-512 BW), the executors of
 * psnr_dsp.h; the reference is psnr_math.h. |r - d| from two saturating subtractions, squared
 * into 32-bit lanes (vpmaddwd on the 16-bit 8-bit errors; 32-bit products for 16-bit
 * samples, exact as e^2 < 2^32). 8-bit: lane sums mod 2^32, the reference's wrapping uint32;
 * 16-bit: 64-bit lane sums. The tail is the C loop.
 */
#include <immintrin.h>

#include "features/common/simd_reduce.h"

#include "features/psnr/psnr_kernels.h"
#include "features/psnr/psnr_math.h"

#if PSNR_W == 512
typedef __m512i V;
#define VB 64
#define LOADU(p) _mm512_loadu_si512((const void *)(p))
#define ZERO() _mm512_setzero_si512()
#define SUBS_U8 _mm512_subs_epu8
#define SUBS_U16 _mm512_subs_epu16
#define OR _mm512_or_si512
#define UNPACKLO8 _mm512_unpacklo_epi8
#define UNPACKHI8 _mm512_unpackhi_epi8
#define UNPACKLO16 _mm512_unpacklo_epi16
#define UNPACKHI16 _mm512_unpackhi_epi16
#define UNPACKLO32 _mm512_unpacklo_epi32
#define UNPACKHI32 _mm512_unpackhi_epi32
#define MADD _mm512_madd_epi16
#define ADD32 _mm512_add_epi32
#define ADD64 _mm512_add_epi64
#define MULLO32 _mm512_mullo_epi32
#define SUM32(v) (ev_hsum32_512(v))
#define SUM64(v) (ev_hsum64_512(v))
#define FN(name) ev_##name##_avx512
#else
typedef __m256i V;
#define VB 32
#define LOADU(p) _mm256_loadu_si256((const __m256i *)(p))
#define ZERO() _mm256_setzero_si256()
#define SUBS_U8 _mm256_subs_epu8
#define SUBS_U16 _mm256_subs_epu16
#define OR _mm256_or_si256
#define UNPACKLO8 _mm256_unpacklo_epi8
#define UNPACKHI8 _mm256_unpackhi_epi8
#define UNPACKLO16 _mm256_unpacklo_epi16
#define UNPACKHI16 _mm256_unpackhi_epi16
#define UNPACKLO32 _mm256_unpacklo_epi32
#define UNPACKHI32 _mm256_unpackhi_epi32
#define MADD _mm256_madd_epi16
#define ADD32 _mm256_add_epi32
#define ADD64 _mm256_add_epi64
#define MULLO32 _mm256_mullo_epi32
#define SUM32(v) ev_hsum32_256(v)
#define SUM64(v) ev_hsum64_256(v)
#define FN(name) ev_##name##_avx2
#endif

uint32_t FN(psnr_row_sse8)(const uint8_t *r, const uint8_t *d, const unsigned w)
{
    V acc = ZERO();
    unsigned x = 0;
    for (; x + VB <= w; x += VB) {
        const V a = LOADU(r + x), b = LOADU(d + x);
        const V e = OR(SUBS_U8(a, b), SUBS_U8(b, a)); /* |r - d| */
        const V lo = UNPACKLO8(e, ZERO()), hi = UNPACKHI8(e, ZERO());
        acc = ADD32(acc, ADD32(MADD(lo, lo), MADD(hi, hi)));
    }
    return SUM32(acc) + psnr_row_sse8(r + x, d + x, w - x);
}

uint64_t FN(psnr_row_sse16)(const uint16_t *r, const uint16_t *d, const unsigned w)
{
    V acc = ZERO();
    unsigned x = 0;
    for (; x + VB / 2 <= w; x += VB / 2) {
        const V a = LOADU(r + x), b = LOADU(d + x);
        const V e = OR(SUBS_U16(a, b), SUBS_U16(b, a));
        const V lo = UNPACKLO16(e, ZERO()), hi = UNPACKHI16(e, ZERO());
        const V sl = MULLO32(lo, lo), sh = MULLO32(hi, hi); /* e^2 < 2^32 */
        acc = ADD64(acc, ADD64(UNPACKLO32(sl, ZERO()), UNPACKHI32(sl, ZERO())));
        acc = ADD64(acc, ADD64(UNPACKLO32(sh, ZERO()), UNPACKHI32(sh, ZERO())));
    }
    return SUM64(acc) + psnr_row_sse16(r + x, d + x, w - x);
}
