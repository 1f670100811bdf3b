/*
 * Integer VIF row kernels in AVX-512 (F, BW, DQ, CD), the executors of vif_kernels.h; the reference
 * is vif_scale.c. Included by vif_avx512.c and, with VIF_VNNI 1, by vif_avx512icl.c (VNNI's
 * vpdpwssd for each multiply-add pair). VIF_ISA names the level.
 *
 * How the bits stay the reference's: every filter sum is an exact integer below 2^32 (or, for
 * the 48-bit second moments, two such sums), computed mod 2^32 with 16x16-bit products.
 *  - Samples and intermediate rows are 16-bit; a value v in [0, 65535] enters vpmaddwd biased,
 *    as the int16 v - 32768. Every filter's taps sum to 65536, so a filtered sum of biased
 *    values is the true sum minus 2^31: one XOR of the top bit restores it (mod 2^32).
 *  - Taps above 32767 (43728 of scale 3) are split into two halves, each madd'ed.
 *  - A 32-bit second-moment row is split into 16-bit halves L and H; each is filtered into a
 *    sum below 2^32 and the reference's rounded value is SH << (16 - s) + ((SL + 2^(s-1)) >> s).
 *  - The horizontal pass reads pairs of adjacent samples: a 32-bit lane of a load at column
 *    j0 + o holds samples (j0 + o + 2m, j0 + o + 2m + 1), so one vpmaddwd with two adjacent
 *    taps gives their part of output j0 + 2m; a load one column later gives the odd outputs.
 *    The statistic takes the even and the odd outputs as two vectors: its totals are sums of
 *    integers, which the order of pixels cannot change.
 *  - The per-pixel double steps are the reference's IEEE operations in its order (division,
 *    products, truncations); log2 is the reference's table, indexed from the exact double of
 *    the integer argument (exponent and top 15 fraction bits are the integer's clz and mantissa).
 */
#include <immintrin.h>

#include "features/common/simd_reduce.h"
#include <string.h>

#include "features/vif/vif_kernels.h"
#include "features/vif/vif_parts.h"

#define VIF_CAT_(a, b) a##_##b
#define VIF_CAT(a, b) VIF_CAT_(a, b)
#define VIF_FN(name) VIF_CAT(name, VIF_ISA)

#if VIF_VNNI
#define DP(acc, a, b) _mm512_dpwssd_epi32((acc), (a), (b))
#else
#define DP(acc, a, b) _mm512_add_epi32((acc), _mm512_madd_epi16((a), (b)))
#endif

#define VIF_INLINE static inline __attribute__((always_inline))

enum {
    VIF_V = 32,         /* columns per vector (16-bit lanes) */
    VIF_MARGIN = 64,    /* samples before and after a row buffer (>= radius + VIF_V + 2) */
    VIF_IDX_ROW = 4096, /* statistic lanes between flushes: no 32-bit lane total overflows */
};

/* The row buffers: biased 16-bit rows, VIF_MARGIN samples of margin at each end, and the
 * statistic's index rows. */
typedef struct VifSimdRows {
    int16_t *mu[2]; /* vertical means of ref, dis */
    int16_t *lo[3]; /* low and high 16 bits of the second moments xx, yy, xy */
    int16_t *hi[3];
    uint16_t *idx[3]; /* log2 table indices: den, n2, n1 */
} VifSimdRows;

static size_t row_len(const int max_w)
{
    return ((size_t)max_w + 2 * VIF_MARGIN + 31) & ~(size_t)31;
}

size_t VIF_FN(ev_vif_row_tmp_size)(const int max_w)
{
    return (16 * row_len(max_w) + 3 * (size_t)VIF_IDX_ROW) * sizeof(int16_t);
}

/* The buffers of output row k (0 or 1) of a call; the index rows are shared. */
static VifSimdRows carve_rows(void *tmp, const int w, const int k)
{
    VifSimdRows r;
    const size_t n = row_len(w);
    int16_t *p = (int16_t *)tmp + 3 * (size_t)VIF_IDX_ROW + 8 * n * (size_t)k;
    for (int l = 0; l < 2; l++, p += n)
        r.mu[l] = p + VIF_MARGIN;
    for (int l = 0; l < 3; l++, p += n)
        r.lo[l] = p + VIF_MARGIN;
    for (int l = 0; l < 3; l++, p += n)
        r.hi[l] = p + VIF_MARGIN;
    for (int l = 0; l < 3; l++)
        r.idx[l] = (uint16_t *)tmp + l * VIF_IDX_ROW;
    return r;
}

/* Reflect a row into its margins (vif_reflect). Rows of 9 samples or more: the 8 samples next
 * to each edge, reversed, in one shuffle each (entries past the radius are never read for a
 * pixel's output). */
static void pad_row(int16_t *line, const int w, const int r)
{
    if (w > VIF_MAX_RADIUS) {
        const __m128i rev = _mm_set_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
        const __m128i left = _mm_loadu_si128((const __m128i *)(line + 1));
        const __m128i right = _mm_loadu_si128((const __m128i *)(line + w - 9));
        _mm_storeu_si128((__m128i *)(line - 8), _mm_shuffle_epi8(left, rev));
        _mm_storeu_si128((__m128i *)(line + w), _mm_shuffle_epi8(right, rev));
        return;
    }
    for (int t = 1; t <= r; t++) {
        line[-t] = line[vif_reflect(-t, w)];
        line[w - 1 + t] = line[vif_reflect(w - 1 + t, w)];
    }
}

/* Pad the rows of part (PART_ALL: all eight). */
static void pad_rows_part(const VifSimdRows *rows, const int w, const int r, const int part)
{
    for (int l = 0; l < 3; l++) {
        const int mine = part == PART_ALL || (part == PART_REF) == (l == 0);
        if (!mine)
            continue;
        if (l < 2)
            pad_row(rows->mu[l], w, r);
        pad_row(rows->lo[l], w, r);
        pad_row(rows->hi[l], w, r);
    }
}

static void pad_rows(const VifSimdRows *rows, const int w, const int r)
{
    pad_rows_part(rows, w, r, PART_ALL);
}

/* The madd terms of a filter: pairs of adjacent taps (the last one alone), split where a tap
 * exceeds int16. Term k adds taps (c0, c1) at sample offset off[k] (from the output's -r). */
typedef struct VifTerms {
    int n;
    int off[VIF_MAX_TAPS + 2];
    __m512i c[VIF_MAX_TAPS + 2];
} VifTerms;

static void pair_terms(VifTerms *t, const uint16_t *f, const int n_taps)
{
    t->n = 0;
    for (int k = 0; k < n_taps; k += 2) {
        const unsigned c0 = f[k], c1 = k + 1 < n_taps ? f[k + 1] : 0;
        const unsigned a0 = c0 > 32767 ? c0 / 2 : c0, a1 = c1 > 32767 ? c1 / 2 : c1;
        t->off[t->n] = k;
        t->c[t->n++] = _mm512_set1_epi32((int)(a0 | a1 << 16));
        if (a0 != c0 || a1 != c1) {
            t->off[t->n] = k;
            t->c[t->n++] = _mm512_set1_epi32((int)((c0 - a0) | (c1 - a1) << 16));
        }
    }
}

