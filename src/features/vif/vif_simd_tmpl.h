/*
 * Integer VIF row kernels for one vector width, the executors of vif_kernels.h; the reference
 * is vif_scale.c. VIF_W 256: AVX2 (vif_avx2.c); 512: AVX-512 F, BW, DQ, CD (vif_avx512.c), and
 * with VIF_VNNI 1 VNNI's vpdpwssd for each multiply-add pair (vif_avx512icl.c).
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
 *
 * Row tails: AVX-512 masks the loads of a row's last vector. AVX2, without masks for 16-bit
 * lanes, moves a row's last vector back to end at the row's end (the vertical passes then
 * recompute a few columns, with the same values) and runs rows narrower than a vector in C.
 * Statistic lanes past the row are cleared by masks (AVX-512) or compares (AVX2). What AVX2
 * lacks is built from what it has: bit lengths of 32-bit values from the exponent of an exact
 * float, unsigned 32-bit to double through a biased signed conversion.
 *
 * The statistic also comes in the many-encodes parts of vif_kernels.h (the reference's once,
 * each distorted's after): the same passes with the other part's quantities left out.
 */
#include <immintrin.h>
#include <string.h>

#include "features/common/simd_reduce.h"

#include "features/vif/vif_kernels.h"
#include "features/vif/vif_parts.h"

#if VIF_W == 512
typedef __m512i V;     /* 32 x 16 bits, 16 x 32 bits, 8 x 64 bits */
typedef __m256i H;     /* half a vector */
typedef __m512d VD;    /* doubles of a half's 32-bit lanes */
typedef __mmask32 CM;  /* the columns of a row vector */
typedef __mmask16 M32; /* the 32-bit lanes of a statistic vector: its pixels */
typedef uint16_t IDX;  /* a log2 table index */
#define COLS 32        /* columns per vector (16-bit lanes) */
#define MASKED 1       /* row tails by masks */
#define LOAD_A(p) _mm512_load_si512((const void *)(p))
#define LOADU(p) _mm512_loadu_si512((const void *)(p))
#define STORE_A(p, v) _mm512_store_si512((void *)(p), (v))
#define STOREU(p, v) _mm512_storeu_si512((void *)(p), (v))
#define ZERO _mm512_setzero_si512
#define SET1_32 _mm512_set1_epi32
#define SET1_64 _mm512_set1_epi64
#define XOR _mm512_xor_si512
#define AND _mm512_and_si512
#define ADD32 _mm512_add_epi32
#define SUB32 _mm512_sub_epi32
#define MAX32 _mm512_max_epi32
#define ADD64 _mm512_add_epi64
#define MULLO16 _mm512_mullo_epi16
#define MULHI_U16 _mm512_mulhi_epu16
#define MULLO32 _mm512_mullo_epi32
#define MUL_U32 _mm512_mul_epu32
#define MADD16 _mm512_madd_epi16
#define SRLI32 _mm512_srli_epi32
#define SLLI32 _mm512_slli_epi32
#define SRLI64 _mm512_srli_epi64
#define SRL32N(x, n) _mm512_srli_epi32((x), (n)) /* n known at run time */
#define SLL32N(x, n) _mm512_slli_epi32((x), (n))
#define PACKUS32 _mm512_packus_epi32
#define UNPACKLO16 _mm512_unpacklo_epi16
#define UNPACKHI16 _mm512_unpackhi_epi16
#define BLEND_ODD32(e, o) _mm512_mask_blend_epi32(0xAAAA, (e), (o))
#define LO_H _mm512_castsi512_si256
#define HI_H(v) _mm512_extracti64x4_epi64((v), 1)
#define JOIN_H(lo, hi) _mm512_inserti64x4(_mm512_castsi256_si512(lo), (hi), 1)
#define CVTU32_64 _mm512_cvtepu32_epi64
#define CVT32_64 _mm512_cvtepi32_epi64
#define HSUM64 ev_hsum64_512
#define ZERO_H _mm256_setzero_si256
#define SET1_H32 _mm256_set1_epi32
#define ADD_H32 _mm256_add_epi32
#define MAX_H32 _mm256_max_epi32
#define CVT32_PD _mm512_cvtepi32_pd
#define CVTT_PD32 _mm512_cvttpd_epi32
#define CVTU32_PD _mm512_cvtepu32_pd
#define TRUNC_PD(x) _mm512_roundscale_pd((x), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)
#define SET1_PD _mm512_set1_pd
#define ADD_PD _mm512_add_pd
#define SUB_PD _mm512_sub_pd
#define MUL_PD _mm512_mul_pd
#define DIV_PD _mm512_div_pd
#define MIN_PD _mm512_min_pd
/* masks of pixels: (valid & a < b), (valid & a > b), b & ~a, their count; lanes of m or 0 */
#define M_LT32 _mm512_mask_cmplt_epi32_mask
#define M_GT32 _mm512_mask_cmpgt_epi32_mask
#define M_ANDNOT(a, b) ((M32)(~(a) & (b)))
#define M_COUNT(m) __builtin_popcount(m)
#define MASKZ_SUB32 _mm512_maskz_sub_epi32
#define MASKZ_MOV32 _mm512_maskz_mov_epi32
#if VIF_VNNI
#define DP(acc, a, b) _mm512_dpwssd_epi32((acc), (a), (b))
#define FN(name) ev_vif_##name##_avx512icl
#else
#define DP(acc, a, b) _mm512_add_epi32((acc), _mm512_madd_epi16((a), (b)))
#define FN(name) ev_vif_##name##_avx512
#endif
#else
typedef __m256i V;
typedef __m128i H;
typedef __m256d VD;
typedef int CM; /* no masks: unused */
typedef __m256i M32;
typedef uint32_t IDX;
#define COLS 16
#define MASKED 0 /* row tails by moving the last vector back */
#define LOAD_A(p) _mm256_load_si256((const __m256i *)(p))
#define LOADU(p) _mm256_loadu_si256((const __m256i *)(p))
#define STORE_A(p, v) _mm256_store_si256((__m256i *)(p), (v))
#define STOREU(p, v) _mm256_storeu_si256((__m256i *)(p), (v))
#define ZERO _mm256_setzero_si256
#define SET1_32 _mm256_set1_epi32
#define SET1_64 _mm256_set1_epi64x
#define XOR _mm256_xor_si256
#define AND _mm256_and_si256
#define ADD32 _mm256_add_epi32
#define SUB32 _mm256_sub_epi32
#define MAX32 _mm256_max_epi32
#define ADD64 _mm256_add_epi64
#define MULLO16 _mm256_mullo_epi16
#define MULHI_U16 _mm256_mulhi_epu16
#define MULLO32 _mm256_mullo_epi32
#define MUL_U32 _mm256_mul_epu32
#define MADD16 _mm256_madd_epi16
#define SRLI32 _mm256_srli_epi32
#define SLLI32 _mm256_slli_epi32
#define SRLI64 _mm256_srli_epi64
#define SRL32N(x, n) _mm256_srl_epi32((x), _mm_cvtsi32_si128((int)(n)))
#define SLL32N(x, n) _mm256_sll_epi32((x), _mm_cvtsi32_si128((int)(n)))
#define PACKUS32 _mm256_packus_epi32
#define UNPACKLO16 _mm256_unpacklo_epi16
#define UNPACKHI16 _mm256_unpackhi_epi16
#define BLEND_ODD32(e, o) _mm256_blend_epi32((e), (o), 0xAA)
#define CVTU8_16(p) _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(p)))
#define LO_H _mm256_castsi256_si128
#define HI_H(v) _mm256_extracti128_si256((v), 1)
#define JOIN_H(lo, hi) _mm256_inserti128_si256(_mm256_castsi128_si256(lo), (hi), 1)
#define CVTU32_64 _mm256_cvtepu32_epi64
#define CVT32_64 _mm256_cvtepi32_epi64
#define HSUM64 ev_hsum64_256
#define ZERO_H _mm_setzero_si128
#define SET1_H32 _mm_set1_epi32
#define ADD_H32 _mm_add_epi32
#define MAX_H32 _mm_max_epi32
#define CVT32_PD _mm256_cvtepi32_pd
#define CVTT_PD32 _mm256_cvttpd_epi32
#define CVTU32_PD cvtu32_pd
#define TRUNC_PD(x) _mm256_round_pd((x), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)
#define SET1_PD _mm256_set1_pd
#define ADD_PD _mm256_add_pd
#define SUB_PD _mm256_sub_pd
#define MUL_PD _mm256_mul_pd
#define DIV_PD _mm256_div_pd
#define MIN_PD _mm256_min_pd
/* pixel masks are all-ones lanes */
#define M_LT32(valid, a, b) _mm256_and_si256((valid), _mm256_cmpgt_epi32((b), (a)))
#define M_GT32(valid, a, b) _mm256_and_si256((valid), _mm256_cmpgt_epi32((a), (b)))
#define M_ANDNOT _mm256_andnot_si256
#define M_COUNT(m) __builtin_popcount((unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(m)))
#define MASKZ_SUB32(m, a, b) _mm256_and_si256((m), _mm256_sub_epi32((a), (b)))
#define MASKZ_MOV32 _mm256_and_si256
#define DP(acc, a, b) _mm256_add_epi32((acc), _mm256_madd_epi16((a), (b)))
#define FN(name) ev_vif_##name##_avx2
#endif

