/*
 * Integer VIF row kernels in AVX2, executors of vif_kernels.h; the reference is vif_scale.c. The
 * same arithmetic as the AVX-512 kernels (vif_avx512_tmpl.h explains how the bits are kept),
 * 16 columns per vector, without masks: a row's last vector is moved back to end at the row's
 * end (the vertical passes then recompute a few columns, with the same values), rows narrower
 * than a vector run the C kernels, and statistic lanes past the row are cleared by compares.
 * What AVX2 lacks is built from what it has: bit lengths of 32-bit values from the exponent of
 * an exact float, unsigned 32-bit to double through a biased signed conversion. The statistic
 * also comes in the many-encodes parts of vif_kernels.h (the reference's once, each distorted's
 * after), the same passes with the other part's quantities left out.
 */
#include <immintrin.h>
#include <string.h>

#include "features/vif/vif_kernels.h"
#include "features/vif/vif_parts.h"

#define INLINE static inline __attribute__((always_inline))

enum {
    V = 16,         /* columns per vector (16-bit lanes) */
    MARGIN = 32,    /* samples before and after a row buffer (>= radius + V + 2) */
    IDX_ROW = 4096, /* statistic lanes between flushes */
};

typedef struct Rows {
    int16_t *mu[2], *lo[3], *hi[3];
    uint32_t *idx[3]; /* log2 table indices: den, n2, n1 */
} Rows;

static size_t row_len(const int max_w)
{
    return ((size_t)max_w + 2 * MARGIN + 15) & ~(size_t)15;
}

size_t ev_vif_row_tmp_size_avx2(const int max_w)
{
    return 16 * row_len(max_w) * sizeof(int16_t) + 3 * (size_t)IDX_ROW * sizeof(uint32_t);
}

static Rows carve_rows(void *tmp, const int w, const int k)
{
    Rows r;
    const size_t n = row_len(w);
    int16_t *p = (int16_t *)((uint32_t *)tmp + 3 * IDX_ROW) + 8 * n * (size_t)k;
    for (int l = 0; l < 2; l++, p += n)
        r.mu[l] = p + MARGIN;
    for (int l = 0; l < 3; l++, p += n)
        r.lo[l] = p + MARGIN;
    for (int l = 0; l < 3; l++, p += n)
        r.hi[l] = p + MARGIN;
    for (int l = 0; l < 3; l++)
        r.idx[l] = (uint32_t *)tmp + l * IDX_ROW;
    return r;
}

static void pad_row(int16_t *line, const int w, const int r)
{
    if (w > VIF_MAX_RADIUS) {
        const __m128i rev = _mm_set_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
        _mm_storeu_si128((__m128i *)(line - 8),
                         _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(line + 1)), rev));
        _mm_storeu_si128((__m128i *)(line + w),
                         _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(line + w - 9)), rev));
        return;
    }
    for (int t = 1; t <= r; t++) {
        line[-t] = line[vif_reflect(-t, w)];
        line[w - 1 + t] = line[vif_reflect(w - 1 + t, w)];
    }
}

/* Pad the rows of part (PART_ALL: all eight). */
static void pad_rows_part(const Rows *rows, const int w, const int r, const int part)
{
    for (int l = 0; l < 3; l++) {
        if (part != PART_ALL && (part == PART_REF) != (l == 0))
            continue;
        if (l < 2)
            pad_row(rows->mu[l], w, r);
        pad_row(rows->lo[l], w, r);
        pad_row(rows->hi[l], w, r);
    }
}

#define BIAS16 _mm256_set1_epi16((short)0x8000)
#define TOP32 _mm256_set1_epi32((int)0x80000000u)

static __m256i load_u8(const void *row, const int j)
{
    return _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)((const uint8_t *)row + j)));
}

static __m256i load_u16(const void *row, const int j)
{
    return _mm256_loadu_si256((const __m256i *)((const uint16_t *)row + j));
}

static __m256i pack_biased(const __m256i lo, const __m256i hi)
{
    return _mm256_xor_si256(_mm256_packus_epi32(lo, hi), BIAS16);
}

static void store_split(int16_t *lo, int16_t *hi, const int j, const __m256i v_lo,
                        const __m256i v_hi)
{
    const __m256i m16 = _mm256_set1_epi32(0xFFFF);
    _mm256_storeu_si256((__m256i *)(lo + j),
                        pack_biased(_mm256_and_si256(v_lo, m16), _mm256_and_si256(v_hi, m16)));
    _mm256_storeu_si256((__m256i *)(hi + j),
                        pack_biased(_mm256_srli_epi32(v_lo, 16), _mm256_srli_epi32(v_hi, 16)));
}

static __m256i round_shift32(const __m256i sum, const unsigned s)
{
    return _mm256_srl_epi32(_mm256_add_epi32(sum, _mm256_set1_epi32(1 << (s - 1))),
                            _mm_cvtsi32_si128((int)s));
}

static __m256i combine_sq(const __m256i sl, const __m256i sh, const unsigned s)
{
    return _mm256_add_epi32(_mm256_sll_epi32(sh, _mm_cvtsi32_si128(16 - (int)s)),
                            round_shift32(sl, s));
}

#define DP(acc, a, b) _mm256_add_epi32((acc), _mm256_madd_epi16((a), (b)))

