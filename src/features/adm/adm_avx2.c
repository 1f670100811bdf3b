/*
 * Integer ADM row kernels in AVX2, executors of adm_kernels.h; the reference is adm_rows.c. The
 * arithmetic is the AVX-512 kernels' (adm_avx512_tmpl.h says how each step keeps the bits).
 * Without masks, a column range is done in whole vectors and its last few columns by the C
 * kernel (rows of one vector or less: all by the C kernel); row passes whose outputs depend
 * only on their own column move their last vector back to end at the row's end. What AVX2
 * lacks is built from what it has:
 *  - an arithmetic 64-bit right shift from the logical one and the sign (sra64); where only the
 *    low 32 bits of a shift by at most 32 are kept, the logical shift gives them already;
 *  - a bit length from the exponent of an exact float;
 *  - int64 to float (the angle test's dot products) through double, which is exact while the
 *    value has at most 53 bits: a vector with a larger one is left to the C kernel.
 */
#include <immintrin.h>
#include <string.h>

#include "features/adm/adm_kernels.h"
#include "features/adm/adm_math.h"

#define INLINE static inline __attribute__((always_inline))

enum { MARGIN = 64 };

static size_t dwt_row_len(const int max_in_w)
{
    return ((size_t)max_in_w + 2 * MARGIN + 63) & ~(size_t)63;
}

size_t ev_adm_rows_tmp_size_avx2(const int max_in_w)
{
    return 2 * dwt_row_len(max_in_w) * sizeof(int32_t);
}

static __m256i pair16(const int lo, const int hi)
{
    return _mm256_set1_epi32((int)((uint32_t)(uint16_t)lo | (uint32_t)(uint16_t)hi << 16));
}

/* x >> s, arithmetic, of 4 int64 (0 < s < 64) */
INLINE __m256i sra64(const __m256i x, const int s)
{
    const __m256i sign = _mm256_cmpgt_epi64(_mm256_setzero_si256(), x);
    return _mm256_or_si256(_mm256_srli_epi64(x, s), _mm256_slli_epi64(sign, 64 - s));
}

/* the same for a shift count known only at run time (0 < s < 64) */
static __m256i sra64v(const __m256i x, const int s)
{
    const __m256i sign = _mm256_cmpgt_epi64(_mm256_setzero_si256(), x);
    return _mm256_or_si256(_mm256_srl_epi64(x, _mm_cvtsi32_si128(s)),
                           _mm256_sll_epi64(sign, _mm_cvtsi32_si128(64 - s)));
}

static __m256i srav64(const __m256i x, const __m256i s)
{
    const __m256i sign = _mm256_cmpgt_epi64(_mm256_setzero_si256(), x);
    return _mm256_or_si256(_mm256_srlv_epi64(x, s),
                           _mm256_sllv_epi64(sign, _mm256_sub_epi64(_mm256_set1_epi64x(64), s)));
}

static __m256i min64(const __m256i a, const __m256i b)
{
    return _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(a, b));
}

static __m256i max64(const __m256i a, const __m256i b)
{
    return _mm256_blendv_epi8(b, a, _mm256_cmpgt_epi64(a, b));
}

/* 8 int32 results from the even (e) and odd (o) 64-bit halves' low 32 bits */
static __m256i join64(const __m256i e, const __m256i o)
{
    return _mm256_blend_epi32(e, _mm256_slli_epi64(o, 32), 0xAA);
}

/* the low 32 bits of 4 int64, as 4 int32 */
static __m128i low32(const __m256i v)
{
    return _mm256_castsi256_si128(
        _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 2, 4, 6, 0, 0, 0, 0)));
}