#define VIF_INLINE static inline __attribute__((always_inline))
/* the one-row vertical passes stay calls of their own (inlined, the statistic ran slower) */
#define VIF_NOINLINE static __attribute__((noinline))

enum {
    N32 = COLS / 2,    /* 32-bit lanes per vector: the statistic's pixels */
    MARGIN = 2 * COLS, /* samples before and after a row buffer (>= radius + COLS + 2) */
    IDX_ROW = 4096,    /* statistic lanes between flushes: no 32-bit lane total overflows */
};

/* The row buffers: biased 16-bit rows, MARGIN samples of margin at each end, and the
 * statistic's index rows. */
typedef struct Rows {
    int16_t *mu[2]; /* vertical means of ref, dis */
    int16_t *lo[3]; /* low and high 16 bits of the second moments xx, yy, xy */
    int16_t *hi[3];
    IDX *idx[3]; /* log2 table indices: den, n2, n1 */
} Rows;

static size_t row_len(const int max_w)
{
    return ((size_t)max_w + 2 * MARGIN + COLS - 1) & ~(size_t)(COLS - 1);
}

size_t FN(row_tmp_size)(const int max_w)
{
    return 16 * row_len(max_w) * sizeof(int16_t) + 3 * (size_t)IDX_ROW * sizeof(IDX);
}