/* ---- vertical pass of two output rows (as vert2 of vif_avx512_tmpl.h) ---- */

typedef struct Pairs2 {
    int n_pairs, split;
    __m256i c[2][VIF_MAX_TAPS / 2 + 1], cb[2][VIF_MAX_TAPS / 2 + 1];
} Pairs2;

static void pairs2(Pairs2 *t, const uint16_t *f, const int n)
{
    t->n_pairs = (n + 1) / 2;
    t->split = 0;
    for (int o = 0; o < 2; o++)
        for (int p = 0; p < t->n_pairs; p++) {
            unsigned a[2], b[2];
            for (int e = 0; e < 2; e++) {
                const int q = 2 * p + e - o;
                const unsigned c = q >= 0 && q < n ? f[q] : 0;
                a[e] = c > 32767 ? c / 2 : c;
                b[e] = c - a[e];
                t->split |= b[e] != 0;
            }
            t->c[o][p] = _mm256_set1_epi32((int)(a[0] | a[1] << 16));
            t->cb[o][p] = _mm256_set1_epi32((int)(b[0] | b[1] << 16));
        }
}

#define PRODUCT_HALVES(a, b, lo, hi)                                                               \
    do {                                                                                           \
        lo = _mm256_xor_si256(_mm256_mullo_epi16(a, b), BIAS16);                                   \
        hi = _mm256_xor_si256(_mm256_mulhi_epu16(a, b), BIAS16);                                   \
    } while (0)

/* The quantities of (u16, pass, part) in their order (vif_parts.h): vif_part_count() of them,
 * q[0] being the pass's quantity vif_part_first(). */
INLINE void quantities(__m256i *q, const void *ref, const void *dis, const int j, const int u16,
                       const int pass, const int part)
{
    if (!u16) {
        const __m256i x = part == PART_DIS && pass == 0 ? _mm256_setzero_si256() : load_u8(ref, j);
        const __m256i y = part == PART_REF ? _mm256_setzero_si256() : load_u8(dis, j);
        if (pass == 0) {
            q[0] = part == PART_DIS ? y : x;
            q[1] = y;
            return;
        }
        const int at = part == PART_DIS ? 0 : 1; /* where y^2 goes */
        if (part != PART_DIS)
            q[0] = _mm256_xor_si256(_mm256_mullo_epi16(x, x), BIAS16);
        if (part != PART_REF) {
            q[at] = _mm256_xor_si256(_mm256_mullo_epi16(y, y), BIAS16);
            q[at + 1] = _mm256_xor_si256(_mm256_mullo_epi16(x, y), BIAS16);
        }
        return;
    }
    if (pass == 0) {
        const __m256i x = part == PART_DIS ? _mm256_setzero_si256() : load_u16(ref, j);
        const __m256i y = part == PART_REF ? _mm256_setzero_si256() : load_u16(dis, j);
        q[0] = _mm256_xor_si256(part == PART_DIS ? y : x, BIAS16);
        q[1] = _mm256_xor_si256(y, BIAS16);
        return;
    }
    const __m256i x = pass == 2 ? _mm256_setzero_si256() : load_u16(ref, j);
    const __m256i y = pass == 1 ? _mm256_setzero_si256() : load_u16(dis, j);
    switch (pass) {
    case 1: PRODUCT_HALVES(x, x, q[0], q[1]); break;
    case 2: PRODUCT_HALVES(y, y, q[0], q[1]); break;
    default: PRODUCT_HALVES(x, y, q[0], q[1]); break;
    }
}

INLINE void pass2(__m256i acc[2][3][2], const Pairs2 *t, const void *const *ref,
                  const void *const *dis, const int j, const int u16, const int pass,
                  const int part)
{
    for (int o = 0; o < 2; o++)
        for (int l = 0; l < 3; l++)
            acc[o][l][0] = acc[o][l][1] = _mm256_setzero_si256();
    const int nq = vif_part_count(u16, pass, part);
    for (int p = 0; p < t->n_pairs; p++) {
        __m256i qa[3], qb[3];
        quantities(qa, ref[2 * p], dis[2 * p], j, u16, pass, part);
        quantities(qb, ref[2 * p + 1], dis[2 * p + 1], j, u16, pass, part);
        for (int l = 0; l < nq; l++) {
            const __m256i lo = _mm256_unpacklo_epi16(qa[l], qb[l]);
            const __m256i hi = _mm256_unpackhi_epi16(qa[l], qb[l]);
            for (int o = 0; o < 2; o++) {
                acc[o][l][0] = DP(acc[o][l][0], lo, t->c[o][p]);
                acc[o][l][1] = DP(acc[o][l][1], hi, t->c[o][p]);
                if (t->split) {
                    acc[o][l][0] = DP(acc[o][l][0], lo, t->cb[o][p]);
                    acc[o][l][1] = DP(acc[o][l][1], hi, t->cb[o][p]);
                }
            }
        }
    }
}