/* 8 int32 to int16 by truncation (adm_wrap16), in order */
static __m128i trunc16(const __m256i v)
{
    const __m256i w = _mm256_srai_epi32(_mm256_slli_epi32(v, 16), 16);
    return _mm_packs_epi32(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
}

#define DP(acc, a, b) _mm256_add_epi32((acc), _mm256_madd_epi16((a), (b)))

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

static __m256i sra_wrap16(const __m256i v, const __m128i sh)
{
    return _mm256_srai_epi32(_mm256_slli_epi32(_mm256_sra_epi32(v, sh), 16), 16);
}

static void dwt0_vert(int16_t *lo, int16_t *hi, const void *const *rows, const int in_w,
                      const unsigned bpc, const int u16)
{
    const __m256i c_lo01 = pair16(ADM_LO0, ADM_LO1), c_lo23 = pair16(ADM_LO2, ADM_LO3);
    const __m256i c_hi01 = pair16(ADM_HI0, ADM_HI1), c_hi23 = pair16(ADM_HI2, ADM_HI3);
    const uint32_t half = 1u << (bpc - 1);
    const uint32_t bias_lo = u16 ? 32768u * ADM_LO_SUM : 0;
    const __m256i add_lo = _mm256_set1_epi32((int)(bias_lo - (uint32_t)ADM_LO_SUM * half + half));
    const __m256i add_hi = _mm256_set1_epi32((int)half);
    const __m128i sh = _mm_cvtsi32_si128((int)bpc);
    const __m256i bias = _mm256_set1_epi16((short)0x8000);
    for (int j0 = 0; j0 < in_w; j0 += 16) {
        const int j = j0 + 16 <= in_w ? j0 : in_w - 16;
        __m256i s[4];
        for (int k = 0; k < 4; k++)
            s[k] = u16 ? _mm256_xor_si256(
                             _mm256_loadu_si256((const __m256i *)((const uint16_t *)rows[k] + j)),
                             bias)
                       : _mm256_cvtepu8_epi16(
                             _mm_loadu_si128((const __m128i *)((const uint8_t *)rows[k] + j)));
        const __m256i p01l = _mm256_unpacklo_epi16(s[0], s[1]),
                      p01h = _mm256_unpackhi_epi16(s[0], s[1]);
        const __m256i p23l = _mm256_unpacklo_epi16(s[2], s[3]),
                      p23h = _mm256_unpackhi_epi16(s[2], s[3]);
        const __m256i ll = DP(DP(add_lo, p01l, c_lo01), p23l, c_lo23);
        const __m256i lh = DP(DP(add_lo, p01h, c_lo01), p23h, c_lo23);
        _mm256_storeu_si256((__m256i *)(lo + j),
                            _mm256_packs_epi32(sra_wrap16(ll, sh), sra_wrap16(lh, sh)));
        if (hi) {
            const __m256i hl = DP(DP(add_hi, p01l, c_hi01), p23l, c_hi23);
            const __m256i hh = DP(DP(add_hi, p01h, c_hi01), p23h, c_hi23);
            _mm256_storeu_si256((__m256i *)(hi + j),
                                _mm256_packs_epi32(sra_wrap16(hl, sh), sra_wrap16(hh, sh)));
        }
    }
}

static __m128i horz0(const __m256i p01, const __m256i p23, const __m256i c01, const __m256i c23)
{
    const __m256i sum = DP(_mm256_madd_epi16(p01, c01), p23, c23);
    return trunc16(_mm256_srai_epi32(_mm256_add_epi32(sum, _mm256_set1_epi32(32768)), 16));
}

static void dwt0_horz(int16_t *a, const AdmRow16 *hvd, const int16_t *lo, const int16_t *hi,
                      const int w)
{
    const __m256i c_lo01 = pair16(ADM_LO0, ADM_LO1), c_lo23 = pair16(ADM_LO2, ADM_LO3);
    const __m256i c_hi01 = pair16(ADM_HI0, ADM_HI1), c_hi23 = pair16(ADM_HI2, ADM_HI3);
    for (int j0 = 0; j0 < w; j0 += 8) {
        const int j = j0 + 8 <= w ? j0 : w - 8;
        const __m256i l01 = _mm256_loadu_si256((const __m256i *)(lo + 2 * j - 1));
        const __m256i l23 = _mm256_loadu_si256((const __m256i *)(lo + 2 * j + 1));
        _mm_storeu_si128((__m128i *)(a + j), horz0(l01, l23, c_lo01, c_lo23));
        if (!hvd)
            continue;
        const __m256i h01 = _mm256_loadu_si256((const __m256i *)(hi + 2 * j - 1));
        const __m256i h23 = _mm256_loadu_si256((const __m256i *)(hi + 2 * j + 1));
        _mm_storeu_si128((__m128i *)(hvd->b[1] + j), horz0(l01, l23, c_hi01, c_hi23));
        _mm_storeu_si128((__m128i *)(hvd->b[0] + j), horz0(h01, h23, c_lo01, c_lo23));
        _mm_storeu_si128((__m128i *)(hvd->b[2] + j), horz0(h01, h23, c_hi01, c_hi23));
    }
}

static void dwt0(int16_t *a, const AdmRow16 *hvd, const void *const *rows, const int in_w,
                 const unsigned bpc, void *tmp, const int u16)
{
    if (in_w < 16) {
        (u16 ? adm_dwt0_u16_c : adm_dwt0_u8_c)(a, hvd, rows, in_w, bpc, tmp);
        return;
    }
    const size_t n = dwt_row_len(in_w);
    int16_t *lo = (int16_t *)tmp + MARGIN, *hi = lo + n;
    dwt0_vert(lo, hvd ? hi : NULL, rows, in_w, bpc, u16);
    pad16(lo, in_w);
    if (hvd)
        pad16(hi, in_w);
    dwt0_horz(a, hvd, lo, hi, (in_w + 1) / 2);
}

void ev_adm_dwt0_u8_avx2(int16_t *a, const AdmRow16 *hvd, const void *const *rows, const int in_w,
                         const unsigned bpc, void *tmp)
{
    dwt0(a, hvd, rows, in_w, 8, tmp, 0);
}

void ev_adm_dwt0_u16_avx2(int16_t *a, const AdmRow16 *hvd, const void *const *rows, const int in_w,
                          const unsigned bpc, void *tmp)
{
    dwt0(a, hvd, rows, in_w, bpc, tmp, 1);
}

/* int64 tap sums of the even 32-bit lanes, + add, >> shift; only the low 32 bits are kept, so
 * the logical shift (<= 16) serves */
INLINE __m256i taps64(const __m256i e0, const __m256i e1, const __m256i e2, const __m256i e3,
                      const int c0, const int c1, const int c2, const int c3, const __m256i add,
                      const int shift)
{
    __m256i s = _mm256_mul_epi32(e0, _mm256_set1_epi64x(c0));
    s = _mm256_add_epi64(s, _mm256_mul_epi32(e1, _mm256_set1_epi64x(c1)));
    s = _mm256_add_epi64(s, _mm256_mul_epi32(e2, _mm256_set1_epi64x(c2)));
    s = _mm256_add_epi64(s, _mm256_mul_epi32(e3, _mm256_set1_epi64x(c3)));
    return _mm256_srli_epi64(_mm256_add_epi64(s, add), shift);
}

#define TAPS_LO(e0, e1, e2, e3, add, sh)                                                           \
    taps64(e0, e1, e2, e3, ADM_LO0, ADM_LO1, ADM_LO2, ADM_LO3, add, sh)
#define TAPS_HI(e0, e1, e2, e3, add, sh)                                                           \
    taps64(e0, e1, e2, e3, ADM_HI0, ADM_HI1, ADM_HI2, ADM_HI3, add, sh)

static const int64_t s123_vert_add[3] = { 0, 32768, 32768 };
static const int s123_vert_shift[3] = { 0, 16, 16 };
static const int64_t s123_horz_add[3] = { 16384, 32768, 16384 };
static const int s123_horz_shift[3] = { 15, 16, 15 };

INLINE void dwt123_vert(int32_t *lo, int32_t *hi, const void *const *rows, const int in_w,
                        const int64_t add_c, const int shift, const int in16)
{
    const __m256i add = _mm256_set1_epi64x(add_c);
    for (int j0 = 0; j0 < in_w; j0 += 8) {
        const int j = j0 + 8 <= in_w ? j0 : in_w - 8;
        __m256i e[4], o[4];
        for (int k = 0; k < 4; k++) {
            e[k] = in16 ? _mm256_cvtepi16_epi32(
                              _mm_loadu_si128((const __m128i *)((const int16_t *)rows[k] + j)))
                        : _mm256_loadu_si256((const __m256i *)((const int32_t *)rows[k] + j));
            o[k] = _mm256_srli_epi64(e[k], 32);
        }
        _mm256_storeu_si256((__m256i *)(lo + j),
                            join64(TAPS_LO(e[0], e[1], e[2], e[3], add, shift),
                                   TAPS_LO(o[0], o[1], o[2], o[3], add, shift)));
        _mm256_storeu_si256((__m256i *)(hi + j),
                            join64(TAPS_HI(e[0], e[1], e[2], e[3], add, shift),
                                   TAPS_HI(o[0], o[1], o[2], o[3], add, shift)));
    }
}

INLINE void dwt123_horz(int32_t *a, const AdmRow32 *hvd, const int32_t *lo, const int32_t *hi,
                        const int w, const int64_t add_c, const int shift)
{
    const __m256i add = _mm256_set1_epi64x(add_c);
    for (int j0 = 0; j0 < w; j0 += 4) {
        const int j = j0 + 4 <= w ? j0 : w - 4;
        __m256i l[4], h[4];
        for (int k = 0; k < 4; k++) {
            l[k] = _mm256_loadu_si256((const __m256i *)(lo + 2 * j - 1 + k));
            h[k] = _mm256_loadu_si256((const __m256i *)(hi + 2 * j - 1 + k));
        }
        _mm_storeu_si128((__m128i *)(a + j), low32(TAPS_LO(l[0], l[1], l[2], l[3], add, shift)));
        _mm_storeu_si128((__m128i *)(hvd->b[1] + j),
                         low32(TAPS_HI(l[0], l[1], l[2], l[3], add, shift)));
        _mm_storeu_si128((__m128i *)(hvd->b[0] + j),
                         low32(TAPS_LO(h[0], h[1], h[2], h[3], add, shift)));
        _mm_storeu_si128((__m128i *)(hvd->b[2] + j),
                         low32(TAPS_HI(h[0], h[1], h[2], h[3], add, shift)));
    }
}

void ev_adm_dwt123_avx2(int32_t *a, const AdmRow32 *hvd, const void *const *rows, const int in_w,
                        const int scale, void *tmp)
{
    if (in_w < 16) {
        adm_dwt123_c(a, hvd, rows, in_w, scale, tmp);
        return;
    }
    const size_t n = dwt_row_len(in_w);
    int32_t *lo = (int32_t *)tmp + MARGIN, *hi = lo + n;
    if (s123_vert_shift[scale - 1] == 0) /* scale 1: int16 input */
        dwt123_vert(lo, hi, rows, in_w, s123_vert_add[scale - 1], 0, 1);
    else
        dwt123_vert(lo, hi, rows, in_w, s123_vert_add[scale - 1], 16, 0);
    pad32(lo, in_w);
    pad32(hi, in_w);
    if (s123_horz_shift[scale - 1] == 15)
        dwt123_horz(a, hvd, lo, hi, (in_w + 1) / 2, s123_horz_add[scale - 1], 15);
    else
        dwt123_horz(a, hvd, lo, hi, (in_w + 1) / 2, s123_horz_add[scale - 1], 16);
}

/* ---- decouple ---- */

/* The angle flag of 4 coefficients from their float dot products (as doubles). */
INLINE __m256d angle4(const __m256d ot_f, const __m256d oo_f, const __m256d tt_f,
                      const double cos_sq)
{
    const __m256d q = _mm256_set1_pd(1.0 / 4096.0);
    const __m256d ot = _mm256_mul_pd(ot_f, q), oo = _mm256_mul_pd(oo_f, q);
    const __m256d tt = _mm256_mul_pd(tt_f, q);
    const __m256d rhs = _mm256_mul_pd(_mm256_mul_pd(_mm256_set1_pd(cos_sq), oo), tt);
    return _mm256_and_pd(_mm256_cmp_pd(ot, _mm256_setzero_pd(), _CMP_GE_OQ),
                         _mm256_cmp_pd(_mm256_mul_pd(ot, ot), rhs, _CMP_GE_OQ));
}

/* k of 4 scale-0 coefficients (as k0_8 of the AVX-512 kernels). */
INLINE __m128i k0_4(const __m128i o, const __m128i t)
{
    const __m256d od = _mm256_cvtepi32_pd(o);
    const __m256d mag = _mm256_andnot_pd(_mm256_set1_pd(-0.0), od);
    const __m256d q = _mm256_round_pd(_mm256_div_pd(_mm256_set1_pd(1073741824.0), mag),
                                      _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    __m256d num = _mm256_mul_pd(q, _mm256_cvtepi32_pd(t));
    num = _mm256_blendv_pd(num, _mm256_sub_pd(_mm256_setzero_pd(), num),
                           _mm256_cmp_pd(od, _mm256_setzero_pd(), _CMP_LT_OQ));
    __m256d k = _mm256_round_pd(
        _mm256_mul_pd(_mm256_add_pd(num, _mm256_set1_pd(16384.0)), _mm256_set1_pd(1.0 / 32768.0)),
        _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    k = _mm256_min_pd(_mm256_max_pd(k, _mm256_setzero_pd()), _mm256_set1_pd(32768.0));
    const __m128i ki = _mm256_cvttpd_epi32(k);
    return _mm_blendv_epi8(ki, _mm_set1_epi32(32768), _mm_cmpeq_epi32(o, _mm_setzero_si128()));
}

/* One band of 4 scale-0 coefficients: r and a (int32 lanes holding int16 values). */
INLINE void coef0_4(__m128i *r, __m128i *a, const __m128i o, const __m128i t, const __m256d flag,
                    const double egl)
{
    const __m128i k = k0_4(o, t);
    const __m128i rst =
        _mm_srai_epi32(_mm_add_epi32(_mm_mullo_epi32(k, o), _mm_set1_epi32(16384)), 15);
    const __m128i kpos = _mm_cmpgt_epi32(k, _mm_setzero_si128());
    const __m128i pos = _mm_and_si128(kpos, _mm_cmpgt_epi32(o, _mm_setzero_si128()));
    const __m128i neg = _mm_and_si128(kpos, _mm_cmplt_epi32(o, _mm_setzero_si128()));
    const __m256d fpos = _mm256_and_pd(flag, _mm256_castsi256_pd(_mm256_cvtepi32_epi64(pos)));
    const __m256d fneg = _mm256_and_pd(flag, _mm256_castsi256_pd(_mm256_cvtepi32_epi64(neg)));
    const __m256d rd = _mm256_cvtepi32_pd(rst), td = _mm256_cvtepi32_pd(t);
    const __m256d lim = _mm256_mul_pd(rd, _mm256_set1_pd(egl));
    __m256d v = _mm256_blendv_pd(rd, _mm256_min_pd(lim, td), fpos);
    v = _mm256_blendv_pd(v, _mm256_max_pd(lim, td), fneg);
    __m128i vi = _mm256_cvttpd_epi32(v);
    vi = _mm_srai_epi32(_mm_slli_epi32(vi, 16), 16); /* wrap16 */
    *r = vi;
    *a = _mm_sub_epi32(t, vi);
}

void ev_adm_decouple0_avx2(const AdmRow16 *r, const AdmRow16 *a, const AdmRow16 *o,
                           const AdmRow16 *t, const int x0, const int x1,
                           const AdmDecoupleParams *p)
{
    const double cos_sq = p->cos_1deg_sq;
    int j = x0;
    for (; j + 8 <= x1; j += 8) {
        __m256i ob[3], tb[3];
        for (int b = 0; b < 3; b++) {
            ob[b] = _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(o->b[b] + j)));
            tb[b] = _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(t->b[b] + j)));
        }
        /* exact in int32 for scale-0 bands (|x| <= 22931) */
        const __m256 otf = _mm256_cvtepi32_ps(
            _mm256_add_epi32(_mm256_mullo_epi32(ob[0], tb[0]), _mm256_mullo_epi32(ob[1], tb[1])));
        const __m256 oof = _mm256_cvtepi32_ps(
            _mm256_add_epi32(_mm256_mullo_epi32(ob[0], ob[0]), _mm256_mullo_epi32(ob[1], ob[1])));
        const __m256 ttf = _mm256_cvtepi32_ps(
            _mm256_add_epi32(_mm256_mullo_epi32(tb[0], tb[0]), _mm256_mullo_epi32(tb[1], tb[1])));
        const __m256d f0 = angle4(_mm256_cvtps_pd(_mm256_castps256_ps128(otf)),
                                  _mm256_cvtps_pd(_mm256_castps256_ps128(oof)),
                                  _mm256_cvtps_pd(_mm256_castps256_ps128(ttf)), cos_sq);
        const __m256d f1 = angle4(_mm256_cvtps_pd(_mm256_extractf128_ps(otf, 1)),
                                  _mm256_cvtps_pd(_mm256_extractf128_ps(oof, 1)),
                                  _mm256_cvtps_pd(_mm256_extractf128_ps(ttf, 1)), cos_sq);
        for (int b = 0; b < 3; b++) {
            __m128i r0, a0, r1, a1;
            coef0_4(&r0, &a0, _mm256_castsi256_si128(ob[b]), _mm256_castsi256_si128(tb[b]), f0,
                    p->egl);
            coef0_4(&r1, &a1, _mm256_extracti128_si256(ob[b], 1),
                    _mm256_extracti128_si256(tb[b], 1), f1, p->egl);
            _mm_storeu_si128((__m128i *)(r->b[b] + j),
                             _mm_packs_epi32(r0, r1)); /* in int16 range */
            _mm_storeu_si128((__m128i *)(a->b[b] + j),
                             trunc16(_mm256_inserti128_si256(_mm256_castsi128_si256(a0), a1, 1)));
        }
    }
    if (j < x1)
        adm_decouple0_c(r, a, o, t, j, x1, p);
}

