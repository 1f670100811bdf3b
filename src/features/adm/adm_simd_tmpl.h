/*
 * Integer ADM row kernels for one vector width, the executors of adm_kernels.h; the reference
 * is adm_rows.c, the per-coefficient arithmetic adm_math.h. ADM_W 256: AVX2 (adm_avx2.c); 512:
 * AVX-512 F, BW, DQ, CD (adm_avx512.c), and with ADM_ICL 1 VNNI's vpdpwssd for each
 * multiply-add pair (adm_avx512icl.c).
 *
 * How the bits stay the reference's:
 *  - Integer steps use the reference's widths where a result can exceed 32 bits (64-bit lanes,
 *    vpmuldq / vpmuludq, arithmetic 64-bit shifts) and 32-bit lanes where the bound is proven
 *    below 2^31 (stated at each step). Narrowings are truncations, as GCC's; where only the low
 *    32 bits of a 64-bit lane are kept, a logical shift gives them as the arithmetic one does.
 *  - Scale-0 filters use vpmaddwd on 16-bit samples: 8-bit samples directly, 16-bit samples
 *    biased by -32768 (the bias times the taps' sum is added back, mod 2^32, which is the
 *    reference's uint32 arithmetic). A horizontal tap pair (2j - 1, 2j) of output j is the
 *    32-bit lane j of a load at 2 j0 - 1: no shuffles.
 *  - Division: floor(2^30 / n) for 1 <= n <= 32768 (the reference's table) is the truncated
 *    double quotient: the exact quotient is an integer or at least 1/n from the next one, far
 *    more than the quotient's rounding error (2^-23 for values below 2^30).
 *  - Double steps (the angle test, the gain limit) are the reference's IEEE operations in its
 *    order; x / 4096.0 is x * 2^-12, the same exact scaling.
 *  - The sign of the reference's float product (k / 32768) * (o / 64) is that of o when k > 0
 *    (both factors exact and at least 2^-21 in size: no underflow), and 0 when k = 0.
 *
 * Column ranges: AVX-512 masks the loads and stores of a range's last vector. AVX2, without
 * masks for 16-bit lanes, does a range in whole vectors and its last few columns by the C
 * kernel (rows of one vector or less: all by the C kernel); row passes whose outputs depend
 * only on their own column move their last vector back to end at the row's end. What AVX2
 * lacks is built from what it has:
 *  - an arithmetic 64-bit right shift from the logical one and the sign; 64-bit min, max;
 *  - a bit length from the exponent of an exact float;
 *  - int64 to float (the angle test's dot products) through an exact double, the int64 first
 *    rounded to odd at 2^11 from 2^53 on (adm_float_avx2.h): a vector with a value of 2^62 or
 *    more is left to the C kernel.
 */
#include <immintrin.h>
#include <string.h>

#include "features/common/simd_reduce.h"

#include "features/adm/adm_kernels.h"
#include "features/adm/adm_math.h"
#if ADM_W == 256
#include "features/adm/adm_float_avx2.h"
#endif

#if ADM_W == 512
typedef __m512i V;    /* 32 x 16 bits, 16 x 32 bits, 8 x 64 bits */
typedef __m256i H;    /* half a vector */
typedef __m512d VD;   /* doubles of a half's 32-bit lanes, or of V's 64-bit lanes */
typedef __m512 VF;    /* floats of V's 32-bit lanes */
typedef __m256 HF;    /* half of them */
typedef __mmask8 MH;  /* a mask of H's 32-bit lanes */
typedef __mmask8 M64; /* of V's 64-bit lanes */
typedef __mmask8 MD;  /* of VD's lanes */
typedef int WIDE;     /* the dot products never need the C kernel */
#define N16 32        /* 16-bit lanes per vector */
#define MASKED 1      /* range tails by masks */
#define ZERO _mm512_setzero_si512
#define SET1_16 _mm512_set1_epi16
#define SET1_32 _mm512_set1_epi32
#define SET1_64 _mm512_set1_epi64
#define XOR _mm512_xor_si512
#define ADD32 _mm512_add_epi32
#define SUB32 _mm512_sub_epi32
#define MULLO32 _mm512_mullo_epi32
#define ABS32 _mm512_abs_epi32
#define MAX32 _mm512_max_epi32
#define SRAI32 _mm512_srai_epi32
#define SLLI32 _mm512_slli_epi32
#define SRA32 _mm512_sra_epi32
#define SLL32 _mm512_sll_epi32
#define ADD64 _mm512_add_epi64
#define SUB64 _mm512_sub_epi64
#define MUL32 _mm512_mul_epi32
#define MUL_U32 _mm512_mul_epu32
#define SRLI64 _mm512_srli_epi64
#define SLLI64 _mm512_slli_epi64
#define SRL64 _mm512_srl_epi64
#define SLLV64 _mm512_sllv_epi64
#define SRAI64 _mm512_srai_epi64
#define SRAV64 _mm512_srav_epi64
#define MIN64 _mm512_min_epi64
#define MAX64 _mm512_max_epi64
#define MADD16 _mm512_madd_epi16
#define UNPACKLO16 _mm512_unpacklo_epi16
#define UNPACKHI16 _mm512_unpackhi_epi16
#define PACKS32 _mm512_packs_epi32
#define LOADU(p) _mm512_loadu_si512((const void *)(p))
#define STOREU(p, v) _mm512_storeu_si512((void *)(p), (v))
#define BLEND_ODD32(e, o) _mm512_mask_blend_epi32(0xAAAA, (e), (o))
#define CVT16_32 _mm512_cvtepi16_epi32
#define CVTU16_32 _mm512_cvtepu16_epi32
#define CVT32_64 _mm512_cvtepi32_epi64
#define LO_H _mm512_castsi512_si256
#define HI_H(v) _mm512_extracti64x4_epi64((v), 1)
#define JOIN_H(lo, hi) _mm512_inserti64x4(_mm512_castsi256_si512(lo), (hi), 1)
#define NARROW16 _mm512_cvtepi32_epi16                       /* int32 lanes to int16, truncated */
#define PACK16(lo, hi) _mm512_cvtepi32_epi16(JOIN_H(lo, hi)) /* halves of int16 values */
#define LOW32 _mm512_cvtepi64_epi32                          /* int64 lanes to int32, truncated */
#define HSUM64 ev_hsum64_512
#define ZERO_H _mm256_setzero_si256
#define SET1_H32 _mm256_set1_epi32
#define ADD_H32 _mm256_add_epi32
#define SUB_H32 _mm256_sub_epi32
#define MULLO_H32 _mm256_mullo_epi32
#define SRAI_H32 _mm256_srai_epi32
#define SLLI_H32 _mm256_slli_epi32
#define ABS_H16 _mm256_abs_epi16
#define CMPGT_H32 _mm256_cmpgt_epi32_mask
#define CMPLT_H32 _mm256_cmplt_epi32_mask
#define CMPEQ_H32 _mm256_cmpeq_epi32_mask
#define SEL_H32(m, a, b) _mm256_mask_blend_epi32((m), (b), (a)) /* m ? a : b */
#define CMPGT64 _mm512_cmpgt_epi64_mask
#define CMPLT64 _mm512_cmplt_epi64_mask
#define CMPEQ64 _mm512_cmpeq_epi64_mask
/* flag & a & b of a double mask and two lane masks (of H's 32-bit lanes, of V's 64-bit ones) */
#define AND3_MH(flag, a, b) ((MD)((flag) & (a) & (b)))
#define AND3_M64(flag, a, b) ((MD)((flag) & (a) & (b)))
#define SEL64(m, a, b) _mm512_mask_blend_epi64((m), (b), (a))
#define NEG_WHERE64(x, m) _mm512_mask_sub_epi64((x), (m), _mm512_setzero_si512(), (x))
#define CVT32_PS _mm512_cvtepi32_ps
#define LO_F _mm512_castps512_ps256
#define HI_F(v) _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1))
#define CVTPS_PD _mm512_cvtps_pd
#define ZERO_PD _mm512_setzero_pd
#define SET1_PD _mm512_set1_pd
#define ADD_PD _mm512_add_pd
#define MUL_PD _mm512_mul_pd
#define DIV_PD _mm512_div_pd
#define MIN_PD _mm512_min_pd
#define MAX_PD _mm512_max_pd
#define ABS_PD _mm512_abs_pd
#define CMPGE_PD(a, b) _mm512_cmp_pd_mask((a), (b), _CMP_GE_OQ)
#define CMPLT_PD(a, b) _mm512_cmp_pd_mask((a), (b), _CMP_LT_OQ)
#define MD_AND(a, b) ((MD)((a) & (b)))
#define NEG_WHERE_PD(x, m) _mm512_mask_sub_pd((x), (m), _mm512_setzero_pd(), (x))
#define MIN_WHERE_PD _mm512_mask_min_pd /* (v, m, a, b): m ? min(a, b) : v */
#define MAX_WHERE_PD _mm512_mask_max_pd
#define TRUNC_PD(x) _mm512_roundscale_pd((x), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)
#define FLOOR_PD(x) _mm512_roundscale_pd((x), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)
#define CVT32_PD _mm512_cvtepi32_pd
#define CVTT_PD32 _mm512_cvttpd_epi32
#define TRUNC_PD_64 _mm512_cvttpd_epi64 /* |x| < 2^51, integer valued */
#define SMALL64_PD _mm512_cvtepi64_pd   /* int64 lanes that fit int32 */
/* tail-masked loads and stores: m's lanes, the others read as 0 and left as they are */
#define LOAD8_V16(p, m) _mm512_cvtepu8_epi16(_mm256_maskz_loadu_epi8((m), (p)))
#define LOAD16_V(p, m) _mm512_maskz_loadu_epi16((m), (p))
#define LOAD16_H(p, m) _mm256_maskz_loadu_epi16((m), (p))
#define LOAD32(p, m) _mm512_maskz_loadu_epi32((m), (p))
#define LOAD32_H(p, m) _mm256_maskz_loadu_epi32((m), (p))
#define STORE16_H(p, m, h) _mm256_mask_storeu_epi16((p), (m), (h))
#define STORE32(p, m, v) _mm512_mask_storeu_epi32((p), (m), (v))
#define STORE32_H(p, m, h) _mm256_mask_storeu_epi32((p), (m), (h))
/* acc + x in the 64-bit lanes of the even (odd) 32-bit lanes of m: masked-off lanes would add
 * what a 0 gives, which the C never adds */