/* Vertical pass of two output rows (w >= V): 16 columns at j, the quantities of part. */
INLINE void vert2_at(const Rows *out, const Pairs2 *t, const void *const *ref,
                     const void *const *dis, const int j, const int u16, const VifShifts sh,
                     const int part)
{
    const __m256i r128 = _mm256_set1_epi32(128);
    __m256i acc[2][3][2];
    pass2(acc, t, ref, dis, j, u16, 0, part);
    const int nq0 = vif_part_count(u16, 0, part), first0 = vif_part_first(u16, 0, part);
    for (int o = 0; o < 2; o++)
        for (int l = 0; l < nq0; l++) {
            __m256i a = acc[o][l][0], b = acc[o][l][1];
            if (u16) {
                a = round_shift32(_mm256_xor_si256(a, TOP32), sh.mu_shift);
                b = round_shift32(_mm256_xor_si256(b, TOP32), sh.mu_shift);
            } else {
                a = _mm256_srli_epi32(_mm256_add_epi32(a, r128), 8);
                b = _mm256_srli_epi32(_mm256_add_epi32(b, r128), 8);
            }
            _mm256_storeu_si256((__m256i *)(out[o].mu[first0 + l] + j), pack_biased(a, b));
        }
    if (!u16) {
        pass2(acc, t, ref, dis, j, 0, 1, part);
        const int nq1 = vif_part_count(0, 1, part), first1 = vif_part_first(0, 1, part);
        for (int o = 0; o < 2; o++)
            for (int l = 0; l < nq1; l++)
                store_split(out[o].lo[first1 + l], out[o].hi[first1 + l], j,
                            _mm256_xor_si256(acc[o][l][0], TOP32),
                            _mm256_xor_si256(acc[o][l][1], TOP32));
        return;
    }
    for (int l = part == PART_DIS ? 1 : 0; l < (part == PART_REF ? 1 : 3); l++) {
        pass2(acc, t, ref, dis, j, 1, 1 + l, part);
        for (int o = 0; o < 2; o++) {
            const __m256i v0 = combine_sq(_mm256_xor_si256(acc[o][0][0], TOP32),
                                          _mm256_xor_si256(acc[o][1][0], TOP32), sh.sq_shift);
            const __m256i v1 = combine_sq(_mm256_xor_si256(acc[o][0][1], TOP32),
                                          _mm256_xor_si256(acc[o][1][1], TOP32), sh.sq_shift);
            store_split(out[o].lo[l], out[o].hi[l], j, v0, v1);
        }
    }
}

INLINE void vert2_part(const Rows *out, const void *const *ref, const void *const *dis,
                       const uint16_t *f, const int n_taps, const int w, const int u16,
                       const VifShifts sh, const int part)
{
    Pairs2 t;
    pairs2(&t, f, n_taps);
    for (int j = 0; j < w; j += V)
        vert2_at(out, &t, ref, dis, j + V <= w ? j : w - V, u16, sh, part);
}

/* ---- horizontal pass and statistic ---- */

typedef struct Lanes {
    __m256i num_log, den_log; /* 8 x int32 */
    __m256i n2_exp;           /* 4 x int64 */
    __m256i num_non_log;      /* 4 x int64 */
    int64_t den_non_log, n_num;
    uint32_t *idx[3];
    int n_idx;
} Lanes;

/* (a b + 2^31) >> 32 of 8 uint32 pairs */
static __m256i mul_q32(const __m256i a, const __m256i b)
{
    const __m256i half = _mm256_set1_epi64x(0x80000000LL);
    const __m256i even = _mm256_add_epi64(_mm256_mul_epu32(a, b), half);
    const __m256i odd = _mm256_add_epi64(
        _mm256_mul_epu32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32)), half);
    return _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xAA);
}

/* log2 of 8 uint32 x >= 2^17 (vif_log2_32): the index (x >> k) - 2^15 stored (the table's zero
 * entry outside m), k = 16 - clz(x) returned (0 outside m). The bit length of x is that of
 * x >> 8 (>= 2^9) plus 8, and x >> 8 < 2^24 converts to float exactly. */
INLINE __m256i log2_parts32(uint32_t *idx_out, const __m256i x, const __m256i m)
{
    const __m256i f = _mm256_castps_si256(_mm256_cvtepi32_ps(_mm256_srli_epi32(x, 8)));
    const __m256i k =
        _mm256_and_si256(m, _mm256_sub_epi32(_mm256_srli_epi32(f, 23), _mm256_set1_epi32(127 + 7)));
    const __m256i idx =
        _mm256_sub_epi32(_mm256_srlv_epi32(x, k), _mm256_set1_epi32(VIF_LOG2_TABLE_MIN));
    _mm256_storeu_si256((__m256i *)idx_out,
                        _mm256_blendv_epi8(_mm256_set1_epi32(VIF_LOG2_TABLE_SIZE), idx, m));
    return k;
}

/* uint32 to double, exactly: (x - 2^31) as int32, plus 2^31 */
static __m256d cvtu32_pd(const __m128i x)
{
    return _mm256_add_pd(_mm256_cvtepi32_pd(_mm_xor_si128(x, _mm_set1_epi32((int)0x80000000u))),
                         _mm256_set1_pd(2147483648.0));
}