/* k of 4 coefficients of scales 1..3, 64-bit lanes (k123_8 of the AVX-512 kernels). */
INLINE __m256i k123_4(const __m256i o, const __m128i o32, const __m256i t)
{
    const __m128i mag32 = _mm_abs_epi32(o32); /* |INT32_MIN| stays 2^31 as uint32 */
    /* the bit length of |o| from the float of |o| >> 8 (exact); |o| >= 2^15: shift = len - 15 */
    const __m128i f = _mm_castps_si128(_mm_cvtepi32_ps(_mm_srli_epi32(mag32, 8)));
    const __m128i len = _mm_sub_epi32(_mm_srli_epi32(f, 23), _mm_set1_epi32(118));
    /* |o| >= 2^15, unsigned (2^31 reads as negative) */
    const __m128i big = _mm_xor_si128(
        _mm_cmpeq_epi32(_mm_srli_epi32(mag32, 15), _mm_setzero_si128()), _mm_set1_epi32(-1));
    const __m128i shift = _mm_and_si128(big, _mm_sub_epi32(len, _mm_set1_epi32(15)));
    const __m128i half = _mm_and_si128(
        big, _mm_sllv_epi32(_mm_set1_epi32(1), _mm_sub_epi32(shift, _mm_set1_epi32(1))));
    const __m128i idx = _mm_srlv_epi32(_mm_add_epi32(mag32, half), shift); /* <= 32768 */
    const __m128i q = _mm256_cvttpd_epi32(
        _mm256_round_pd(_mm256_div_pd(_mm256_set1_pd(1073741824.0), _mm256_cvtepi32_pd(idx)),
                        _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC));
    __m256i num = _mm256_mul_epi32(_mm256_cvtepi32_epi64(q), t);
    num = _mm256_blendv_epi8(num, _mm256_sub_epi64(_mm256_setzero_si256(), num),
                             _mm256_cmpgt_epi64(_mm256_setzero_si256(), o));
    const __m256i s15 = _mm256_add_epi64(_mm256_cvtepi32_epi64(shift), _mm256_set1_epi64x(15));
    const __m256i rnd =
        _mm256_sllv_epi64(_mm256_set1_epi64x(1), _mm256_sub_epi64(s15, _mm256_set1_epi64x(1)));
    __m256i k = srav64(_mm256_add_epi64(num, rnd), s15);
    k = min64(max64(k, _mm256_setzero_si256()), _mm256_set1_epi64x(32768));
    return _mm256_blendv_epi8(k, _mm256_set1_epi64x(32768),
                              _mm256_cmpeq_epi64(o, _mm256_setzero_si256()));
}