#define ADD64_EVEN(acc, m, x)                                                                      \
    _mm512_mask_add_epi64((acc), (__mmask8)_pext_u32((m), 0x5555), (acc), (x))
#define ADD64_ODD(acc, m, x)                                                                       \
    _mm512_mask_add_epi64((acc), (__mmask8)_pext_u32((m), 0xAAAA), (acc), (x))
#if ADM_ICL
#define DP(acc, a, b) _mm512_dpwssd_epi32((acc), (a), (b))
#define FN(name) ev_adm_##name##_avx512icl
#else
#define DP(acc, a, b) _mm512_add_epi32((acc), _mm512_madd_epi16((a), (b)))
#define FN(name) ev_adm_##name##_avx512
#endif
#else
typedef __m256i V;
typedef __m128i H;
typedef __m256d VD;
typedef __m256 VF;
typedef __m128 HF;
typedef __m128i MH; /* all-ones lanes */
typedef __m256i M64;
typedef __m256d MD;
typedef __m256i WIDE; /* all-ones lanes: a dot product of 2^62 or more */
#define N16 16
#define MASKED 0 /* range tails by the C kernel or by moving the last vector back */
#define ZERO _mm256_setzero_si256
#define SET1_16 _mm256_set1_epi16
#define SET1_32 _mm256_set1_epi32
#define SET1_64 _mm256_set1_epi64x
#define XOR _mm256_xor_si256
#define ADD32 _mm256_add_epi32
#define SUB32 _mm256_sub_epi32
#define MULLO32 _mm256_mullo_epi32
#define ABS32 _mm256_abs_epi32
#define MAX32 _mm256_max_epi32
#define SRAI32 _mm256_srai_epi32
#define SLLI32 _mm256_slli_epi32
#define SRA32 _mm256_sra_epi32
#define SLL32 _mm256_sll_epi32
#define ADD64 _mm256_add_epi64
#define SUB64 _mm256_sub_epi64
#define MUL32 _mm256_mul_epi32
#define MUL_U32 _mm256_mul_epu32
#define SRLI64 _mm256_srli_epi64
#define SLLI64 _mm256_slli_epi64
#define SRL64 _mm256_srl_epi64
#define SLLV64 _mm256_sllv_epi64
#define SRAI64 sra64
#define SRAV64 srav64
#define MIN64 min64
#define MAX64 max64
#define MADD16 _mm256_madd_epi16
#define UNPACKLO16 _mm256_unpacklo_epi16
#define UNPACKHI16 _mm256_unpackhi_epi16
#define PACKS32 _mm256_packs_epi32
#define LOADU(p) _mm256_loadu_si256((const __m256i *)(p))
#define STOREU(p, v) _mm256_storeu_si256((__m256i *)(p), (v))
#define BLEND_ODD32(e, o) _mm256_blend_epi32((e), (o), 0xAA)
#define CVT16_32 _mm256_cvtepi16_epi32
#define CVTU16_32 _mm256_cvtepu16_epi32
#define CVT32_64 _mm256_cvtepi32_epi64
#define LO_H _mm256_castsi256_si128
#define HI_H(v) _mm256_extracti128_si256((v), 1)
#define JOIN_H(lo, hi) _mm256_inserti128_si256(_mm256_castsi128_si256(lo), (hi), 1)
#define NARROW16 trunc16
#define PACK16 _mm_packs_epi32
#define LOW32 low32
#define HSUM64 ev_hsum64_256
#define ZERO_H _mm_setzero_si128
#define SET1_H32 _mm_set1_epi32
#define ADD_H32 _mm_add_epi32
#define SUB_H32 _mm_sub_epi32
#define MULLO_H32 _mm_mullo_epi32
#define SRAI_H32 _mm_srai_epi32
#define SLLI_H32 _mm_slli_epi32
#define ABS_H16 _mm_abs_epi16
#define CMPGT_H32 _mm_cmpgt_epi32
#define CMPLT_H32 _mm_cmplt_epi32
#define CMPEQ_H32 _mm_cmpeq_epi32
#define SEL_H32(m, a, b) _mm_blendv_epi8((b), (a), (m))
#define CMPGT64 _mm256_cmpgt_epi64
#define CMPLT64(a, b) _mm256_cmpgt_epi64((b), (a))
#define CMPEQ64 _mm256_cmpeq_epi64
#define AND3_MH(flag, a, b)                                                                        \
    _mm256_and_pd((flag), _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm_and_si128((a), (b)))))
#define AND3_M64(flag, a, b) _mm256_and_pd((flag), _mm256_castsi256_pd(_mm256_and_si256((a), (b))))
#define SEL64(m, a, b) _mm256_blendv_epi8((b), (a), (m))
#define NEG_WHERE64(x, m)                                                                          \
    _mm256_blendv_epi8((x), _mm256_sub_epi64(_mm256_setzero_si256(), (x)), (m))