/* The numerator's double steps for 4 pixels (num8 of vif_avx512_tmpl.h): returns n1. */
INLINE __m128i num4(__m256d *n2d, const __m128i s1, const __m128i s2, const __m128i s12,
                    const double egl)
{
    const __m256d s1d = _mm256_cvtepi32_pd(s1), s2d = _mm256_cvtepi32_pd(s2);
    const __m256d s12d = _mm256_cvtepi32_pd(s12);
    __m256d g = _mm256_div_pd(s12d, _mm256_add_pd(s1d, _mm256_set1_pd(65536 * 1.0e-10)));
    __m128i sv = _mm256_cvttpd_epi32(_mm256_sub_pd(s2d, _mm256_mul_pd(g, s12d)));
    sv = _mm_max_epi32(sv, _mm_setzero_si128());
    g = _mm256_min_pd(g, _mm256_set1_pd(egl));
    const __m128i n1 = _mm_add_epi32(sv, _mm_set1_epi32(VIF_SIGMA_NSQ));
    const __m256d prod = _mm256_mul_pd(_mm256_mul_pd(g, g), s1d);
    *n2d =
        _mm256_add_pd(_mm256_round_pd(prod, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC), cvtu32_pd(n1));
    return n1;
}

/* Table indices (as 4 int32 in the low half) of 4 exact integer doubles, exponents added to
 * n2_exp for the lanes of m64 (all-ones 64-bit lanes). */
INLINE __m128i idx64(Lanes *acc, const __m256d x, const __m256i m64)
{
    const __m256i bits = _mm256_castpd_si256(x);
    acc->n2_exp = _mm256_add_epi64(acc->n2_exp, _mm256_and_si256(m64, _mm256_srli_epi64(bits, 52)));
    const __m256i idx = _mm256_and_si256(_mm256_srli_epi64(bits, 37), _mm256_set1_epi64x(0x7FFF));
    return _mm256_castsi256_si128(
        _mm256_permutevar8x32_epi32(idx, _mm256_setr_epi32(0, 2, 4, 6, 0, 0, 0, 0)));
}

static __m256i join128(const __m128i lo, const __m128i hi)
{
    return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
}

static int popcount8(const __m256i m)
{
    return __builtin_popcount((unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(m)));
}

/* The statistic of 8 pixels in two parts (as vif_avx512_tmpl.h): the denominator's depends on
 * sigma1_sq alone, the numerator's on both pictures. valid: all-ones lanes for real pixels. */

INLINE __m256i sigma1_8(const __m256i mu1, const __m256i xx)
{
    return _mm256_sub_epi32(xx, mul_q32(mu1, mu1));
}

INLINE void den8(Lanes *acc, const __m256i s1, const __m256i valid, const int at)
{
    const __m256i nsq = _mm256_set1_epi32(VIF_SIGMA_NSQ);
    const __m256i low = _mm256_and_si256(valid, _mm256_cmpgt_epi32(nsq, s1));
    const __m256i den = _mm256_andnot_si256(low, valid);
    acc->den_non_log += popcount8(low);
    const __m256i kd = log2_parts32(acc->idx[0] + at, _mm256_add_epi32(s1, nsq), den);
    acc->den_log = _mm256_add_epi32(
        acc->den_log,
        _mm256_and_si256(den, _mm256_slli_epi32(_mm256_sub_epi32(kd, _mm256_set1_epi32(17)), 11)));
}

INLINE void numer8(Lanes *acc, const __m256i mu1, const __m256i s1, const __m256i mu2,
                   const __m256i yy, const __m256i xy, const __m256i valid, const int at,
                   const double egl)
{
    const __m256i zero = _mm256_setzero_si256();
    const __m256i s2 = _mm256_max_epi32(_mm256_sub_epi32(yy, mul_q32(mu2, mu2)), zero);
    const __m256i s12 = _mm256_sub_epi32(xy, mul_q32(mu1, mu2));
    const __m256i nsq = _mm256_set1_epi32(VIF_SIGMA_NSQ);
    const __m256i low = _mm256_and_si256(valid, _mm256_cmpgt_epi32(nsq, s1));
    const __m256i den = _mm256_andnot_si256(low, valid);
    const __m256i num = _mm256_and_si256(
        den, _mm256_and_si256(_mm256_cmpgt_epi32(s12, zero), _mm256_cmpgt_epi32(s2, zero)));
    const __m256i s2_low = _mm256_and_si256(low, s2);
    acc->num_non_log =
        _mm256_add_epi64(acc->num_non_log, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(s2_low)));
    acc->num_non_log = _mm256_add_epi64(acc->num_non_log,
                                        _mm256_cvtepu32_epi64(_mm256_extracti128_si256(s2_low, 1)));
    acc->n_num += popcount8(num);
    __m256d n2a, n2b;
    const __m128i n1a = num4(&n2a, _mm256_castsi256_si128(s1), _mm256_castsi256_si128(s2),
                             _mm256_castsi256_si128(s12), egl);
    const __m128i n1b = num4(&n2b, _mm256_extracti128_si256(s1, 1), _mm256_extracti128_si256(s2, 1),
                             _mm256_extracti128_si256(s12, 1), egl);
    const __m256i ma = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(num));
    const __m256i mb = _mm256_cvtepi32_epi64(_mm256_extracti128_si256(num, 1));
    const __m256i i2 = join128(idx64(acc, n2a, ma), idx64(acc, n2b, mb));
    _mm256_storeu_si256((__m256i *)(acc->idx[1] + at),
                        _mm256_blendv_epi8(_mm256_set1_epi32(VIF_LOG2_TABLE_SIZE), i2, num));
    const __m256i k1 = log2_parts32(acc->idx[2] + at, join128(n1a, n1b), num);
    acc->num_log = _mm256_sub_epi32(acc->num_log, _mm256_slli_epi32(k1, 11));
}