/* 4 integer-valued doubles below 2^51 in magnitude to int64 (exact) */
static __m256i pd_to_i64(const __m256d v)
{
    const __m256d magic = _mm256_set1_pd(6755399441055744.0); /* 2^52 + 2^51 */
    return _mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(v, magic)),
                            _mm256_castpd_si256(magic));
}

INLINE void coef123_4(__m128i *r, __m128i *a, const __m128i o32, const __m128i t32,
                      const __m256d flag, const double egl)
{
    const __m256i o = _mm256_cvtepi32_epi64(o32), t = _mm256_cvtepi32_epi64(t32);
    const __m256i k = k123_4(o, o32, t);
    /* rst fits int32 (|rst| <= |o| + 1): its low 32 bits, converted */
    const __m256i rst =
        sra64(_mm256_add_epi64(_mm256_mul_epi32(k, o), _mm256_set1_epi64x(16384)), 15);
    const __m128i rst32 = low32(rst);
    const __m256i kpos = _mm256_cmpgt_epi64(k, _mm256_setzero_si256());
    const __m256i pos = _mm256_and_si256(kpos, _mm256_cmpgt_epi64(o, _mm256_setzero_si256()));
    const __m256i neg = _mm256_and_si256(kpos, _mm256_cmpgt_epi64(_mm256_setzero_si256(), o));
    const __m256d rd = _mm256_cvtepi32_pd(rst32), td = _mm256_cvtepi32_pd(t32);
    const __m256d lim = _mm256_mul_pd(rd, _mm256_set1_pd(egl));
    __m256d v =
        _mm256_blendv_pd(rd, _mm256_min_pd(lim, td), _mm256_and_pd(flag, _mm256_castsi256_pd(pos)));
    v = _mm256_blendv_pd(v, _mm256_max_pd(lim, td), _mm256_and_pd(flag, _mm256_castsi256_pd(neg)));
    /* |v| <= 100 x 2^31 < 2^51 */
    const __m256i vi = pd_to_i64(_mm256_round_pd(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC));
    *r = low32(vi);
    *a = low32(_mm256_sub_epi64(t, vi));
}