#define CVT32_PS _mm256_cvtepi32_ps
#define LO_F _mm256_castps256_ps128
#define HI_F(v) _mm256_extractf128_ps((v), 1)
#define CVTPS_PD _mm256_cvtps_pd
#define ZERO_PD _mm256_setzero_pd
#define SET1_PD _mm256_set1_pd
#define ADD_PD _mm256_add_pd
#define MUL_PD _mm256_mul_pd
#define DIV_PD _mm256_div_pd
#define MIN_PD _mm256_min_pd
#define MAX_PD _mm256_max_pd
#define ABS_PD(x) _mm256_andnot_pd(_mm256_set1_pd(-0.0), (x))
#define CMPGE_PD(a, b) _mm256_cmp_pd((a), (b), _CMP_GE_OQ)
#define CMPLT_PD(a, b) _mm256_cmp_pd((a), (b), _CMP_LT_OQ)
#define MD_AND _mm256_and_pd
#define NEG_WHERE_PD(x, m) _mm256_blendv_pd((x), _mm256_sub_pd(_mm256_setzero_pd(), (x)), (m))
#define MIN_WHERE_PD(v, m, a, b) _mm256_blendv_pd((v), _mm256_min_pd((a), (b)), (m))
#define MAX_WHERE_PD(v, m, a, b) _mm256_blendv_pd((v), _mm256_max_pd((a), (b)), (m))
#define TRUNC_PD(x) _mm256_round_pd((x), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)
#define FLOOR_PD(x) _mm256_round_pd((x), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)
#define CVT32_PD _mm256_cvtepi32_pd
#define CVTT_PD32 _mm256_cvttpd_epi32
#define TRUNC_PD_64(x) pd_to_i64(TRUNC_PD(x))
#define SMALL64_PD(v) _mm256_cvtepi32_pd(low32(v))
/* whole vectors: m is unused */
#define LOAD8_V16(p, m) ((void)(m), _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(p))))
#define LOAD16_V(p, m) ((void)(m), _mm256_loadu_si256((const __m256i *)(p)))
#define LOAD16_H(p, m) ((void)(m), _mm_loadu_si128((const __m128i *)(p)))
#define LOAD32(p, m) ((void)(m), _mm256_loadu_si256((const __m256i *)(p)))
#define LOAD32_H(p, m) ((void)(m), _mm_loadu_si128((const __m128i *)(p)))
#define STORE16_H(p, m, h) ((void)(m), _mm_storeu_si128((__m128i *)(p), (h)))
#define STORE32(p, m, v) ((void)(m), _mm256_storeu_si256((__m256i *)(p), (v)))
#define STORE32_H(p, m, h) ((void)(m), _mm_storeu_si128((__m128i *)(p), (h)))
#define ADD64_EVEN(acc, m, x) ((void)(m), _mm256_add_epi64((acc), (x)))
#define ADD64_ODD(acc, m, x) ((void)(m), _mm256_add_epi64((acc), (x)))
#define DP(acc, a, b) _mm256_add_epi32((acc), _mm256_madd_epi16((a), (b)))
#define FN(name) ev_adm_##name##_avx2
#endif

#define ADM_INLINE static inline __attribute__((always_inline))

enum {
    N32 = N16 / 2, /* 32-bit lanes per vector */
    N64 = N16 / 4,
    MARGIN = 64, /* int16 samples before and after each DWT row */
};

/* ---- the steps AVX2 builds from others ---- */
#if !MASKED
/* x >> s, arithmetic, of 4 int64 (0 < s < 64) */
ADM_INLINE V sra64(const V x, const int s)
{
    const V sign = _mm256_cmpgt_epi64(_mm256_setzero_si256(), x);
    return _mm256_or_si256(_mm256_srli_epi64(x, s), _mm256_slli_epi64(sign, 64 - s));
}

/* the same, a count per lane (0 < s < 64) */
static V srav64(const V x, const V s)
{
    const V sign = _mm256_cmpgt_epi64(_mm256_setzero_si256(), x);
    return _mm256_or_si256(_mm256_srlv_epi64(x, s),
                           _mm256_sllv_epi64(sign, _mm256_sub_epi64(_mm256_set1_epi64x(64), s)));
}

static V min64(const V a, const V b)
{
    return _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(a, b));
}

static V max64(const V a, const V b)
{
    return _mm256_blendv_epi8(b, a, _mm256_cmpgt_epi64(a, b));
}

/* the low 32 bits of 4 int64, as 4 int32 */
static H low32(const V v)
{
    return _mm256_castsi256_si128(
        _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 2, 4, 6, 0, 0, 0, 0)));
}

/* 8 int32 to int16 by truncation (adm_wrap16), in order */
static H trunc16(const V v)
{
    const V w = _mm256_srai_epi32(_mm256_slli_epi32(v, 16), 16);
    return _mm_packs_epi32(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
}

/* 4 integer-valued doubles below 2^51 in magnitude to int64 (exact) */
static V pd_to_i64(const VD v)
{
    const VD magic = _mm256_set1_pd(6755399441055744.0); /* 2^52 + 2^51 */
    return _mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(v, magic)),
                            _mm256_castpd_si256(magic));
}
#endif

/* The lanes below left of a range's last vector (AVX2: unused). */
static unsigned tail_mask(const int left)
{
    return !MASKED || left >= 32 ? 0xFFFFFFFFu : (1u << left) - 1;
}

/* Whether a vector of n lanes at j runs before end: AVX-512 to the end (the last one masked),
 * AVX2 whole vectors (the caller finishes the range in C). */
static int more(const int j, const int end, const int n)
{
    return MASKED ? j < end : j + n <= end;
}

/* Whether columns from j to end are left to the C kernel or to scalar steps (AVX2; AVX-512's
 * vectors reach the end). */
static int c_tail(const int j, const int end)
{
    return !MASKED && j < end;
}

/* Where the vector of n lanes from j0 of a row of w starts (AVX2: moved back, w >= n). */
static int col_at(const int j0, const int w, const int n)
{
    return MASKED || j0 + n <= w ? j0 : w - n;
}

size_t FN(rows_tmp_size)(const int max_in_w)
{
    /* two int16 DWT rows (scale 0) or two int32 rows (scales 1..3), or the CM's two rows */
    return 2 * (((size_t)max_in_w + 2 * MARGIN + 63) & ~(size_t)63) * sizeof(int32_t);
}

static V pair16(const int lo, const int hi)
{
    return SET1_32((int)((uint32_t)(uint16_t)lo | (uint32_t)(uint16_t)hi << 16));
}

/* 32-bit results from the even (e) and odd (o) 64-bit halves' low 32 bits. */
ADM_INLINE V join64(const V e, const V o)
{
    return BLEND_ODD32(e, SLLI64(o, 32));
}

/* ---- DWT ---- */

static void pad16(int16_t *row, const int n)
{
    row[-1] = row[1];
    row[n] = row[n - 1];
    row[n + 1] = row[n - 2];
}

static void pad32(int32_t *row, const int n)
{
    row[-1] = row[1];
    row[n] = row[n - 1];
    row[n + 1] = row[n - 2];
}

/* (v >> sh) truncated to int16 (adm_wrap16), then packed: the packing saturation never acts. */
ADM_INLINE V sra_wrap16(const V v, const __m128i sh)
{
    return SRAI32(SLLI32(SRA32(v, sh), 16), 16);
}

/* Scale 0 vertical pass into int16 rows. lo: (sum + lo_add) >> bpc, hi: (sum + hi_add) >> bpc,
 * the sums of 32-bit madds (mod 2^32, the reference's uint32). Samples below 2^bpc give
 * results in [-27411, 27411]; larger ones (a malformed file) wrap as in the reference. */
ADM_INLINE void dwt0_vert(int16_t *lo, int16_t *hi, const void *const *rows, const int in_w,
                          const unsigned bpc, const int u16)
{
    const V c_lo01 = pair16(ADM_LO0, ADM_LO1), c_lo23 = pair16(ADM_LO2, ADM_LO3);
    const V c_hi01 = pair16(ADM_HI0, ADM_HI1), c_hi23 = pair16(ADM_HI2, ADM_HI3);
    const uint32_t half = 1u << (bpc - 1);
    /* 16-bit samples enter biased by -32768: add 32768 x (the taps' sum) back */
    const uint32_t bias_lo = u16 ? 32768u * ADM_LO_SUM : 0;
    const V add_lo = SET1_32((int)(bias_lo - (uint32_t)ADM_LO_SUM * half + half));
    const V add_hi = SET1_32((int)half);
    const __m128i sh = _mm_cvtsi32_si128((int)bpc);
    const V bias = SET1_16((short)0x8000);
    for (int j0 = 0; j0 < in_w; j0 += N16) {
        const int j = col_at(j0, in_w, N16);
        const unsigned m = tail_mask(in_w - j);
        V s[4];
        for (int k = 0; k < 4; k++) {
            if (u16)
                s[k] = XOR(LOAD16_V((const uint16_t *)rows[k] + j, m), bias);
            else
                s[k] = LOAD8_V16((const uint8_t *)rows[k] + j, m);
        }
        const V p01l = UNPACKLO16(s[0], s[1]), p01h = UNPACKHI16(s[0], s[1]);
        const V p23l = UNPACKLO16(s[2], s[3]), p23h = UNPACKHI16(s[2], s[3]);
        const V ll = DP(DP(add_lo, p01l, c_lo01), p23l, c_lo23);
        const V lh = DP(DP(add_lo, p01h, c_lo01), p23h, c_lo23);
        STOREU(lo + j, PACKS32(sra_wrap16(ll, sh), sra_wrap16(lh, sh)));
        if (hi) {
            const V hl = DP(DP(add_hi, p01l, c_hi01), p23l, c_hi23);
            const V hh = DP(DP(add_hi, p01h, c_hi01), p23h, c_hi23);
            STOREU(hi + j, PACKS32(sra_wrap16(hl, sh), sra_wrap16(hh, sh)));
        }
    }
}