static int64_t hsum32x8(const __m256i v)
{
    const __m256i w = _mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(v)),
                                       _mm256_cvtepi32_epi64(_mm256_extracti128_si256(v, 1)));
    const __m128i s = _mm_add_epi64(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
    return _mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1);
}

static int64_t hsum64x4(const __m256i v)
{
    const __m128i s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return _mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1);
}

#if defined(__clang__)
#define NO_VECTORIZE
#define NO_VECTORIZE_LOOP _Pragma("clang loop vectorize(disable)")
#else
#define NO_VECTORIZE __attribute__((optimize("no-tree-vectorize")))
#define NO_VECTORIZE_LOOP
#endif
/* The table entries of the index rows, with scalar loads (see vif_avx512_tmpl.h); part: the
 * sums it adds (the other rows of indices are not read). */
NO_VECTORIZE static void flush_lanes(VifSums *sums, Lanes *acc, const uint16_t *table,
                                     const int part)
{
    int64_t num = 0, den = 0;
    if (part == PART_ALL) {
        NO_VECTORIZE_LOOP
        for (int i = 0; i < acc->n_idx; i++) {
            den += table[acc->idx[0][i]];
            num += (int32_t)table[acc->idx[1][i]] - (int32_t)table[acc->idx[2][i]];
        }
    } else if (part == PART_REF) {
        NO_VECTORIZE_LOOP
        for (int i = 0; i < acc->n_idx; i++)
            den += table[acc->idx[0][i]];
    } else {
        NO_VECTORIZE_LOOP
        for (int i = 0; i < acc->n_idx; i++)
            num += (int32_t)table[acc->idx[1][i]] - (int32_t)table[acc->idx[2][i]];
    }
    acc->n_idx = 0;
    const int64_t n2_k = hsum64x4(acc->n2_exp) - 1038 * acc->n_num;
    sums->num_log += hsum32x8(acc->num_log) + 2048 * n2_k + num;
    sums->den_log += hsum32x8(acc->den_log) + den;
    sums->num_non_log += hsum64x4(acc->num_non_log);
    sums->den_non_log += acc->den_non_log;
    acc->num_log = acc->den_log = acc->num_non_log = acc->n2_exp = _mm256_setzero_si256();
    acc->den_non_log = acc->n_num = 0;
}

/* The 16 samples src[j0 + o ..] from the aligned vectors a = [j0 - 16, j0), b = [j0, j0 + 16),
 * c = [j0 + 16, j0 + 32), o in [-16, 15]: vpalignr within 128-bit lanes, on the vectors made
 * of the right lane pairs. */
/* vpalignr by n words (0..7); a switch where the build does not fold n (unoptimised), and
 * under clang, which wants the immediate constant before inlining (it folds the switch) */
#if defined(__OPTIMIZE__) && !defined(__clang__)
#define alignr16(hi, lo, n) _mm256_alignr_epi8(hi, lo, 2 * (n))
#else
INLINE __m256i alignr16(const __m256i hi, const __m256i lo, const int n)
{
    switch (n) {
#define CASE(k)                                                                                    \
    case k:                                                                                        \
        return _mm256_alignr_epi8(hi, lo, 2 * k)
        CASE(0);
        CASE(1);
        CASE(2);
        CASE(3);
        CASE(4);
        CASE(5);
        CASE(6);
#undef CASE
    default: return _mm256_alignr_epi8(hi, lo, 14);
    }
}
#endif

INLINE __m256i win(const __m256i a, const __m256i b, const __m256i c, const int o)
{
    if (o >= 8)
        return alignr16(c, _mm256_permute2x128_si256(b, c, 0x21), o - 8);
    if (o >= 0)
        return alignr16(_mm256_permute2x128_si256(b, c, 0x21), b, o);
    if (o >= -8)
        return alignr16(b, _mm256_permute2x128_si256(a, b, 0x21), o + 8);
    return alignr16(_mm256_permute2x128_si256(a, b, 0x21), a, o + 16);
}

INLINE void hfilter(__m256i *even, __m256i *odd, const int16_t *src, const int j0, const __m256i *c,
                    const __m256i *c2, const int R, const int NT, const int split)
{
    const __m256i a = _mm256_load_si256((const __m256i *)(src + j0 - 16));
    const __m256i b = _mm256_load_si256((const __m256i *)(src + j0));
    const __m256i cc = _mm256_load_si256((const __m256i *)(src + j0 + 16));
    __m256i e = _mm256_setzero_si256(), d = e;
#define TERM(k)                                                                                    \
    do {                                                                                           \
        if ((k) < NT) {                                                                            \
            const __m256i we = win(a, b, cc, -R + 2 * (k));                                        \
            /* odd offsets by unaligned loads: they use the load ports, not the shuffle one */     \
            const __m256i wo = _mm256_loadu_si256((const __m256i *)(src + j0 - R + 2 * (k) + 1));  \
            e = DP(e, we, c[k]);                                                                   \
            d = DP(d, wo, c[k]);                                                                   \
            if (split && (k) == 0) {                                                               \
                e = DP(e, we, c2[0]);                                                              \
                d = DP(d, wo, c2[0]);                                                              \
            }                                                                                      \
        }                                                                                          \
    } while (0)
    TERM(0);
    TERM(1);
    TERM(2);
    TERM(3);
    TERM(4);
    TERM(5);
    TERM(6);
    TERM(7);
    TERM(8);
#undef TERM
    *even = e;
    *odd = d;
}

