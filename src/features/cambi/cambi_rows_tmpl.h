/*
 * CAMBI row kernels (cambi_kernels.h), compiled once per CPU level: cambi_rows.c (the C
 * reference), cambi_avx2.c and cambi_avx512.c include this file with CAMBI_ISA set, and the
 * compiler vectorises the loops for that level. Every output is integer arithmetic of its own
 * inputs (cambi_math.h), written without branches so that each loop vectorises; the levels
 * differ only in how many columns one instruction does. tests/checkasm compares them.
 */
#include <string.h>

#include "features/cambi/cambi_kernels.h"
#include "features/cambi/cambi_math.h"

#ifdef CAMBI_SIMD_LEVEL
#include <immintrin.h>
#endif

#define CAMBI_CAT_(a, b) a##_##b
#define CAMBI_CAT(a, b) CAMBI_CAT_(a, b)
#define CAMBI_FN(name) CAMBI_CAT(name, CAMBI_ISA)

void CAMBI_FN(cambi_to_10b_row)(uint16_t *restrict out, const void *restrict in, const unsigned w,
                                const unsigned bpc)
{
    if (bpc == 8) {
        const uint8_t *p = in;
        for (unsigned j = 0; j < w; j++)
            out[j] = (uint16_t)(p[j] << 2);
    } else if (bpc <= 10) {
        const uint16_t *p = in;
        const unsigned s = 10 - bpc;
        for (unsigned j = 0; j < w; j++)
            out[j] = (uint16_t)(p[j] << s);
    } else {
        const uint16_t *p = in;
        const unsigned s = bpc - 10;
        const uint32_t add = 1u << (s - 1);
        for (unsigned j = 0; j < w; j++)
            out[j] = (uint16_t)(((uint32_t)p[j] + add) >> s);
    }
}

/* r0[j] reads r0[j + 1] before that is replaced: the loop's stores only ever follow its
 * loads. */
void CAMBI_FN(cambi_anti_dither_row)(uint16_t *r0, const uint16_t *restrict r1, const unsigned w)
{
    for (unsigned j = 0; j + 1 < w; j++)
        r0[j] = cambi_avg4(r0[j], r0[j + 1], r1[j], r1[j + 1]);
    r0[w - 1] = cambi_avg2(r0[w - 1], r1[w - 1]);
}

void CAMBI_FN(cambi_flat_row)(uint8_t *restrict flags, const uint16_t *restrict row,
                              const uint16_t *restrict below, const unsigned w)
{
    for (unsigned j = 0; j + 1 < w; j++)
        flags[j] = (uint8_t)cambi_flat(row[j], row[j + 1], below[j]);
    flags[w - 1] = (uint8_t)cambi_flat(row[w - 1], row[w - 1], below[w - 1]);
}

void CAMBI_FN(cambi_count_row)(uint8_t *restrict count, const uint8_t *restrict add,
                               const uint8_t *restrict sub, const unsigned w)
{
    for (unsigned j = 0; j < w; j++)
        count[j] = (uint8_t)(count[j] + add[j] - sub[j]);
}

void CAMBI_FN(cambi_mask_row)(uint8_t *restrict mask, const uint8_t *restrict count,
                              const unsigned w, const unsigned threshold)
{
    /* the sum of 7 counts of at most 7 fits a byte */
    for (unsigned j = 0; j < w; j++) {
        const uint8_t *c = count + j;
        const uint8_t sum = (uint8_t)(c[0] + c[1] + c[2] + c[3] + c[4] + c[5] + c[6]);
        mask[j] = sum > threshold;
    }
}

/* cambi_mode3 without branches: a when it equals b or c, else b when it equals c, else the
 * smallest. */
static inline uint16_t mode3_select(const uint16_t a, const uint16_t b, const uint16_t c)
{
    const uint16_t ab = a < b ? a : b;
    const uint16_t min = ab < c ? ab : c;
    const uint16_t bc = b == c ? b : min;
    return ((a == b) | (a == c)) ? a : bc;
}

