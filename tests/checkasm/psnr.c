/* checkasm: the psnr row kernels (features/psnr/psnr_dsp.h) of every level against C. */
#include <string.h>

#include "checkasm/checkasm.h"
#include "features/psnr/psnr_dsp.h"

enum { MAX_W = 70000 }; /* past 66052 8-bit samples a row's uint32 sum wraps */

/* Level lvl's row_sse8 (u16 0) or row_sse16 (1) against C's, up to MAX_W samples. */
static void check_row_sse(const PsnrDsp *c, const PsnrDsp *k, const char *lvl, const int u16)
{
    static uint16_t r[MAX_W], d[MAX_W];
    const void *fn = u16 ? (const void *)k->row_sse16 : (const void *)k->row_sse8;
    const void *ref = u16 ? (const void *)c->row_sse16 : (const void *)c->row_sse8;
    if (!check_func(fn, ref, u16 ? "psnr_row_sse16" : "psnr_row_sse8", lvl))
        return;
    for (int w = 1; w; w = w == 4097 ? MAX_W : w == MAX_W ? 0 : check_next_width(w)) {
        for (int pattern = 0; pattern < CHECK_N_PATTERNS; pattern++) {
            const unsigned bpc = u16 ? 9 + check_rand() % 8 : 8;
            check_fill(r, (size_t)w, u16 ? 2 : 1, bpc, pattern);
            check_fill(d, (size_t)w, u16 ? 2 : 1, bpc, (pattern + 3) % CHECK_N_PATTERNS);
            uint64_t want, got;
            if (u16) {
                want = c->row_sse16(r, d, (unsigned)w);
                got = k->row_sse16(r, d, (unsigned)w);
            } else {
                want = c->row_sse8((const uint8_t *)r, (const uint8_t *)d, (unsigned)w);
                got = k->row_sse8((const uint8_t *)r, (const uint8_t *)d, (unsigned)w);
            }
            if (check_planted())
                got ^= 1;
            if (want != got && check_fail("w %d bpc %u pattern %d: %llu vs %llu", w, bpc, pattern,
                                          (unsigned long long)want, (unsigned long long)got))
                break;
        }
    }
}

static void check_level_kernels(const void *c, const void *k, const char *lvl, void *unused)
{
    check_row_sse(c, k, lvl, 0);
    check_row_sse(c, k, lvl, 1);
}

static void init_table(void *table, const unsigned cpu)
{
    psnr_dsp_init(table, cpu);
}

void checkasm_psnr(void)
{
    check_each_level(sizeof(PsnrDsp), init_table, check_level_kernels, NULL);
}
