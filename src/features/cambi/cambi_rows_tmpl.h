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

#if CAMBI_SIMD_LEVEL == 512
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
    return (a == b) | (a == c) ? a : bc;
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

/* hist[lo .. hi) += delta (1 or -1 as uint16_t: the counts wrap as the reference's never do).
 * AVX-512 does a window's range (at most 65 columns) in masked 32-column steps. */
static inline void add_range(uint16_t *hist, const unsigned lo, const unsigned hi,
                             const uint16_t delta)
{
#if CAMBI_SIMD_LEVEL == 512
    const __m512i d = _mm512_set1_epi16((short)delta);
    for (unsigned k = lo; k < hi; k += 32) {
        const unsigned n = hi - k < 32 ? hi - k : 32;
        const __mmask32 m = (__mmask32)(n == 32 ? ~0u : (1u << n) - 1);
        const __m512i v = _mm512_maskz_loadu_epi16(m, hist + k);
        _mm512_mask_storeu_epi16(hist + k, m, _mm512_add_epi16(v, d));
    }
#else
    for (unsigned k = lo; k < hi; k++)
        hist[k] = (uint16_t)(hist[k] + delta);
#endif
}

static inline int same4(const uint16_t *a, const uint16_t *b)
{
    uint64_t x, y;
    memcpy(&x, a, sizeof(x));
    memcpy(&y, b, sizeof(y));
    return x == y;
}

void CAMBI_FN(cambi_slide_row)(uint16_t *hist, const unsigned w, const unsigned pad,
                               const uint16_t *leave, const uint16_t *enter)
{
    for (unsigned j = 0; j < w; j++) {
        if (!(j & 3) && j + 4 <= w && same4(leave + j, enter + j)) {
            j += 3;
            continue;
        }
        const unsigned co = leave[j], ci = enter[j];
        if (co == ci)
            continue;
        const unsigned lo = j > pad ? j - pad : 0;
        const unsigned hi = j + pad + 1 < w ? j + pad + 1 : w;
        if (co != CAMBI_NOT_COUNTED)
            add_range(hist + (size_t)co * w, lo, hi, (uint16_t)0xFFFFu);
        if (ci != CAMBI_NOT_COUNTED)
            add_range(hist + (size_t)ci * w, lo, hi, 1);
    }
}