void CAMBI_FN(cambi_mode_row)(uint16_t *restrict out, const uint16_t *restrict in, const unsigned w)
{
    out[0] = in[0];
    for (unsigned j = 1; j + 1 < w; j++)
        out[j] = mode3_select(in[j - 1], in[j], in[j + 1]);
    out[w - 1] = in[w - 1];
}

void CAMBI_FN(cambi_mode_col)(uint16_t *restrict out, const uint16_t *restrict a,
                              const uint16_t *restrict b, const uint16_t *restrict c,
                              const unsigned w)
{
    for (unsigned j = 0; j < w; j++)
        out[j] = mode3_select(a[j], b[j], c[j]);
}

/* On x86 (little-endian) the SIMD levels read each pair of samples as one wider word and keep
 * its low half, which the compiler turns into loads and narrowing packs; the last output reads
 * its sample alone (in[2 w - 1] may lie beyond the row). */
void CAMBI_FN(cambi_decimate16)(uint16_t *restrict out, const uint16_t *restrict in,
                                const unsigned w)
{
    unsigned j = 0;
#ifdef CAMBI_SIMD_LEVEL
    for (; j + 1 < w; j++) {
        uint32_t pair;
        memcpy(&pair, in + 2 * j, sizeof(pair));
        out[j] = (uint16_t)pair;
    }
#endif
    for (; j < w; j++)
        out[j] = in[2 * j];
}

void CAMBI_FN(cambi_decimate8)(uint8_t *restrict out, const uint8_t *restrict in, const unsigned w)
{
    unsigned j = 0;
#ifdef CAMBI_SIMD_LEVEL
    for (; j + 1 < w; j++) {
        uint16_t pair;
        memcpy(&pair, in + 2 * j, sizeof(pair));
        out[j] = (uint8_t)pair;
    }
#endif
    for (; j < w; j++)
        out[j] = in[2 * j];
}

void CAMBI_FN(cambi_band_row)(uint16_t *restrict codes, const uint16_t *restrict x,
                              const uint8_t *restrict mask, const unsigned w,
                              const unsigned band_lo, const unsigned band_n)
{
    for (unsigned j = 0; j < w; j++)
        codes[j] = cambi_band_code(x[j], mask[j], band_lo, band_n);
}

/* The counts of one code row after a run of columns j0 .. j1 left (delta 0xFFFF, -1 as
 * uint16_t) or entered (delta 1) the window: column k changes by delta times the number of the
 * run's columns within pad of it, min(k + pad, j1) - max(k - pad, j0) + 1, for k from j0 - pad
 * to j1 + pad within the row: the sum of the run's columns' range updates, each element
 * written once (consecutive overlapping updates of one row wait on each other's stores). The
 * counts wrap mod 2^16 as the reference's per-column updates would (they never do). */
static inline void add_run(uint16_t *hist, const unsigned w, const unsigned pad, const unsigned j0,
                           const unsigned j1, const uint16_t delta)
{
    const unsigned lo = j0 > pad ? j0 - pad : 0;
    const unsigned hi = j1 + pad + 1 < w ? j1 + pad + 1 : w;
#if CAMBI_SIMD_LEVEL == 512
    /* 16-bit lanes: columns, pad and the run's ends are below 2^15 (widths to 7680) */
    const __m512i iota =
        _mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13,
                         12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i vpad = _mm512_set1_epi16((short)pad), one = _mm512_set1_epi16(1);
    const __m512i vj0 = _mm512_set1_epi16((short)j0), vj1 = _mm512_set1_epi16((short)j1);
    for (unsigned k = lo; k < hi; k += 32) {
        const unsigned n = hi - k < 32 ? hi - k : 32;
        const __mmask32 m = (__mmask32)(n == 32 ? ~0u : (1u << n) - 1);
        const __m512i col = _mm512_add_epi16(_mm512_set1_epi16((short)k), iota);
        const __m512i top = _mm512_min_epi16(_mm512_add_epi16(col, vpad), vj1);
        const __m512i bot = _mm512_max_epi16(_mm512_sub_epi16(col, vpad), vj0);
        __m512i cnt = _mm512_add_epi16(_mm512_sub_epi16(top, bot), one);
        if (delta != 1)
            cnt = _mm512_sub_epi16(_mm512_setzero_si512(), cnt);
        const __m512i v = _mm512_maskz_loadu_epi16(m, hist + k);
        _mm512_mask_storeu_epi16(hist + k, m, _mm512_add_epi16(v, cnt));
    }
#else
    for (unsigned k = lo; k < hi; k++) {
        const int top = (int)(k + pad < j1 ? k + pad : j1);
        const int bot = (int)k - (int)pad > (int)j0 ? (int)k - (int)pad : (int)j0;
        hist[k] = (uint16_t)(hist[k] + (uint16_t)(delta * (unsigned)(top - bot + 1)));
    }
#endif
}

