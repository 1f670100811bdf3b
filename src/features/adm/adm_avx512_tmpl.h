/*
 * Integer ADM row kernels in AVX-512 (F, BW, DQ, CD), the executors of adm_kernels.h; the reference
 * is adm_rows.c, the per-coefficient arithmetic adm_math.h. Included by adm_avx512.c and, with
 * ADM_ICL 1, by adm_avx512icl.c. ADM_ISA names the level.
 *
 * How the bits stay the reference's:
 *  - Integer steps use the reference's widths where a result can exceed 32 bits (64-bit lanes,
 *    vpmuldq / vpmuludq / vpmullq, arithmetic 64-bit shifts) and 32-bit lanes where the bound
 *    is proven below 2^31 (stated at each step). Narrowings are truncations, as GCC's.
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
 */
#include <immintrin.h>

#include "features/common/simd_reduce.h"
#include <string.h>

#include "features/adm/adm_kernels.h"
#include "features/adm/adm_math.h"

#define ADM_CAT_(a, b) a##_##b
#define ADM_CAT(a, b) ADM_CAT_(a, b)
#define ADM_FN(name) ADM_CAT(name, ADM_ISA)
#define ADM_INLINE static inline __attribute__((always_inline))

#if ADM_ICL
#define DP(acc, a, b) _mm512_dpwssd_epi32((acc), (a), (b))
#else
#define DP(acc, a, b) _mm512_add_epi32((acc), _mm512_madd_epi16((a), (b)))
#endif

enum { ADM_MARGIN = 64 }; /* int16 samples before and after each DWT row */

static size_t dwt_row_len(const int max_in_w)
{
    return ((size_t)max_in_w + 2 * ADM_MARGIN + 63) & ~(size_t)63;
}

size_t ADM_FN(ev_adm_rows_tmp_size)(const int max_in_w)
{
    /* two int16 DWT rows (scale 0) or two int32 rows (scales 1..3), or the CM's two rows */
    return 2 * dwt_row_len(max_in_w) * sizeof(int32_t);
}

static __mmask16 mask16(const int left)
{
    return left >= 16 ? 0xFFFF : (__mmask16)((1u << left) - 1);
}

static __mmask32 mask32(const int left)
{
    return left >= 32 ? 0xFFFFFFFFu : (__mmask32)((1u << left) - 1);
}