/* Vectors of the reference's values per block of V columns (many encodes): mu1 and sigma1_sq
 * at the even and at the odd outputs. */
enum { REF_VECS = 4 };

/* Horizontal pass and statistic of one row; part as in vif_avx512_tmpl.h: PART_REF leaves the
 * reference's values in cache and adds the denominator's sums, PART_DIS reads them and adds the
 * numerator's. */
INLINE void horiz_part_n(VifSums *sums, __m256i *cache, const Rows *rows, const int w,
                         const VifStatParams *p, const uint16_t *f, const int R, const int NT,
                         const int split, const int part)
{
    __m256i c[9], c2[1];
    for (int k = 0; k < NT; k++) {
        const unsigned c0 = f[2 * k], c1 = 2 * k + 1 < 2 * R + 1 ? f[2 * k + 1] : 0;
        const unsigned h1 = split && k == 0 ? c1 / 2 : c1;
        c[k] = _mm256_set1_epi32((int)(c0 | h1 << 16));
        if (split && k == 0)
            c2[0] = _mm256_set1_epi32((int)((c1 - h1) << 16));
    }
    Lanes acc;
    memset(&acc, 0, sizeof(acc));
    for (int l = 0; l < 3; l++)
        acc.idx[l] = rows->idx[l];
    const __m256i r16 = _mm256_set1_epi32(32768);
    const __m256i lane2 = _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14);
    /* the rows in the filters' order (mu1, mu2, x^2, y^2, xy), each of part */
    const int16_t *src[8] = { rows->mu[0], rows->mu[1], rows->lo[0], rows->hi[0],
                              rows->lo[1], rows->hi[1], rows->lo[2], rows->hi[2] };
    static const int of_ref[8] = { 1, 0, 1, 1, 0, 0, 0, 0 };
#define SQ(lo, hi)                                                                                 \
    _mm256_add_epi32(_mm256_xor_si256(hi, TOP32),                                                  \
                     _mm256_srli_epi32(_mm256_add_epi32(_mm256_xor_si256(lo, TOP32), r16), 16))
    for (int j0 = 0; j0 < w; j0 += V) {
        __m256i e[8], o[8];
        for (int l = 0; l < 8; l++)
            if (part == PART_ALL || (part == PART_REF) == of_ref[l])
                hfilter(&e[l], &o[l], src[l], j0, c, c2, R, NT, split);
        __m256i ref[REF_VECS]; /* mu1 even, mu1 odd, sigma1_sq even, sigma1_sq odd */
        __m256i *const cached = part == PART_ALL ? NULL : cache + j0 / V * REF_VECS;
        if (part == PART_DIS) {
            for (int v = 0; v < REF_VECS; v++)
                ref[v] = _mm256_load_si256(cached + v);
        } else {
            ref[0] = _mm256_xor_si256(e[0], TOP32);
            ref[1] = _mm256_xor_si256(o[0], TOP32);
            ref[2] = sigma1_8(ref[0], SQ(e[2], e[3]));
            ref[3] = sigma1_8(ref[1], SQ(o[2], o[3]));
        }
        /* output j0 + 2m (+1) is a pixel when it is below w */
        const __m256i left = _mm256_set1_epi32(w - j0);
        const __m256i ve = _mm256_cmpgt_epi32(left, lane2);
        const __m256i vo = _mm256_cmpgt_epi32(left, _mm256_add_epi32(lane2, _mm256_set1_epi32(1)));
        const int at = acc.n_idx;
        acc.n_idx += 16;
        if (part != PART_DIS)
            den8(&acc, ref[2], ve, at);
        if (part != PART_REF)
            numer8(&acc, ref[0], ref[2], _mm256_xor_si256(e[1], TOP32), SQ(e[4], e[5]),
                   SQ(e[6], e[7]), ve, at, p->egl);
        if (part != PART_DIS)
            den8(&acc, ref[3], vo, at + 8);
        if (part != PART_REF)
            numer8(&acc, ref[1], ref[3], _mm256_xor_si256(o[1], TOP32), SQ(o[4], o[5]),
                   SQ(o[6], o[7]), vo, at + 8, p->egl);
        if (part == PART_REF)
            for (int v = 0; v < REF_VECS; v++)
                _mm256_store_si256(cached + v, ref[v]);
        if (acc.n_idx >= IDX_ROW - 16)
            flush_lanes(sums, &acc, p->log2_table, part);
    }
#undef SQ
    flush_lanes(sums, &acc, p->log2_table, part);
}

INLINE void horiz_part(VifSums *sums, __m256i *cache, const Rows *rows, const int scale,
                       const int w, const VifStatParams *p, const int part)
{
    const uint16_t *f = vif_taps[scale];
    switch (scale) {
    case 0: horiz_part_n(sums, cache, rows, w, p, f, 8, 9, 0, part); break;
    case 1: horiz_part_n(sums, cache, rows, w, p, f, 4, 5, 0, part); break;
    case 2: horiz_part_n(sums, cache, rows, w, p, f, 2, 3, 0, part); break;
    default: horiz_part_n(sums, cache, rows, w, p, f, 1, 2, 1, part); break;
    }
}