/* (double) of oh th + ov tv of 4 coefficients (int64); *wide: some |value| >= 2^53 */
static __m256d dot64_d(const __m256i a0, const __m256i b0, const __m256i a1, const __m256i b1,
                       __m256i *wide)
{
    const __m256i s = _mm256_add_epi64(_mm256_mul_epi32(a0, b0), _mm256_mul_epi32(a1, b1));
    const __m256i lim = _mm256_set1_epi64x(INT64_C(1) << 53);
    *wide = _mm256_or_si256(
        *wide,
        _mm256_or_si256(_mm256_cmpgt_epi64(s, lim),
                        _mm256_cmpgt_epi64(_mm256_sub_epi64(_mm256_setzero_si256(), lim), s)));
    /* exact int64 to double for |s| <= 2^53: high and low 32-bit halves */
    const __m256d hi = _mm256_mul_pd(_mm256_cvtepi32_pd(low32(_mm256_srli_epi64(s, 32))),
                                     _mm256_set1_pd(4294967296.0));
    const __m256i lo = _mm256_and_si256(s, _mm256_set1_epi64x(0xFFFFFFFF));
    const __m256d lod =
        _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(
                          lo, _mm256_castpd_si256(_mm256_set1_pd(4503599627370496.0)))),
                      _mm256_set1_pd(4503599627370496.0));
    return _mm256_add_pd(hi, lod);
}

void ev_adm_decouple123_avx2(const AdmRow32 *r, const AdmRow32 *a, const AdmRow32 *o,
                             const AdmRow32 *t, const int x0, const int x1,
                             const AdmDecoupleParams *p)
{
    const double cos_sq = p->cos_1deg_sq;
    int j = x0;
    for (; j + 4 <= x1; j += 4) {
        __m128i ob[3], tb[3];
        for (int b = 0; b < 3; b++) {
            ob[b] = _mm_loadu_si128((const __m128i *)(o->b[b] + j));
            tb[b] = _mm_loadu_si128((const __m128i *)(t->b[b] + j));
        }
        const __m256i oh = _mm256_cvtepi32_epi64(ob[0]), ov = _mm256_cvtepi32_epi64(ob[1]);
        const __m256i th = _mm256_cvtepi32_epi64(tb[0]), tv = _mm256_cvtepi32_epi64(tb[1]);
        __m256i wide = _mm256_setzero_si256();
        const __m256d ot = dot64_d(oh, th, ov, tv, &wide), oo = dot64_d(oh, oh, ov, ov, &wide);
        const __m256d tt = dot64_d(th, th, tv, tv, &wide);
        if (!_mm256_testz_si256(wide, wide)) {
            /* float of an int64 above 2^53 would round twice through double: the C's way */
            adm_decouple123_c(r, a, o, t, j, j + 4, p);
            continue;
        }
        /* the reference's (float) of each dot product: one rounding, from the exact double */
        const __m256d f =
            angle4(_mm256_cvtps_pd(_mm256_cvtpd_ps(ot)), _mm256_cvtps_pd(_mm256_cvtpd_ps(oo)),
                   _mm256_cvtps_pd(_mm256_cvtpd_ps(tt)), cos_sq);
        for (int b = 0; b < 3; b++) {
            __m128i rv, av;
            coef123_4(&rv, &av, ob[b], tb[b], f, p->egl);
            _mm_storeu_si128((__m128i *)(r->b[b] + j), rv);
            _mm_storeu_si128((__m128i *)(a->b[b] + j), av);
        }
    }
    if (j < x1)
        adm_decouple123_c(r, a, o, t, j, x1, p);
}