/* The same for the vertical pass: (c_k, c_k) for the symmetric rows k and n-1-k, the centre
 * with 0, split where needed. Returns the number of terms; row[k] is the term's first row. */
typedef struct VifVertTerms {
    int n;
    int row[VIF_MAX_TAPS]; /* first row; the second is n_taps - 1 - row (the centre: none) */
    __m512i c[VIF_MAX_TAPS];
    __m512i c32[VIF_MAX_TAPS]; /* the tap as one 32-bit value (the u8 squares) */
} VifVertTerms;

static void vert_terms(VifVertTerms *t, const uint16_t *f, const int n_taps)
{
    t->n = 0;
    for (int k = 0; k <= n_taps / 2; k++) {
        const unsigned c = f[k], a = c > 32767 ? c / 2 : c;
        const int centre = k == n_taps / 2;
        t->row[t->n] = k;
        t->c32[t->n] = _mm512_set1_epi32((int)c);
        t->c[t->n++] = _mm512_set1_epi32((int)(centre ? a : a | a << 16));
        if (a != c) {
            t->row[t->n] = k;
            t->c32[t->n] = _mm512_setzero_si512();
            t->c[t->n++] = _mm512_set1_epi32((int)(centre ? c - a : (c - a) | (c - a) << 16));
        }
    }
}

static __mmask32 cols_mask(const int j, const int w)
{
    const int left = w - j;
    return left >= 32 ? 0xFFFFFFFFu : (__mmask32)((1u << left) - 1);
}

static __m512i load_u8(const void *row, const int j, const __mmask32 m)
{
    return _mm512_cvtepu8_epi16(_mm256_maskz_loadu_epi8(m, (const uint8_t *)row + j));
}

static __m512i load_u16(const void *row, const int j, const __mmask32 m)
{
    return _mm512_maskz_loadu_epi16(m, (const uint16_t *)row + j);
}

static const __m512i *bias16(void)
{
    static const int16_t b[32] __attribute__((aligned(64))) = {
        -32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768,
        -32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768,
        -32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768
    };
    return (const __m512i *)b;
}

#define BIAS16 (*bias16())
#define TOP32 _mm512_set1_epi32((int)0x80000000u)

/* 32 biased 16-bit values, in column order, from the two unpack-ordered 32-bit halves. */
static __m512i pack_biased(const __m512i lo, const __m512i hi)
{
    return _mm512_xor_si512(_mm512_packus_epi32(lo, hi), BIAS16);
}

/* Store the low and high 16-bit halves of 32 second moments (unpack order). */
static void store_split(int16_t *lo, int16_t *hi, const int j, const __m512i v_lo,
                        const __m512i v_hi)
{
    const __m512i m16 = _mm512_set1_epi32(0xFFFF);
    _mm512_storeu_si512(lo + j,
                        pack_biased(_mm512_and_si512(v_lo, m16), _mm512_and_si512(v_hi, m16)));
    _mm512_storeu_si512(hi + j,
                        pack_biased(_mm512_srli_epi32(v_lo, 16), _mm512_srli_epi32(v_hi, 16)));
}

/* ---- vertical pass, 8-bit samples (scale 0): means rounded by 8 bits, second moments whole:
 * every sum < 2^32 (taps sum to 65536, samples and products < 2^16). ---- */

static void vert_u8(const VifSimdRows *rows, const void *const *ref, const void *const *dis,
                    const uint16_t *f, const int n_taps, const int w)
{
    VifVertTerms t;
    vert_terms(&t, f, n_taps);
    const __m512i zero = _mm512_setzero_si512();
    for (int j = 0; j < w; j += VIF_V) {
        const __mmask32 m = cols_mask(j, w);
        __m512i mu1l = zero, mu1h = zero, mu2l = zero, mu2h = zero;
        __m512i xxl = zero, xxh = zero, yyl = zero, yyh = zero, xyl = zero, xyh = zero;
        for (int k = 0; k < t.n; k++) {
            const int a = t.row[k], b = n_taps - 1 - a;
            const __m512i xa = load_u8(ref[a], j, m), ya = load_u8(dis[a], j, m);
            const __m512i xb = a == b ? zero : load_u8(ref[b], j, m);
            const __m512i yb = a == b ? zero : load_u8(dis[b], j, m);
            const __m512i px_l = _mm512_unpacklo_epi16(xa, xb),
                          px_h = _mm512_unpackhi_epi16(xa, xb);
            const __m512i py_l = _mm512_unpacklo_epi16(ya, yb),
                          py_h = _mm512_unpackhi_epi16(ya, yb);
            mu1l = DP(mu1l, px_l, t.c[k]);
            mu1h = DP(mu1h, px_h, t.c[k]);
            mu2l = DP(mu2l, py_l, t.c[k]);
            mu2h = DP(mu2h, py_h, t.c[k]);
            /* x_a^2 + x_b^2 (< 2^17) times the tap: exact in 32 bits */
            const __m512i c = t.c32[k];
            xxl = _mm512_add_epi32(xxl, _mm512_mullo_epi32(_mm512_madd_epi16(px_l, px_l), c));
            xxh = _mm512_add_epi32(xxh, _mm512_mullo_epi32(_mm512_madd_epi16(px_h, px_h), c));
            yyl = _mm512_add_epi32(yyl, _mm512_mullo_epi32(_mm512_madd_epi16(py_l, py_l), c));
            yyh = _mm512_add_epi32(yyh, _mm512_mullo_epi32(_mm512_madd_epi16(py_h, py_h), c));
            xyl = _mm512_add_epi32(xyl, _mm512_mullo_epi32(_mm512_madd_epi16(px_l, py_l), c));
            xyh = _mm512_add_epi32(xyh, _mm512_mullo_epi32(_mm512_madd_epi16(px_h, py_h), c));
        }
        const __m512i r128 = _mm512_set1_epi32(128);
        _mm512_storeu_si512(rows->mu[0] + j,
                            pack_biased(_mm512_srli_epi32(_mm512_add_epi32(mu1l, r128), 8),
                                        _mm512_srli_epi32(_mm512_add_epi32(mu1h, r128), 8)));
        _mm512_storeu_si512(rows->mu[1] + j,
                            pack_biased(_mm512_srli_epi32(_mm512_add_epi32(mu2l, r128), 8),
                                        _mm512_srli_epi32(_mm512_add_epi32(mu2h, r128), 8)));
        store_split(rows->lo[0], rows->hi[0], j, xxl, xxh);
        store_split(rows->lo[1], rows->hi[1], j, yyl, yyh);
        store_split(rows->lo[2], rows->hi[2], j, xyl, xyh);
    }
}

/* ---- vertical pass, uint16 samples: biased madds throughout ---- */

/* (sum + 2^(s-1)) >> s of an unbiased 32-bit sum, s >= 1 (no overflow: sum <= 2^32 - 2^16) */
static __m512i round_shift32(const __m512i sum, const unsigned s)
{
    return _mm512_srli_epi32(_mm512_add_epi32(sum, _mm512_set1_epi32(1 << (s - 1))), s);
}