/* The buffers of output row k (0 or 1) of a call; the index rows are shared. */
static Rows carve_rows(void *tmp, const int w, const int k)
{
    Rows r;
    const size_t n = row_len(w);
    int16_t *p = (int16_t *)((IDX *)tmp + 3 * IDX_ROW) + 8 * n * (size_t)k;
    for (int l = 0; l < 2; l++, p += n)
        r.mu[l] = p + MARGIN;
    for (int l = 0; l < 3; l++, p += n)
        r.lo[l] = p + MARGIN;
    for (int l = 0; l < 3; l++, p += n)
        r.hi[l] = p + MARGIN;
    for (int l = 0; l < 3; l++)
        r.idx[l] = (IDX *)tmp + l * IDX_ROW;
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

/* The madd terms of a filter: pairs of adjacent taps (the last one alone), split where a tap
 * exceeds int16. Term k adds taps (c0, c1) at sample offset off[k] (from the output's -r). */
typedef struct Terms {
    int n;
    int off[VIF_MAX_TAPS + 2];
    V c[VIF_MAX_TAPS + 2];
} Terms;

static void pair_terms(Terms *t, const uint16_t *f, const int n_taps)
{
    t->n = 0;
    for (int k = 0; k < n_taps; k += 2) {
        const unsigned c0 = f[k], c1 = k + 1 < n_taps ? f[k + 1] : 0;
        const unsigned a0 = c0 > 32767 ? c0 / 2 : c0, a1 = c1 > 32767 ? c1 / 2 : c1;
        t->off[t->n] = k;
        t->c[t->n++] = SET1_32((int)(a0 | a1 << 16));
        if (a0 != c0 || a1 != c1) {
            t->off[t->n] = k;
            t->c[t->n++] = SET1_32((int)((c0 - a0) | (c1 - a1) << 16));
        }
    }
}

/* The same for a vertical pass: (c_k, c_k) for the symmetric rows k and n-1-k, the centre
 * with 0, split where needed; row[k] is the term's first row. */
typedef struct VertTerms {
    int n;
    int row[VIF_MAX_TAPS]; /* first row; the second is n_taps - 1 - row (the centre: none) */
    V c[VIF_MAX_TAPS];
    V c32[VIF_MAX_TAPS]; /* the tap as one 32-bit value (the u8 squares) */
} VertTerms;

static void vert_terms(VertTerms *t, const uint16_t *f, const int n_taps)
{
    t->n = 0;
    for (int k = 0; k <= n_taps / 2; k++) {
        const unsigned c = f[k], a = c > 32767 ? c / 2 : c;
        const int centre = k == n_taps / 2;
        t->row[t->n] = k;
        t->c32[t->n] = SET1_32((int)c);
        t->c[t->n++] = SET1_32((int)(centre ? a : a | a << 16));
        if (a != c) {
            t->row[t->n] = k;
            t->c32[t->n] = ZERO();
            t->c[t->n++] = SET1_32((int)(centre ? c - a : (c - a) | (c - a) << 16));
        }
    }
}

/* Where the vector of columns from j0 of a row of w starts, and which of its columns are the
 * row's (a vector of n lanes; AVX2: moved back, w >= n; AVX-512: a mask, the lanes below w). */
static int col_at(const int j0, const int w, const int n)
{
    return MASKED || j0 + n <= w ? j0 : w - n;
}

#if MASKED
static CM cols_mask(const int j, const int w)
{
    const int left = w - j;
    return left >= COLS ? 0xFFFFFFFFu : (CM)((1u << left) - 1);
}

static V load_u8(const void *row, const int j, const CM m)
{
    return _mm512_cvtepu8_epi16(_mm256_maskz_loadu_epi8(m, (const uint8_t *)row + j));
}

static V load_u16(const void *row, const int j, const CM m)
{
    return _mm512_maskz_loadu_epi16(m, (const uint16_t *)row + j);
}
#else
static CM cols_mask(const int j, const int w)
{
    return 0;
}

static V load_u8(const void *row, const int j, const CM m)
{
    return CVTU8_16((const uint8_t *)row + j);
}

static V load_u16(const void *row, const int j, const CM m)
{
    return LOADU((const uint16_t *)row + j);
}
#endif

static const V *bias16(void)
{
    static const int16_t b[32] __attribute__((aligned(64))) = {
        -32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768,
        -32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768,
        -32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768
    };
    return (const V *)b;
}

#define BIAS16 (*bias16())
#define TOP32 SET1_32((int)0x80000000u)

/* COLS biased 16-bit values, in column order, from the two unpack-ordered 32-bit halves. */
static V pack_biased(const V lo, const V hi)
{
    return XOR(PACKUS32(lo, hi), BIAS16);
}

/* Store the low and high 16-bit halves of COLS second moments (unpack order). */
static void store_split(int16_t *lo, int16_t *hi, const int j, const V v_lo, const V v_hi)
{
    const V m16 = SET1_32(0xFFFF);
    STOREU(lo + j, pack_biased(AND(v_lo, m16), AND(v_hi, m16)));
    STOREU(hi + j, pack_biased(SRLI32(v_lo, 16), SRLI32(v_hi, 16)));
}

/* (sum + 2^(s-1)) >> s of an unbiased 32-bit sum, s >= 1 (no overflow: sum <= 2^32 - 2^16) */
static V round_shift32(const V sum, const unsigned s)
{
    return SRL32N(ADD32(sum, SET1_32(1 << (s - 1))), s);
}

/* The second moment rounded by s from the filtered halves: SH << (16 - s) + round(SL >> s). */
static V combine_sq(const V sl, const V sh, const unsigned s)
{
    return ADD32(SLL32N(sh, 16 - s), round_shift32(sl, s));
}

/* ---- vertical pass of one output row, 8-bit samples: means rounded by 8 bits, second
 * moments whole: every sum < 2^32 (taps sum to 65536, samples and products < 2^16). ---- */

VIF_NOINLINE void vert_u8(const Rows *rows, const void *const *ref, const void *const *dis,
                          const uint16_t *f, const int n_taps, const int w)
{
    VertTerms t;
    vert_terms(&t, f, n_taps);
    for (int j0 = 0; j0 < w; j0 += COLS) {
        const int j = col_at(j0, w, COLS);
        const CM m = cols_mask(j, w);
        V mu1l = ZERO(), mu1h = ZERO(), mu2l = ZERO(), mu2h = ZERO();
        V xxl = ZERO(), xxh = ZERO(), yyl = ZERO(), yyh = ZERO(), xyl = ZERO(), xyh = ZERO();
        for (int k = 0; k < t.n; k++) {
            const int a = t.row[k], b = n_taps - 1 - a;
            const V xa = load_u8(ref[a], j, m), ya = load_u8(dis[a], j, m);
            const V xb = a == b ? ZERO() : load_u8(ref[b], j, m);
            const V yb = a == b ? ZERO() : load_u8(dis[b], j, m);
            const V px_l = UNPACKLO16(xa, xb), px_h = UNPACKHI16(xa, xb);
            const V py_l = UNPACKLO16(ya, yb), py_h = UNPACKHI16(ya, yb);
            mu1l = DP(mu1l, px_l, t.c[k]);
            mu1h = DP(mu1h, px_h, t.c[k]);
            mu2l = DP(mu2l, py_l, t.c[k]);
            mu2h = DP(mu2h, py_h, t.c[k]);
            /* x_a^2 + x_b^2 (< 2^17) times the tap: exact in 32 bits */
            const V c = t.c32[k];
            xxl = ADD32(xxl, MULLO32(MADD16(px_l, px_l), c));
            xxh = ADD32(xxh, MULLO32(MADD16(px_h, px_h), c));
            yyl = ADD32(yyl, MULLO32(MADD16(py_l, py_l), c));
            yyh = ADD32(yyh, MULLO32(MADD16(py_h, py_h), c));
            xyl = ADD32(xyl, MULLO32(MADD16(px_l, py_l), c));
            xyh = ADD32(xyh, MULLO32(MADD16(px_h, py_h), c));
        }
        const V r128 = SET1_32(128);
        STOREU(rows->mu[0] + j,
               pack_biased(SRLI32(ADD32(mu1l, r128), 8), SRLI32(ADD32(mu1h, r128), 8)));
        STOREU(rows->mu[1] + j,
               pack_biased(SRLI32(ADD32(mu2l, r128), 8), SRLI32(ADD32(mu2h, r128), 8)));
        store_split(rows->lo[0], rows->hi[0], j, xxl, xxh);
        store_split(rows->lo[1], rows->hi[1], j, yyl, yyh);
        store_split(rows->lo[2], rows->hi[2], j, xyl, xyh);
    }
}

/* ---- vertical pass of one output row, uint16 samples: biased madds throughout ---- */

/* One product's halves, biased: lo16(a b) and hi16(a b) of 16-bit a, b. */
#define PRODUCT_HALVES(a, b, lo, hi)                                                               \
    do {                                                                                           \
        lo = XOR(MULLO16(a, b), BIAS16);                                                           \
        hi = XOR(MULHI_U16(a, b), BIAS16);                                                         \
    } while (0)

typedef struct Acc16 {
    V mu[2][2], lo[3][2], hi[3][2]; /* [quantity][unpack half] */
} Acc16;

/* Add rows a and b times the term's taps to the accumulators. */
static void vert_u16_term(Acc16 *acc, const V c, const V xa, const V ya, const V xb, const V yb)
{
    V q[8][2]; /* biased: x, y, then lo/hi of x^2, y^2, xy, for rows a and b */
    q[0][0] = XOR(xa, BIAS16);
    q[0][1] = XOR(xb, BIAS16);
    q[1][0] = XOR(ya, BIAS16);
    q[1][1] = XOR(yb, BIAS16);
    PRODUCT_HALVES(xa, xa, q[2][0], q[5][0]);
    PRODUCT_HALVES(xb, xb, q[2][1], q[5][1]);
    PRODUCT_HALVES(ya, ya, q[3][0], q[6][0]);
    PRODUCT_HALVES(yb, yb, q[3][1], q[6][1]);
    PRODUCT_HALVES(xa, ya, q[4][0], q[7][0]);
    PRODUCT_HALVES(xb, yb, q[4][1], q[7][1]);
    V *dst[8] = { acc->mu[0], acc->mu[1], acc->lo[0], acc->lo[1],
                  acc->lo[2], acc->hi[0], acc->hi[1], acc->hi[2] };
    for (int l = 0; l < 8; l++) {
        dst[l][0] = DP(dst[l][0], UNPACKLO16(q[l][0], q[l][1]), c);
        dst[l][1] = DP(dst[l][1], UNPACKHI16(q[l][0], q[l][1]), c);
    }
}

VIF_NOINLINE void vert_u16(const Rows *rows, const void *const *ref, const void *const *dis,
                           const uint16_t *f, const int n_taps, const int w, const VifShifts sh)
{
    VertTerms t;
    vert_terms(&t, f, n_taps);
    for (int j0 = 0; j0 < w; j0 += COLS) {
        const int j = col_at(j0, w, COLS);
        const CM m = cols_mask(j, w);
        Acc16 acc;
        memset(&acc, 0, sizeof(acc));
        for (int k = 0; k < t.n; k++) {
            const int a = t.row[k], b = n_taps - 1 - a;
            const V xa = load_u16(ref[a], j, m), ya = load_u16(dis[a], j, m);
            /* the centre's term has taps (c, 0): its partner's value adds nothing */
            const V xb = a == b ? xa : load_u16(ref[b], j, m);
            const V yb = a == b ? ya : load_u16(dis[b], j, m);
            vert_u16_term(&acc, t.c[k], xa, ya, xb, yb);
        }
        for (int l = 0; l < 2; l++) {
            const V s0 = XOR(acc.mu[l][0], TOP32), s1 = XOR(acc.mu[l][1], TOP32);
            STOREU(rows->mu[l] + j,
                   pack_biased(round_shift32(s0, sh.mu_shift), round_shift32(s1, sh.mu_shift)));
        }
        for (int l = 0; l < 3; l++) {
            const V v0 =
                combine_sq(XOR(acc.lo[l][0], TOP32), XOR(acc.hi[l][0], TOP32), sh.sq_shift);
            const V v1 =
                combine_sq(XOR(acc.lo[l][1], TOP32), XOR(acc.hi[l][1], TOP32), sh.sq_shift);
            store_split(rows->lo[l], rows->hi[l], j, v0, v1);
        }
    }
}

/* ---- vertical pass of two output rows at once ----
 * Output rows 0 and 1 read the n + 1 input rows 0 .. n: output 0 weights row q by f[q], output
 * 1 by f[q - 1] (0 outside the filter). Pairs of adjacent rows (2p, 2p + 1) are unpacked once
 * and feed both outputs, each with its own pair of taps. */

typedef struct Pairs2 {
    int n_pairs, split;
    V c[2][VIF_MAX_TAPS / 2 + 1], cb[2][VIF_MAX_TAPS / 2 + 1]; /* [output][pair] */
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
                a[e] = c > 32767 ? c / 2 : c; /* taps above int16: two halves */
                b[e] = c - a[e];
                t->split |= b[e] != 0;
            }
            t->c[o][p] = SET1_32((int)(a[0] | a[1] << 16));
            t->cb[o][p] = SET1_32((int)(b[0] | b[1] << 16));
        }
}

