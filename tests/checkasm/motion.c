/* checkasm: the integer motion row kernel (features/motion/motion_dsp.h) against C. */
#include <stdlib.h>
#include <string.h>

#include "checkasm/checkasm.h"
#include "features/motion/motion_dsp.h"

enum { MAX_W = 4097 };

static uint16_t prev[5][MAX_W], cur[5][MAX_W];

static void bench_sad_row(const MotionDsp *c, const MotionDsp *d, void *tmp)
{
    const int w = 1920, reps = 4000;
    for (int k = 0; k < 5; k++) {
        check_fill(prev[k], w, 1, 8, 0);
        check_fill(cur[k], w, 1, 8, 0);
    }
    const void *pr[5] = { prev[0], prev[1], prev[2], prev[3], prev[4] };
    const void *cr[5] = { cur[0], cur[1], cur[2], cur[3], cur[4] };
    double t[2];
    uint32_t sink = 0;
    for (int s = 0; s < 2; s++) {
        const double t0 = check_now_ns();
        for (int r = 0; r < reps; r++)
            sink += (s ? c->sad_row : d->sad_row)(pr, cr, w, 8, tmp);
        t[s] = (check_now_ns() - t0) / reps;
    }
    check_bench_report("motion_sad_row (8-bit, w 1920)", t[0], t[1]);
    (void)sink;
}

static void check_sad_row(const void *cv, const void *dv, const char *lvl, void *tmp)
{
    const MotionDsp *c = cv, *d = dv;
    if (!check_func((const void *)d->sad_row, (const void *)c->sad_row, "motion_sad_row", lvl))
        return;
    for (int w = 3; w; w = check_next_width(w))
        for (int pattern = 0; pattern < CHECK_N_PATTERNS; pattern++) {
            const unsigned bpc = 8 + check_rand() % 9;
            const int bytes = bpc > 8 ? 2 : 1;
            for (int k = 0; k < 5; k++) {
                check_fill(prev[k], (size_t)w, bytes, bpc, pattern);
                /* identical rows half of the time (the all-zero shortcut), else another
                 * pattern */
                if (pattern == 0 && (check_rand() & 1))
                    memcpy(cur[k], prev[k], (size_t)w * bytes);
                else
                    check_fill(cur[k], (size_t)w, bytes, bpc, (pattern + k + 1) % CHECK_N_PATTERNS);
            }
            /* a third of the 9..15-bit rows get samples far above the depth (which the API
             * passes on): prev near 65535 where cur is near 0, so that the int32 vertical sums
             * would overflow */
            if (bpc > 8 && bpc < 16 && check_rand() % 3 == 0)
                for (int k = 0; k < 5; k++)
                    for (int j = 0; j < w; j++)
                        if (check_rand() % 5 == 0) {
                            prev[k][j] = (uint16_t)(65535 - check_rand() % 4096);
                            cur[k][j] = (uint16_t)(check_rand() % 64);
                        }
            const void *pr[5] = { prev[0], prev[1], prev[2], prev[3], prev[4] };
            const void *cr[5] = { cur[0], cur[1], cur[2], cur[3], cur[4] };
            const uint32_t want = c->sad_row(pr, cr, w, bpc, tmp);
            uint32_t got = d->sad_row(pr, cr, w, bpc, tmp);
            if (check_planted())
                got ^= 1;
            if (want != got &&
                check_fail("w %d bpc %u pattern %d: %u vs %u", w, bpc, pattern, want, got))
                break;
        }
    if (check_benching())
        bench_sad_row(c, d, tmp);
}

static void init_table(void *table, const unsigned cpu)
{
    motion_dsp_init(table, cpu);
}

void checkasm_motion(void)
{
    void *tmp = malloc(motion_dsp_tmp_size(MAX_W));
    check_each_level(sizeof(MotionDsp), init_table, check_sad_row, tmp);
    free(tmp);
}