/* The second moment rounded by s from the filtered halves: SH << (16 - s) + round(SL >> s). */
static __m512i combine_sq(const __m512i sl, const __m512i sh, const unsigned s)
{
    return _mm512_add_epi32(_mm512_slli_epi32(sh, 16 - s), round_shift32(sl, s));
}

/* One product's halves, biased: lo16(a b) and hi16(a b) of 16-bit a, b. */
#define PRODUCT_HALVES(a, b, lo, hi)                                                               \
    do {                                                                                           \
        lo = _mm512_xor_si512(_mm512_mullo_epi16(a, b), BIAS16);                                   \
        hi = _mm512_xor_si512(_mm512_mulhi_epu16(a, b), BIAS16);                                   \
    } while (0)

typedef struct VifAcc16 {
    __m512i mu[2][2], lo[3][2], hi[3][2]; /* [quantity][unpack half] */
} VifAcc16;

/* Add rows a and b (b < 0: none) times the term's taps to the accumulators. */
static void vert_u16_term(VifAcc16 *acc, const __m512i c, const __m512i xa, const __m512i ya,
                          const __m512i xb, const __m512i yb)
{
    __m512i q[8][2]; /* biased: x, y, then lo/hi of x^2, y^2, xy, for rows a and b */
    q[0][0] = _mm512_xor_si512(xa, BIAS16);
    q[0][1] = _mm512_xor_si512(xb, BIAS16);
    q[1][0] = _mm512_xor_si512(ya, BIAS16);
    q[1][1] = _mm512_xor_si512(yb, BIAS16);
    PRODUCT_HALVES(xa, xa, q[2][0], q[5][0]);
    PRODUCT_HALVES(xb, xb, q[2][1], q[5][1]);
    PRODUCT_HALVES(ya, ya, q[3][0], q[6][0]);
    PRODUCT_HALVES(yb, yb, q[3][1], q[6][1]);
    PRODUCT_HALVES(xa, ya, q[4][0], q[7][0]);
    PRODUCT_HALVES(xb, yb, q[4][1], q[7][1]);
    __m512i *dst[8] = { acc->mu[0], acc->mu[1], acc->lo[0], acc->lo[1],
                        acc->lo[2], acc->hi[0], acc->hi[1], acc->hi[2] };
    for (int l = 0; l < 8; l++) {
        dst[l][0] = DP(dst[l][0], _mm512_unpacklo_epi16(q[l][0], q[l][1]), c);
        dst[l][1] = DP(dst[l][1], _mm512_unpackhi_epi16(q[l][0], q[l][1]), c);
    }
}

static void vert_u16(const VifSimdRows *rows, const void *const *ref, const void *const *dis,
                     const uint16_t *f, const int n_taps, const int w, const VifShifts sh)
{
    VifVertTerms t;
    vert_terms(&t, f, n_taps);
    for (int j = 0; j < w; j += VIF_V) {
        const __mmask32 m = cols_mask(j, w);
        VifAcc16 acc;
        memset(&acc, 0, sizeof(acc));
        for (int k = 0; k < t.n; k++) {
            const int a = t.row[k], b = n_taps - 1 - a;
            const __m512i xa = load_u16(ref[a], j, m), ya = load_u16(dis[a], j, m);
            /* the centre's term has taps (c, 0): its partner's value adds nothing */
            const __m512i xb = a == b ? xa : load_u16(ref[b], j, m);
            const __m512i yb = a == b ? ya : load_u16(dis[b], j, m);
            vert_u16_term(&acc, t.c[k], xa, ya, xb, yb);
        }
        for (int l = 0; l < 2; l++) {
            const __m512i s0 = _mm512_xor_si512(acc.mu[l][0], TOP32);
            const __m512i s1 = _mm512_xor_si512(acc.mu[l][1], TOP32);
            _mm512_storeu_si512(rows->mu[l] + j, pack_biased(round_shift32(s0, sh.mu_shift),
                                                             round_shift32(s1, sh.mu_shift)));
        }
        for (int l = 0; l < 3; l++) {
            const __m512i v0 = combine_sq(_mm512_xor_si512(acc.lo[l][0], TOP32),
                                          _mm512_xor_si512(acc.hi[l][0], TOP32), sh.sq_shift);
            const __m512i v1 = combine_sq(_mm512_xor_si512(acc.lo[l][1], TOP32),
                                          _mm512_xor_si512(acc.hi[l][1], TOP32), sh.sq_shift);
            store_split(rows->lo[l], rows->hi[l], j, v0, v1);
        }
    }
}

/* ---- vertical pass of two output rows at once ----
 * Output rows 0 and 1 read the n + 1 input rows 0 .. n: output 0 weights row q by f[q], output
 * 1 by f[q - 1] (0 outside the filter). Pairs of adjacent rows (2p, 2p + 1) are unpacked once
 * and feed both outputs, each with its own pair of taps. */

typedef struct VifPairs2 {
    int n_pairs, split;
    __m512i c[2][VIF_MAX_TAPS / 2 + 1], cb[2][VIF_MAX_TAPS / 2 + 1]; /* [output][pair] */
} VifPairs2;

static void pairs2(VifPairs2 *t, const uint16_t *f, const int n)
{
    t->n_pairs = (n + 1) / 2;
    t->split = 0;
    for (int o = 0; o < 2; o++)
        for (int p = 0; p < t->n_pairs; p++) {
            unsigned a[2], b[2];
            for (int e = 0; e < 2; e++) {
                const int q = 2 * p + e - o;
                const unsigned c = q >= 0 && q < n ? f[q] : 0;
                a[e] = c > 32767 ? c / 2 : c; /* taps above int16: two halves */
                b[e] = c - a[e];
                t->split |= b[e] != 0;
            }
            t->c[o][p] = _mm512_set1_epi32((int)(a[0] | a[1] << 16));
            t->cb[o][p] = _mm512_set1_epi32((int)(b[0] | b[1] << 16));
        }
}

/* The quantities a pass filters, of one input row (16-bit, biased but the 8-bit means):
 * u8 pass 0: x, y; pass 1: x^2, y^2, xy. u16 pass 0: x, y; passes 1, 2, 3: the low and high
 * halves of x^2, y^2, xy. part keeps the reference's (x, x^2) or the others (vif_parts.h):
 * vif_part_count() of them, q[0] being the pass's quantity vif_part_first(); both constants
 * of the arguments, so that the loops over them unroll and the accumulators stay in
 * registers. */