/* The quantities a pass filters, of one input row (16-bit, biased but the 8-bit means):
 * u8 pass 0: x, y; pass 1: x^2, y^2, xy. u16 pass 0: x, y; passes 1, 2, 3: the low and high
 * halves of x^2, y^2, xy. part keeps the reference's (x, x^2) or the others (vif_parts.h):
 * vif_part_count() of them, q[0] being the pass's quantity vif_part_first(); both constants
 * of the arguments, so that the loops over them unroll and the accumulators stay in
 * registers. */
VIF_INLINE void quantities(V *q, const void *ref, const void *dis, const int j, const CM m,
                           const int u16, const int pass, const int part)
{
    if (!u16) {
        const V x = part == PART_DIS && pass == 0 ? ZERO() : load_u8(ref, j, m);
        const V y = part == PART_REF ? ZERO() : load_u8(dis, j, m);
        if (pass == 0) {
            q[0] = part == PART_DIS ? y : x;
            q[1] = y;
            return;
        }
        const int at = part == PART_DIS ? 0 : 1; /* where y^2 goes */
        if (part != PART_DIS)
            q[0] = XOR(MULLO16(x, x), BIAS16);
        if (part != PART_REF) {
            q[at] = XOR(MULLO16(y, y), BIAS16);
            q[at + 1] = XOR(MULLO16(x, y), BIAS16);
        }
        return;
    }
    if (pass == 0) {
        const V x = part == PART_DIS ? ZERO() : load_u16(ref, j, m);
        const V y = part == PART_REF ? ZERO() : load_u16(dis, j, m);
        q[0] = XOR(part == PART_DIS ? y : x, BIAS16);
        q[1] = XOR(y, BIAS16);
        return;
    }
    const V x = pass == 2 ? ZERO() : load_u16(ref, j, m);
    const V y = pass == 1 ? ZERO() : load_u16(dis, j, m);
    switch (pass) {
    case 1: PRODUCT_HALVES(x, x, q[0], q[1]); break;
    case 2: PRODUCT_HALVES(y, y, q[0], q[1]); break;
    default: PRODUCT_HALVES(x, y, q[0], q[1]); break;
    }
}

/* One pass over the pairs: acc[output][quantity][unpack half], the quantities of
 * (u16, pass, part) in their order. */