static __m512i pair16(const int lo, const int hi)
{
    return _mm512_set1_epi32((int)((uint32_t)(uint16_t)lo | (uint32_t)(uint16_t)hi << 16));
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
ADM_INLINE __m512i sra_wrap16(const __m512i v, const __m128i sh)
{
    return _mm512_srai_epi32(_mm512_slli_epi32(_mm512_sra_epi32(v, sh), 16), 16);
}

/* Scale 0 vertical pass into int16 rows. lo: (sum + lo_add) >> bpc, hi: (sum + hi_add) >> bpc,
 * the sums of 32-bit madds (mod 2^32, the reference's uint32). Samples below 2^bpc give
 * results in [-27411, 27411]; larger ones (a malformed file) wrap as in the reference. */
ADM_INLINE void dwt0_vert(int16_t *lo, int16_t *hi, const void *const *rows, const int in_w,
                          const unsigned bpc, const int u16)
{
    const __m512i c_lo01 = pair16(ADM_LO0, ADM_LO1), c_lo23 = pair16(ADM_LO2, ADM_LO3);
    const __m512i c_hi01 = pair16(ADM_HI0, ADM_HI1), c_hi23 = pair16(ADM_HI2, ADM_HI3);
    const uint32_t half = 1u << (bpc - 1);
    /* 16-bit samples enter biased by -32768: add 32768 x (the taps' sum) back */
    const uint32_t bias_lo = u16 ? 32768u * ADM_LO_SUM : 0;
    const __m512i add_lo = _mm512_set1_epi32((int)(bias_lo - (uint32_t)ADM_LO_SUM * half + half));
    const __m512i add_hi = _mm512_set1_epi32((int)half);
    const __m128i sh = _mm_cvtsi32_si128((int)bpc);
    const __m512i bias = _mm512_set1_epi16((short)0x8000);
    for (int j = 0; j < in_w; j += 32) {
        const __mmask32 m = mask32(in_w - j);
        __m512i s[4];
        for (int k = 0; k < 4; k++) {
            if (u16)
                s[k] = _mm512_xor_si512(_mm512_maskz_loadu_epi16(m, (const uint16_t *)rows[k] + j),
                                        bias);
            else
                s[k] =
                    _mm512_cvtepu8_epi16(_mm256_maskz_loadu_epi8(m, (const uint8_t *)rows[k] + j));
        }
        const __m512i p01l = _mm512_unpacklo_epi16(s[0], s[1]),
                      p01h = _mm512_unpackhi_epi16(s[0], s[1]);
        const __m512i p23l = _mm512_unpacklo_epi16(s[2], s[3]),
                      p23h = _mm512_unpackhi_epi16(s[2], s[3]);
        __m512i ll = DP(DP(add_lo, p01l, c_lo01), p23l, c_lo23);
        __m512i lh = DP(DP(add_lo, p01h, c_lo01), p23h, c_lo23);
        _mm512_storeu_si512(lo + j, _mm512_packs_epi32(sra_wrap16(ll, sh), sra_wrap16(lh, sh)));
        if (hi) {
            __m512i hl = DP(DP(add_hi, p01l, c_hi01), p23l, c_hi23);
            __m512i hh = DP(DP(add_hi, p01h, c_hi01), p23h, c_hi23);
            _mm512_storeu_si512(hi + j, _mm512_packs_epi32(sra_wrap16(hl, sh), sra_wrap16(hh, sh)));
        }
    }
}

/* Scale 0 horizontal pass: 16 outputs per step; taps (2j - 1, 2j) and (2j + 1, 2j + 2) of output
 * j are lane j of the loads at 2 j0 - 1 and 2 j0 + 1. |sum| < 54822 x 27411 < 2^31. */
ADM_INLINE __m256i horz0(const __m512i p01, const __m512i p23, const __m512i c01, const __m512i c23)
{
    const __m512i sum = DP(_mm512_madd_epi16(p01, c01), p23, c23);
    return _mm512_cvtepi32_epi16(
        _mm512_srai_epi32(_mm512_add_epi32(sum, _mm512_set1_epi32(32768)), 16));
}

static void dwt0_horz(int16_t *a, const AdmRow16 *hvd, const int16_t *lo, const int16_t *hi,
                      const int w)
{
    const __m512i c_lo01 = pair16(ADM_LO0, ADM_LO1), c_lo23 = pair16(ADM_LO2, ADM_LO3);
    const __m512i c_hi01 = pair16(ADM_HI0, ADM_HI1), c_hi23 = pair16(ADM_HI2, ADM_HI3);
    for (int j = 0; j < w; j += 16) {
        const __mmask16 m = mask16(w - j);
        const __m512i l01 = _mm512_loadu_si512(lo + 2 * j - 1),
                      l23 = _mm512_loadu_si512(lo + 2 * j + 1);
        _mm256_mask_storeu_epi16(a + j, m, horz0(l01, l23, c_lo01, c_lo23));
        if (!hvd)
            continue;
        const __m512i h01 = _mm512_loadu_si512(hi + 2 * j - 1),
                      h23 = _mm512_loadu_si512(hi + 2 * j + 1);
        _mm256_mask_storeu_epi16(hvd->b[1] + j, m, horz0(l01, l23, c_hi01, c_hi23));
        _mm256_mask_storeu_epi16(hvd->b[0] + j, m, horz0(h01, h23, c_lo01, c_lo23));
        _mm256_mask_storeu_epi16(hvd->b[2] + j, m, horz0(h01, h23, c_hi01, c_hi23));
    }
}

static void dwt0(int16_t *a, const AdmRow16 *hvd, const void *const *rows, const int in_w,
                 const unsigned bpc, void *tmp, const int u16)
{
    const size_t n = dwt_row_len(in_w);
    int16_t *lo = (int16_t *)tmp + ADM_MARGIN, *hi = lo + n;
    dwt0_vert(lo, hvd ? hi : NULL, rows, in_w, bpc, u16);
    pad16(lo, in_w);
    if (hvd)
        pad16(hi, in_w);
    dwt0_horz(a, hvd, lo, hi, (in_w + 1) / 2);
}

void ADM_FN(ev_adm_dwt0_u8)(int16_t *a, const AdmRow16 *hvd, const void *const *rows,
                            const int in_w, const unsigned bpc, void *tmp)
{
    dwt0(a, hvd, rows, in_w, 8, tmp, 0);
}

void ADM_FN(ev_adm_dwt0_u16)(int16_t *a, const AdmRow16 *hvd, const void *const *rows,
                             const int in_w, const unsigned bpc, void *tmp)
{
    dwt0(a, hvd, rows, in_w, bpc, tmp, 1);
}

/* Scales 1..3: int64 tap sums (vpmuldq on the even 32-bit lanes), (sum + add) >> shift, low
 * 32 bits kept (adm_dwt_round32). e0..e3: the taps' samples in the even lanes. */
ADM_INLINE __m512i taps64(const __m512i e0, const __m512i e1, const __m512i e2, const __m512i e3,
                          const int c0, const int c1, const int c2, const int c3, const __m512i add,
                          const int shift)
{
    __m512i s = _mm512_mul_epi32(e0, _mm512_set1_epi64(c0));
    s = _mm512_add_epi64(s, _mm512_mul_epi32(e1, _mm512_set1_epi64(c1)));
    s = _mm512_add_epi64(s, _mm512_mul_epi32(e2, _mm512_set1_epi64(c2)));
    s = _mm512_add_epi64(s, _mm512_mul_epi32(e3, _mm512_set1_epi64(c3)));
    return _mm512_srai_epi64(_mm512_add_epi64(s, add), (unsigned)shift);
}

#define TAPS_LO(e0, e1, e2, e3, add, sh)                                                           \
    taps64(e0, e1, e2, e3, ADM_LO0, ADM_LO1, ADM_LO2, ADM_LO3, add, sh)
#define TAPS_HI(e0, e1, e2, e3, add, sh)                                                           \
    taps64(e0, e1, e2, e3, ADM_HI0, ADM_HI1, ADM_HI2, ADM_HI3, add, sh)

/* 16 int32 results from the even (lanes of e) and odd (lanes of o) 64-bit halves. */
ADM_INLINE __m512i join64(const __m512i e, const __m512i o)
{
    return _mm512_mask_blend_epi32(0xAAAA, e, _mm512_slli_epi64(o, 32));
}

static const int64_t s123_vert_add[3] = { 0, 32768, 32768 };
static const int s123_vert_shift[3] = { 0, 16, 16 };
static const int64_t s123_horz_add[3] = { 16384, 32768, 16384 };
static const int s123_horz_shift[3] = { 15, 16, 15 };

ADM_INLINE void dwt123_vert(int32_t *lo, int32_t *hi, const void *const *rows, const int in_w,
                            const int64_t add_c, const int shift, const int in16)
{
    const __m512i add = _mm512_set1_epi64(add_c);
    for (int j = 0; j < in_w; j += 16) {
        const __mmask16 m = mask16(in_w - j);
        __m512i e[4], o[4];
        for (int k = 0; k < 4; k++) {
            e[k] = in16 ? _mm512_cvtepi16_epi32(
                              _mm256_maskz_loadu_epi16(m, (const int16_t *)rows[k] + j))
                        : _mm512_maskz_loadu_epi32(m, (const int32_t *)rows[k] + j);
            o[k] = _mm512_srli_epi64(e[k], 32);
        }
        _mm512_storeu_si512(lo + j, join64(TAPS_LO(e[0], e[1], e[2], e[3], add, shift),
                                           TAPS_LO(o[0], o[1], o[2], o[3], add, shift)));
        _mm512_storeu_si512(hi + j, join64(TAPS_HI(e[0], e[1], e[2], e[3], add, shift),
                                           TAPS_HI(o[0], o[1], o[2], o[3], add, shift)));
    }
}

/* 8 outputs j0 .. j0 + 7 of one band: the taps 2j - 1 .. 2j + 2 are the even lanes of the loads
 * at 2 j0 - 1 .. 2 j0 + 2. */
ADM_INLINE void dwt123_horz(int32_t *a, const AdmRow32 *hvd, const int32_t *lo, const int32_t *hi,
                            const int w, const int64_t add_c, const int shift)
{
    const __m512i add = _mm512_set1_epi64(add_c);
    for (int j = 0; j < w; j += 8) {
        const __mmask8 m = (__mmask8)mask16(w - j);
        __m512i l[4], h[4];
        for (int k = 0; k < 4; k++) {
            l[k] = _mm512_loadu_si512(lo + 2 * j - 1 + k);
            h[k] = _mm512_loadu_si512(hi + 2 * j - 1 + k);
        }
        _mm256_mask_storeu_epi32(
            a + j, m, _mm512_cvtepi64_epi32(TAPS_LO(l[0], l[1], l[2], l[3], add, shift)));
        _mm256_mask_storeu_epi32(
            hvd->b[1] + j, m, _mm512_cvtepi64_epi32(TAPS_HI(l[0], l[1], l[2], l[3], add, shift)));
        _mm256_mask_storeu_epi32(
            hvd->b[0] + j, m, _mm512_cvtepi64_epi32(TAPS_LO(h[0], h[1], h[2], h[3], add, shift)));
        _mm256_mask_storeu_epi32(
            hvd->b[2] + j, m, _mm512_cvtepi64_epi32(TAPS_HI(h[0], h[1], h[2], h[3], add, shift)));
    }
}

void ADM_FN(ev_adm_dwt123)(int32_t *a, const AdmRow32 *hvd, const void *const *rows, const int in_w,
                           const int scale, void *tmp)
{
    const size_t n = dwt_row_len(in_w);
    int32_t *lo = (int32_t *)tmp + ADM_MARGIN, *hi = lo + n;
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

/* The angle flag of 8 coefficients from the float dot products (ot, oo, tt as float). */
ADM_INLINE __mmask8 angle8(const __m256 ot_f, const __m256 oo_f, const __m256 tt_f,
                           const double cos_sq)
{
    const __m512d q = _mm512_set1_pd(1.0 / 4096.0); /* x / 4096.0: the same exact scaling */
    const __m512d ot = _mm512_mul_pd(_mm512_cvtps_pd(ot_f), q);
    const __m512d oo = _mm512_mul_pd(_mm512_cvtps_pd(oo_f), q);
    const __m512d tt = _mm512_mul_pd(_mm512_cvtps_pd(tt_f), q);
    const __m512d rhs = _mm512_mul_pd(_mm512_mul_pd(_mm512_set1_pd(cos_sq), oo), tt);
    return _mm512_cmp_pd_mask(ot, _mm512_setzero_pd(), _CMP_GE_OQ) &
           _mm512_cmp_pd_mask(_mm512_mul_pd(ot, ot), rhs, _CMP_GE_OQ);
}

/* The gain-limited restoration of 8 coefficients: rst (int32), t, the flag and the sign of o
 * (pos / neg, with k > 0). Returns the restored value, truncated to int32 (it fits: |rst| and
 * |t| bound it, times egl <= 100, for 16-bit bands; callers of wider bands use restore8_64). */
ADM_INLINE __m256i restore8(const __m256i rst, const __m256i t, const __mmask8 pos,
                            const __mmask8 neg, const double egl)
{
    const __m512d lim = _mm512_mul_pd(_mm512_cvtepi32_pd(rst), _mm512_set1_pd(egl));
    const __m512d td = _mm512_cvtepi32_pd(t);
    __m512d v = _mm512_cvtepi32_pd(rst);
    v = _mm512_mask_min_pd(v, pos, lim, td); /* lim < t ? lim : t */
    v = _mm512_mask_max_pd(v, neg, lim, td); /* lim > t ? lim : t */
    return _mm512_cvttpd_epi32(v);
}

/* k of 8 scale-0 coefficients as doubles: clamp(floor((sign(o) q t + 2^14) / 2^15), 0, 2^15)
 * with q = floor(2^30 / |o|), 2^15 where o = 0. sign(o) q t is below 2^45: exact. */
ADM_INLINE __m256i k0_8(const __m256i o, const __m256i t)
{
    const __m512d od = _mm512_cvtepi32_pd(o);
    const __m512d q =
        _mm512_roundscale_pd(_mm512_div_pd(_mm512_set1_pd(1073741824.0), _mm512_abs_pd(od)),
                             _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    __m512d num = _mm512_mul_pd(q, _mm512_cvtepi32_pd(t));
    num = _mm512_mask_sub_pd(num, _mm512_cmp_pd_mask(od, _mm512_setzero_pd(), _CMP_LT_OQ),
                             _mm512_setzero_pd(), num);
    __m512d k = _mm512_roundscale_pd(
        _mm512_mul_pd(_mm512_add_pd(num, _mm512_set1_pd(16384.0)), _mm512_set1_pd(1.0 / 32768.0)),
        _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    k = _mm512_min_pd(_mm512_max_pd(k, _mm512_setzero_pd()), _mm512_set1_pd(32768.0));
    __m256i ki = _mm512_cvttpd_epi32(k);
    return _mm256_mask_blend_epi32(_mm256_cmpeq_epi32_mask(o, _mm256_setzero_si256()), ki,
                                   _mm256_set1_epi32(32768));
}

/* One band of 8 scale-0 coefficients: r and a (int32 lanes holding int16 values). */
ADM_INLINE void coef0_8(__m256i *r, __m256i *a, const __m256i o, const __m256i t,
                        const __mmask8 flag, const double egl)
{
    const __m256i k = k0_8(o, t);
    /* |k o| <= 2^30: int32 */
    const __m256i rst =
        _mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(k, o), _mm256_set1_epi32(16384)), 15);
    const __mmask8 kpos = _mm256_cmpgt_epi32_mask(k, _mm256_setzero_si256());
    const __mmask8 pos = flag & kpos & _mm256_cmpgt_epi32_mask(o, _mm256_setzero_si256());
    const __mmask8 neg = flag & kpos & _mm256_cmplt_epi32_mask(o, _mm256_setzero_si256());
    __m256i v = restore8(rst, t, pos, neg, egl);
    /* wrap16 */
    v = _mm256_srai_epi32(_mm256_slli_epi32(v, 16), 16);
    *r = v;
    *a = _mm256_sub_epi32(t, v);
}

/* Scale 0 bands: the kernel's inputs are DWT bands, |x| <= 22931 (the scale-0 DWT's bound),
 * which keeps oh th + ov tv inside int32 (it is exact for any int16 but -32768). */
void ADM_FN(ev_adm_decouple0)(const AdmRow16 *r, const AdmRow16 *a, const AdmRow16 *o,
                              const AdmRow16 *t, const int x0, const int x1,
                              const AdmDecoupleParams *p)
{
    const double cos_sq = p->cos_1deg_sq;
    for (int j = x0; j < x1; j += 16) {
        const __mmask16 m = mask16(x1 - j);
        __m512i ob[3], tb[3];
        for (int b = 0; b < 3; b++) {
            ob[b] = _mm512_cvtepi16_epi32(_mm256_maskz_loadu_epi16(m, o->b[b] + j));
            tb[b] = _mm512_cvtepi16_epi32(_mm256_maskz_loadu_epi16(m, t->b[b] + j));
        }
        const __m512i ot =
            _mm512_add_epi32(_mm512_mullo_epi32(ob[0], tb[0]), _mm512_mullo_epi32(ob[1], tb[1]));
        const __m512i oo =
            _mm512_add_epi32(_mm512_mullo_epi32(ob[0], ob[0]), _mm512_mullo_epi32(ob[1], ob[1]));
        const __m512i tt =
            _mm512_add_epi32(_mm512_mullo_epi32(tb[0], tb[0]), _mm512_mullo_epi32(tb[1], tb[1]));
        const __m512 otf = _mm512_cvtepi32_ps(ot), oof = _mm512_cvtepi32_ps(oo),
                     ttf = _mm512_cvtepi32_ps(tt);
        const __mmask8 f0 = angle8(_mm512_castps512_ps256(otf), _mm512_castps512_ps256(oof),
                                   _mm512_castps512_ps256(ttf), cos_sq);
        const __mmask8 f1 =
            angle8(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(otf), 1)),
                   _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(oof), 1)),
                   _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(ttf), 1)), cos_sq);
        for (int b = 0; b < 3; b++) {
            __m256i r0, a0, r1, a1;
            coef0_8(&r0, &a0, _mm512_castsi512_si256(ob[b]), _mm512_castsi512_si256(tb[b]), f0,
                    p->egl);
            coef0_8(&r1, &a1, _mm512_extracti64x4_epi64(ob[b], 1),
                    _mm512_extracti64x4_epi64(tb[b], 1), f1, p->egl);
            const __m512i rv = _mm512_inserti64x4(_mm512_castsi256_si512(r0), r1, 1);
            const __m512i av = _mm512_inserti64x4(_mm512_castsi256_si512(a0), a1, 1);
            _mm256_mask_storeu_epi16(r->b[b] + j, m, _mm512_cvtepi32_epi16(rv));
            _mm256_mask_storeu_epi16(a->b[b] + j, m, _mm512_cvtepi32_epi16(av));
        }
    }
}