/* The n + n_out - 1 row pointers in, as the n + 1 of the two-row pass (one output row: its
 * last input row repeated, the second output dropped). */
static void rows_for_vert2(const void **out, const void *const *in, const int n, const int n_out)
{
    for (int k = 0; k < n + 1; k++)
        out[k] = in[k < n + n_out - 1 ? k : n - 1];
}

static __m256i *cache_row(void *cache, const int w, const int o)
{
    return (__m256i *)cache + (size_t)o * (size_t)((w + V - 1) / V) * REF_VECS;
}

/* Rows narrower than a vector: the reference's part does nothing, the distorted's is the C
 * pair kernel (its sums hold the denominator's too). */
INLINE void stat_rows_part(VifSums *sums, void *cache, const void *const *ref,
                           const void *const *dis, const int n_out, const int scale, const int w,
                           const VifShifts sh, const VifStatParams *p, void *tmp, const int u16,
                           const int part)
{
    const int n = vif_n_taps[scale];
    if (w < V) {
        if (part != PART_REF)
            (u16 ? vif_stat_row_u16_c : vif_stat_row_u8_c)(sums, ref, dis, n_out, scale, w, sh, p,
                                                           tmp);
        return;
    }
    const void *rr[VIF_MAX_TAPS + 1], *dr[VIF_MAX_TAPS + 1];
    rows_for_vert2(rr, ref, n, n_out);
    if (part != PART_REF)
        rows_for_vert2(dr, dis, n, n_out);
    const Rows rows[2] = { carve_rows(tmp, w, 0), carve_rows(tmp, w, 1) };
    vert2_part(rows, rr, part == PART_REF ? rr : dr, vif_taps[scale], n, w, u16, sh, part);
    for (int o = 0; o < n_out; o++) {
        pad_rows_part(&rows[o], w, n / 2, part);
        horiz_part(sums, part == PART_ALL ? NULL : cache_row(cache, w, o), &rows[o], scale, w, p,
                   part);
    }
}

static void stat_rows(VifSums *sums, const void *const *ref, const void *const *dis,
                      const int n_out, const int scale, const int w, const VifShifts sh,
                      const VifStatParams *p, void *tmp, const int u16)
{
    stat_rows_part(sums, NULL, ref, dis, n_out, scale, w, sh, p, tmp, u16, PART_ALL);
}

void ev_vif_stat_row_u8_avx2(VifSums *sums, const void *const *ref, const void *const *dis,
                             const int n_out, const int scale, const int w, const VifShifts sh,
                             const VifStatParams *p, void *tmp)
{
    stat_rows(sums, ref, dis, n_out, scale, w, sh, p, tmp, 0);
}

void ev_vif_stat_row_u16_avx2(VifSums *sums, const void *const *ref, const void *const *dis,
                              const int n_out, const int scale, const int w, const VifShifts sh,
                              const VifStatParams *p, void *tmp)
{
    stat_rows(sums, ref, dis, n_out, scale, w, sh, p, tmp, 1);
}

/* ---- many encodes: the reference's part once, each distorted's after (vif_kernels.h) ---- */

size_t ev_vif_ref_cache_size_avx2(const int max_w)
{
    return 2 * (size_t)((max_w + V - 1) / V) * REF_VECS * sizeof(__m256i);
}

void ev_vif_stat_ref_u8_avx2(VifSums *den, void *cache, const void *const *ref, const int n_out,
                             const int scale, const int w, const VifShifts sh,
                             const VifStatParams *p, void *tmp)
{
    stat_rows_part(den, cache, ref, NULL, n_out, scale, w, sh, p, tmp, 0, PART_REF);
}

void ev_vif_stat_ref_u16_avx2(VifSums *den, void *cache, const void *const *ref, const int n_out,
                              const int scale, const int w, const VifShifts sh,
                              const VifStatParams *p, void *tmp)
{
    stat_rows_part(den, cache, ref, NULL, n_out, scale, w, sh, p, tmp, 1, PART_REF);
}

void ev_vif_stat_dis_u8_avx2(VifSums *sums, const void *cache, const void *const *ref,
                             const void *const *dis, const int n_out, const int scale, const int w,
                             const VifShifts sh, const VifStatParams *p, void *tmp)
{
    stat_rows_part(sums, (void *)cache, ref, dis, n_out, scale, w, sh, p, tmp, 0, PART_DIS);
}

void ev_vif_stat_dis_u16_avx2(VifSums *sums, const void *cache, const void *const *ref,
                              const void *const *dis, const int n_out, const int scale, const int w,
                              const VifShifts sh, const VifStatParams *p, void *tmp)
{
    stat_rows_part(sums, (void *)cache, ref, dis, n_out, scale, w, sh, p, tmp, 1, PART_DIS);
}

/* ---- decimation ---- */