VIF_INLINE void pass2(V acc[2][3][2], const Pairs2 *t, const void *const *ref,
                      const void *const *dis, const int j, const CM m, const int u16,
                      const int pass, const int part)
{
    for (int o = 0; o < 2; o++)
        for (int l = 0; l < 3; l++)
            acc[o][l][0] = acc[o][l][1] = ZERO();
    const int nq = vif_part_count(u16, pass, part);
    for (int p = 0; p < t->n_pairs; p++) {
        V qa[3], qb[3];
        quantities(qa, ref[2 * p], dis[2 * p], j, m, u16, pass, part);
        quantities(qb, ref[2 * p + 1], dis[2 * p + 1], j, m, u16, pass, part);
        for (int l = 0; l < nq; l++) {
            const V lo = UNPACKLO16(qa[l], qb[l]), hi = UNPACKHI16(qa[l], qb[l]);
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
VIF_INLINE void vert2_part(const Rows *out, const void *const *ref, const void *const *dis,
                           const uint16_t *f, const int n_taps, const int w, const int u16,
                           const VifShifts sh, const int part)
{
    Pairs2 t;
    pairs2(&t, f, n_taps);
    const V r128 = SET1_32(128);
    for (int j0 = 0; j0 < w; j0 += COLS) {
        const int j = col_at(j0, w, COLS);
        const CM m = cols_mask(j, w);
        V acc[2][3][2];
        pass2(acc, &t, ref, dis, j, m, u16, 0, part);
        const int nq0 = vif_part_count(u16, 0, part), first0 = vif_part_first(u16, 0, part);
        for (int o = 0; o < 2; o++)
            for (int l = 0; l < nq0; l++) {
                V a = acc[o][l][0], b = acc[o][l][1];
                if (u16) {
                    a = round_shift32(XOR(a, TOP32), sh.mu_shift);
                    b = round_shift32(XOR(b, TOP32), sh.mu_shift);
                } else {
                    a = SRLI32(ADD32(a, r128), 8);
                    b = SRLI32(ADD32(b, r128), 8);
                }
                STOREU(out[o].mu[first0 + l] + j, pack_biased(a, b));
            }
        if (!u16) {
            /* 8-bit second moments, whole: the biased sums plus 2^31 */
            pass2(acc, &t, ref, dis, j, m, 0, 1, part);
            const int nq1 = vif_part_count(0, 1, part), first1 = vif_part_first(0, 1, part);
            for (int o = 0; o < 2; o++)
                for (int l = 0; l < nq1; l++)
                    store_split(out[o].lo[first1 + l], out[o].hi[first1 + l], j,
                                XOR(acc[o][l][0], TOP32), XOR(acc[o][l][1], TOP32));
            continue;
        }
        for (int l = part == PART_DIS ? 1 : 0; l < (part == PART_REF ? 1 : 3); l++) {
            pass2(acc, &t, ref, dis, j, m, 1, 1 + l, part);
            for (int o = 0; o < 2; o++) {
                const V v0 =
                    combine_sq(XOR(acc[o][0][0], TOP32), XOR(acc[o][1][0], TOP32), sh.sq_shift);
                const V v1 =
                    combine_sq(XOR(acc[o][0][1], TOP32), XOR(acc[o][1][1], TOP32), sh.sq_shift);
                store_split(out[o].lo[l], out[o].hi[l], j, v0, v1);
            }
        }
    }
}

/* ---- horizontal pass and statistic ----
 * The statistic's log2 terms are table entries plus 2048 per bit of the argument's length. The
 * lengths are summed in the vectors; the table indices go to three index rows (a lane outside
 * its branch points at the table's zero entry, VIF_LOG2_TABLE_SIZE), which one scalar pass
 * adds up after the row: table lookups in vectors would be gathers, slow on every CPU. */

typedef struct Lanes {
    V num_log, den_log;         /* int32 lanes: the 2048-per-bit parts */
    V n2_exp;                   /* int64 lanes: biased exponents of n2 */
    V num_non_log;              /* int64 lanes */
    int64_t den_non_log, n_num; /* n_num: lanes that added an n2 exponent */
    IDX *idx[3];                /* index rows: den, n2, n1, 2 N32 entries per vector */
    int n_idx;
} Lanes;

/* (a * b + 2^31) >> 32 of the uint32 pairs (the reference's squared means). */
static V mul_q32(const V a, const V b)
{
    const V half = SET1_64(0x80000000LL);
    const V even = ADD64(MUL_U32(a, b), half);
    const V odd = ADD64(MUL_U32(SRLI64(a, 32), SRLI64(b, 32)), half);
    return BLEND_ODD32(SRLI64(even, 32), odd);
}

#if VIF_W == 512
/* log2 of 16 uint32 x >= 2^17 as vif_log2_32: the table index (x >> k) - 2^15, stored for the
 * scalar pass (VIF_LOG2_TABLE_SIZE outside m), and k = 16 - clz(x) returned (0 outside m). */
VIF_INLINE V log2_parts32(IDX *idx_out, const V x, const M32 m)
{
    const V k = _mm512_maskz_sub_epi32(m, _mm512_set1_epi32(16), _mm512_lzcnt_epi32(x));
    const V idx = _mm512_mask_blend_epi32(
        m, _mm512_set1_epi32(VIF_LOG2_TABLE_SIZE),
        _mm512_sub_epi32(_mm512_srlv_epi32(x, k), _mm512_set1_epi32(VIF_LOG2_TABLE_MIN)));
    _mm256_storeu_si256((__m256i *)idx_out, _mm512_cvtepi32_epi16(idx));
    return k;
}

/* The index part of log2 of 8 exact integer doubles x in [2^17, 2^53) (vif_log2_64): the top
 * 15 fraction bits. The exponent (k + 1038) is added to acc->n2_exp. */
VIF_INLINE void log2_parts64(Lanes *acc, IDX *idx_out, const VD x, const __mmask8 m)
{
    const V bits = _mm512_castpd_si512(x);
    const V idx = _mm512_mask_blend_epi64(
        m, _mm512_set1_epi64(VIF_LOG2_TABLE_SIZE),
        _mm512_and_si512(_mm512_srli_epi64(bits, 37), _mm512_set1_epi64(0x7FFF)));
    _mm_storeu_si128((__m128i *)idx_out, _mm512_cvtepi64_epi16(idx));
    acc->n2_exp = _mm512_mask_add_epi64(acc->n2_exp, m, acc->n2_exp, _mm512_srli_epi64(bits, 52));
}

/* n2's table indices and exponents, the pixels of m: the even half's and the odd half's. */
VIF_INLINE void n2_parts(Lanes *acc, IDX *idx_out, const VD n2a, const VD n2b, const M32 m)
{
    log2_parts64(acc, idx_out, n2a, (__mmask8)m);
    log2_parts64(acc, idx_out + 8, n2b, (__mmask8)(m >> 8));
}

/* Output j0 + 2m (+ odd) is a pixel when it is below w: left = w - j0. */
static M32 valid_lanes(const int left, const int odd)
{
    return left >= COLS ? 0xFFFF : (M32)((1u << ((left + 1 - odd) / 2)) - 1);
}
#else
/* log2 of 8 uint32 x >= 2^17 (vif_log2_32): the index (x >> k) - 2^15 stored (the table's zero
 * entry outside m), k = 16 - clz(x) returned (0 outside m). The bit length of x is that of
 * x >> 8 (>= 2^9) plus 8, and x >> 8 < 2^24 converts to float exactly. */
VIF_INLINE V log2_parts32(IDX *idx_out, const V x, const M32 m)
{
    const V f = _mm256_castps_si256(_mm256_cvtepi32_ps(_mm256_srli_epi32(x, 8)));
    const V k =
        _mm256_and_si256(m, _mm256_sub_epi32(_mm256_srli_epi32(f, 23), _mm256_set1_epi32(127 + 7)));
    const V idx = _mm256_sub_epi32(_mm256_srlv_epi32(x, k), _mm256_set1_epi32(VIF_LOG2_TABLE_MIN));
    _mm256_storeu_si256((__m256i *)idx_out,
                        _mm256_blendv_epi8(_mm256_set1_epi32(VIF_LOG2_TABLE_SIZE), idx, m));
    return k;
}

/* uint32 to double, exactly: (x - 2^31) as int32, plus 2^31 */
static VD cvtu32_pd(const H x)
{
    return _mm256_add_pd(_mm256_cvtepi32_pd(_mm_xor_si128(x, _mm_set1_epi32((int)0x80000000u))),
                         _mm256_set1_pd(2147483648.0));
}

/* Table indices (as 4 int32 in the low half) of 4 exact integer doubles, exponents added to
 * n2_exp for the lanes of m64 (all-ones 64-bit lanes). */
VIF_INLINE H idx64(Lanes *acc, const VD x, const V m64)
{
    const V bits = _mm256_castpd_si256(x);
    acc->n2_exp = _mm256_add_epi64(acc->n2_exp, _mm256_and_si256(m64, _mm256_srli_epi64(bits, 52)));
    const V idx = _mm256_and_si256(_mm256_srli_epi64(bits, 37), _mm256_set1_epi64x(0x7FFF));
    return _mm256_castsi256_si128(
        _mm256_permutevar8x32_epi32(idx, _mm256_setr_epi32(0, 2, 4, 6, 0, 0, 0, 0)));
}

VIF_INLINE void n2_parts(Lanes *acc, IDX *idx_out, const VD n2a, const VD n2b, const M32 m)
{
    const V ma = _mm256_cvtepi32_epi64(LO_H(m)), mb = _mm256_cvtepi32_epi64(HI_H(m));
    const V i2 = JOIN_H(idx64(acc, n2a, ma), idx64(acc, n2b, mb));
    _mm256_storeu_si256((__m256i *)idx_out,
                        _mm256_blendv_epi8(_mm256_set1_epi32(VIF_LOG2_TABLE_SIZE), i2, m));
}

static M32 valid_lanes(const int left, const int odd)
{
    const V lane2 = _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14);
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(left),
                              _mm256_add_epi32(lane2, _mm256_set1_epi32(odd)));
}
#endif

/* The numerator's double steps for half a vector's pixels, in the reference's order: sv (the
 * truncated residual variance, clamped at 0), then n2 = (int64)(g g s1) + n1 as an exact
 * double (n1 = sv + nsq < 2^32; g <= 100 and s1 < 2^31 keep n2 below 2^46). Returns n1. */
VIF_INLINE H num_half(VD *n2d, const H s1, const H s2, const H s12, const double egl)
{
    const VD s1d = CVT32_PD(s1), s2d = CVT32_PD(s2), s12d = CVT32_PD(s12);
    VD g = DIV_PD(s12d, ADD_PD(s1d, SET1_PD(65536 * 1.0e-10)));
    H sv = CVTT_PD32(SUB_PD(s2d, MUL_PD(g, s12d)));
    sv = MAX_H32(sv, ZERO_H());
    g = MIN_PD(g, SET1_PD(egl)); /* g < egl ? g : egl */
    const H n1 = ADD_H32(sv, SET1_H32(VIF_SIGMA_NSQ));
    const VD prod = MUL_PD(MUL_PD(g, g), s1d);
    *n2d = ADD_PD(TRUNC_PD(prod), CVTU32_PD(n1));
    return n1;
}

/* The statistic of a vector's pixels in two parts. The denominator's (den_log, den_non_log)
 * depends on the reference alone: on s1 = sigma1_sq = xx - mu1^2; the numerator's on both. */

VIF_INLINE V sigma1(const V mu1, const V xx)
{
    return SUB32(xx, mul_q32(mu1, mu1));
}

/* The denominator's part: valid pixels below the noise floor count, the others add
 * log2(sigma1 + nsq) - 17 x 2048 (its table index to the den row). */
VIF_INLINE void den_part(Lanes *acc, const V s1, const M32 valid, const int at)
{
    const V nsq = SET1_32(VIF_SIGMA_NSQ);
    const M32 low = M_LT32(valid, s1, nsq);
    const M32 den = M_ANDNOT(low, valid);
    acc->den_non_log += M_COUNT(low);
    const V kd = log2_parts32(acc->idx[0] + at, ADD32(s1, nsq), den);
    acc->den_log = ADD32(acc->den_log, SLLI32(MASKZ_SUB32(den, kd, SET1_32(17)), 11));
}

/* The numerator's part, from mu1 and s1 and the distorted's sums mu2, yy, xy. */
VIF_INLINE void num_part(Lanes *acc, const V mu1, const V s1, const V mu2, const V yy, const V xy,
                         const M32 valid, const int at, const double egl)
{
    const V s2 = MAX32(SUB32(yy, mul_q32(mu2, mu2)), ZERO());
    const V s12 = SUB32(xy, mul_q32(mu1, mu2));
    const V nsq = SET1_32(VIF_SIGMA_NSQ);
    const M32 low = M_LT32(valid, s1, nsq);
    const M32 den = M_ANDNOT(low, valid);
    const M32 num = M_GT32(M_GT32(den, s12, ZERO()), s2, ZERO());
    /* non-log branch: sigma2 (>= 0) into int64 lanes, and the count */
    const V s2_low = MASKZ_MOV32(low, s2);
    acc->num_non_log = ADD64(acc->num_non_log, CVTU32_64(LO_H(s2_low)));
    acc->num_non_log = ADD64(acc->num_non_log, CVTU32_64(HI_H(s2_low)));
    acc->n_num += M_COUNT(num);
    /* num: log2(n2) - log2(n1) */
    VD n2a, n2b;
    const H n1a = num_half(&n2a, LO_H(s1), LO_H(s2), LO_H(s12), egl);
    const H n1b = num_half(&n2b, HI_H(s1), HI_H(s2), HI_H(s12), egl);
    n2_parts(acc, acc->idx[1] + at, n2a, n2b, num);
    const V k1 = log2_parts32(acc->idx[2] + at, JOIN_H(n1a, n1b), num);
    acc->num_log = SUB32(acc->num_log, SLLI32(k1, 11));
}

/* The sum of the int32 lanes, in int64. */
static int64_t hsum32(const V v)
{
    return (int64_t)HSUM64(ADD64(CVT32_64(LO_H(v)), CVT32_64(HI_H(v))));
}

/* Fold the lanes and the table entries of the index rows into sums; start a new chunk. The
 * lookups stay scalar loads (a vectorised loop would assemble gathers from lane inserts). */
#if defined(__clang__)
#define NO_VECTORIZE
#define NO_VECTORIZE_LOOP _Pragma("clang loop vectorize(disable)")
#else
#define NO_VECTORIZE __attribute__((optimize("no-tree-vectorize")))
#define NO_VECTORIZE_LOOP
#endif
/* part: the sums it adds, PART_ALL both, PART_REF the denominator's, PART_DIS the
 * numerator's (the other rows of indices are not read). */
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
    /* n2's k is its biased exponent minus 1023 + 15 */
    const int64_t n2_k = (int64_t)HSUM64(acc->n2_exp) - 1038 * acc->n_num;
    sums->num_log += hsum32(acc->num_log) + 2048 * n2_k + num;
    sums->den_log += hsum32(acc->den_log) + den;
    sums->num_non_log += (int64_t)HSUM64(acc->num_non_log);
    sums->den_non_log += acc->den_non_log;
    acc->num_log = acc->den_log = acc->num_non_log = acc->n2_exp = ZERO();
    acc->den_non_log = acc->n_num = 0;
}