VIF_INLINE void quantities(__m512i *q, const void *ref, const void *dis, const int j,
                           const __mmask32 m, const int u16, const int pass, const int part)
{
    if (!u16) {
        const __m512i x =
            part == PART_DIS && pass == 0 ? _mm512_setzero_si512() : load_u8(ref, j, m);
        const __m512i y = part == PART_REF ? _mm512_setzero_si512() : load_u8(dis, j, m);
        if (pass == 0) {
            q[0] = part == PART_DIS ? y : x;
            q[1] = y;
            return;
        }
        const int at = part == PART_DIS ? 0 : 1; /* where y^2 goes */
        if (part != PART_DIS)
            q[0] = _mm512_xor_si512(_mm512_mullo_epi16(x, x), BIAS16);
        if (part != PART_REF) {
            q[at] = _mm512_xor_si512(_mm512_mullo_epi16(y, y), BIAS16);
            q[at + 1] = _mm512_xor_si512(_mm512_mullo_epi16(x, y), BIAS16);
        }
        return;
    }
    if (pass == 0) {
        const __m512i x = part == PART_DIS ? _mm512_setzero_si512() : load_u16(ref, j, m);
        const __m512i y = part == PART_REF ? _mm512_setzero_si512() : load_u16(dis, j, m);
        q[0] = _mm512_xor_si512(part == PART_DIS ? y : x, BIAS16);
        q[1] = _mm512_xor_si512(y, BIAS16);
        return;
    }
    const __m512i x = pass == 2 ? _mm512_setzero_si512() : load_u16(ref, j, m);
    const __m512i y = pass == 1 ? _mm512_setzero_si512() : load_u16(dis, j, m);
    switch (pass) {
    case 1: PRODUCT_HALVES(x, x, q[0], q[1]); break;
    case 2: PRODUCT_HALVES(y, y, q[0], q[1]); break;
    default: PRODUCT_HALVES(x, y, q[0], q[1]); break;
    }
}

/* One pass over the pairs: acc[output][quantity][unpack half], the quantities of
 * (u16, pass, part) in their order. */