/* Scale 0 horizontal pass: N32 outputs per step; taps (2j - 1, 2j) and (2j + 1, 2j + 2) of
 * output j are lane j of the loads at 2 j0 - 1 and 2 j0 + 1. |sum| < 54822 x 27411 < 2^31. */
ADM_INLINE H horz0(const V p01, const V p23, const V c01, const V c23)
{
    const V sum = DP(MADD16(p01, c01), p23, c23);
    return NARROW16(SRAI32(ADD32(sum, SET1_32(32768)), 16));
}

static void dwt0_horz(int16_t *a, const AdmRow16 *hvd, const int16_t *lo, const int16_t *hi,
                      const int w)
{
    const V c_lo01 = pair16(ADM_LO0, ADM_LO1), c_lo23 = pair16(ADM_LO2, ADM_LO3);
    const V c_hi01 = pair16(ADM_HI0, ADM_HI1), c_hi23 = pair16(ADM_HI2, ADM_HI3);
    for (int j0 = 0; j0 < w; j0 += N32) {
        const int j = col_at(j0, w, N32);
        const unsigned m = tail_mask(w - j);
        const V l01 = LOADU(lo + 2 * j - 1), l23 = LOADU(lo + 2 * j + 1);
        STORE16_H(a + j, m, horz0(l01, l23, c_lo01, c_lo23));
        if (!hvd)
            continue;
        const V h01 = LOADU(hi + 2 * j - 1), h23 = LOADU(hi + 2 * j + 1);
        STORE16_H(hvd->b[1] + j, m, horz0(l01, l23, c_hi01, c_hi23));
        STORE16_H(hvd->b[0] + j, m, horz0(h01, h23, c_lo01, c_lo23));
        STORE16_H(hvd->b[2] + j, m, horz0(h01, h23, c_hi01, c_hi23));
    }
}

/* The DWT row buffers of tmp, MARGIN samples into each (AVX2: rows narrower than a vector
 * are the C kernel's). */
static void dwt0(int16_t *a, const AdmRow16 *hvd, const void *const *rows, const int in_w,
                 const unsigned bpc, void *tmp, const int u16)
{
    if (!MASKED && in_w < N16) {
        (u16 ? adm_dwt0_u16_c : adm_dwt0_u8_c)(a, hvd, rows, in_w, bpc, tmp);
        return;
    }
    const size_t n = ((size_t)in_w + 2 * MARGIN + 63) & ~(size_t)63;
    int16_t *lo = (int16_t *)tmp + MARGIN, *hi = lo + n;
    dwt0_vert(lo, hvd ? hi : NULL, rows, in_w, bpc, u16);
    pad16(lo, in_w);
    if (hvd)
        pad16(hi, in_w);
    dwt0_horz(a, hvd, lo, hi, (in_w + 1) / 2);
}

void FN(dwt0_u8)(int16_t *a, const AdmRow16 *hvd, const void *const *rows, const int in_w,
                 const unsigned bpc, void *tmp)
{
    dwt0(a, hvd, rows, in_w, 8, tmp, 0);
}

void FN(dwt0_u16)(int16_t *a, const AdmRow16 *hvd, const void *const *rows, const int in_w,
                  const unsigned bpc, void *tmp)
{
    dwt0(a, hvd, rows, in_w, bpc, tmp, 1);
}

/* Scales 1..3: int64 tap sums (vpmuldq on the even 32-bit lanes), (sum + add) >> shift, low
 * 32 bits kept (adm_dwt_round32), so the logical shift (<= 16) serves. e0..e3: the taps'
 * samples in the even lanes. */
ADM_INLINE V taps64(const V e0, const V e1, const V e2, const V e3, const int c0, const int c1,
                    const int c2, const int c3, const V add, const int shift)
{
    V s = MUL32(e0, SET1_64(c0));
    s = ADD64(s, MUL32(e1, SET1_64(c1)));
    s = ADD64(s, MUL32(e2, SET1_64(c2)));
    s = ADD64(s, MUL32(e3, SET1_64(c3)));
    return SRLI64(ADD64(s, add), (unsigned)shift);
}

#define TAPS_LO(e0, e1, e2, e3, add, sh)                                                           \
    taps64(e0, e1, e2, e3, ADM_LO0, ADM_LO1, ADM_LO2, ADM_LO3, add, sh)
#define TAPS_HI(e0, e1, e2, e3, add, sh)                                                           \
    taps64(e0, e1, e2, e3, ADM_HI0, ADM_HI1, ADM_HI2, ADM_HI3, add, sh)

static const int64_t s123_vert_add[3] = { 0, 32768, 32768 };
static const int s123_vert_shift[3] = { 0, 16, 16 };
static const int64_t s123_horz_add[3] = { 16384, 32768, 16384 };
static const int s123_horz_shift[3] = { 15, 16, 15 };

ADM_INLINE void dwt123_vert(int32_t *lo, int32_t *hi, const void *const *rows, const int in_w,
                            const int64_t add_c, const int shift, const int in16)
{
    const V add = SET1_64(add_c);
    for (int j0 = 0; j0 < in_w; j0 += N32) {
        const int j = col_at(j0, in_w, N32);
        const unsigned m = tail_mask(in_w - j);
        V e[4], o[4];
        for (int k = 0; k < 4; k++) {
            e[k] = in16 ? CVT16_32(LOAD16_H((const int16_t *)rows[k] + j, m))
                        : LOAD32((const int32_t *)rows[k] + j, m);
            o[k] = SRLI64(e[k], 32);
        }
        STOREU(lo + j, join64(TAPS_LO(e[0], e[1], e[2], e[3], add, shift),
                              TAPS_LO(o[0], o[1], o[2], o[3], add, shift)));
        STOREU(hi + j, join64(TAPS_HI(e[0], e[1], e[2], e[3], add, shift),
                              TAPS_HI(o[0], o[1], o[2], o[3], add, shift)));
    }
}

/* N64 outputs j .. j + N64 - 1 of one band: the taps 2j - 1 .. 2j + 2 are the even lanes of the
 * loads at 2 j - 1 .. 2 j + 2. */
ADM_INLINE void dwt123_horz(int32_t *a, const AdmRow32 *hvd, const int32_t *lo, const int32_t *hi,
                            const int w, const int64_t add_c, const int shift)
{
    const V add = SET1_64(add_c);
    for (int j0 = 0; j0 < w; j0 += N64) {
        const int j = col_at(j0, w, N64);
        V l[4], h[4];
        for (int k = 0; k < 4; k++) {
            l[k] = LOADU(lo + 2 * j - 1 + k);
            h[k] = LOADU(hi + 2 * j - 1 + k);
        }
        const unsigned m = tail_mask(w - j); /* the stores' lanes */
        STORE32_H(a + j, m, LOW32(TAPS_LO(l[0], l[1], l[2], l[3], add, shift)));
        STORE32_H(hvd->b[1] + j, m, LOW32(TAPS_HI(l[0], l[1], l[2], l[3], add, shift)));
        STORE32_H(hvd->b[0] + j, m, LOW32(TAPS_LO(h[0], h[1], h[2], h[3], add, shift)));
        STORE32_H(hvd->b[2] + j, m, LOW32(TAPS_HI(h[0], h[1], h[2], h[3], add, shift)));
    }
}