/* Scales 1..3, 8 coefficients in 64-bit lanes (o, t sign-extended). */
ADM_INLINE __m512i k123_8(const __m512i o, const __m512i t)
{
    /* |o| as uint32 (abs of INT32_MIN is 2^31, as (uint32)adm_abs32) */
    const __m512i mag = _mm512_and_si512(_mm512_abs_epi64(o), _mm512_set1_epi64(0xFFFFFFFF));
    /* |o| >= 2^15: rounded to its top 15 bits, shift = 17 - clz32 = 49 - clz64 */
    const __mmask8 big = _mm512_cmpge_epu64_mask(mag, _mm512_set1_epi64(32768));
    const __m512i shift =
        _mm512_maskz_sub_epi64(big, _mm512_set1_epi64(49), _mm512_lzcnt_epi64(mag));
    const __m512i half = _mm512_maskz_sllv_epi64(big, _mm512_set1_epi64(1),
                                                 _mm512_sub_epi64(shift, _mm512_set1_epi64(1)));
    const __m512i idx = _mm512_srlv_epi64(_mm512_add_epi64(mag, half), shift);
    const __m512d qd =
        _mm512_roundscale_pd(_mm512_div_pd(_mm512_set1_pd(1073741824.0), _mm512_cvtepi64_pd(idx)),
                             _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    const __m512i q = _mm512_cvttpd_epi64(qd);
    /* q t: |q| <= 2^30, |t| <= 2^31 */
    __m512i num = _mm512_mul_epi32(q, t);
    num = _mm512_mask_sub_epi64(num, _mm512_cmplt_epi64_mask(o, _mm512_setzero_si512()),
                                _mm512_setzero_si512(), num);
    const __m512i s15 = _mm512_add_epi64(shift, _mm512_set1_epi64(15));
    const __m512i rnd =
        _mm512_sllv_epi64(_mm512_set1_epi64(1), _mm512_sub_epi64(s15, _mm512_set1_epi64(1)));
    __m512i k = _mm512_srav_epi64(_mm512_add_epi64(num, rnd), s15);
    k = _mm512_min_epi64(_mm512_max_epi64(k, _mm512_setzero_si512()), _mm512_set1_epi64(32768));
    return _mm512_mask_blend_epi64(_mm512_cmpeq_epi64_mask(o, _mm512_setzero_si512()), k,
                                   _mm512_set1_epi64(32768));
}

ADM_INLINE void coef123_8(__m256i *r, __m256i *a, const __m256i o32, const __m256i t32,
                          const __mmask8 flag, const double egl)
{
    const __m512i o = _mm512_cvtepi32_epi64(o32), t = _mm512_cvtepi32_epi64(t32);
    const __m512i k = k123_8(o, t);
    /* rst = (k o + 2^14) >> 15, |k o| <= 2^46; it fits int32 (|rst| <= |o| + 1) */
    const __m512i rst =
        _mm512_srai_epi64(_mm512_add_epi64(_mm512_mul_epi32(k, o), _mm512_set1_epi64(16384)), 15);
    const __mmask8 kpos = _mm512_cmpgt_epi64_mask(k, _mm512_setzero_si512());
    const __mmask8 pos = flag & kpos & _mm512_cmpgt_epi64_mask(o, _mm512_setzero_si512());
    const __mmask8 neg = flag & kpos & _mm512_cmplt_epi64_mask(o, _mm512_setzero_si512());
    const __m512d rd = _mm512_cvtepi64_pd(rst);
    const __m512d lim = _mm512_mul_pd(rd, _mm512_set1_pd(egl));
    const __m512d td = _mm512_cvtepi64_pd(t);
    __m512d v = rd;
    v = _mm512_mask_min_pd(v, pos, lim, td);
    v = _mm512_mask_max_pd(v, neg, lim, td);
    const __m512i vi = _mm512_cvttpd_epi64(v); /* |v| <= 100 x 2^31: int64 */
    *r = _mm512_cvtepi64_epi32(vi);            /* wrap32 */
    *a = _mm512_cvtepi64_epi32(_mm512_sub_epi64(t, vi));
}

/* (float) of oh th + ov tv etc. as int64 (each < 2^63), 8 coefficients. */
ADM_INLINE __m256 dot64_f(const __m512i a0, const __m512i b0, const __m512i a1, const __m512i b1)
{
    return _mm512_cvtepi64_ps(_mm512_add_epi64(_mm512_mul_epi32(a0, b0), _mm512_mul_epi32(a1, b1)));
}

void ADM_FN(ev_adm_decouple123)(const AdmRow32 *r, const AdmRow32 *a, const AdmRow32 *o,
                                const AdmRow32 *t, const int x0, const int x1,
                                const AdmDecoupleParams *p)
{
    const double cos_sq = p->cos_1deg_sq;
    for (int j = x0; j < x1; j += 8) {
        const __mmask8 m = (__mmask8)mask16(x1 - j);
        __m256i ob[3], tb[3];
        for (int b = 0; b < 3; b++) {
            ob[b] = _mm256_maskz_loadu_epi32(m, o->b[b] + j);
            tb[b] = _mm256_maskz_loadu_epi32(m, t->b[b] + j);
        }
        const __m512i oh = _mm512_cvtepi32_epi64(ob[0]), ov = _mm512_cvtepi32_epi64(ob[1]);
        const __m512i th = _mm512_cvtepi32_epi64(tb[0]), tv = _mm512_cvtepi32_epi64(tb[1]);
        const __mmask8 flag = angle8(dot64_f(oh, th, ov, tv), dot64_f(oh, oh, ov, ov),
                                     dot64_f(th, th, tv, tv), cos_sq);
        for (int b = 0; b < 3; b++) {
            __m256i rv, av;
            coef123_8(&rv, &av, ob[b], tb[b], flag, p->egl);
            _mm256_mask_storeu_epi32(r->b[b] + j, m, rv);
            _mm256_mask_storeu_epi32(a->b[b] + j, m, av);
        }
    }
}

/* ---- CSF ---- */

/* Scale 0: (rf x + rnd) >> sh with |rf x| <= 65535 x 32768 and the rounding term keeping it
 * below 2^31 (int32), then |csf| * 4369 rounded >> 12 (< 2^28). Both truncated to int16. */
void ADM_FN(ev_adm_csf0)(const AdmRow16 *csf, const AdmRow16 *flt, const AdmRow16 *src,
                         const int x0, const int x1, const uint16_t *rf)
{
    for (int b = 0; b < 3; b++) {
        const __m512i f = _mm512_set1_epi32(rf[b]);
        const __m512i rnd = _mm512_set1_epi32(b == 2 ? 65535 : 16384);
        const __m128i sh = _mm_cvtsi32_si128(b == 2 ? 17 : 15);
        for (int j = x0; j < x1; j += 16) {
            const __mmask16 m = mask16(x1 - j);
            const __m512i x = _mm512_cvtepi16_epi32(_mm256_maskz_loadu_epi16(m, src->b[b] + j));
            __m512i v = _mm512_sra_epi32(_mm512_add_epi32(_mm512_mullo_epi32(f, x), rnd), sh);
            v = _mm512_srai_epi32(_mm512_slli_epi32(v, 16), 16); /* wrap16 */
            const __m512i fl = _mm512_srai_epi32(
                _mm512_add_epi32(_mm512_mullo_epi32(_mm512_abs_epi32(v), _mm512_set1_epi32(4369)),
                                 _mm512_set1_epi32(2048)),
                12);
            _mm256_mask_storeu_epi16(csf->b[b] + j, m, _mm512_cvtepi32_epi16(v));
            _mm256_mask_storeu_epi16(flt->b[b] + j, m, _mm512_cvtepi32_epi16(fl));
        }
    }
}

/* rf x of a Q32 factor (uint32) and int32 x, exact in int64: the signed product of rf read as
 * int32, plus x << 32 when rf >= 2^31. e: x in the even 32-bit lanes. */
ADM_INLINE __m512i mul_q32(const __m512i e, const __m512i rf_s, const int rf_big)
{
    const __m512i p = _mm512_mul_epi32(e, rf_s);
    return rf_big ? _mm512_add_epi64(p, _mm512_slli_epi64(e, 32)) : p;
}

/* adm_csf_coef123 of the even lanes: (rf x + 2^27) >> 28, low 32 bits. */
ADM_INLINE __m512i csf123_even(const __m512i e, const __m512i rf_s, const int rf_big)
{
    return _mm512_srai_epi64(_mm512_add_epi64(mul_q32(e, rf_s, rf_big), _mm512_set1_epi64(1 << 27)),
                             28);
}

/* (c * |v| - 2^31) >> 32 of the even lanes, |v| as adm_abs32 (INT32_MIN stays). */
ADM_INLINE __m512i mulshift_abs_even(const __m512i v, const int c)
{
    const __m512i p = _mm512_mul_epi32(_mm512_abs_epi32(v), _mm512_set1_epi64(c));
    return _mm512_srai_epi64(_mm512_sub_epi64(p, _mm512_set1_epi64(2147483648LL)), 32);
}

void ADM_FN(ev_adm_csf123)(const AdmRow32 *csf, const AdmRow32 *flt, const AdmRow32 *src,
                           const int x0, const int x1, const uint32_t *rf)
{
    for (int b = 0; b < 3; b++) {
        const __m512i rf_s = _mm512_set1_epi64((int32_t)rf[b]);
        const int big = rf[b] >= 0x80000000u;
        for (int j = x0; j < x1; j += 16) {
            const __mmask16 m = mask16(x1 - j);
            const __m512i x = _mm512_maskz_loadu_epi32(m, src->b[b] + j);
            const __m512i v =
                join64(csf123_even(x, rf_s, big), csf123_even(_mm512_srli_epi64(x, 32), rf_s, big));
            /* abs of the even lanes is taken in 32 bits by mulshift_abs_even's vpabsd */
            const __m512i fl = join64(mulshift_abs_even(v, 143165577),
                                      mulshift_abs_even(_mm512_srli_epi64(v, 32), 143165577));
            _mm512_mask_storeu_epi32(csf->b[b] + j, m, v);
            _mm512_mask_storeu_epi32(flt->b[b] + j, m, fl);
        }
    }
}

/* ---- denominators ---- */

void ADM_FN(ev_adm_den0)(uint64_t sums[3], const AdmRow16 *o, const int x0, const int x1)
{
    for (int b = 0; b < 3; b++) {
        __m512i acc = _mm512_setzero_si512();
        for (int j = x0; j < x1; j += 16) {
            const __mmask16 m = mask16(x1 - j);
            /* |x| <= 32768 (vpabsw of -32768 is 32768 as uint16), x^2 <= 2^30 */
            const __m512i v =
                _mm512_cvtepu16_epi32(_mm256_abs_epi16(_mm256_maskz_loadu_epi16(m, o->b[b] + j)));
            const __m512i sq = _mm512_mullo_epi32(v, v);
            acc = _mm512_add_epi64(acc, _mm512_mul_epu32(sq, v));
            acc = _mm512_add_epi64(
                acc, _mm512_mul_epu32(_mm512_srli_epi64(sq, 32), _mm512_srli_epi64(v, 32)));
        }
        sums[b] = ev_hsum64_512(acc);
    }
}

/* ((m^2 + 2^q) >> q) m, + add, >> cub, mod 2^64, of the even lanes' |x| (uint32). */
ADM_INLINE __m512i den123_even(const __m512i m, const __m128i q, const __m512i qadd,
                               const __m512i add, const __m128i cub)
{
    const __m512i sq = _mm512_srl_epi64(_mm512_add_epi64(_mm512_mul_epu32(m, m), qadd), q);
    return _mm512_srl_epi64(
        _mm512_add_epi64(_mm512_mullo_epi64(sq, _mm512_and_si512(m, _mm512_set1_epi64(0xFFFFFFFF))),
                         add),
        cub);
}

void ADM_FN(ev_adm_den123)(uint64_t sums[3], const AdmRow32 *o, const int x0, const int x1,
                           const unsigned q, const uint64_t cub_add, const unsigned cub)
{
    const __m128i qs = _mm_cvtsi32_si128((int)q), cs = _mm_cvtsi32_si128((int)cub);
    const __m512i qadd = _mm512_set1_epi64((long long)(UINT64_C(1) << q));
    const __m512i add = _mm512_set1_epi64((long long)cub_add);
    for (int b = 0; b < 3; b++) {
        __m512i acc = _mm512_setzero_si512();
        for (int j = x0; j < x1; j += 16) {
            const __mmask16 m = mask16(x1 - j);
            const __m512i v = _mm512_abs_epi32(_mm512_maskz_loadu_epi32(m, o->b[b] + j));
            /* masked-off lanes are 0 and add (add >> cub), which the C never adds: mask them */
            const __m512i e = den123_even(v, qs, qadd, add, cs);
            const __m512i od = den123_even(_mm512_srli_epi64(v, 32), qs, qadd, add, cs);
            acc = _mm512_mask_add_epi64(acc, (__mmask8)_pext_u32(m, 0x5555), acc, e);
            acc = _mm512_mask_add_epi64(acc, (__mmask8)_pext_u32(m, 0xAAAA), acc, od);
        }
        sums[b] = ev_hsum64_512(acc);
    }
}

/* ---- contrast masking ---- */

/* col[j] and centre[j] of columns [j0, j1) (adm_rows.c explains them), 16 at a time. */
static void cm0_prepare(uint32_t *col, uint32_t *centre, const AdmRow16 *csf,
                        const AdmRow16 *const *flt, const int j0, const int j1)
{
    for (int j = j0; j < j1; j += 16) {
        const __mmask16 m = mask16(j1 - j);
        __m512i c = _mm512_setzero_si512(), e = c;
        for (int b = 0; b < 3; b++) {
            const __m512i mid =
                _mm512_cvtepi16_epi32(_mm256_maskz_loadu_epi16(m, flt[1]->b[b] + j));
            c = _mm512_add_epi32(
                c, _mm512_cvtepi16_epi32(_mm256_maskz_loadu_epi16(m, flt[0]->b[b] + j)));
            c = _mm512_add_epi32(c, mid);
            c = _mm512_add_epi32(
                c, _mm512_cvtepi16_epi32(_mm256_maskz_loadu_epi16(m, flt[2]->b[b] + j)));
            const __m512i x =
                _mm512_abs_epi32(_mm512_cvtepi16_epi32(_mm256_maskz_loadu_epi16(m, csf->b[b] + j)));
            __m512i ctr =
                _mm512_srai_epi32(_mm512_add_epi32(_mm512_mullo_epi32(x, _mm512_set1_epi32(8738)),
                                                   _mm512_set1_epi32(2048)),
                                  12);
            ctr = _mm512_srai_epi32(_mm512_slli_epi32(ctr, 16), 16); /* adm_cm_centre0: wrap16 */
            e = _mm512_add_epi32(e, _mm512_sub_epi32(ctr, mid));
        }
        _mm512_mask_storeu_epi32(col + j, m, c);
        _mm512_mask_storeu_epi32(centre + j, m, e);
    }
}

/* adm_cm_cube0 of the even lanes: x (|rf src| - thr<<sub, >= 0) squared, rounded >> sq to
 * int32, times x, rounded >> cub. */
ADM_INLINE __m512i cube_even(const __m512i x, const __m128i sq, const __m512i sq_add,
                             const __m512i cub_add, const __m128i cub)
{
    const __m512i x2 = _mm512_srl_epi64(_mm512_add_epi64(_mm512_mul_epu32(x, x), sq_add), sq);
    /* x2 as int32 (the reference's wrap), times x, in int64 */
    return _mm512_sra_epi64(_mm512_add_epi64(_mm512_mul_epi32(x2, x), cub_add), cub);
}

/* Per-band sums of the cubes of columns [j0, j1) from x = max(wrap32(|x0| - thr_q), 0). */
ADM_INLINE void add_cubes(__m512i *acc, const __m512i x, const __mmask16 m, const __m128i sq,
                          const __m512i sq_add, const __m512i cub_add, const __m128i cub)
{
    const __m512i e = cube_even(x, sq, sq_add, cub_add, cub);
    const __m512i o = cube_even(_mm512_srli_epi64(x, 32), sq, sq_add, cub_add, cub);
    *acc = _mm512_mask_add_epi64(*acc, (__mmask8)_pext_u32(m, 0x5555), *acc, e);
    *acc = _mm512_mask_add_epi64(*acc, (__mmask8)_pext_u32(m, 0xAAAA), *acc, o);
}

/* The thresholds of 16 interior columns j .. j + 15: col[j-1] + col[j] + col[j+1] + centre[j]. */
ADM_INLINE __m512i cm_thr16(const uint32_t *col, const uint32_t *centre, const int j)
{
    const __m512i l = _mm512_loadu_si512(col + j - 1), c = _mm512_loadu_si512(col + j);
    const __m512i r = _mm512_loadu_si512(col + j + 1), e = _mm512_loadu_si512(centre + j);
    return _mm512_add_epi32(_mm512_add_epi32(l, c), _mm512_add_epi32(r, e));
}

void ADM_FN(ev_adm_cm0)(int64_t sums[3], const AdmRow16 *src, const AdmRow16 *csf,
                        const AdmRow16 *const *flt, const AdmCmCols *cols, const AdmCmParams *p,
                        void *tmp)
{
    uint32_t *col = (uint32_t *)tmp + 16, *centre = col + cols->w + 64;
    const int jmin = cols->first == 0 ? 0 : cols->start - 1;
    const int jmax = cols->last >= 0 ? cols->w - 1 : cols->end;
    cm0_prepare(col, centre, csf, flt, jmin, jmax + 1);
    __m512i acc[3] = { _mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512() };
    __m128i sq[3], cub[3];
    __m512i sq_add[3], cub_add[3], rf[3];
    for (int b = 0; b < 3; b++) {
        sq[b] = _mm_cvtsi32_si128((int)p->sq[b]);
        cub[b] = _mm_cvtsi32_si128((int)p->cub[b]);
        sq_add[b] = _mm512_set1_epi64(INT64_C(1) << (p->sq[b] - 1));
        cub_add[b] = _mm512_set1_epi64(p->cub_add[b]);
        rf[b] = _mm512_set1_epi32(p->irf0[b]);
    }
    for (int j = cols->start; j < cols->end; j += 16) {
        const __mmask16 m = mask16(cols->end - j);
        const __m512i thr = cm_thr16(col, centre, j);
        for (int b = 0; b < 3; b++) {
            const __m512i s = _mm512_cvtepi16_epi32(_mm256_maskz_loadu_epi16(m, src->b[b] + j));
            /* |rf src| < 2^31 (rf <= 65535): int32 */
            const __m512i x0 = _mm512_abs_epi32(_mm512_mullo_epi32(rf[b], s));
            const __m512i thr_q = _mm512_sll_epi32(thr, _mm_cvtsi32_si128((int)p->sub[b]));
            const __m512i x = _mm512_max_epi32(_mm512_sub_epi32(x0, thr_q), _mm512_setzero_si512());
            add_cubes(&acc[b], x, m, sq[b], sq_add[b], cub_add[b], cub[b]);
        }
    }
    for (int b = 0; b < 3; b++)
        sums[b] = (int64_t)ev_hsum64_512(acc[b]);
    /* the mirrored first and replicated last columns, as the C */
    const int w = cols->w;
    const int edge[2] = { cols->first == 0 ? 0 : -1, cols->last >= 0 ? w - 1 : -1 };
    for (int e = 0; e < 2; e++) {
        const int j = edge[e];
        if (j < 0)
            continue;
        const int jl = j ? w - 2 : 1, jr = j ? w - 1 : 1;
        const int32_t thr = adm_wrap32((int64_t)col[jl] + col[j] + col[jr] + centre[j]);
        for (int b = 0; b < 3; b++)
            sums[b] = adm_add64(sums[b], adm_cm_cube0(src->b[b][j], p->irf0[b], thr, p->sub[b],
                                                      p->sq[b], p->cub_add[b], p->cub[b]));
    }
}

static void cm123_prepare(uint32_t *col, uint32_t *centre, const AdmRow32 *csf,
                          const AdmRow32 *const *flt, const int j0, const int j1)
{
    for (int j = j0; j < j1; j += 16) {
        const __mmask16 m = mask16(j1 - j);
        __m512i c = _mm512_setzero_si512(), e = c;
        for (int b = 0; b < 3; b++) {
            const __m512i mid = _mm512_maskz_loadu_epi32(m, flt[1]->b[b] + j);
            c = _mm512_add_epi32(c, _mm512_maskz_loadu_epi32(m, flt[0]->b[b] + j));
            c = _mm512_add_epi32(c, mid);
            c = _mm512_add_epi32(c, _mm512_maskz_loadu_epi32(m, flt[2]->b[b] + j));
            const __m512i x = _mm512_maskz_loadu_epi32(m, csf->b[b] + j);
            const __m512i ctr = join64(mulshift_abs_even(x, 286331153),
                                       mulshift_abs_even(_mm512_srli_epi64(x, 32), 286331153));
            e = _mm512_add_epi32(e, _mm512_sub_epi32(ctr, mid));
        }
        _mm512_mask_storeu_epi32(col + j, m, c);
        _mm512_mask_storeu_epi32(centre + j, m, e);
    }
}

void ADM_FN(ev_adm_cm123)(int64_t sums[3], const AdmRow32 *src, const AdmRow32 *csf,
                          const AdmRow32 *const *flt, const AdmCmCols *cols, const int scale,
                          const AdmCmParams *p, void *tmp)
{
    uint32_t *col = (uint32_t *)tmp + 16, *centre = col + cols->w + 64;
    const int jmin = cols->first == 0 ? 0 : cols->start - 1;
    const int jmax = cols->last >= 0 ? cols->w - 1 : cols->end;
    cm123_prepare(col, centre, csf, flt, jmin, jmax + 1);
    const uint32_t *irf = p->irf + 3 * scale;
    __m512i acc[3] = { _mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512() };
    const __m128i sq = _mm_cvtsi32_si128(30);
    const __m512i sq_add = _mm512_set1_epi64(1 << 29);
    for (int j = cols->start; j < cols->end; j += 16) {
        const __mmask16 m = mask16(cols->end - j);
        const __m512i thr = cm_thr16(col, centre, j);
        for (int b = 0; b < 3; b++) {
            const __m512i rf_s = _mm512_set1_epi64((int32_t)irf[b]);
            const int big = irf[b] >= 0x80000000u;
            const __m512i s = _mm512_maskz_loadu_epi32(m, src->b[b] + j);
            const __m512i v =
                join64(csf123_even(s, rf_s, big), csf123_even(_mm512_srli_epi64(s, 32), rf_s, big));
            /* wrap32(|v| - thr) in int32 arithmetic, then clamped at 0 */
            const __m512i x = _mm512_max_epi32(_mm512_sub_epi32(_mm512_abs_epi32(v), thr),
                                               _mm512_setzero_si512());
            add_cubes(&acc[b], x, m, sq, sq_add, _mm512_set1_epi64(p->cub_add[b]),
                      _mm_cvtsi32_si128((int)p->cub[b]));
        }
    }
    for (int b = 0; b < 3; b++)
        sums[b] = (int64_t)ev_hsum64_512(acc[b]);
    const int w = cols->w;
    const int edge[2] = { cols->first == 0 ? 0 : -1, cols->last >= 0 ? w - 1 : -1 };
    for (int e = 0; e < 2; e++) {
        const int j = edge[e];
        if (j < 0)
            continue;
        const int jl = j ? w - 2 : 1, jr = j ? w - 1 : 1;
        const int32_t thr = adm_wrap32((int64_t)col[jl] + col[j] + col[jr] + centre[j]);
        for (int b = 0; b < 3; b++)
            sums[b] = adm_add64(
                sums[b], adm_cm_cube123(src->b[b][j], irf[b], thr, p->cub_add[b], p->cub[b]));
    }
}