/* ---- CSF ---- */

void ev_adm_csf0_avx2(const AdmRow16 *csf, const AdmRow16 *flt, const AdmRow16 *src, const int x0,
                      const int x1, const uint16_t *rf)
{
    int j = x0;
    for (; j + 8 <= x1; j += 8)
        for (int b = 0; b < 3; b++) {
            const __m256i x =
                _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(src->b[b] + j)));
            __m256i v = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_set1_epi32(rf[b]), x),
                                         _mm256_set1_epi32(b == 2 ? 65535 : 16384));
            v = _mm256_sra_epi32(v, _mm_cvtsi32_si128(b == 2 ? 17 : 15));
            v = _mm256_srai_epi32(_mm256_slli_epi32(v, 16), 16);
            const __m256i fl = _mm256_srai_epi32(
                _mm256_add_epi32(_mm256_mullo_epi32(_mm256_abs_epi32(v), _mm256_set1_epi32(4369)),
                                 _mm256_set1_epi32(2048)),
                12);
            _mm_storeu_si128((__m128i *)(csf->b[b] + j), trunc16(v));
            _mm_storeu_si128((__m128i *)(flt->b[b] + j), trunc16(fl));
        }
    if (j < x1)
        adm_csf0_c(csf, flt, src, j, x1, rf);
}

/* rf x (Q32 factor, int32 x) + 2^27, >> 28, low 32 bits, of the even lanes */
INLINE __m256i csf123_even(const __m256i e, const __m256i rf_s, const int rf_big)
{
    __m256i p = _mm256_mul_epi32(e, rf_s);
    if (rf_big)
        p = _mm256_add_epi64(p, _mm256_slli_epi64(e, 32));
    return _mm256_srli_epi64(_mm256_add_epi64(p, _mm256_set1_epi64x(1 << 27)), 28);
}

/* (c |v| - 2^31) >> 32 of the even lanes: the high half, |v| as adm_abs32 */
INLINE __m256i mulshift_abs_even(const __m256i v, const int c)
{
    const __m256i p = _mm256_mul_epi32(_mm256_abs_epi32(v), _mm256_set1_epi64x(c));
    return _mm256_srli_epi64(_mm256_sub_epi64(p, _mm256_set1_epi64x(2147483648LL)), 32);
}

void ev_adm_csf123_avx2(const AdmRow32 *csf, const AdmRow32 *flt, const AdmRow32 *src, const int x0,
                        const int x1, const uint32_t *rf)
{
    int j = x0;
    for (; j + 8 <= x1; j += 8)
        for (int b = 0; b < 3; b++) {
            const __m256i rf_s = _mm256_set1_epi64x((int32_t)rf[b]);
            const int big = rf[b] >= 0x80000000u;
            const __m256i x = _mm256_loadu_si256((const __m256i *)(src->b[b] + j));
            const __m256i v =
                join64(csf123_even(x, rf_s, big), csf123_even(_mm256_srli_epi64(x, 32), rf_s, big));
            const __m256i fl = join64(mulshift_abs_even(v, 143165577),
                                      mulshift_abs_even(_mm256_srli_epi64(v, 32), 143165577));
            _mm256_storeu_si256((__m256i *)(csf->b[b] + j), v);
            _mm256_storeu_si256((__m256i *)(flt->b[b] + j), fl);
        }
    if (j < x1)
        adm_csf123_c(csf, flt, src, j, x1, rf);
}

/* ---- denominators ---- */

static uint64_t sum64(const __m256i v)
{
    const __m128i s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return (uint64_t)_mm_cvtsi128_si64(s) + (uint64_t)_mm_extract_epi64(s, 1);
}

void ev_adm_den0_avx2(uint64_t sums[3], const AdmRow16 *o, const int x0, const int x1)
{
    int j = x0;
    __m256i acc[3] = { _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256() };
    for (; j + 8 <= x1; j += 8)
        for (int b = 0; b < 3; b++) {
            const __m256i v = _mm256_cvtepu16_epi32(
                _mm_abs_epi16(_mm_loadu_si128((const __m128i *)(o->b[b] + j))));
            const __m256i sq = _mm256_mullo_epi32(v, v);
            acc[b] = _mm256_add_epi64(acc[b], _mm256_mul_epu32(sq, v));
            acc[b] = _mm256_add_epi64(
                acc[b], _mm256_mul_epu32(_mm256_srli_epi64(sq, 32), _mm256_srli_epi64(v, 32)));
        }
    uint64_t tail[3] = { 0, 0, 0 };
    if (j < x1)
        adm_den0_c(tail, o, j, x1);
    for (int b = 0; b < 3; b++)
        sums[b] = sum64(acc[b]) + tail[b];
}

/* ((m^2 + 2^q) >> q) m mod 2^64 (a 34-bit by 32-bit product in two halves), + add, >> cub, of
 * the even lanes' uint32 m */
INLINE __m256i den123_even(const __m256i m, const __m128i q, const __m256i qadd, const __m256i add,
                           const __m128i cub)
{
    const __m256i sq = _mm256_srl_epi64(_mm256_add_epi64(_mm256_mul_epu32(m, m), qadd), q);
    const __m256i prod =
        _mm256_add_epi64(_mm256_mul_epu32(sq, m),
                         _mm256_slli_epi64(_mm256_mul_epu32(_mm256_srli_epi64(sq, 32), m), 32));
    return _mm256_srl_epi64(_mm256_add_epi64(prod, add), cub);
}