void FN(dwt123)(int32_t *a, const AdmRow32 *hvd, const void *const *rows, const int in_w,
                const int scale, void *tmp)
{
    if (!MASKED && in_w < N16) {
        adm_dwt123_c(a, hvd, rows, in_w, scale, tmp);
        return;
    }
    const size_t n = ((size_t)in_w + 2 * MARGIN + 63) & ~(size_t)63;
    int32_t *lo = (int32_t *)tmp + MARGIN, *hi = lo + n;
    const int sv = s123_vert_shift[scale - 1], sh = s123_horz_shift[scale - 1];
    /* the shifts are immediates: one instance per value */
    if (sv == 0) /* scale 1: int16 input */
        dwt123_vert(lo, hi, rows, in_w, s123_vert_add[scale - 1], 0, 1);
    else
        dwt123_vert(lo, hi, rows, in_w, s123_vert_add[scale - 1], 16, 0);
    pad32(lo, in_w);
    pad32(hi, in_w);
    if (sh == 15)
        dwt123_horz(a, hvd, lo, hi, (in_w + 1) / 2, s123_horz_add[scale - 1], 15);
    else
        dwt123_horz(a, hvd, lo, hi, (in_w + 1) / 2, s123_horz_add[scale - 1], 16);
}

/* ---- decouple ---- */

/* The angle flag of coefficients from their float dot products ot, oo, tt (as doubles). */
ADM_INLINE MD angle(const VD ot_f, const VD oo_f, const VD tt_f, const double cos_sq)
{
    const VD q = SET1_PD(1.0 / 4096.0); /* x / 4096.0: the same exact scaling */
    const VD ot = MUL_PD(ot_f, q), oo = MUL_PD(oo_f, q), tt = MUL_PD(tt_f, q);
    const VD rhs = MUL_PD(MUL_PD(SET1_PD(cos_sq), oo), tt);
    return MD_AND(CMPGE_PD(ot, ZERO_PD()), CMPGE_PD(MUL_PD(ot, ot), rhs));
}

/* The gain-limited restoration: rst, with lim = rst egl, where pos (flag, k > 0, o > 0):
 * lim < t ? lim : t; where neg (o < 0): lim > t ? lim : t. */
ADM_INLINE VD restore(const VD rd, const VD td, const MD pos, const MD neg, const double egl)
{
    const VD lim = MUL_PD(rd, SET1_PD(egl));
    const VD v = MIN_WHERE_PD(rd, pos, lim, td);
    return MAX_WHERE_PD(v, neg, lim, td);
}

/* k of half a vector of scale-0 coefficients as doubles: clamp(floor((sign(o) q t + 2^14) /
 * 2^15), 0, 2^15) with q = floor(2^30 / |o|), 2^15 where o = 0. sign(o) q t is below 2^45:
 * exact. */
ADM_INLINE H k0(const H o, const H t)
{
    const VD od = CVT32_PD(o);
    const VD q = TRUNC_PD(DIV_PD(SET1_PD(1073741824.0), ABS_PD(od)));
    VD num = MUL_PD(q, CVT32_PD(t));
    num = NEG_WHERE_PD(num, CMPLT_PD(od, ZERO_PD()));
    VD k = FLOOR_PD(MUL_PD(ADD_PD(num, SET1_PD(16384.0)), SET1_PD(1.0 / 32768.0)));
    k = MIN_PD(MAX_PD(k, ZERO_PD()), SET1_PD(32768.0));
    return SEL_H32(CMPEQ_H32(o, ZERO_H()), SET1_H32(32768), CVTT_PD32(k));
}

/* One band of half a vector of scale-0 coefficients: r and a (int32 lanes holding int16
 * values; a truncated by the caller). The restored value fits int32: |rst| and |t| bound it,
 * times egl <= 100, for 16-bit bands. */
ADM_INLINE void coef0(H *r, H *a, const H o, const H t, const MD flag, const double egl)
{
    const H k = k0(o, t);
    /* |k o| <= 2^30: int32 */
    const H rst = SRAI_H32(ADD_H32(MULLO_H32(k, o), SET1_H32(16384)), 15);
    const MH kpos = CMPGT_H32(k, ZERO_H());
    const MD pos = AND3_MH(flag, kpos, CMPGT_H32(o, ZERO_H()));
    const MD neg = AND3_MH(flag, kpos, CMPLT_H32(o, ZERO_H()));
    H v = CVTT_PD32(restore(CVT32_PD(rst), CVT32_PD(t), pos, neg, egl));
    v = SRAI_H32(SLLI_H32(v, 16), 16); /* wrap16 */
    *r = v;
    *a = SUB_H32(t, v);
}

/* Scale 0 bands: the kernel's inputs are DWT bands, |x| <= 22931 (the scale-0 DWT's bound),
 * which keeps oh th + ov tv inside int32 (it is exact for any int16 but -32768). */
void FN(decouple0)(const AdmRow16 *r, const AdmRow16 *a, const AdmRow16 *o, const AdmRow16 *t,
                   const int x0, const int x1, const AdmDecoupleParams *p)
{
    const double cos_sq = p->cos_1deg_sq;
    int j = x0;
    for (; more(j, x1, N32); j += N32) {
        const unsigned m = tail_mask(x1 - j);
        V ob[3], tb[3];
        for (int b = 0; b < 3; b++) {
            ob[b] = CVT16_32(LOAD16_H(o->b[b] + j, m));
            tb[b] = CVT16_32(LOAD16_H(t->b[b] + j, m));
        }
        const VF otf = CVT32_PS(ADD32(MULLO32(ob[0], tb[0]), MULLO32(ob[1], tb[1])));
        const VF oof = CVT32_PS(ADD32(MULLO32(ob[0], ob[0]), MULLO32(ob[1], ob[1])));
        const VF ttf = CVT32_PS(ADD32(MULLO32(tb[0], tb[0]), MULLO32(tb[1], tb[1])));
        const MD f0 = angle(CVTPS_PD(LO_F(otf)), CVTPS_PD(LO_F(oof)), CVTPS_PD(LO_F(ttf)), cos_sq);
        const MD f1 = angle(CVTPS_PD(HI_F(otf)), CVTPS_PD(HI_F(oof)), CVTPS_PD(HI_F(ttf)), cos_sq);
        for (int b = 0; b < 3; b++) {
            H r0, a0, r1, a1;
            coef0(&r0, &a0, LO_H(ob[b]), LO_H(tb[b]), f0, p->egl);
            coef0(&r1, &a1, HI_H(ob[b]), HI_H(tb[b]), f1, p->egl);
            STORE16_H(r->b[b] + j, m, PACK16(r0, r1)); /* wrapped to int16 */
            STORE16_H(a->b[b] + j, m, NARROW16(JOIN_H(a0, a1)));
        }
    }
    if (c_tail(j, x1))
        adm_decouple0_c(r, a, o, t, j, x1, p);
}

/* q = floor(2^30 / idx) of scales 1..3 (the even 32-bit lanes; o sign-extended, o32 the same
 * 32-bit values), idx the top 15 bits of |o| (|o| as uint32: abs of INT32_MIN is 2^31, as
 * (uint32)adm_abs32) rounded when |o| >= 2^15, with their shift (*shift, 64-bit lanes). */