/* The COLS samples src[j0 + o ..] for an even o in [-COLS / 2, COLS - 2], from the aligned
 * vectors a = [j0 - COLS, j0), b = [j0, j0 + COLS), c = [j0 + COLS, j0 + 2 COLS). AVX-512:
 * one valignd; AVX2: vpalignr within 128-bit lanes, on the vectors made of the right lane
 * pairs. alignr32(hi, lo, n) shifts by n 32-bit lanes (AVX2: within each 128-bit lane).
 * Optimised builds see n as a constant (every call site's offset is a literal once hfilter is
 * inlined); unoptimised ones, which do not fold it, take a switch, as clang does (it wants the
 * immediate constant before inlining, and folds the switch). */
#if VIF_W == 512
#define ALIGNR_IMM(hi, lo, n) _mm512_alignr_epi32((hi), (lo), (n))
#define ALIGNR_MAX 15
#else
#define ALIGNR_IMM(hi, lo, n) _mm256_alignr_epi8((hi), (lo), 4 * (n))
#define ALIGNR_MAX 3
#endif
#if defined(__OPTIMIZE__) && !defined(__clang__)
#define alignr32 ALIGNR_IMM
#else
VIF_INLINE V alignr32(const V hi, const V lo, const int n)
{
    switch (n) {
#define CASE(k)                                                                                    \
    case k:                                                                                        \
        return ALIGNR_IMM(hi, lo, k)
        CASE(0);
        CASE(1);
        CASE(2);
#if ALIGNR_MAX > 3
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
#endif
#undef CASE
    default: return ALIGNR_IMM(hi, lo, ALIGNR_MAX);
    }
}
#endif

#if VIF_W == 512
VIF_INLINE V win_even(const V a, const V b, const V c, const int o)
{
    return o >= 0 ? alignr32(c, b, o / 2) : alignr32(b, a, 16 + o / 2);
}
#else
VIF_INLINE V win_even(const V a, const V b, const V c, const int o)
{
    if (o >= 8)
        return alignr32(c, _mm256_permute2x128_si256(b, c, 0x21), (o - 8) / 2);
    if (o >= 0)
        return alignr32(_mm256_permute2x128_si256(b, c, 0x21), b, o / 2);
    if (o >= -8)
        return alignr32(b, _mm256_permute2x128_si256(a, b, 0x21), (o + 8) / 2);
    return alignr32(_mm256_permute2x128_si256(a, b, 0x21), a, (o + 16) / 2);
}
#endif

/* A window for hfilter: even offsets from the aligned vectors by a shuffle, odd ones by an
 * unaligned load; shuffles and loads go to different ports, which split the work. */
VIF_INLINE V win_at(const int16_t *src, const int j0, const V a, const V b, const V c, const int o)
{
    if (o & 1)
        return LOADU(src + j0 + o);
    return win_even(a, b, c, o);
}

/* The horizontal sums of one row buffer at outputs j0 + 2m (*even) and j0 + 2m + 1 (*odd), for
 * a filter of radius R with NT tap pairs (term k at offset -R + 2k; c2: the split halves of
 * scale 3's centre tap, zero elsewhere). */