void ev_adm_den123_avx2(uint64_t sums[3], const AdmRow32 *o, const int x0, const int x1,
                        const unsigned q, const uint64_t cub_add, const unsigned cub)
{
    const __m128i qs = _mm_cvtsi32_si128((int)q), cs = _mm_cvtsi32_si128((int)cub);
    const __m256i qadd = _mm256_set1_epi64x((long long)(UINT64_C(1) << q));
    const __m256i add = _mm256_set1_epi64x((long long)cub_add);
    __m256i acc[3] = { _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256() };
    int j = x0;
    for (; j + 8 <= x1; j += 8)
        for (int b = 0; b < 3; b++) {
            const __m256i v = _mm256_abs_epi32(_mm256_loadu_si256((const __m256i *)(o->b[b] + j)));
            acc[b] = _mm256_add_epi64(acc[b], den123_even(v, qs, qadd, add, cs));
            acc[b] =
                _mm256_add_epi64(acc[b], den123_even(_mm256_srli_epi64(v, 32), qs, qadd, add, cs));
        }
    uint64_t tail[3] = { 0, 0, 0 };
    if (j < x1)
        adm_den123_c(tail, o, j, x1, q, cub_add, cub);
    for (int b = 0; b < 3; b++)
        sums[b] = sum64(acc[b]) + tail[b];
}

/* ---- contrast masking ---- */

static int cm_jmin(const AdmCmCols *c)
{
    return c->first == 0 ? 0 : c->start - 1;
}

static int cm_jmax(const AdmCmCols *c)
{
    return c->last >= 0 ? c->w - 1 : c->end;
}

static void cm0_prepare(uint32_t *col, uint32_t *centre, const AdmRow16 *csf,
                        const AdmRow16 *const *flt, const int j0, const int j1)
{
    int j = j0;
    for (; j + 8 <= j1; j += 8) {
        __m256i c = _mm256_setzero_si256(), e = c;
        for (int b = 0; b < 3; b++) {
            const __m256i mid =
                _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(flt[1]->b[b] + j)));
            c = _mm256_add_epi32(
                c, _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(flt[0]->b[b] + j))));
            c = _mm256_add_epi32(c, mid);
            c = _mm256_add_epi32(
                c, _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(flt[2]->b[b] + j))));
            const __m256i x = _mm256_abs_epi32(
                _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(csf->b[b] + j))));
            __m256i ctr =
                _mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(x, _mm256_set1_epi32(8738)),
                                                   _mm256_set1_epi32(2048)),
                                  12);
            ctr = _mm256_srai_epi32(_mm256_slli_epi32(ctr, 16), 16);
            e = _mm256_add_epi32(e, _mm256_sub_epi32(ctr, mid));
        }
        _mm256_storeu_si256((__m256i *)(col + j), c);
        _mm256_storeu_si256((__m256i *)(centre + j), e);
    }
    for (; j < j1; j++) {
        int32_t c = 0, e = 0;
        for (int b = 0; b < 3; b++) {
            c += flt[0]->b[b][j] + flt[1]->b[b][j] + flt[2]->b[b][j];
            e += adm_cm_centre0(csf->b[b][j]) - flt[1]->b[b][j];
        }
        col[j] = (uint32_t)c;
        centre[j] = (uint32_t)e;
    }
}

/* adm_cm_cube of the even lanes, x >= 0: ((x^2 + 2^(sq-1)) >> sq as int32) x, + add, >> cub */
INLINE __m256i cube_even(const __m256i x, const __m128i sq, const __m256i sq_add,
                         const __m256i cub_add, const int cub)
{
    const __m256i x2 = _mm256_srl_epi64(_mm256_add_epi64(_mm256_mul_epu32(x, x), sq_add), sq);
    const __m256i p = _mm256_add_epi64(_mm256_mul_epi32(x2, x), cub_add);
    return cub ? sra64v(p, cub) : p;
}

static __m256i cm_thr8(const uint32_t *col, const uint32_t *centre, const int j)
{
    const __m256i l = _mm256_loadu_si256((const __m256i *)(col + j - 1));
    const __m256i c = _mm256_loadu_si256((const __m256i *)(col + j));
    const __m256i r = _mm256_loadu_si256((const __m256i *)(col + j + 1));
    const __m256i e = _mm256_loadu_si256((const __m256i *)(centre + j));
    return _mm256_add_epi32(_mm256_add_epi32(l, c), _mm256_add_epi32(r, e));
}

void ev_adm_cm0_avx2(int64_t sums[3], const AdmRow16 *src, const AdmRow16 *csf,
                     const AdmRow16 *const *flt, const AdmCmCols *cols, const AdmCmParams *p,
                     void *tmp)
{
    uint32_t *col = (uint32_t *)tmp + 16, *centre = col + cols->w + 64;
    cm0_prepare(col, centre, csf, flt, cm_jmin(cols), cm_jmax(cols) + 1);
    __m256i acc[3] = { _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256() };
    int j = cols->start;
    for (; j + 8 <= cols->end; j += 8) {
        const __m256i thr = cm_thr8(col, centre, j);
        for (int b = 0; b < 3; b++) {
            const __m256i s =
                _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(src->b[b] + j)));
            const __m256i x0 =
                _mm256_abs_epi32(_mm256_mullo_epi32(_mm256_set1_epi32(p->irf0[b]), s));
            const __m256i thr_q = _mm256_sll_epi32(thr, _mm_cvtsi32_si128((int)p->sub[b]));
            const __m256i x = _mm256_max_epi32(_mm256_sub_epi32(x0, thr_q), _mm256_setzero_si256());
            const __m128i sq = _mm_cvtsi32_si128((int)p->sq[b]);
            const __m256i sq_add = _mm256_set1_epi64x(INT64_C(1) << (p->sq[b] - 1));
            const __m256i ca = _mm256_set1_epi64x(p->cub_add[b]);
            acc[b] = _mm256_add_epi64(acc[b], cube_even(x, sq, sq_add, ca, (int)p->cub[b]));
            acc[b] = _mm256_add_epi64(
                acc[b], cube_even(_mm256_srli_epi64(x, 32), sq, sq_add, ca, (int)p->cub[b]));
        }
    }
    for (int b = 0; b < 3; b++)
        sums[b] = (int64_t)sum64(acc[b]);
    const int w = cols->w;
    for (; j < cols->end; j++) {
        const int32_t thr = adm_wrap32((int64_t)col[j - 1] + col[j] + col[j + 1] + centre[j]);
        for (int b = 0; b < 3; b++)
            sums[b] = adm_add64(sums[b], adm_cm_cube0(src->b[b][j], p->irf0[b], thr, p->sub[b],
                                                      p->sq[b], p->cub_add[b], p->cub[b]));
    }
    const int edge[2] = { cols->first == 0 ? 0 : -1, cols->last >= 0 ? w - 1 : -1 };
    for (int e = 0; e < 2; e++) {
        const int k = edge[e];
        if (k < 0)
            continue;
        const int jl = k ? w - 2 : 1, jr = k ? w - 1 : 1;
        const int32_t thr = adm_wrap32((int64_t)col[jl] + col[k] + col[jr] + centre[k]);
        for (int b = 0; b < 3; b++)
            sums[b] = adm_add64(sums[b], adm_cm_cube0(src->b[b][k], p->irf0[b], thr, p->sub[b],
                                                      p->sq[b], p->cub_add[b], p->cub[b]));
    }
}