#if MASKED
ADM_INLINE V k123_quotient(const V o, const H o32, V *shift)
{
    const V mag = _mm512_and_si512(_mm512_abs_epi64(o), _mm512_set1_epi64(0xFFFFFFFF));
    /* |o| >= 2^15: rounded to its top 15 bits, shift = 17 - clz32 = 49 - clz64 */
    const __mmask8 big = _mm512_cmpge_epu64_mask(mag, _mm512_set1_epi64(32768));
    *shift = _mm512_maskz_sub_epi64(big, _mm512_set1_epi64(49), _mm512_lzcnt_epi64(mag));
    const V half = _mm512_maskz_sllv_epi64(big, _mm512_set1_epi64(1),
                                           _mm512_sub_epi64(*shift, _mm512_set1_epi64(1)));
    const V idx = _mm512_srlv_epi64(_mm512_add_epi64(mag, half), *shift);
    return _mm512_cvttpd_epi64(TRUNC_PD(DIV_PD(SET1_PD(1073741824.0), _mm512_cvtepi64_pd(idx))));
}
#else
ADM_INLINE V k123_quotient(const V o, const H o32, V *shift)
{
    const H mag32 = _mm_abs_epi32(o32); /* |INT32_MIN| stays 2^31 as uint32 */
    /* the bit length of |o| from the float of |o| >> 8 (exact); |o| >= 2^15: shift = len - 15 */
    const H f = _mm_castps_si128(_mm_cvtepi32_ps(_mm_srli_epi32(mag32, 8)));
    const H len = _mm_sub_epi32(_mm_srli_epi32(f, 23), _mm_set1_epi32(118));
    /* |o| >= 2^15, unsigned (2^31 reads as negative) */
    const H big = _mm_xor_si128(_mm_cmpeq_epi32(_mm_srli_epi32(mag32, 15), _mm_setzero_si128()),
                                _mm_set1_epi32(-1));
    const H sh32 = _mm_and_si128(big, _mm_sub_epi32(len, _mm_set1_epi32(15)));
    const H half = _mm_and_si128(
        big, _mm_sllv_epi32(_mm_set1_epi32(1), _mm_sub_epi32(sh32, _mm_set1_epi32(1))));
    const H idx = _mm_srlv_epi32(_mm_add_epi32(mag32, half), sh32); /* <= 32768 */
    *shift = _mm256_cvtepi32_epi64(sh32);
    return _mm256_cvtepi32_epi64(
        CVTT_PD32(TRUNC_PD(DIV_PD(SET1_PD(1073741824.0), _mm256_cvtepi32_pd(idx)))));
}
#endif

/* k of scales 1..3 in 64-bit lanes (o, t sign-extended; o32: o's 32-bit values). */
ADM_INLINE V k123(const V o, const H o32, const V t)
{
    V shift;
    const V q = k123_quotient(o, o32, &shift);
    /* q t: |q| <= 2^30, |t| <= 2^31 */
    const V num = NEG_WHERE64(MUL32(q, t), CMPLT64(o, ZERO()));
    const V s15 = ADD64(shift, SET1_64(15));
    const V rnd = SLLV64(SET1_64(1), SUB64(s15, SET1_64(1)));
    V k = SRAV64(ADD64(num, rnd), s15);
    k = MIN64(MAX64(k, ZERO()), SET1_64(32768));
    return SEL64(CMPEQ64(o, ZERO()), SET1_64(32768), k);
}

/* One band of N64 coefficients of scales 1..3 (64-bit lanes of o, t sign-extended): r and
 * a, wrapped to int32. */
ADM_INLINE void coef123(H *r, H *a, const H o32, const H t32, const MD flag, const double egl)
{
    const V o = CVT32_64(o32), t = CVT32_64(t32);
    const V k = k123(o, o32, t);
    /* rst = (k o + 2^14) >> 15, |k o| <= 2^46; it fits int32 (|rst| <= |o| + 1) */
    const V rst = SRAI64(ADD64(MUL32(k, o), SET1_64(16384)), 15);
    const M64 kpos = CMPGT64(k, ZERO());
    const MD pos = AND3_M64(flag, kpos, CMPGT64(o, ZERO()));
    const MD neg = AND3_M64(flag, kpos, CMPLT64(o, ZERO()));
    const VD v = restore(SMALL64_PD(rst), SMALL64_PD(t), pos, neg, egl);
    const V vi = TRUNC_PD_64(v); /* |v| <= 100 x 2^31: int64 */
    *r = LOW32(vi);              /* wrap32 */
    *a = LOW32(SUB64(t, vi));
}

/* (float) of oh th + ov tv etc. (int64: each product at most 2^62), as doubles. AVX-512
 * converts the int64 directly; AVX2 through adm_float_avx2.h, which holds below 2^62 (*wide:
 * the lanes at or above, the C kernel's columns). */
#if MASKED
ADM_INLINE VD dot_f(const V a0, const V b0, const V a1, const V b1, WIDE *wide)
{
    return _mm512_cvtps_pd(_mm512_cvtepi64_ps(ADD64(MUL32(a0, b0), MUL32(a1, b1))));
}

#define ANY_WIDE(w) 0
#else
ADM_INLINE VD dot_f(const V a0, const V b0, const V a1, const V b1, WIDE *wide)
{
    const V s = ADD64(MUL32(a0, b0), MUL32(a1, b1));
    *wide = _mm256_or_si256(*wide, adm_i64_above_avx2(s, (INT64_C(1) << 62) - 1));
    return adm_float_of_i64_avx2(s);
}

#define ANY_WIDE(w) (!_mm256_testz_si256((w), (w)))
#endif

/* The bands of o and t at column j of scales 1..3 (the lanes of m) and their angle flags.
 * Returns 0 where (AVX2) a dot product is too wide: the C kernel's columns. */
ADM_INLINE int load_angle123(MD *flag, H ob[3], H tb[3], const AdmRow32 *o, const AdmRow32 *t,
                             const int j, const unsigned m, const double cos_sq)
{
    for (int b = 0; b < 3; b++) {
        ob[b] = LOAD32_H(o->b[b] + j, m);
        tb[b] = LOAD32_H(t->b[b] + j, m);
    }
    const V oh = CVT32_64(ob[0]), ov = CVT32_64(ob[1]);
    const V th = CVT32_64(tb[0]), tv = CVT32_64(tb[1]);
    WIDE wide;
    memset(&wide, 0, sizeof(wide));
    const VD ot = dot_f(oh, th, ov, tv, &wide), oo = dot_f(oh, oh, ov, ov, &wide);
    const VD tt = dot_f(th, th, tv, tv, &wide);
    if (ANY_WIDE(wide))
        return 0;
    *flag = angle(ot, oo, tt, cos_sq);
    return 1;
}

void FN(decouple123)(const AdmRow32 *r, const AdmRow32 *a, const AdmRow32 *o, const AdmRow32 *t,
                     const int x0, const int x1, const AdmDecoupleParams *p)
{
    int j = x0;
    for (; more(j, x1, N64); j += N64) {
        const unsigned m = tail_mask(x1 - j);
        H ob[3], tb[3];
        MD flag;
        if (!load_angle123(&flag, ob, tb, o, t, j, m, p->cos_1deg_sq)) {
            adm_decouple123_c(r, a, o, t, j, j + N64, p);
            continue;
        }
        for (int b = 0; b < 3; b++) {
            H rv, av;
            coef123(&rv, &av, ob[b], tb[b], flag, p->egl);
            STORE32_H(r->b[b] + j, m, rv);
            STORE32_H(a->b[b] + j, m, av);
        }
    }
    if (c_tail(j, x1))
        adm_decouple123_c(r, a, o, t, j, x1, p);
}

/* ---- CSF ---- */

/* Scale 0: (rf x + rnd) >> sh with |rf x| <= 65535 x 32768 and the rounding term keeping it
 * below 2^31 (int32), then |csf| * 4369 rounded >> 12 (< 2^28). Both truncated to int16. */
void FN(csf0)(const AdmRow16 *csf, const AdmRow16 *flt, const AdmRow16 *src, const int x0,
              const int x1, const uint16_t *rf)
{
    int j = x0;
    for (int b = 0; b < 3; b++) {
        const V f = SET1_32(rf[b]);
        const V rnd = SET1_32(b == 2 ? 65535 : 16384);
        const __m128i sh = _mm_cvtsi32_si128(b == 2 ? 17 : 15);
        for (j = x0; more(j, x1, N32); j += N32) {
            const unsigned m = tail_mask(x1 - j);
            const V x = CVT16_32(LOAD16_H(src->b[b] + j, m));
            V v = SRA32(ADD32(MULLO32(f, x), rnd), sh);
            v = SRAI32(SLLI32(v, 16), 16); /* wrap16 */
            const V fl = SRAI32(ADD32(MULLO32(ABS32(v), SET1_32(4369)), SET1_32(2048)), 12);
            STORE16_H(csf->b[b] + j, m, NARROW16(v));
            STORE16_H(flt->b[b] + j, m, NARROW16(fl));
        }
    }
    if (c_tail(j, x1))
        adm_csf0_c(csf, flt, src, j, x1, rf);
}