static void down_vert(int16_t *mu, const void *const *rows, const int is_u8, const uint16_t *f,
                      const int n_taps, const int w, const unsigned shift)
{
    /* symmetric rows k, n-1-k with taps (c, c), the centre with (c, 0); scale 3's 43728 is
     * never a decimation filter's (filters 1..3 have taps below 2^15 but filter 3's centre):
     * split as in pairs2 */
    for (int j0 = 0; j0 < w; j0 += V) {
        const int j = j0 + V <= w ? j0 : w - V;
        __m256i lo = _mm256_setzero_si256(), hi = lo;
        for (int k = 0; k <= n_taps / 2; k++) {
            const int b = n_taps - 1 - k;
            const __m256i xa =
                _mm256_xor_si256(is_u8 ? load_u8(rows[k], j) : load_u16(rows[k], j), BIAS16);
            const __m256i xb =
                k == b
                    ? xa
                    : _mm256_xor_si256(is_u8 ? load_u8(rows[b], j) : load_u16(rows[b], j), BIAS16);
            const unsigned c = f[k], h = c > 32767 ? c / 2 : c;
            const __m256i pl = _mm256_unpacklo_epi16(xa, xb), ph = _mm256_unpackhi_epi16(xa, xb);
            const __m256i c1 = _mm256_set1_epi32((int)(k == b ? h : h | h << 16));
            lo = DP(lo, pl, c1);
            hi = DP(hi, ph, c1);
            if (h != c) {
                const __m256i c2 =
                    _mm256_set1_epi32((int)(k == b ? c - h : (c - h) | (c - h) << 16));
                lo = DP(lo, pl, c2);
                hi = DP(hi, ph, c2);
            }
        }
        lo = round_shift32(_mm256_xor_si256(lo, TOP32), shift);
        hi = round_shift32(_mm256_xor_si256(hi, TOP32), shift);
        _mm256_storeu_si256((__m256i *)(mu + j), pack_biased(lo, hi));
    }
}

/* Even columns: 8 outputs per vector; the last vector moved back to end at w_out. */
static void down_horiz(uint16_t *out, const int16_t *mu, const uint16_t *f, const int n_taps,
                       const int w_out)
{
    const int r = n_taps / 2;
    const __m256i r16 = _mm256_set1_epi32(32768);
    for (int j0 = 0; j0 < w_out; j0 += 8) {
        const int j = j0 + 8 <= w_out ? j0 : w_out - 8;
        __m256i acc = _mm256_setzero_si256();
        for (int k = 0; k < n_taps; k += 2) {
            const unsigned c0 = f[k], c1 = k + 1 < n_taps ? f[k + 1] : 0;
            const unsigned a0 = c0 > 32767 ? c0 / 2 : c0, a1 = c1 > 32767 ? c1 / 2 : c1;
            const __m256i v = _mm256_loadu_si256((const __m256i *)(mu + 2 * j - r + k));
            acc = DP(acc, v, _mm256_set1_epi32((int)(a0 | a1 << 16)));
            if (a0 != c0 || a1 != c1)
                acc = DP(acc, v, _mm256_set1_epi32((int)((c0 - a0) | (c1 - a1) << 16)));
        }
        acc = _mm256_srli_epi32(_mm256_add_epi32(_mm256_xor_si256(acc, TOP32), r16), 16);
        /* 8 uint32 < 2^16 to 8 uint16 */
        const __m128i v =
            _mm_packus_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
        _mm_storeu_si128((__m128i *)(out + j), v);
    }
}

/* One picture's row of the next scale. */
static void down_row1(uint16_t *out, const void *const *in, const int is_u8, const int filter,
                      const int w, const unsigned shift, void *tmp)
{
    if (w < 2 * V) {
        (is_u8 ? vif_down_one_u8_c : vif_down_one_u16_c)(out, in, filter, w, shift, tmp);
        return;
    }
    const Rows rows = carve_rows(tmp, w, 0);
    const uint16_t *f = vif_taps[filter];
    const int n = vif_n_taps[filter];
    down_vert(rows.mu[0], in, is_u8, f, n, w, shift);
    pad_row(rows.mu[0], w, n / 2);
    down_horiz(out, rows.mu[0], f, n, w / 2);
}

static void down_row(uint16_t *out_ref, uint16_t *out_dis, const void *const *ref,
                     const void *const *dis, const int is_u8, const int filter, const int w,
                     const unsigned shift, void *tmp)
{
    down_row1(out_ref, ref, is_u8, filter, w, shift, tmp);
    down_row1(out_dis, dis, is_u8, filter, w, shift, tmp);
}

void ev_vif_down_one_u8_avx2(uint16_t *out, const void *const *in, const int filter, const int w,
                             const unsigned shift, void *tmp)
{
    down_row1(out, in, 1, filter, w, shift, tmp);
}

void ev_vif_down_one_u16_avx2(uint16_t *out, const void *const *in, const int filter, const int w,
                              const unsigned shift, void *tmp)
{
    down_row1(out, in, 0, filter, w, shift, tmp);
}

void ev_vif_down_row_u8_avx2(uint16_t *out_ref, uint16_t *out_dis, const void *const *ref,
                             const void *const *dis, const int filter, const int w,
                             const unsigned shift, void *tmp)
{
    down_row(out_ref, out_dis, ref, dis, 1, filter, w, shift, tmp);
}

void ev_vif_down_row_u16_avx2(uint16_t *out_ref, uint16_t *out_dis, const void *const *ref,
                              const void *const *dis, const int filter, const int w,
                              const unsigned shift, void *tmp)
{
    down_row(out_ref, out_dis, ref, dis, 0, filter, w, shift, tmp);
}