static void cm123_prepare(uint32_t *col, uint32_t *centre, const AdmRow32 *csf,
                          const AdmRow32 *const *flt, const int j0, const int j1)
{
    int j = j0;
    for (; j + 8 <= j1; j += 8) {
        __m256i c = _mm256_setzero_si256(), e = c;
        for (int b = 0; b < 3; b++) {
            const __m256i mid = _mm256_loadu_si256((const __m256i *)(flt[1]->b[b] + j));
            c = _mm256_add_epi32(c, _mm256_loadu_si256((const __m256i *)(flt[0]->b[b] + j)));
            c = _mm256_add_epi32(c, mid);
            c = _mm256_add_epi32(c, _mm256_loadu_si256((const __m256i *)(flt[2]->b[b] + j)));
            const __m256i x = _mm256_loadu_si256((const __m256i *)(csf->b[b] + j));
            const __m256i ctr = join64(mulshift_abs_even(x, 286331153),
                                       mulshift_abs_even(_mm256_srli_epi64(x, 32), 286331153));
            e = _mm256_add_epi32(e, _mm256_sub_epi32(ctr, mid));
        }
        _mm256_storeu_si256((__m256i *)(col + j), c);
        _mm256_storeu_si256((__m256i *)(centre + j), e);
    }
    for (; j < j1; j++) {
        uint32_t c = 0, e = 0;
        for (int b = 0; b < 3; b++) {
            c += (uint32_t)flt[0]->b[b][j] + (uint32_t)flt[1]->b[b][j] + (uint32_t)flt[2]->b[b][j];
            e += (uint32_t)adm_cm_centre123(csf->b[b][j]) - (uint32_t)flt[1]->b[b][j];
        }
        col[j] = c;
        centre[j] = e;
    }
}

void ev_adm_cm123_avx2(int64_t sums[3], const AdmRow32 *src, const AdmRow32 *csf,
                       const AdmRow32 *const *flt, const AdmCmCols *cols, const int scale,
                       const AdmCmParams *p, void *tmp)
{
    uint32_t *col = (uint32_t *)tmp + 16, *centre = col + cols->w + 64;
    cm123_prepare(col, centre, csf, flt, cm_jmin(cols), cm_jmax(cols) + 1);
    const uint32_t *irf = p->irf + 3 * scale;
    __m256i acc[3] = { _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256() };
    const __m128i sq = _mm_cvtsi32_si128(30);
    const __m256i sq_add = _mm256_set1_epi64x(1 << 29);
    int j = cols->start;
    for (; j + 8 <= cols->end; j += 8) {
        const __m256i thr = cm_thr8(col, centre, j);
        for (int b = 0; b < 3; b++) {
            const __m256i rf_s = _mm256_set1_epi64x((int32_t)irf[b]);
            const int big = irf[b] >= 0x80000000u;
            const __m256i s = _mm256_loadu_si256((const __m256i *)(src->b[b] + j));
            const __m256i v =
                join64(csf123_even(s, rf_s, big), csf123_even(_mm256_srli_epi64(s, 32), rf_s, big));
            const __m256i x = _mm256_max_epi32(_mm256_sub_epi32(_mm256_abs_epi32(v), thr),
                                               _mm256_setzero_si256());
            const __m256i ca = _mm256_set1_epi64x(p->cub_add[b]);
            acc[b] = _mm256_add_epi64(acc[b], cube_even(x, sq, sq_add, ca, (int)p->cub[b]));
            acc[b] = _mm256_add_epi64(
                acc[b], cube_even(_mm256_srli_epi64(x, 32), sq, sq_add, ca, (int)p->cub[b]));
        }
    }
    for (int b = 0; b < 3; b++)
        sums[b] = (int64_t)sum64(acc[b]);
    const int w = cols->w;
    for (; j < cols->end; j++) {
        const int32_t thr = adm_wrap32((int64_t)col[j - 1] + col[j] + col[j + 1] + centre[j]);
        for (int b = 0; b < 3; b++)
            sums[b] = adm_add64(
                sums[b], adm_cm_cube123(src->b[b][j], irf[b], thr, p->cub_add[b], p->cub[b]));
    }
    const int edge[2] = { cols->first == 0 ? 0 : -1, cols->last >= 0 ? w - 1 : -1 };
    for (int e = 0; e < 2; e++) {
        const int k = edge[e];
        if (k < 0)
            continue;
        const int jl = k ? w - 2 : 1, jr = k ? w - 1 : 1;
        const int32_t thr = adm_wrap32((int64_t)col[jl] + col[k] + col[jr] + centre[k]);
        for (int b = 0; b < 3; b++)
            sums[b] = adm_add64(
                sums[b], adm_cm_cube123(src->b[b][k], irf[b], thr, p->cub_add[b], p->cub[b]));
    }
}