/* adm_csf_coef123 of the even lanes: (rf x + 2^27) >> 28, low 32 bits. rf x of a Q32 factor
 * (uint32) and int32 x, exact in int64: the signed product of rf read as int32, plus x << 32
 * when rf >= 2^31. e: x in the even 32-bit lanes. */
ADM_INLINE V csf123_even(const V e, const V rf_s, const int rf_big)
{
    V p = MUL32(e, rf_s);
    if (rf_big)
        p = ADD64(p, SLLI64(e, 32));
    return SRLI64(ADD64(p, SET1_64(1 << 27)), 28);
}

/* (c * |v| - 2^31) >> 32 of the even lanes (the high half), |v| as adm_abs32 (INT32_MIN
 * stays). */
ADM_INLINE V mulshift_abs_even(const V v, const int c)
{
    const V p = MUL32(ABS32(v), SET1_64(c));
    return SRLI64(SUB64(p, SET1_64(2147483648LL)), 32);
}

void FN(csf123)(const AdmRow32 *csf, const AdmRow32 *flt, const AdmRow32 *src, const int x0,
                const int x1, const uint32_t *rf)
{
    int j = x0;
    for (int b = 0; b < 3; b++) {
        const V rf_s = SET1_64((int32_t)rf[b]);
        const int big = rf[b] >= 0x80000000u;
        for (j = x0; more(j, x1, N32); j += N32) {
            const unsigned m = tail_mask(x1 - j);
            const V x = LOAD32(src->b[b] + j, m);
            const V v = join64(csf123_even(x, rf_s, big), csf123_even(SRLI64(x, 32), rf_s, big));
            /* abs of the even lanes is taken in 32 bits by mulshift_abs_even's vpabsd */
            const V fl = join64(mulshift_abs_even(v, 143165577),
                                mulshift_abs_even(SRLI64(v, 32), 143165577));
            STORE32(csf->b[b] + j, m, v);
            STORE32(flt->b[b] + j, m, fl);
        }
    }
    if (c_tail(j, x1))
        adm_csf123_c(csf, flt, src, j, x1, rf);
}

/* ---- denominators ---- */

void FN(den0)(uint64_t sums[3], const AdmRow16 *o, const int x0, const int x1)
{
    int j = x0;
    for (int b = 0; b < 3; b++) {
        V acc = ZERO();
        for (j = x0; more(j, x1, N32); j += N32) {
            const unsigned m = tail_mask(x1 - j);
            /* |x| <= 32768 (vpabsw of -32768 is 32768 as uint16), x^2 <= 2^30 */
            const V v = CVTU16_32(ABS_H16(LOAD16_H(o->b[b] + j, m)));
            const V sq = MULLO32(v, v);
            acc = ADD64(acc, MUL_U32(sq, v));
            acc = ADD64(acc, MUL_U32(SRLI64(sq, 32), SRLI64(v, 32)));
        }
        sums[b] = HSUM64(acc);
    }
    if (c_tail(j, x1)) {
        uint64_t tail[3] = { 0, 0, 0 };
        adm_den0_c(tail, o, j, x1);
        for (int b = 0; b < 3; b++)
            sums[b] += tail[b];
    }
}

/* sq m mod 2^64 of 64-bit sq (below 2^34) and the even lanes' uint32 m */
#if MASKED
#define MUL64_32(sq, m)                                                                            \
    _mm512_mullo_epi64((sq), _mm512_and_si512((m), _mm512_set1_epi64(0xFFFFFFFF)))
#else
#define MUL64_32(sq, m)                                                                            \
    _mm256_add_epi64(_mm256_mul_epu32((sq), (m)),                                                  \
                     _mm256_slli_epi64(_mm256_mul_epu32(_mm256_srli_epi64((sq), 32), (m)), 32))
#endif

/* ((m^2 + 2^q) >> q) m, + add, >> cub, mod 2^64, of the even lanes' |x| (uint32). */
ADM_INLINE V den123_even(const V m, const __m128i q, const V qadd, const V add, const __m128i cub)
{
    const V sq = SRL64(ADD64(MUL_U32(m, m), qadd), q);
    return SRL64(ADD64(MUL64_32(sq, m), add), cub);
}

void FN(den123)(uint64_t sums[3], const AdmRow32 *o, const int x0, const int x1, const unsigned q,
                const uint64_t cub_add, const unsigned cub)
{
    const __m128i qs = _mm_cvtsi32_si128((int)q), cs = _mm_cvtsi32_si128((int)cub);
    const V qadd = SET1_64((long long)(UINT64_C(1) << q));
    const V add = SET1_64((long long)cub_add);
    int j = x0;
    for (int b = 0; b < 3; b++) {
        V acc = ZERO();
        for (j = x0; more(j, x1, N32); j += N32) {
            const unsigned m = tail_mask(x1 - j);
            const V v = ABS32(LOAD32(o->b[b] + j, m));
            acc = ADD64_EVEN(acc, m, den123_even(v, qs, qadd, add, cs));
            acc = ADD64_ODD(acc, m, den123_even(SRLI64(v, 32), qs, qadd, add, cs));
        }
        sums[b] = HSUM64(acc);
    }
    if (c_tail(j, x1)) {
        uint64_t tail[3] = { 0, 0, 0 };
        adm_den123_c(tail, o, j, x1, q, cub_add, cub);
        for (int b = 0; b < 3; b++)
            sums[b] += tail[b];
    }
}

/* ---- contrast masking ----
 * Scale 0 (src16, csf16, flt16) and scales 1..3 (src32, ...; the other pointers NULL): the
 * same passes, the per-coefficient steps of adm_cm_cube0 or adm_cm_cube123. */

/* x >> n, arithmetic, of the 64-bit lanes for a count n known at run time (0 <= n < 64) */
#if MASKED
typedef struct Sra64 {
    __m128i n;
} Sra64;

static Sra64 sra64_count(const unsigned n)
{
    const Sra64 s = { _mm_cvtsi32_si128((int)n) };
    return s;
}

ADM_INLINE V sra64_by(const V x, const Sra64 s)
{
    return _mm512_sra_epi64(x, s.n);
}
#else
typedef struct Sra64 {
    __m128i n, back; /* n, 64 - n */
    int any;         /* n > 0 */
} Sra64;

static Sra64 sra64_count(const unsigned n)
{
    const Sra64 s = { _mm_cvtsi32_si128((int)n), _mm_cvtsi32_si128(64 - (int)n), n > 0 };
    return s;
}

ADM_INLINE V sra64_by(const V x, const Sra64 s)
{
    if (!s.any)
        return x;
    const V sign = _mm256_cmpgt_epi64(_mm256_setzero_si256(), x);
    return _mm256_or_si256(_mm256_srl_epi64(x, s.n), _mm256_sll_epi64(sign, s.back));
}
#endif

/* adm_cm_centre0 of N32 csf values: |x| 8738 rounded >> 12, wrap16 */
ADM_INLINE V centre0(const V x)
{
    const V ctr = SRAI32(ADD32(MULLO32(ABS32(x), SET1_32(8738)), SET1_32(2048)), 12);
    return SRAI32(SLLI32(ctr, 16), 16);
}

/* adm_cm_centre123: (|x| 286331153 - 2^31) >> 32 */
ADM_INLINE V centre123(const V x)
{
    return join64(mulshift_abs_even(x, 286331153), mulshift_abs_even(SRLI64(x, 32), 286331153));
}

