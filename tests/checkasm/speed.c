/* checkasm: the speed family's covariance row (features/speed/speed_dsp.h) against C: every one
 * of the 325 double sums by its bits, after rows of widths 1..67 and a few large ones, from
 * running sums that are not zero (as after earlier rows). */
#include <stdlib.h>
#include <string.h>

#include "checkasm/checkasm.h"
#include "features/speed/speed_dsp.h"

enum { MAX_W = 4097, ROWS = 5 };

static float dec[ROWS][MAX_W + 4];

static void bench_cov_row(const SpeedDsp *c, const SpeedDsp *d, const float *mean)
{
    const int w = 240, reps = 400;
    double acc[SPEED_COV_TERMS] = { 0 };
    double t[2];
    for (int s = 0; s < 2; s++) {
        const double t0 = check_now_ns();
        for (int r = 0; r < reps; r++)
            (s ? c->cov_row : d->cov_row)(acc, dec[0], MAX_W + 4, mean, w);
        t[s] = (check_now_ns() - t0) / reps;
    }
    check_bench_report("speed_cov_row (w 240)", t[0], t[1]);
}

static void check_cov_row(const void *cv, const void *dv, const char *lvl, void *arg)
{
    const SpeedDsp *c = cv, *d = dv;
    (void)arg;
    if (!check_func((const void *)d->cov_row, (const void *)c->cov_row, "speed_cov_row", lvl))
        return;
    float mean[SPEED_COV_N];
    for (int w = 1; w; w = check_next_width(w))
        for (int pattern = 0; pattern < CHECK_N_PATTERNS; pattern++) {
            /* decimated, mean-removed samples: floats of either sign with fractions (so that
             * products and sums round), in the sample patterns' shapes */
            for (int k = 0; k < ROWS; k++) {
                check_fill_floats(dec[k], (size_t)w + 4, 16, (pattern + k) % CHECK_N_PATTERNS,
                                  -128.f);
                for (int i = 0; i < w + 4; i++)
                    dec[k][i] *= 1.f + (float)(check_rand() % 1000) / 7919.f;
            }
            for (int o = 0; o < SPEED_COV_N; o++)
                mean[o] = (float)((int)(check_rand() % 20001) - 10000) / 997.f;
            double want[SPEED_COV_TERMS], got[SPEED_COV_TERMS];
            for (int t = 0; t < SPEED_COV_TERMS; t++)
                want[t] = got[t] = (double)(check_rand() % 100000) * 0.37;
            c->cov_row(want, dec[0], MAX_W + 4, mean, w);
            d->cov_row(got, dec[0], MAX_W + 4, mean, w);
            if (check_planted())
                got[check_rand() % SPEED_COV_TERMS] += 1.;
            if (memcmp(want, got, sizeof(want))) {
                int t = 0;
                while (!memcmp(&want[t], &got[t], sizeof(double)))
                    t++;
                if (check_fail("w %d pattern %d: sum %d: %.17g (%a) vs %.17g (%a)", w, pattern, t,
                               want[t], want[t], got[t], got[t]))
                    break;
            }
        }
    if (check_benching())
        bench_cov_row(c, d, mean);
}

static void init_table(void *table, const unsigned cpu)
{
    speed_dsp_init(table, cpu);
}

void checkasm_speed(void)
{
    check_each_level(sizeof(SpeedDsp), init_table, check_cov_row, NULL);
}
