/*
 * xpsnr row kernels (xpsnr_kernels.h), compiled once per CPU level: xpsnr_rows.c (the C
 * reference), xpsnr_avx2.c and xpsnr_avx512.c include this file with XPSNR_ISA set, and the
 * compiler vectorises the loops for that level. The terms are xpsnr_math.h's, added into 64-bit
 * integers: every level gives the C's values (tests/checkasm).
 */
#include "features/xpsnr/xpsnr_kernels.h"
#include "features/xpsnr/xpsnr_math.h"

#define XPSNR_CAT_(a, b) a##_##b
#define XPSNR_CAT(a, b) XPSNR_CAT_(a, b)
#define XPSNR_FN(name) XPSNR_CAT(name, XPSNR_ISA)

void XPSNR_FN(xpsnr_sse8)(const uint8_t *restrict a, const uint8_t *restrict b, const unsigned n,
                          uint64_t *restrict acc)
{
    for (unsigned x = 0; x < n; x++) {
        const int d = (int)a[x] - (int)b[x];
        acc[x] += (uint32_t)(d * d);
    }
}

/* Exact squares (< 2^32): the filter's SSE2 rows for up to 14 bits (xpsnr_row_sse16). */
void XPSNR_FN(xpsnr_sse16)(const uint16_t *restrict a, const uint16_t *restrict b, const unsigned n,
                           uint64_t *restrict acc)
{
    for (unsigned x = 0; x < n; x++) {
        const uint32_t e = a[x] > b[x] ? (uint32_t)(a[x] - b[x]) : (uint32_t)(b[x] - a[x]);
        acc[x] += e * e;
    }
}

void XPSNR_FN(xpsnr_spatial)(const int16_t *restrict row, const ptrdiff_t o, const unsigned n,
                             uint64_t *restrict acc)
{
    for (unsigned x = 0; x < n; x++)
        acc[x] += xpsnr_highpass(row + x, o);
}

/* The 2x2-group high-pass (xpsnr_highpass_ds) from column sums, which run along a row: per
 * column, a = rows 0 + 1 of the group, b = rows -1 + 2, c = rows -2 + 3; the window's weights
 * by column are then 12 a - 3 b - c (the group's two columns), -(3 a + 2 b + c) (the next
 * ones out), -(a + b) (the outermost): the same integer as xpsnr_highpass_ds, in another
 * order. GROUPS groups at a time. */
enum { GROUPS = 256 };

/* Column pair j (columns 2 j - 2 and 2 j - 1 from the row's start) of the three weightings,
 * even column and odd column apart, so that a group's sum reads them in order. */
typedef struct DsColumns {
    int centre[2][GROUPS + 2], near[2][GROUPS + 2], far[2][GROUPS + 2];
} DsColumns;

static void ds_columns(const int16_t *restrict r, const ptrdiff_t o, const int pairs,
                       DsColumns *restrict t)
{
    for (int j = 0; j < pairs; j++)
        for (int k = 0; k < 2; k++) {
            const int x = 2 * j + k;
            const int a = r[x] + r[x + o];
            const int b = r[x - o] + r[x + 2 * o];
            const int c = r[x - 2 * o] + r[x + 3 * o];
            t->centre[k][j] = 12 * a - 3 * b - c;
            t->near[k][j] = 3 * a + 2 * b + c;
            t->far[k][j] = a + b;
        }
}

static void ds_groups(const DsColumns *restrict t, const int m, uint64_t *restrict acc)
{
    const int *restrict ce = t->centre[0] + 1, *restrict co = t->centre[1] + 1;
    const int *restrict no = t->near[1], *restrict ne = t->near[0] + 2;
    const int *restrict fe = t->far[0], *restrict fo = t->far[1] + 2;
    for (int g = 0; g < m; g++) {
        const int f = ce[g] + co[g] - (no[g] + ne[g]) - (fe[g] + fo[g]);
        acc[g] += (uint32_t)(f < 0 ? -f : f);
    }
}

void XPSNR_FN(xpsnr_spatial_ds)(const int16_t *restrict row, const ptrdiff_t o, const unsigned n,
                                uint64_t *restrict acc)
{
    DsColumns t;
    for (unsigned g0 = 0; g0 < n; g0 += GROUPS) {
        const int m = n - g0 < GROUPS ? (int)(n - g0) : GROUPS;
        ds_columns(row + 2 * g0 - 2, o, m + 2, &t); /* pair 0: the two columns left of group 0 */
        ds_groups(&t, m, acc + g0);
    }
}

void XPSNR_FN(xpsnr_temporal1)(const int16_t *restrict c, const int16_t *restrict p1,
                               const unsigned n, uint64_t *restrict acc)
{
    for (unsigned x = 0; x < n; x++)
        acc[x] += xpsnr_temporal(c[x], p1[x], 0, 0);
}

void XPSNR_FN(xpsnr_temporal2)(const int16_t *restrict c, const int16_t *restrict p1,
                               const int16_t *restrict p2, const unsigned n, uint64_t *restrict acc)
{
    for (unsigned x = 0; x < n; x++)
        acc[x] += xpsnr_temporal(c[x], p1[x], p2[x], 1);
}

/* The 2x2 groups' temporal terms from the column sums of the group's two rows,
 * d[x] = (c[x] + c[x + o]) - 2 (p1[x] + p1[x + o]) + (p2[x] + p2[x + o]) (without p2 and with
 * one p1 for the first order): a group's difference is d[2 g] + d[2 g + 1]. */
static void group_terms(const int *restrict d, const unsigned n, uint64_t *restrict acc)
{
    for (int g = 0; g < (int)n; g++)
        acc[g] += xpsnr_temporal(d[2 * g] + d[2 * g + 1], 0, 0, 0);
}

void XPSNR_FN(xpsnr_temporal1_ds)(const int16_t *restrict c, const int16_t *restrict p1,
                                  const ptrdiff_t o, const unsigned n, uint64_t *restrict acc)
{
    int d[2 * GROUPS];
    for (unsigned g0 = 0; g0 < n; g0 += GROUPS) {
        const unsigned m = n - g0 < GROUPS ? n - g0 : GROUPS;
        const int16_t *a = c + 2 * g0, *b = p1 + 2 * g0;
        for (unsigned x = 0; x < 2 * m; x++)
            d[x] = (a[x] + a[x + o]) - (b[x] + b[x + o]);
        group_terms(d, m, acc + g0);
    }
}

void XPSNR_FN(xpsnr_temporal2_ds)(const int16_t *restrict c, const int16_t *restrict p1,
                                  const int16_t *restrict p2, const ptrdiff_t o, const unsigned n,
                                  uint64_t *restrict acc)
{
    int d[2 * GROUPS];
    for (unsigned g0 = 0; g0 < n; g0 += GROUPS) {
        const unsigned m = n - g0 < GROUPS ? n - g0 : GROUPS;
        const int16_t *a = c + 2 * g0, *b = p1 + 2 * g0, *q = p2 + 2 * g0;
        for (unsigned x = 0; x < 2 * m; x++)
            d[x] = (a[x] + a[x + o]) - 2 * (b[x] + b[x + o]) + (q[x] + q[x + o]);
        group_terms(d, m, acc + g0);
    }
}