/* col[j] and centre[j] of columns [j0, j1) (adm_rows.c explains them). */
ADM_INLINE void cm_prepare(uint32_t *col, uint32_t *centre, const AdmRow16 *csf16,
                           const AdmRow16 *const *flt16, const AdmRow32 *csf32,
                           const AdmRow32 *const *flt32, const int j0, const int j1, const int is0)
{
    int j = j0;
    for (; more(j, j1, N32); j += N32) {
        const unsigned m = tail_mask(j1 - j);
        V c = ZERO(), e = c;
        for (int b = 0; b < 3; b++) {
            V f[3];
            for (int k = 0; k < 3; k++)
                f[k] =
                    is0 ? CVT16_32(LOAD16_H(flt16[k]->b[b] + j, m)) : LOAD32(flt32[k]->b[b] + j, m);
            c = ADD32(ADD32(ADD32(c, f[0]), f[1]), f[2]);
            const V ctr = is0 ? centre0(CVT16_32(LOAD16_H(csf16->b[b] + j, m)))
                              : centre123(LOAD32(csf32->b[b] + j, m));
            e = ADD32(e, SUB32(ctr, f[1]));
        }
        STORE32(col + j, m, c);
        STORE32(centre + j, m, e);
    }
    for (; c_tail(j, j1); j++) {
        uint32_t c = 0, e = 0;
        for (int b = 0; b < 3; b++) {
            if (is0) {
                c += (uint32_t)(flt16[0]->b[b][j] + flt16[1]->b[b][j] + flt16[2]->b[b][j]);
                e += (uint32_t)(adm_cm_centre0(csf16->b[b][j]) - flt16[1]->b[b][j]);
            } else {
                c += (uint32_t)flt32[0]->b[b][j] + (uint32_t)flt32[1]->b[b][j] +
                     (uint32_t)flt32[2]->b[b][j];
                e += (uint32_t)adm_cm_centre123(csf32->b[b][j]) - (uint32_t)flt32[1]->b[b][j];
            }
        }
        col[j] = c;
        centre[j] = e;
    }
}

/* adm_cm_cube of the even lanes, x >= 0: x^2 rounded >> sq to int32 (the reference's wrap),
 * times x in int64, + cub_add, >> cub. */
ADM_INLINE V cube_even(const V x, const __m128i sq, const V sq_add, const V cub_add,
                       const Sra64 cub)
{
    const V x2 = SRL64(ADD64(MUL_U32(x, x), sq_add), sq);
    return sra64_by(ADD64(MUL32(x2, x), cub_add), cub);
}

/* The thresholds of N32 interior columns j ..: col[j-1] + col[j] + col[j+1] + centre[j]. */
ADM_INLINE V cm_thr(const uint32_t *col, const uint32_t *centre, const int j)
{
    const V l = LOADU(col + j - 1), c = LOADU(col + j);
    const V r = LOADU(col + j + 1), e = LOADU(centre + j);
    return ADD32(ADD32(l, c), ADD32(r, e));
}

/* Column j's cubes of the three bands, its threshold from col[jl] + col[j] + col[jr] +
 * centre[j], added to sums as the C. */
ADM_INLINE void cm_col(int64_t sums[3], const uint32_t *col, const uint32_t *centre, const int jl,
                       const int j, const int jr, const AdmRow16 *src16, const AdmRow32 *src32,
                       const AdmCmParams *p, const uint32_t *irf, const int is0)
{
    const int32_t thr = adm_wrap32((int64_t)col[jl] + col[j] + col[jr] + centre[j]);
    for (int b = 0; b < 3; b++) {
        const int64_t c =
            is0 ? adm_cm_cube0(src16->b[b][j], p->irf0[b], thr, p->sub[b], p->sq[b], p->cub_add[b],
                               p->cub[b])
                : adm_cm_cube123(src32->b[b][j], irf[b], thr, p->cub_add[b], p->cub[b]);
        sums[b] = adm_add64(sums[b], c);
    }
}

ADM_INLINE void cm(int64_t sums[3], const AdmRow16 *src16, const AdmRow16 *csf16,
                   const AdmRow16 *const *flt16, const AdmRow32 *src32, const AdmRow32 *csf32,
                   const AdmRow32 *const *flt32, const AdmCmCols *cols, const AdmCmParams *p,
                   const uint32_t *irf, void *tmp, const int is0)
{
    uint32_t *col = (uint32_t *)tmp + 16, *centre = col + cols->w + 64;
    const int jmin = cols->first == 0 ? 0 : cols->start - 1;
    const int jmax = cols->last >= 0 ? cols->w - 1 : cols->end;
    cm_prepare(col, centre, csf16, flt16, csf32, flt32, jmin, jmax + 1, is0);
    V acc[3] = { ZERO(), ZERO(), ZERO() };
    __m128i sq[3];
    Sra64 cub[3];
    V sq_add[3], cub_add[3], rf[3];
    int big[3];
    for (int b = 0; b < 3; b++) {
        /* scale 0: the band's square shift, its factor; scales 1..3: 30, the Q32 factor */
        const unsigned s = is0 ? p->sq[b] : 30;
        sq[b] = _mm_cvtsi32_si128((int)s);
        sq_add[b] = SET1_64(INT64_C(1) << (s - 1));
        cub[b] = sra64_count(p->cub[b]);
        cub_add[b] = SET1_64(p->cub_add[b]);
        rf[b] = is0 ? SET1_32(p->irf0[b]) : SET1_64((int32_t)irf[b]);
        big[b] = !is0 && irf[b] >= 0x80000000u;
    }
    int j = cols->start;
    for (; more(j, cols->end, N32); j += N32) {
        const unsigned m = tail_mask(cols->end - j);
        const V thr = cm_thr(col, centre, j);
        for (int b = 0; b < 3; b++) {
            V x;
            if (is0) {
                const V s = CVT16_32(LOAD16_H(src16->b[b] + j, m));
                /* |rf src| < 2^31 (rf <= 65535): int32 */
                const V x0 = ABS32(MULLO32(rf[b], s));
                const V thr_q = SLL32(thr, _mm_cvtsi32_si128((int)p->sub[b]));
                x = MAX32(SUB32(x0, thr_q), ZERO());
            } else {
                const V s = LOAD32(src32->b[b] + j, m);
                const V v = join64(csf123_even(s, rf[b], big[b]),
                                   csf123_even(SRLI64(s, 32), rf[b], big[b]));
                /* wrap32(|v| - thr) in int32 arithmetic, then clamped at 0 */
                x = MAX32(SUB32(ABS32(v), thr), ZERO());
            }
            acc[b] = ADD64_EVEN(acc[b], m, cube_even(x, sq[b], sq_add[b], cub_add[b], cub[b]));
            acc[b] = ADD64_ODD(acc[b], m,
                               cube_even(SRLI64(x, 32), sq[b], sq_add[b], cub_add[b], cub[b]));
        }
    }
    for (int b = 0; b < 3; b++)
        sums[b] = (int64_t)HSUM64(acc[b]);
    /* the interior columns the vectors left (AVX2), then the mirrored first and replicated last
     * columns, as the C */
    for (; c_tail(j, cols->end); j++)
        cm_col(sums, col, centre, j - 1, j, j + 1, src16, src32, p, irf, is0);
    const int w = cols->w;
    const int edge[2] = { cols->first == 0 ? 0 : -1, cols->last >= 0 ? w - 1 : -1 };
    for (int e = 0; e < 2; e++) {
        const int k = edge[e];
        if (k >= 0)
            cm_col(sums, col, centre, k ? w - 2 : 1, k, k ? w - 1 : 1, src16, src32, p, irf, is0);
    }
}

void FN(cm0)(int64_t sums[3], const AdmRow16 *src, const AdmRow16 *csf, const AdmRow16 *const *flt,
             const AdmCmCols *cols, const AdmCmParams *p, void *tmp)
{
    cm(sums, src, csf, flt, NULL, NULL, NULL, cols, p, NULL, tmp, 1);
}

void FN(cm123)(int64_t sums[3], const AdmRow32 *src, const AdmRow32 *csf,
               const AdmRow32 *const *flt, const AdmCmCols *cols, const int scale,
               const AdmCmParams *p, void *tmp)
{
    cm(sums, NULL, NULL, NULL, src, csf, flt, cols, p, p->irf + 3 * scale, tmp, 0);
}