VIF_INLINE void pass2(__m512i acc[2][3][2], const VifPairs2 *t, const void *const *ref,
                      const void *const *dis, const int j, const __mmask32 m, const int u16,
                      const int pass, const int part)
{
    for (int o = 0; o < 2; o++)
        for (int l = 0; l < 3; l++)
            acc[o][l][0] = acc[o][l][1] = _mm512_setzero_si512();
    const int nq = vif_part_count(u16, pass, part);
    for (int p = 0; p < t->n_pairs; p++) {
        __m512i qa[3], qb[3];
        quantities(qa, ref[2 * p], dis[2 * p], j, m, u16, pass, part);
        quantities(qb, ref[2 * p + 1], dis[2 * p + 1], j, m, u16, pass, part);
        for (int l = 0; l < nq; l++) {
            const __m512i lo = _mm512_unpacklo_epi16(qa[l], qb[l]);
            const __m512i hi = _mm512_unpackhi_epi16(qa[l], qb[l]);
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

/* The vertical pass of two output rows into out[0], out[1]: the quantities of part (the
 * others' rows are left as they are). */
VIF_INLINE void vert2_part(const VifSimdRows *out, const void *const *ref, const void *const *dis,
                           const uint16_t *f, const int n_taps, const int w, const int u16,
                           const VifShifts sh, const int part)
{
    VifPairs2 t;
    pairs2(&t, f, n_taps);
    const __m512i r128 = _mm512_set1_epi32(128);
    for (int j = 0; j < w; j += VIF_V) {
        const __mmask32 m = cols_mask(j, w);
        __m512i acc[2][3][2];
        pass2(acc, &t, ref, dis, j, m, u16, 0, part);
        const int nq0 = vif_part_count(u16, 0, part), first0 = vif_part_first(u16, 0, part);
        for (int o = 0; o < 2; o++)
            for (int l = 0; l < nq0; l++) {
                __m512i a = acc[o][l][0], b = acc[o][l][1];
                if (u16) {
                    a = round_shift32(_mm512_xor_si512(a, TOP32), sh.mu_shift);
                    b = round_shift32(_mm512_xor_si512(b, TOP32), sh.mu_shift);
                } else {
                    a = _mm512_srli_epi32(_mm512_add_epi32(a, r128), 8);
                    b = _mm512_srli_epi32(_mm512_add_epi32(b, r128), 8);
                }
                _mm512_storeu_si512(out[o].mu[first0 + l] + j, pack_biased(a, b));
            }
        if (!u16) {
            /* 8-bit second moments, whole: the biased sums plus 2^31 */
            pass2(acc, &t, ref, dis, j, m, 0, 1, part);
            const int nq1 = vif_part_count(0, 1, part), first1 = vif_part_first(0, 1, part);
            for (int o = 0; o < 2; o++)
                for (int l = 0; l < nq1; l++)
                    store_split(out[o].lo[first1 + l], out[o].hi[first1 + l], j,
                                _mm512_xor_si512(acc[o][l][0], TOP32),
                                _mm512_xor_si512(acc[o][l][1], TOP32));
            continue;
        }
        for (int l = part == PART_DIS ? 1 : 0; l < (part == PART_REF ? 1 : 3); l++) {
            pass2(acc, &t, ref, dis, j, m, 1, 1 + l, part);
            for (int o = 0; o < 2; o++) {
                const __m512i v0 = combine_sq(_mm512_xor_si512(acc[o][0][0], TOP32),
                                              _mm512_xor_si512(acc[o][1][0], TOP32), sh.sq_shift);
                const __m512i v1 = combine_sq(_mm512_xor_si512(acc[o][0][1], TOP32),
                                              _mm512_xor_si512(acc[o][1][1], TOP32), sh.sq_shift);
                store_split(out[o].lo[l], out[o].hi[l], j, v0, v1);
            }
        }
    }
}

static void vert2(const VifSimdRows *out, const void *const *ref, const void *const *dis,
                  const uint16_t *f, const int n_taps, const int w, const int u16,
                  const VifShifts sh)
{
    vert2_part(out, ref, dis, f, n_taps, w, u16, sh, PART_ALL);
}

/* ---- horizontal pass and statistic ----
 * The statistic's log2 terms are table entries plus 2048 per bit of the argument's length. The
 * lengths are summed in the vectors; the table indices go to three index rows (a lane outside
 * its branch points at the table's zero entry, VIF_LOG2_TABLE_SIZE), which one scalar pass
 * adds up after the row: table lookups in vectors would be gathers, slow on every CPU. */

typedef struct VifLaneSums {
    __m512i num_log, den_log;            /* 16 x int32: the 2048-per-bit parts */
    __m512i n2_exp;                      /* 8 x int64: biased exponents of n2 */
    __m512i num_non_log;                 /* 8 x int64 */
    int64_t den_non_log, n_num;          /* n_num: lanes that added an n2 exponent */
    uint16_t *den_idx, *n2_idx, *n1_idx; /* index rows, 16 entries per stat16 */
    int n_idx;
} VifLaneSums;

/* (a * b + 2^31) >> 32 of 16 uint32 pairs (the reference's squared means). */
static __m512i mul_q32(const __m512i a, const __m512i b)
{
    const __m512i half = _mm512_set1_epi64(0x80000000LL);
    const __m512i even = _mm512_add_epi64(_mm512_mul_epu32(a, b), half);
    const __m512i odd = _mm512_add_epi64(
        _mm512_mul_epu32(_mm512_srli_epi64(a, 32), _mm512_srli_epi64(b, 32)), half);
    return _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(even, 32), odd);
}

/* log2 of 16 uint32 x >= 2^17 as vif_log2_32: the table index (x >> k) - 2^15, stored for the
 * scalar pass (VIF_LOG2_TABLE_SIZE outside m), and k = 16 - clz(x) returned (0 outside m). */
VIF_INLINE __m512i log2_parts32(uint16_t *idx_out, const __m512i x, const __mmask16 m)
{
    const __m512i k = _mm512_maskz_sub_epi32(m, _mm512_set1_epi32(16), _mm512_lzcnt_epi32(x));
    const __m512i idx = _mm512_mask_blend_epi32(
        m, _mm512_set1_epi32(VIF_LOG2_TABLE_SIZE),
        _mm512_sub_epi32(_mm512_srlv_epi32(x, k), _mm512_set1_epi32(VIF_LOG2_TABLE_MIN)));
    _mm256_storeu_si256((__m256i *)idx_out, _mm512_cvtepi32_epi16(idx));
    return k;
}

/* The index part of log2 of 8 exact integer doubles x in [2^17, 2^53) (vif_log2_64): the top
 * 15 fraction bits. The exponent (k + 1038) is added to acc->n2_exp. */
VIF_INLINE void log2_parts64(VifLaneSums *acc, uint16_t *idx_out, const __m512d x, const __mmask8 m)
{
    const __m512i bits = _mm512_castpd_si512(x);
    const __m512i idx = _mm512_mask_blend_epi64(
        m, _mm512_set1_epi64(VIF_LOG2_TABLE_SIZE),
        _mm512_and_si512(_mm512_srli_epi64(bits, 37), _mm512_set1_epi64(0x7FFF)));
    _mm_storeu_si128((__m128i *)idx_out, _mm512_cvtepi64_epi16(idx));
    acc->n2_exp = _mm512_mask_add_epi64(acc->n2_exp, m, acc->n2_exp, _mm512_srli_epi64(bits, 52));
}

/* The numerator's double steps for 8 pixels, in the reference's order: sv (the truncated
 * residual variance, clamped at 0), then n2 = (int64)(g g s1) + n1 as an exact double
 * (n1 = sv + nsq < 2^32; g <= 100 and s1 < 2^31 keep n2 below 2^46). */
VIF_INLINE __m256i num8(__m512d *n2d, const __m256i s1, const __m256i s2, const __m256i s12,
                        const double egl)
{
    const __m512d s1d = _mm512_cvtepi32_pd(s1), s2d = _mm512_cvtepi32_pd(s2);
    const __m512d s12d = _mm512_cvtepi32_pd(s12);
    __m512d g = _mm512_div_pd(s12d, _mm512_add_pd(s1d, _mm512_set1_pd(65536 * 1.0e-10)));
    __m256i sv = _mm512_cvttpd_epi32(_mm512_sub_pd(s2d, _mm512_mul_pd(g, s12d)));
    sv = _mm256_max_epi32(sv, _mm256_setzero_si256());
    g = _mm512_min_pd(g, _mm512_set1_pd(egl)); /* g < egl ? g : egl */
    const __m256i n1 = _mm256_add_epi32(sv, _mm256_set1_epi32(VIF_SIGMA_NSQ));
    const __m512d prod = _mm512_mul_pd(_mm512_mul_pd(g, g), s1d);
    *n2d = _mm512_add_pd(_mm512_roundscale_pd(prod, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC),
                         _mm512_cvtepu32_pd(n1));
    return n1;
}

/* The statistic of 16 pixels in two parts. The denominator's (den_log, den_non_log) depends on
 * the reference alone: on s1 = sigma1_sq = xx - mu1^2; the numerator's on both. */

/* sigma1_sq of 16 pixels. */
VIF_INLINE __m512i sigma1_16(const __m512i mu1, const __m512i xx)
{
    return _mm512_sub_epi32(xx, mul_q32(mu1, mu1));
}

/* The denominator's part: valid pixels below the noise floor count, the others add
 * log2(sigma1 + nsq) - 17 x 2048 (its table index to the den row). */
VIF_INLINE void den16(VifLaneSums *acc, const __m512i s1, const __mmask16 valid, const int at)
{
    const __m512i nsq = _mm512_set1_epi32(VIF_SIGMA_NSQ);
    const __mmask16 low = _mm512_mask_cmplt_epi32_mask(valid, s1, nsq);
    const __mmask16 den = valid & ~low;
    acc->den_non_log += __builtin_popcount(low);
    const __m512i kd = log2_parts32(acc->den_idx + at, _mm512_add_epi32(s1, nsq), den);
    acc->den_log = _mm512_add_epi32(
        acc->den_log,
        _mm512_slli_epi32(_mm512_maskz_sub_epi32(den, kd, _mm512_set1_epi32(17)), 11));
}

/* The numerator's part, from mu1 and s1 and the distorted's sums mu2, yy, xy. */
VIF_INLINE void num16(VifLaneSums *acc, const __m512i mu1, const __m512i s1, const __m512i mu2,
                      const __m512i yy, const __m512i xy, const __mmask16 valid, const int at,
                      const double egl)
{
    const __m512i s2 =
        _mm512_max_epi32(_mm512_sub_epi32(yy, mul_q32(mu2, mu2)), _mm512_setzero_si512());
    const __m512i s12 = _mm512_sub_epi32(xy, mul_q32(mu1, mu2));
    const __m512i nsq = _mm512_set1_epi32(VIF_SIGMA_NSQ);
    const __mmask16 low = _mm512_mask_cmplt_epi32_mask(valid, s1, nsq);
    const __mmask16 den = valid & ~low;
    const __mmask16 num = _mm512_mask_cmpgt_epi32_mask(
        _mm512_mask_cmpgt_epi32_mask(den, s12, _mm512_setzero_si512()), s2, _mm512_setzero_si512());
    /* non-log branch: sigma2 (>= 0) into int64 lanes, and the count */
    const __m512i s2_low = _mm512_maskz_mov_epi32(low, s2);
    acc->num_non_log =
        _mm512_add_epi64(acc->num_non_log, _mm512_cvtepu32_epi64(_mm512_castsi512_si256(s2_low)));
    acc->num_non_log = _mm512_add_epi64(
        acc->num_non_log, _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(s2_low, 1)));
    acc->n_num += __builtin_popcount(num);
    /* num: log2(n2) - log2(n1) */
    __m512d n2a, n2b;
    const __m256i n1a = num8(&n2a, _mm512_castsi512_si256(s1), _mm512_castsi512_si256(s2),
                             _mm512_castsi512_si256(s12), egl);
    const __m256i n1b =
        num8(&n2b, _mm512_extracti64x4_epi64(s1, 1), _mm512_extracti64x4_epi64(s2, 1),
             _mm512_extracti64x4_epi64(s12, 1), egl);
    log2_parts64(acc, acc->n2_idx + at, n2a, (__mmask8)num);
    log2_parts64(acc, acc->n2_idx + at + 8, n2b, (__mmask8)(num >> 8));
    const __m512i n1 = _mm512_inserti64x4(_mm512_castsi256_si512(n1a), n1b, 1);
    const __m512i k1 = log2_parts32(acc->n1_idx + at, n1, num);
    acc->num_log = _mm512_sub_epi32(acc->num_log, _mm512_slli_epi32(k1, 11));
}

static int64_t hsum32(const __m512i v)
{
    const __m512i a = _mm512_cvtepi32_epi64(_mm512_castsi512_si256(v));
    const __m512i b = _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(v, 1));
    return (int64_t)ev_hsum64_512(_mm512_add_epi64(a, b));
}

