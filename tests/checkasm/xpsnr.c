/* checkasm: the xpsnr row kernels (features/xpsnr/xpsnr_dsp.h) of every level against C. */
#include <string.h>

#include "checkasm/checkasm.h"
#include "features/xpsnr/xpsnr_dsp.h"

enum {
    MAX_N = 4097, /* terms of a row (samples, or 2x2 groups) */
    MARGIN = 4,   /* columns read left and right of the terms' samples */
    STRIDE = 2 * MAX_N + 2 * MARGIN,
    ROWS = 8 /* rows -2..3 around a group pair, and spare */
};

typedef enum Kind { SSE8, SSE16, SPATIAL, SPATIAL_DS, T1, T2, T1_DS, T2_DS, N_KINDS } Kind;

static const char *const kind_name[N_KINDS] = {
    "xpsnr_sse8",      "xpsnr_sse16",     "xpsnr_spatial",      "xpsnr_spatial_ds",
    "xpsnr_temporal1", "xpsnr_temporal2", "xpsnr_temporal1_ds", "xpsnr_temporal2_ds",
};

static const void *kernel(const XpsnrDsp *d, const Kind k)
{
    const void *const fn[N_KINDS] = {
        (const void *)d->sse8,         (const void *)d->sse16,       (const void *)d->spatial,
        (const void *)d->spatial_ds,   (const void *)d->temporal1,   (const void *)d->temporal2,
        (const void *)d->temporal1_ds, (const void *)d->temporal2_ds
    };
    return fn[k];
}

/* Planes of int16 samples (any value: 16-bit samples are reinterpreted), or of 8-bit ones. */
static int16_t plane[3][ROWS * STRIDE];

static void fill_planes(const unsigned bits, const int pattern)
{
    for (int k = 0; k < 3; k++)
        for (int r = 0; r < ROWS; r++)
            check_fill(plane[k] + r * STRIDE, STRIDE, 2, bits,
                       (pattern + k + r) % CHECK_N_PATTERNS);
}

/* Run kernel k of table d on n terms; acc starts from the same random values each time. */
static void run(const XpsnrDsp *d, const Kind k, const unsigned n, uint64_t *acc)
{
    const ptrdiff_t o = STRIDE;
    const int16_t *c = plane[0] + 2 * STRIDE + MARGIN, *p1 = plane[1] + 2 * STRIDE + MARGIN;
    const int16_t *p2 = plane[2] + 2 * STRIDE + MARGIN;
    switch (k) {
    case SSE8: d->sse8((const uint8_t *)c, (const uint8_t *)p1, n, acc); break;
    case SSE16: d->sse16((const uint16_t *)c, (const uint16_t *)p1, n, acc); break;
    case SPATIAL: d->spatial(c, o, n, acc); break;
    case SPATIAL_DS: d->spatial_ds(c, o, n, acc); break;
    case T1: d->temporal1(c, p1, n, acc); break;
    case T2: d->temporal2(c, p1, p2, n, acc); break;
    case T1_DS: d->temporal1_ds(c, p1, o, n, acc); break;
    case T2_DS: d->temporal2_ds(c, p1, p2, o, n, acc); break;
    case N_KINDS: break;
    }
}

static void check_kind(const XpsnrDsp *c, const XpsnrDsp *d, const char *lvl, const Kind k)
{
    static uint64_t want[MAX_N], got[MAX_N], seed[MAX_N];
    if (!check_func(kernel(d, k), kernel(c, k), kind_name[k], lvl))
        return;
    for (int n = 1; n; n = n == 4097 ? 0 : check_next_width(n)) {
        for (int pattern = 0; pattern < CHECK_N_PATTERNS; pattern++) {
            /* 8-bit samples for sse8 (bytes of the planes), 14 bits for sse16 (its exact
             * squares' domain), else every int16 */
            const unsigned bits = k == SSE16 ? 14 : 16;
            fill_planes(bits, pattern);
            for (int i = 0; i < n; i++)
                seed[i] = (uint64_t)check_rand() << 20 | check_rand();
            memcpy(want, seed, (size_t)n * sizeof(*want));
            memcpy(got, seed, (size_t)n * sizeof(*got));
            run(c, k, (unsigned)n, want);
            run(d, k, (unsigned)n, got);
            if (check_planted())
                got[n / 2] ^= 1;
            int bad = -1;
            for (int i = 0; i < n && bad < 0; i++)
                if (want[i] != got[i])
                    bad = i;
            if (bad >= 0 && check_fail("n %d pattern %d: term %d %llu vs %llu", n, pattern, bad,
                                       (unsigned long long)want[bad], (unsigned long long)got[bad]))
                return;
        }
    }
}

static void check_level_kernels(const void *c, const void *d, const char *lvl, void *unused)
{
    (void)unused;
    for (int k = 0; k < N_KINDS; k++)
        check_kind(c, d, lvl, (Kind)k);
}

static void init_table(void *table, const unsigned cpu)
{
    xpsnr_dsp_init(table, cpu);
}

void checkasm_xpsnr(void)
{
    check_each_level(sizeof(XpsnrDsp), init_table, check_level_kernels, NULL);
}