unsigned CAMBI_FN(cambi_next_diff)(const uint16_t *a, const uint16_t *b, unsigned j,
                                   const unsigned w)
{
#if CAMBI_SIMD_LEVEL == 512
    for (; j < w; j += 32) {
        const unsigned n = w - j < 32 ? w - j : 32;
        const __mmask32 m = (__mmask32)(n == 32 ? ~0u : (1u << n) - 1);
        const __mmask32 d = _mm512_mask_cmpneq_epu16_mask(m, _mm512_maskz_loadu_epi16(m, a + j),
                                                          _mm512_maskz_loadu_epi16(m, b + j));
        if (d)
            return j + (unsigned)__builtin_ctz(d);
    }
    return w;
#elif CAMBI_SIMD_LEVEL == 256
    for (; j + 16 <= w; j += 16) {
        const __m256i eq = _mm256_cmpeq_epi16(_mm256_loadu_si256((const __m256i *)(a + j)),
                                              _mm256_loadu_si256((const __m256i *)(b + j)));
        const unsigned d = ~(unsigned)_mm256_movemask_epi8(eq);
        if (d)
            return j + (unsigned)__builtin_ctz(d) / 2;
    }
    for (; j < w && a[j] == b[j]; j++)
        ;
    return j;
#else
    for (; j < w; j++) {
        if (!(j & 3) && j + 4 <= w) {
            uint64_t x, y;
            memcpy(&x, a + j, sizeof(x));
            memcpy(&y, b + j, sizeof(y));
            if (x == y) {
                j += 3;
                continue;
            }
        }
        if (a[j] != b[j])
            return j;
    }
    return w;
#endif
}

/* Columns where leave and enter differ, as runs of one (leave, enter) pair. */
void CAMBI_FN(cambi_slide_row)(uint16_t *hist, const unsigned w, const unsigned pad,
                               const uint16_t *leave, const uint16_t *enter)
{
    for (unsigned j = CAMBI_FN(cambi_next_diff)(leave, enter, 0, w); j < w;
         j = CAMBI_FN(cambi_next_diff)(leave, enter, j, w)) {
        const unsigned co = leave[j], ci = enter[j];
        unsigned j1 = j;
        while (j1 + 1 < w && leave[j1 + 1] == co && enter[j1 + 1] == ci)
            j1++;
        if (co != CAMBI_NOT_COUNTED)
            add_run(hist + (size_t)co * w, w, pad, j, j1, (uint16_t)0xFFFFu);
        if (ci != CAMBI_NOT_COUNTED)
            add_run(hist + (size_t)ci * w, w, pad, j, j1, 1);
        j = j1 + 1;
    }
}

/* The contrast value of a counted pixel of band code `code` at column col (hist: the window's
 * counts, hist[c * w + col]): the largest step value over the contrast steps that count for it
 * (cambi_math.h). */
static inline float c_value_at(const uint16_t *hist, const unsigned w, const CambiTables *t,
                               const unsigned code, const unsigned col)
{
    const int v = (int)(code + t->band_lo);
    const uint16_t *h = hist + col;
    const uint32_t p0 = h[(size_t)code * w];
    float best = 0.0f;
    for (int d = 0; d < t->num_diffs; d++) {
        if (!cambi_step_counts(t, d, v))
            continue;
        const uint32_t up = h[(size_t)(code + d + 1) * w];
        const uint32_t down = (int)code - d - 1 >= 0 ? h[(size_t)(code - d - 1) * w] : 0;
        best = cambi_step_best(best, t, d, p0, up, down);
    }
    return best;
}