/* Fold the lanes and the table entries of the index rows into sums; start a new chunk. The
 * lookups stay scalar loads (a vectorised loop would assemble gathers from lane inserts). */
#if defined(__clang__)
#define EV_NO_VECTORIZE
#define EV_NO_VECTORIZE_LOOP _Pragma("clang loop vectorize(disable)")
#else
#define EV_NO_VECTORIZE __attribute__((optimize("no-tree-vectorize")))
#define EV_NO_VECTORIZE_LOOP
#endif
/* part: the sums it adds, PART_ALL both, PART_REF the denominator's, PART_DIS the
 * numerator's (the other rows of indices are not read). */
EV_NO_VECTORIZE static void flush_lanes(VifSums *sums, VifLaneSums *acc, const uint16_t *table,
                                        const int part)
{
    int64_t num = 0, den = 0;
    if (part == PART_ALL) {
        EV_NO_VECTORIZE_LOOP
        for (int i = 0; i < acc->n_idx; i++) {
            den += table[acc->den_idx[i]];
            num += (int32_t)table[acc->n2_idx[i]] - (int32_t)table[acc->n1_idx[i]];
        }
    } else if (part == PART_REF) {
        EV_NO_VECTORIZE_LOOP
        for (int i = 0; i < acc->n_idx; i++)
            den += table[acc->den_idx[i]];
    } else {
        EV_NO_VECTORIZE_LOOP
        for (int i = 0; i < acc->n_idx; i++)
            num += (int32_t)table[acc->n2_idx[i]] - (int32_t)table[acc->n1_idx[i]];
    }
    acc->n_idx = 0;
    /* n2's k is its biased exponent minus 1023 + 15 */
    const int64_t n2_k = (int64_t)ev_hsum64_512(acc->n2_exp) - 1038 * acc->n_num;
    sums->num_log += hsum32(acc->num_log) + 2048 * n2_k + num;
    sums->den_log += hsum32(acc->den_log) + den;
    sums->num_non_log += (int64_t)ev_hsum64_512(acc->num_non_log);
    sums->den_non_log += acc->den_non_log;
    acc->num_log = acc->den_log = acc->num_non_log = acc->n2_exp = _mm512_setzero_si512();
    acc->den_non_log = acc->n_num = 0;
}

/* The 32 samples src[j0 + o ..] as a vector for an even o in [-16, 30], from the aligned vectors
 * a = [j0 - 32, j0), b = [j0, j0 + 32), c = [j0 + 32, j0 + 64): one valignd. */
/* valignd by n dwords (0..15). Optimised builds see n as a constant (every call site's offset
 * is a literal once hfilter is inlined); unoptimised ones, which do not fold it, take a switch, as clang does (it wants the immediate
 * constant before inlining, and folds the switch). */
#if defined(__OPTIMIZE__) && !defined(__clang__)
#define alignr32(hi, lo, n) _mm512_alignr_epi32(hi, lo, n)
#else
VIF_INLINE __m512i alignr32(const __m512i hi, const __m512i lo, const int n)
{
    switch (n) {
#define CASE(k)                                                                                    \
    case k:                                                                                        \
        return _mm512_alignr_epi32(hi, lo, k)
        CASE(0);
        CASE(1);
        CASE(2);
        CASE(3);
        CASE(4);
        CASE(5);
        CASE(6);
        CASE(7);
        CASE(8);
        CASE(9);
        CASE(10);
        CASE(11);
        CASE(12);
        CASE(13);
        CASE(14);
#undef CASE
    default: return _mm512_alignr_epi32(hi, lo, 15);
    }
}
#endif

VIF_INLINE __m512i win_even(const __m512i a, const __m512i b, const __m512i c, const int o)
{
    return o >= 0 ? alignr32(c, b, o / 2) : alignr32(b, a, 16 + o / 2);
}

/* A window for hfilter: even offsets from the aligned vectors by a shuffle, odd ones by an
 * unaligned load; shuffles and loads go to different ports, which split the work. */
VIF_INLINE __m512i win_at(const int16_t *src, const int j0, const __m512i a, const __m512i b,
                          const __m512i c, const int o)
{
    if (o & 1)
        return _mm512_loadu_si512(src + j0 + o);
    return win_even(a, b, c, o);
}

/* The horizontal sums of one row buffer at outputs j0 + 2m (*even) and j0 + 2m + 1 (*odd), for
 * a filter of radius R with NT tap pairs (term k at offset -R + 2k; c2: the split halves of
 * scale 3's centre tap, zero elsewhere). */
