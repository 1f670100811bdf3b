/*
 * xpsnr row kernels: the table type and every kernel of every level. One template
 * (xpsnr_rows_tmpl.h, plain C over xpsnr_math.h) compiled per level: xpsnr_rows.c (the C
 * reference), xpsnr_avx2.c, xpsnr_avx512.c. Header only; xpsnr_dsp.c fills the table
 * (docs/FAMILY.md). Each kernel adds one row's integer terms into per-column (or per 2x2
 * group) 64-bit accumulators, which the extractor then sums per block: integers, the same at
 * every level (tests/checkasm).
 */
#ifndef EV_FEATURES_XPSNR_KERNELS_H
#define EV_FEATURES_XPSNR_KERNELS_H

#include <stddef.h>
#include <stdint.h>

typedef struct XpsnrDsp {
    /* acc[x] += (a[x] - b[x])^2, x < n: 8-bit, and 9..14-bit (exact squares) */
    void (*sse8)(const uint8_t *a, const uint8_t *b, unsigned n, uint64_t *acc);
    void (*sse16)(const uint16_t *a, const uint16_t *b, unsigned n, uint64_t *acc);
    /* acc[x] += |3x3 high-pass at row + x|, x < n (row: int16 plane of stride o) */
    void (*spatial)(const int16_t *row, ptrdiff_t o, unsigned n, uint64_t *acc);
    /* acc[g] += |2x2-group high-pass at row + 2 g|, g < n */
    void (*spatial_ds)(const int16_t *row, ptrdiff_t o, unsigned n, uint64_t *acc);
    /* acc[x] += |c - p1| or |c - 2 p1 + p2| at x < n */
    void (*temporal1)(const int16_t *c, const int16_t *p1, unsigned n, uint64_t *acc);
    void (*temporal2)(const int16_t *c, const int16_t *p1, const int16_t *p2, unsigned n,
                      uint64_t *acc);
    /* the same on the sums of the 2x2 groups at 2 g (rows row, row + o), g < n */
    void (*temporal1_ds)(const int16_t *c, const int16_t *p1, ptrdiff_t o, unsigned n,
                         uint64_t *acc);
    void (*temporal2_ds)(const int16_t *c, const int16_t *p1, const int16_t *p2, ptrdiff_t o,
                         unsigned n, uint64_t *acc);
} XpsnrDsp;

#define XPSNR_KERNELS(isa)                                                                         \
    void xpsnr_sse8_##isa(const uint8_t *a, const uint8_t *b, unsigned n, uint64_t *acc);          \
    void xpsnr_sse16_##isa(const uint16_t *a, const uint16_t *b, unsigned n, uint64_t *acc);       \
    void xpsnr_spatial_##isa(const int16_t *row, ptrdiff_t o, unsigned n, uint64_t *acc);          \
    void xpsnr_spatial_ds_##isa(const int16_t *row, ptrdiff_t o, unsigned n, uint64_t *acc);       \
    void xpsnr_temporal1_##isa(const int16_t *c, const int16_t *p1, unsigned n, uint64_t *acc);    \
    void xpsnr_temporal2_##isa(const int16_t *c, const int16_t *p1, const int16_t *p2, unsigned n, \
                               uint64_t *acc);                                                     \
    void xpsnr_temporal1_ds_##isa(const int16_t *c, const int16_t *p1, ptrdiff_t o, unsigned n,    \
                                  uint64_t *acc);                                                  \
    void xpsnr_temporal2_ds_##isa(const int16_t *c, const int16_t *p1, const int16_t *p2,          \
                                  ptrdiff_t o, unsigned n, uint64_t *acc);

XPSNR_KERNELS(c)
XPSNR_KERNELS(avx2)
XPSNR_KERNELS(avx512)

#endif