#if CAMBI_SIMD_LEVEL == 512
/* 16 counts hist[idx] (uint16) by 32-bit gathers: each reads hist[idx] and the sample after
 * it (the hist block has CAMBI_HIST_SLACK bytes after its last count), keeping the low half. */
static inline __m512i gather_counts(const uint16_t *hist, const __m512i idx, const __mmask16 m)
{
    const __m512i v = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), m, idx, hist, 2);
    return _mm512_and_si512(v, _mm512_set1_epi32(0xFFFF));
}

/* 16 pixels at once, each lane the C's operations in its order: the integer product (exact),
 * its float conversion, the product with the gathered reciprocal, and `val > best`. */
static void c_values_16(float *out, const uint16_t *codes, const uint16_t *hist, const unsigned w,
                        const CambiTables *t, const unsigned j, const __mmask16 lanes)
{
    const __m512i code = _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(lanes, codes + j));
    const __mmask16 counted =
        _mm512_mask_cmpneq_epi32_mask(lanes, code, _mm512_set1_epi32(CAMBI_NOT_COUNTED));
    if (!counted) {
        _mm512_mask_storeu_ps(out + j, lanes, _mm512_setzero_ps());
        return;
    }
    const __m512i col =
        _mm512_add_epi32(_mm512_set1_epi32((int)j),
                         _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
    const __m512i vw = _mm512_set1_epi32((int)w);
    const __m512i at0 = _mm512_add_epi32(_mm512_mullo_epi32(code, vw), col);
    const __m512i p0 = gather_counts(hist, at0, counted);
    const __m512i v = _mm512_add_epi32(code, _mm512_set1_epi32((int)t->band_lo));
    __m512 best = _mm512_setzero_ps();
    for (int d = 0; d < t->num_diffs; d++) {
        /* cambi_step_counts: v <= tvi[d] and v + num_diffs + d + 1 > vlt */
        __mmask16 m = _mm512_mask_cmple_epi32_mask(counted, v, _mm512_set1_epi32(t->tvi[d]));
        m = _mm512_mask_cmpgt_epi32_mask(
            m, _mm512_add_epi32(v, _mm512_set1_epi32(t->num_diffs + d + 1)),
            _mm512_set1_epi32(t->vlt));
        if (!m)
            continue;
        const __m512i step = _mm512_set1_epi32((d + 1) * (int)w);
        const __m512i up = gather_counts(hist, _mm512_add_epi32(at0, step), m);
        const __mmask16 has_down = _mm512_mask_cmpge_epi32_mask(m, code, _mm512_set1_epi32(d + 1));
        const __m512i down = gather_counts(hist, _mm512_sub_epi32(at0, step), has_down);
        const __m512i p = _mm512_max_epu32(up, down);
        const __m512i prod =
            _mm512_mullo_epi32(_mm512_mullo_epi32(_mm512_set1_epi32(t->weight[d]), p0), p);
        const __m512 recip =
            _mm512_mask_i32gather_ps(_mm512_setzero_ps(), m, _mm512_add_epi32(p0, p), t->recip, 4);
        const __m512 val = _mm512_mul_ps(_mm512_cvtepi32_ps(prod), recip);
        const __mmask16 better = _mm512_mask_cmp_ps_mask(m, val, best, _CMP_GT_OQ);
        best = _mm512_mask_blend_ps(better, best, val);
    }
    _mm512_mask_storeu_ps(out + j, lanes, best);
}
#endif

void CAMBI_FN(cambi_c_values_row)(float *out, const uint16_t *codes, const uint16_t *hist,
                                  const unsigned w, const CambiTables *t)
{
#if CAMBI_SIMD_LEVEL == 512
    for (unsigned j = 0; j < w; j += 16) {
        const unsigned n = w - j < 16 ? w - j : 16;
        c_values_16(out, codes, hist, w, t, j, (__mmask16)(n == 16 ? 0xFFFFu : (1u << n) - 1));
    }
#else
    for (unsigned j = 0; j < w; j++)
        out[j] = codes[j] == CAMBI_NOT_COUNTED ? 0.0f : c_value_at(hist, w, t, codes[j], j);
#endif
}