VIF_INLINE void hfilter(__m512i *even, __m512i *odd, const int16_t *src, const int j0,
                        const __m512i *c, const __m512i *c2, const int R, const int NT,
                        const int split)
{
    const __m512i a = _mm512_load_si512(src + j0 - 32), b = _mm512_load_si512(src + j0);
    const __m512i cc = _mm512_load_si512(src + j0 + 32);
    __m512i e = _mm512_setzero_si512(), d = e;
    /* the terms written out: each window's offset a constant expression */
#define TERM(k)                                                                                    \
    do {                                                                                           \
        if ((k) < NT) {                                                                            \
            const __m512i we = win_at(src, j0, a, b, cc, -R + 2 * (k));                            \
            const __m512i wo = win_at(src, j0, a, b, cc, -R + 2 * (k) + 1);                        \
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

/* Vectors of the reference's values per block of VIF_V columns (many encodes): its mean and
 * sigma1_sq at the even and at the odd outputs, as the statistic's numerator takes them. */
enum { VIF_REF_VECS = 4 };

/* Horizontal pass over the padded rows and the statistic of every output of the row. part:
 * PART_ALL; PART_REF: the reference's values to cache (VIF_REF_VECS vectors per block) and the
 * denominator's sums to *sums; PART_DIS: the reference's values from cache, the numerator's
 * sums to *sums. */
VIF_INLINE void horiz_part_n(VifSums *sums, __m512i *cache, const VifSimdRows *rows, const int w,
                             const VifStatParams *p, const uint16_t *f, const int R, const int NT,
                             const int split, const int part)
{
    /* term k: taps (2k, 2k + 1) of f; scale 3's centre 43728 > int16 is split in halves */
    __m512i c[9], c2[1];
    for (int k = 0; k < NT; k++) {
        const unsigned c0 = f[2 * k], c1 = 2 * k + 1 < 2 * R + 1 ? f[2 * k + 1] : 0;
        const unsigned h1 = split && k == 0 ? c1 / 2 : c1;
        c[k] = _mm512_set1_epi32((int)(c0 | h1 << 16));
        if (split && k == 0)
            c2[0] = _mm512_set1_epi32((int)((c1 - h1) << 16));
    }
    const int16_t *const m1 = rows->mu[0], *const m2 = rows->mu[1];
    const int16_t *const xl = rows->lo[0], *const xh = rows->hi[0], *const yl = rows->lo[1];
    const int16_t *const yh = rows->hi[1], *const cl = rows->lo[2], *const ch = rows->hi[2];
    VifLaneSums acc;
    memset(&acc, 0, sizeof(acc));
    acc.den_idx = rows->idx[0];
    acc.n2_idx = rows->idx[1];
    acc.n1_idx = rows->idx[2];
    const __m512i r16 = _mm512_set1_epi32(32768);
    /* biased sums become true ones by their top bit; a second moment is SH + ((SL + 2^15) >> 16) */
#define SQ(lo, hi)                                                                                 \
    _mm512_add_epi32(_mm512_xor_si512(hi, TOP32),                                                  \
                     _mm512_srli_epi32(_mm512_add_epi32(_mm512_xor_si512(lo, TOP32), r16), 16))
    for (int j0 = 0; j0 < w; j0 += VIF_V) {
        /* the rows' horizontal sums, even and odd outputs, in registers */
        __m512i ref[VIF_REF_VECS]; /* mu1 even, mu1 odd, sigma1_sq even, sigma1_sq odd */
        __m512i *const cached = part == PART_ALL ? NULL : cache + j0 / VIF_V * VIF_REF_VECS;
        /* the filters in the rows' order (m1, m2, x^2, y^2, xy), each of the part's */
        __m512i exl, oxl, exh, oxh, em2, om2, eyl, oyl, eyh, oyh, ecl, ocl, ech, och;
        if (part != PART_DIS)
            hfilter(&ref[0], &ref[1], m1, j0, c, c2, R, NT, split);
        if (part != PART_REF)
            hfilter(&em2, &om2, m2, j0, c, c2, R, NT, split);
        if (part != PART_DIS) {
            hfilter(&exl, &oxl, xl, j0, c, c2, R, NT, split);
            hfilter(&exh, &oxh, xh, j0, c, c2, R, NT, split);
        }
        if (part != PART_REF) {
            hfilter(&eyl, &oyl, yl, j0, c, c2, R, NT, split);
            hfilter(&eyh, &oyh, yh, j0, c, c2, R, NT, split);
            hfilter(&ecl, &ocl, cl, j0, c, c2, R, NT, split);
            hfilter(&ech, &och, ch, j0, c, c2, R, NT, split);
        }
        if (part == PART_DIS) {
            for (int v = 0; v < VIF_REF_VECS; v++)
                ref[v] = _mm512_load_si512(cached + v);
        } else {
            ref[0] = _mm512_xor_si512(ref[0], TOP32);
            ref[1] = _mm512_xor_si512(ref[1], TOP32);
            ref[2] = sigma1_16(ref[0], SQ(exl, exh));
            ref[3] = sigma1_16(ref[1], SQ(oxl, oxh));
        }
        /* output j0 + 2m (+1) is a pixel when it is below w */
        const int left = w - j0;
        const __mmask16 ve = left >= 32 ? 0xFFFF : (__mmask16)((1u << ((left + 1) / 2)) - 1);
        const __mmask16 vo = left >= 32 ? 0xFFFF : (__mmask16)((1u << (left / 2)) - 1);
        const int at = acc.n_idx;
        acc.n_idx += 32;
        if (part != PART_DIS)
            den16(&acc, ref[2], ve, at);
        if (part != PART_REF)
            num16(&acc, ref[0], ref[2], _mm512_xor_si512(em2, TOP32), SQ(eyl, eyh), SQ(ecl, ech),
                  ve, at, p->egl);
        if (part != PART_DIS)
            den16(&acc, ref[3], vo, at + 16);
        if (part != PART_REF)
            num16(&acc, ref[1], ref[3], _mm512_xor_si512(om2, TOP32), SQ(oyl, oyh), SQ(ocl, och),
                  vo, at + 16, p->egl);
        if (part == PART_REF)
            for (int v = 0; v < VIF_REF_VECS; v++)
                _mm512_store_si512(cached + v, ref[v]);
        if (acc.n_idx == VIF_IDX_ROW)
            flush_lanes(sums, &acc, p->log2_table, part);
    }
#undef SQ
    flush_lanes(sums, &acc, p->log2_table, part);
}

VIF_INLINE void horiz_part(VifSums *sums, __m512i *cache, const VifSimdRows *rows, const int scale,
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

static void horiz_stat(VifSums *sums, const VifSimdRows *rows, const int scale, const int w,
                       const VifStatParams *p)
{
    horiz_part(sums, NULL, rows, scale, w, p, PART_ALL);
}

static void stat_rows(VifSums *sums, const void *const *ref, const void *const *dis,
                      const int n_out, const int scale, const int w, const VifShifts sh,
                      const VifStatParams *p, void *tmp, const int u16)
{
    const int n = vif_n_taps[scale];
    VifSimdRows rows[2] = { carve_rows(tmp, w, 0), carve_rows(tmp, w, 1) };
    if (n_out == 2)
        vert2(rows, ref, dis, vif_taps[scale], n, w, u16, sh);
    else if (u16)
        vert_u16(&rows[0], ref, dis, vif_taps[scale], n, w, sh);
    else
        vert_u8(&rows[0], ref, dis, vif_taps[scale], n, w);
    for (int o = 0; o < n_out; o++) {
        pad_rows(&rows[o], w, n / 2);
        horiz_stat(sums, &rows[o], scale, w, p);
    }
}

void VIF_FN(ev_vif_stat_row_u8)(VifSums *sums, const void *const *ref, const void *const *dis,
                                const int n_out, const int scale, const int w, const VifShifts sh,
                                const VifStatParams *p, void *tmp)
{
    stat_rows(sums, ref, dis, n_out, scale, w, sh, p, tmp, 0);
}

void VIF_FN(ev_vif_stat_row_u16)(VifSums *sums, const void *const *ref, const void *const *dis,
                                 const int n_out, const int scale, const int w, const VifShifts sh,
                                 const VifStatParams *p, void *tmp)
{
    stat_rows(sums, ref, dis, n_out, scale, w, sh, p, tmp, 1);
}

/* ---- many encodes: the reference's part of the statistic once, each distorted's after ----
 * The passes of one part are vert2's and horiz_stat's with the other part's quantities left
 * out: the same integers, so the same sums as stat_rows (the denominator's from the
 * reference's part, the numerator's from the distorted's). One output row (a plane's last of an
 * odd height) runs vert2 on its rows and a copy of the last, whose output is not used. */

size_t VIF_FN(ev_vif_ref_cache_size)(const int max_w)
{
    return 2 * (size_t)((max_w + VIF_V - 1) / VIF_V) * VIF_REF_VECS * sizeof(__m512i);
}

/* The n + n_out - 1 row pointers in, as n + 1 (the last repeated when n_out is 1). */
static void rows_for_vert2(const void **out, const void *const *in, const int n, const int n_out)
{
    for (int k = 0; k < n + n_out - 1; k++)
        out[k] = in[k];
    if (n_out == 1)
        out[n] = in[n - 1];
}

static __m512i *cache_row(void *cache, const int w, const int o)
{
    return (__m512i *)cache + (size_t)o * (size_t)((w + VIF_V - 1) / VIF_V) * VIF_REF_VECS;
}

static void stat_rows_part(VifSums *sums, void *cache, const void *const *ref,
                           const void *const *dis, const int n_out, const int scale, const int w,
                           const VifShifts sh, const VifStatParams *p, void *tmp, const int u16,
                           const int part)
{
    const int n = vif_n_taps[scale];
    VifSimdRows rows[2] = { carve_rows(tmp, w, 0), carve_rows(tmp, w, 1) };
    const void *rr[VIF_MAX_TAPS + 1], *dr[VIF_MAX_TAPS + 1];
    rows_for_vert2(rr, ref, n, n_out);
    if (part == PART_DIS)
        rows_for_vert2(dr, dis, n, n_out);
    if (part == PART_REF)
        vert2_part(rows, rr, rr, vif_taps[scale], n, w, u16, sh, PART_REF);
    else
        vert2_part(rows, rr, dr, vif_taps[scale], n, w, u16, sh, PART_DIS);
    for (int o = 0; o < n_out; o++) {
        pad_rows_part(&rows[o], w, n / 2, part);
        horiz_part(sums, cache_row(cache, w, o), &rows[o], scale, w, p, part);
    }
}

void VIF_FN(ev_vif_stat_ref_u8)(VifSums *den, void *cache, const void *const *ref, const int n_out,
                                const int scale, const int w, const VifShifts sh,
                                const VifStatParams *p, void *tmp)
{
    stat_rows_part(den, cache, ref, NULL, n_out, scale, w, sh, p, tmp, 0, PART_REF);
}

void VIF_FN(ev_vif_stat_ref_u16)(VifSums *den, void *cache, const void *const *ref, const int n_out,
                                 const int scale, const int w, const VifShifts sh,
                                 const VifStatParams *p, void *tmp)
{
    stat_rows_part(den, cache, ref, NULL, n_out, scale, w, sh, p, tmp, 1, PART_REF);
}

void VIF_FN(ev_vif_stat_dis_u8)(VifSums *sums, const void *cache, const void *const *ref,
                                const void *const *dis, const int n_out, const int scale,
                                const int w, const VifShifts sh, const VifStatParams *p, void *tmp)
{
    stat_rows_part(sums, (void *)cache, ref, dis, n_out, scale, w, sh, p, tmp, 0, PART_DIS);
}

void VIF_FN(ev_vif_stat_dis_u16)(VifSums *sums, const void *cache, const void *const *ref,
                                 const void *const *dis, const int n_out, const int scale,
                                 const int w, const VifShifts sh, const VifStatParams *p, void *tmp)
{
    stat_rows_part(sums, (void *)cache, ref, dis, n_out, scale, w, sh, p, tmp, 1, PART_DIS);
}

/* ---- decimation ---- */

/* Vertical means of one picture's rows (biased, 16-bit) for the decimation filter. */
static void down_vert(int16_t *mu, const void *const *rows, const int is_u8, const uint16_t *f,
                      const int n_taps, const int w, const unsigned shift)
{
    VifVertTerms t;
    vert_terms(&t, f, n_taps);
    for (int j = 0; j < w; j += VIF_V) {
        const __mmask32 m = cols_mask(j, w);
        __m512i lo = _mm512_setzero_si512(), hi = _mm512_setzero_si512();
        for (int k = 0; k < t.n; k++) {
            const int a = t.row[k], b = n_taps - 1 - a;
            __m512i xa, xb;
            if (is_u8) {
                xa = _mm512_xor_si512(load_u8(rows[a], j, m), BIAS16);
                xb = a == b ? xa : _mm512_xor_si512(load_u8(rows[b], j, m), BIAS16);
            } else {
                xa = _mm512_xor_si512(load_u16(rows[a], j, m), BIAS16);
                xb = a == b ? xa : _mm512_xor_si512(load_u16(rows[b], j, m), BIAS16);
            }
            lo = DP(lo, _mm512_unpacklo_epi16(xa, xb), t.c[k]);
            hi = DP(hi, _mm512_unpackhi_epi16(xa, xb), t.c[k]);
        }
        lo = round_shift32(_mm512_xor_si512(lo, TOP32), shift);
        hi = round_shift32(_mm512_xor_si512(hi, TOP32), shift);
        _mm512_storeu_si512(mu + j, pack_biased(lo, hi));
    }
}

/* Horizontal pass at the even columns: 16 outputs per vector (a lane's pair is its taps). */
static void down_horiz(uint16_t *out, const int16_t *mu, const uint16_t *f, const int n_taps,
                       const int w_out)
{
    VifTerms t;
    pair_terms(&t, f, n_taps);
    const int r = n_taps / 2;
    const __m512i r16 = _mm512_set1_epi32(32768);
    for (int j = 0; j < w_out; j += 16) {
        __m512i acc = _mm512_setzero_si512();
        for (int k = 0; k < t.n; k++)
            acc = DP(acc, _mm512_loadu_si512(mu + 2 * j - r + t.off[k]), t.c[k]);
        acc = _mm512_srli_epi32(_mm512_add_epi32(_mm512_xor_si512(acc, TOP32), r16), 16);
        const int left = w_out - j;
        const __mmask16 m = left >= 16 ? 0xFFFF : (__mmask16)((1u << left) - 1);
        _mm256_mask_storeu_epi16(out + j, m, _mm512_cvtepi32_epi16(acc));
    }
}

/* One picture's row of the next scale. */
static void down_row1(uint16_t *out, const void *const *in, const int is_u8, const int filter,
                      const int w, const unsigned shift, void *tmp)
{
    const VifSimdRows rows = carve_rows(tmp, w, 0);
    const uint16_t *f = vif_taps[filter];
    const int n = vif_n_taps[filter];
    down_vert(rows.mu[0], in, is_u8, f, n, w, shift);
    pad_row(rows.mu[0], w, n / 2);
    down_horiz(out, rows.mu[0], f, n, w / 2);
}

void VIF_FN(ev_vif_down_one_u8)(uint16_t *out, const void *const *in, const int filter, const int w,
                                const unsigned shift, void *tmp)
{
    down_row1(out, in, 1, filter, w, shift, tmp);
}

void VIF_FN(ev_vif_down_one_u16)(uint16_t *out, const void *const *in, const int filter,
                                 const int w, const unsigned shift, void *tmp)
{
    down_row1(out, in, 0, filter, w, shift, tmp);
}

static void down_row(uint16_t *out_ref, uint16_t *out_dis, const void *const *ref,
                     const void *const *dis, const int is_u8, const int filter, const int w,
                     const unsigned shift, void *tmp)
{
    down_row1(out_ref, ref, is_u8, filter, w, shift, tmp);
    down_row1(out_dis, dis, is_u8, filter, w, shift, tmp);
}

void VIF_FN(ev_vif_down_row_u8)(uint16_t *out_ref, uint16_t *out_dis, const void *const *ref,
                                const void *const *dis, const int filter, const int w,
                                const unsigned shift, void *tmp)
{
    down_row(out_ref, out_dis, ref, dis, 1, filter, w, shift, tmp);
}

void VIF_FN(ev_vif_down_row_u16)(uint16_t *out_ref, uint16_t *out_dis, const void *const *ref,
                                 const void *const *dis, const int filter, const int w,
                                 const unsigned shift, void *tmp)
{
    down_row(out_ref, out_dis, ref, dis, 0, filter, w, shift, tmp);
}