VIF_INLINE void hfilter(V *even, V *odd, const int16_t *src, const int j0, const V *c, const V *c2,
                        const int R, const int NT, const int split)
{
    const V a = LOAD_A(src + j0 - COLS), b = LOAD_A(src + j0), cc = LOAD_A(src + j0 + COLS);
    V e = ZERO(), d = e;
    /* the terms written out: each window's offset a constant expression */
#define TERM(k)                                                                                    \
    do {                                                                                           \
        if ((k) < NT) {                                                                            \
            const V we = win_at(src, j0, a, b, cc, -R + 2 * (k));                                  \
            const V wo = win_at(src, j0, a, b, cc, -R + 2 * (k) + 1);                              \
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

/* Vectors of the reference's values per block of COLS columns (many encodes): its mean and
 * sigma1_sq at the even and at the odd outputs, as the statistic's numerator takes them. */
enum { REF_VECS = 4 };

/* Horizontal pass over the padded rows and the statistic of every output of the row. part:
 * PART_ALL; PART_REF: the reference's values to cache (REF_VECS vectors per block) and the
 * denominator's sums to *sums; PART_DIS: the reference's values from cache, the numerator's
 * sums to *sums. */
VIF_INLINE void horiz_part_n(VifSums *sums, V *cache, const Rows *rows, const int w,
                             const VifStatParams *p, const uint16_t *f, const int R, const int NT,
                             const int split, const int part)
{
    /* term k: taps (2k, 2k + 1) of f; scale 3's centre 43728 > int16 is split in halves */
    V c[9], c2[1];
    for (int k = 0; k < NT; k++) {
        const unsigned c0 = f[2 * k], c1 = 2 * k + 1 < 2 * R + 1 ? f[2 * k + 1] : 0;
        const unsigned h1 = split && k == 0 ? c1 / 2 : c1;
        c[k] = SET1_32((int)(c0 | h1 << 16));
        if (split && k == 0)
            c2[0] = SET1_32((int)((c1 - h1) << 16));
    }
    Lanes acc;
    memset(&acc, 0, sizeof(acc));
    for (int l = 0; l < 3; l++)
        acc.idx[l] = rows->idx[l];
    const V r16 = SET1_32(32768);
    /* biased sums become true ones by their top bit; a second moment is SH + ((SL + 2^15) >> 16) */
#define SQ(lo, hi) ADD32(XOR(hi, TOP32), SRLI32(ADD32(XOR(lo, TOP32), r16), 16))
#define HFILTER(l, row) hfilter(&e[l], &o[l], row, j0, c, c2, R, NT, split)
    for (int j0 = 0; j0 < w; j0 += COLS) {
        /* the rows' horizontal sums, even and odd outputs, in the filters' order (mu1, mu2, x^2,
         * y^2, xy: the reference's 0, 2, 3, the others' 1, 4..7), each of part. AVX-512 writes
         * the filters out (a loop over them is not unrolled, and the sums would stay in
         * memory); AVX2 keeps the loop, whose smaller body runs faster than the written-out
         * code there. */
        V e[8], o[8];
#if VIF_W == 512
        if (part != PART_DIS) {
            HFILTER(0, rows->mu[0]);
            HFILTER(2, rows->lo[0]);
            HFILTER(3, rows->hi[0]);
        }
        if (part != PART_REF) {
            HFILTER(1, rows->mu[1]);
            HFILTER(4, rows->lo[1]);
            HFILTER(5, rows->hi[1]);
            HFILTER(6, rows->lo[2]);
            HFILTER(7, rows->hi[2]);
        }
#else
        const int16_t *src[8] = { rows->mu[0], rows->mu[1], rows->lo[0], rows->hi[0],
                                  rows->lo[1], rows->hi[1], rows->lo[2], rows->hi[2] };
        static const int of_ref[8] = { 1, 0, 1, 1, 0, 0, 0, 0 };
        for (int l = 0; l < 8; l++)
            if (part == PART_ALL || (part == PART_REF) == of_ref[l])
                HFILTER(l, src[l]);
#endif
        V ref[REF_VECS]; /* mu1 even, mu1 odd, sigma1_sq even, sigma1_sq odd */
        V *const cached = part == PART_ALL ? NULL : cache + j0 / COLS * REF_VECS;
        if (part == PART_DIS) {
            for (int v = 0; v < REF_VECS; v++)
                ref[v] = LOAD_A(cached + v);
        } else {
            ref[0] = XOR(e[0], TOP32);
            ref[1] = XOR(o[0], TOP32);
            ref[2] = sigma1(ref[0], SQ(e[2], e[3]));
            ref[3] = sigma1(ref[1], SQ(o[2], o[3]));
        }
        const M32 ve = valid_lanes(w - j0, 0), vo = valid_lanes(w - j0, 1);
        const int at = acc.n_idx;
        acc.n_idx += COLS;
        if (part != PART_DIS)
            den_part(&acc, ref[2], ve, at);
        if (part != PART_REF)
            num_part(&acc, ref[0], ref[2], XOR(e[1], TOP32), SQ(e[4], e[5]), SQ(e[6], e[7]), ve, at,
                     p->egl);
        if (part != PART_DIS)
            den_part(&acc, ref[3], vo, at + N32);
        if (part != PART_REF)
            num_part(&acc, ref[1], ref[3], XOR(o[1], TOP32), SQ(o[4], o[5]), SQ(o[6], o[7]), vo,
                     at + N32, p->egl);
        if (part == PART_REF)
            for (int v = 0; v < REF_VECS; v++)
                STORE_A(cached + v, ref[v]);
        if (acc.n_idx >= IDX_ROW)
            flush_lanes(sums, &acc, p->log2_table, part);
    }
#undef SQ
#undef HFILTER
    flush_lanes(sums, &acc, p->log2_table, part);
}

VIF_INLINE void horiz_part(VifSums *sums, V *cache, const Rows *rows, const int scale, const int w,
                           const VifStatParams *p, const int part)
{
    const uint16_t *f = vif_taps[scale];
    switch (scale) {
    case 0: horiz_part_n(sums, cache, rows, w, p, f, 8, 9, 0, part); break;
    case 1: horiz_part_n(sums, cache, rows, w, p, f, 4, 5, 0, part); break;
    case 2: horiz_part_n(sums, cache, rows, w, p, f, 2, 3, 0, part); break;
    default: horiz_part_n(sums, cache, rows, w, p, f, 1, 2, 1, part); break;
    }
}

/* ---- the statistic of one or two output rows ----
 * PART_ALL: both pictures' quantities (one output row: the one-row vertical pass). PART_REF,
 * PART_DIS (many encodes: the reference's part of the statistic once, each distorted's after):
 * vert2's and the horizontal pass's with the other part's quantities left out; the same
 * integers, so the same sums as PART_ALL (the denominator's from the reference's part, the
 * numerator's from the distorted's). One output row (a plane's last of an odd height) runs
 * vert2 on its rows and a copy of the last, whose output is not used. */

/* The n + n_out - 1 row pointers in, as n + 1 (the last repeated when n_out is 1). */
static void rows_for_vert2(const void **out, const void *const *in, const int n, const int n_out)
{
    for (int k = 0; k < n + 1; k++)
        out[k] = in[k < n + n_out - 1 ? k : n - 1];
}

static V *cache_row(void *cache, const int w, const int o)
{
    return (V *)cache + (size_t)o * (size_t)((w + COLS - 1) / COLS) * REF_VECS;
}

VIF_INLINE void stat_rows_part(VifSums *sums, void *cache, const void *const *ref,
                               const void *const *dis, const int n_out, const int scale,
                               const int w, const VifShifts sh, const VifStatParams *p, void *tmp,
                               const int u16, const int part)
{
    const int n = vif_n_taps[scale];
    if (!MASKED && w < COLS) {
        /* rows narrower than a vector: the reference's part does nothing, the distorted's is
         * the C pair kernel (its sums hold the denominator's too) */
        if (part != PART_REF)
            (u16 ? vif_stat_row_u16_c : vif_stat_row_u8_c)(sums, ref, dis, n_out, scale, w, sh, p,
                                                           tmp);
        return;
    }
    const Rows rows[2] = { carve_rows(tmp, w, 0), carve_rows(tmp, w, 1) };
    if (part == PART_ALL && n_out == 1) {
        if (u16)
            vert_u16(&rows[0], ref, dis, vif_taps[scale], n, w, sh);
        else
            vert_u8(&rows[0], ref, dis, vif_taps[scale], n, w);
    } else {
        const void *rr[VIF_MAX_TAPS + 1], *dr[VIF_MAX_TAPS + 1];
        rows_for_vert2(rr, ref, n, n_out);
        if (part != PART_REF)
            rows_for_vert2(dr, dis, n, n_out);
        vert2_part(rows, rr, part == PART_REF ? rr : dr, vif_taps[scale], n, w, u16, sh, part);
    }
    for (int o = 0; o < n_out; o++) {
        pad_rows_part(&rows[o], w, n / 2, part);
        horiz_part(sums, part == PART_ALL ? NULL : cache_row(cache, w, o), &rows[o], scale, w, p,
                   part);
    }
}

size_t FN(ref_cache_size)(const int max_w)
{
    return 2 * (size_t)((max_w + COLS - 1) / COLS) * REF_VECS * sizeof(V);
}

/* The statistic's kernels of one sample type (u16 0: uint8_t, 1: uint16_t). */
#define VIF_STAT_FNS(type, u16)                                                                    \
    void FN(stat_row_##type)(VifSums * sums, const void *const *ref, const void *const *dis,       \
                             const int n_out, const int scale, const int w, const VifShifts sh,    \
                             const VifStatParams *p, void *tmp)                                    \
    {                                                                                              \
        stat_rows_part(sums, NULL, ref, dis, n_out, scale, w, sh, p, tmp, u16, PART_ALL);          \
    }                                                                                              \
    void FN(stat_ref_##type)(VifSums * den, void *cache, const void *const *ref, const int n_out,  \
                             const int scale, const int w, const VifShifts sh,                     \
                             const VifStatParams *p, void *tmp)                                    \
    {                                                                                              \
        stat_rows_part(den, cache, ref, NULL, n_out, scale, w, sh, p, tmp, u16, PART_REF);         \
    }                                                                                              \
    void FN(stat_dis_##type)(VifSums * sums, const void *cache, const void *const *ref,            \
                             const void *const *dis, const int n_out, const int scale,             \
                             const int w, const VifShifts sh, const VifStatParams *p, void *tmp)   \
    {                                                                                              \
        stat_rows_part(sums, (void *)cache, ref, dis, n_out, scale, w, sh, p, tmp, u16, PART_DIS); \
    }

VIF_STAT_FNS(u8, 0)
VIF_STAT_FNS(u16, 1)

/* ---- decimation ---- */

/* Vertical means of one picture's rows (biased, 16-bit) for the decimation filter. */
static void down_vert(int16_t *mu, const void *const *rows, const int is_u8, const uint16_t *f,
                      const int n_taps, const int w, const unsigned shift)
{
    VertTerms t;
    vert_terms(&t, f, n_taps);
    for (int j0 = 0; j0 < w; j0 += COLS) {
        const int j = col_at(j0, w, COLS);
        const CM m = cols_mask(j, w);
        V lo = ZERO(), hi = ZERO();
        for (int k = 0; k < t.n; k++) {
            const int a = t.row[k], b = n_taps - 1 - a;
            V xa, xb;
            if (is_u8) {
                xa = XOR(load_u8(rows[a], j, m), BIAS16);
                xb = a == b ? xa : XOR(load_u8(rows[b], j, m), BIAS16);
            } else {
                xa = XOR(load_u16(rows[a], j, m), BIAS16);
                xb = a == b ? xa : XOR(load_u16(rows[b], j, m), BIAS16);
            }
            lo = DP(lo, UNPACKLO16(xa, xb), t.c[k]);
            hi = DP(hi, UNPACKHI16(xa, xb), t.c[k]);
        }
        lo = round_shift32(XOR(lo, TOP32), shift);
        hi = round_shift32(XOR(hi, TOP32), shift);
        STOREU(mu + j, pack_biased(lo, hi));
    }
}

/* N32 uint32 outputs (each < 2^16) to uint16 at out, those below left. */
#if MASKED
static void store_out16(uint16_t *out, const V v, const int left)
{
    const __mmask16 m = left >= N32 ? 0xFFFF : (__mmask16)((1u << left) - 1);
    _mm256_mask_storeu_epi16(out, m, _mm512_cvtepi32_epi16(v));
}
#else
static void store_out16(uint16_t *out, const V v, const int left)
{
    _mm_storeu_si128((__m128i *)out, _mm_packus_epi32(LO_H(v), HI_H(v)));
}
#endif

/* Horizontal pass at the even columns: N32 outputs per vector (a lane's pair is its taps). */
static void down_horiz(uint16_t *out, const int16_t *mu, const uint16_t *f, const int n_taps,
                       const int w_out)
{
    Terms t;
    pair_terms(&t, f, n_taps);
    const int r = n_taps / 2;
    const V r16 = SET1_32(32768);
    for (int j0 = 0; j0 < w_out; j0 += N32) {
        const int j = col_at(j0, w_out, N32);
        V acc = ZERO();
        for (int k = 0; k < t.n; k++)
            acc = DP(acc, LOADU(mu + 2 * j - r + t.off[k]), t.c[k]);
        acc = SRLI32(ADD32(XOR(acc, TOP32), r16), 16);
        store_out16(out + j, acc, w_out - j);
    }
}

/* One picture's row of the next scale (AVX2: rows narrower than two vectors in C). */
static void down_row1(uint16_t *out, const void *const *in, const int is_u8, const int filter,
                      const int w, const unsigned shift, void *tmp)
{
    if (!MASKED && w < 2 * COLS) {
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

/* The decimation's kernels of one sample type. */
#define VIF_DOWN_FNS(type, is_u8)                                                                  \
    void FN(down_one_##type)(uint16_t * out, const void *const *in, const int filter, const int w, \
                             const unsigned shift, void *tmp)                                      \
    {                                                                                              \
        down_row1(out, in, is_u8, filter, w, shift, tmp);                                          \
    }                                                                                              \
    void FN(down_row_##type)(uint16_t * out_ref, uint16_t * out_dis, const void *const *ref,       \
                             const void *const *dis, const int filter, const int w,                \
                             const unsigned shift, void *tmp)                                      \
    {                                                                                              \
        down_row1(out_ref, ref, is_u8, filter, w, shift, tmp);                                     \
        down_row1(out_dis, dis, is_u8, filter, w, shift, tmp);                                     \
    }

VIF_DOWN_FNS(u8, 1)
VIF_DOWN_FNS(u16, 0)
