/* The statistics of exactvmaf/stats.h: BD-rate against the reference calculator's published
 * results (ladders/expected.tsv, to 1e-6 in percent), BD-rate and BD-score invariants, the
 * refusals, and percentiles and lows on hand-worked samples (numpy's own values on the corpus:
 * percentile_numpy.sh). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exactvmaf/stats.h"
#include "unit/check.h"

#define MAX_POINTS 256

/* "rate score" lines of a ladder file, '#' lines skipped. @return the count, -1 on a problem. */
static int read_ladder(const char *name, EvRatePoint *p)
{
    char path[4096], line[512];
    snprintf(path, sizeof(path), "%s/tests/report/ladders/%s", EV_SOURCE_DIR, name);
    FILE *f = fopen(path, "r");
    if (!f)
        return printf("cannot open %s\n", path), -1;
    int n = 0;
    while (fgets(line, sizeof(line), f) && n < MAX_POINTS) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (sscanf(line, "%lf %lf", &p[n].rate, &p[n].score) != 2)
            return fclose(f), printf("%s: bad line %s", path, line), -1;
        n++;
    }
    fclose(f);
    return n;
}

static void check_reference_results(void)
{
    char path[4096], line[1024];
    snprintf(path, sizeof(path), "%s/tests/report/ladders/expected.tsv", EV_SOURCE_DIR);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    unsigned cases = 0;
    while (f && fgets(line, sizeof(line), f)) {
        char a_name[256], t_name[256];
        double want;
        if (line[0] == '#' || sscanf(line, "%255s %255s %lf", a_name, t_name, &want) != 3)
            continue;
        static EvRatePoint a[MAX_POINTS], t[MAX_POINTS];
        const int na = read_ladder(a_name, a), nt = read_ladder(t_name, t);
        CHECK(na >= 4 && nt >= 4);
        double got = NAN, score = NAN;
        CHECK(!ev_bd_rate(a, (size_t)na, t, (size_t)nt, &got, &score));
        /* 1e-6 in percent; the reference's own test accepts 1e-8 */
        if (!check_count(fabs(got - want) <= 1e-8))
            printf("%s vs %s: BD-rate %.17g, the reference %.17g\n", a_name, t_name, got, want);
        else
            printf("ok: %s vs %s: BD-rate %.12f%% (reference %.12f%%)\n", a_name, t_name, 100 * got,
                   100 * want);
        cases++;
    }
    if (f)
        fclose(f);
    CHECK(cases == 5);
}

/* Invariants that hold whatever the interpolation: a ladder against itself, every rate scaled
 * by k (BD-rate k - 1 exactly, up to rounding), every score shifted by s (BD-score s). */
static void check_invariants(void)
{
    static const EvRatePoint a[] = {
        { 1000, 70.5 }, { 2000, 80.25 }, { 4000, 88 }, { 8000, 93 }, { 16000, 96.5 }
    };
    EvRatePoint t[5];
    double r, s;
    CHECK(!ev_bd_rate(a, 5, a, 5, &r, &s));
    CHECK_BITS(r, 0.0);
    CHECK_BITS(s, 0.0);
    for (unsigned i = 0; i < 5; i++)
        t[i] = (EvRatePoint){ a[i].rate * 0.8, a[i].score };
    CHECK(!ev_bd_rate(a, 5, t, 5, &r, &s));
    CHECK(fabs(r - -0.2) < 1e-12);
    CHECK(s > 0.0); /* the same scores at less rate: better */
    for (unsigned i = 0; i < 5; i++)
        t[i] = (EvRatePoint){ a[4 - i].rate, a[4 - i].score + 1.5 }; /* any order */
    CHECK(!ev_bd_rate(a, 5, t, 5, &r, &s));
    CHECK(fabs(s - 1.5) < 1e-12);
    CHECK(r < 0.0);
    /* exact duplicates count once */
    EvRatePoint d[6];
    memcpy(d, a, sizeof(a));
    d[5] = a[2];
    CHECK(!ev_bd_rate(a, 5, d, 6, &r, NULL));
    CHECK_BITS(r, 0.0);
}

static void check_refusals(void)
{
    static const EvRatePoint a[] = { { 1000, 70 }, { 2000, 80 }, { 4000, 88 }, { 8000, 93 } };
    EvRatePoint t[4];
    double r;
    CHECK(ev_bd_rate(a, 3, a, 4, &r, NULL) == -EDOM); /* three points */
    memcpy(t, a, sizeof(a));
    t[2].score = 95; /* quality falls from 4000 to 8000 */
    CHECK(ev_bd_rate(a, 4, t, 4, &r, NULL) == -EDOM);
    memcpy(t, a, sizeof(a));
    t[0].rate = 0;
    CHECK(ev_bd_rate(a, 4, t, 4, &r, NULL) == -EINVAL);
    t[0] = (EvRatePoint){ 1000, NAN };
    CHECK(ev_bd_rate(a, 4, t, 4, &r, NULL) == -EINVAL);
    for (unsigned i = 0; i < 4; i++)
        t[i] = (EvRatePoint){ a[i].rate, a[i].score + 30 }; /* scores 100..123: no overlap */
    CHECK(ev_bd_rate(a, 4, t, 4, &r, NULL) == -ERANGE);
    CHECK(ev_bd_rate(NULL, 4, t, 4, &r, NULL) == -EINVAL);
}

/* Values worked by hand from numpy's definition (h = (n-1) p/100). */
static void check_percentiles(void)
{
    const double v[] = { 40, 10, 30, 20 }; /* sorted 10 20 30 40 */
    double x;
    CHECK(!ev_percentile(v, 4, 0, &x));
    CHECK_BITS(x, 10.0);
    CHECK(!ev_percentile(v, 4, 100, &x));
    CHECK_BITS(x, 40.0);
    CHECK(!ev_percentile(v, 4, 50, &x)); /* h = 1.5: b - (b - a) * 0.5 */
    CHECK_BITS(x, 25.0);
    CHECK(!ev_percentile(v, 4, 10, &x)); /* h = 0.3 (0.30000000000000004) */
    CHECK_BITS(x, 10.0 + 10.0 * ((3.0 * 0.1) - 0.0));
    CHECK(!ev_percentile(v, 4, 90, &x)); /* h = 2.7: g >= 0.5, from the upper end */
    const double h = 3.0 * 0.9, g = h - 2.0;
    CHECK_BITS(x, 40.0 - 10.0 * (1.0 - g));
    const double one = 7.25;
    CHECK(!ev_percentile(&one, 1, 37, &x));
    CHECK_BITS(x, 7.25);
    const double with_nan[] = { 1, NAN, 3 };
    CHECK(!ev_percentile(with_nan, 3, 50, &x));
    CHECK(isnan(x));
    CHECK(ev_percentile(v, 4, 100.5, &x) == -EINVAL);
    CHECK(ev_percentile(v, 4, -1, &x) == -EINVAL);
    CHECK(ev_percentile(v, 0, 5, &x) == -EINVAL);
}

static void check_lows(void)
{
    double v[200];
    for (unsigned i = 0; i < 200; i++)
        v[i] = 200 - i; /* 200 .. 1 */
    double x;
    CHECK(!ev_low_mean(v, 200, 1, &x)); /* the 2 lowest: 1, 2 */
    CHECK_BITS(x, 1.5);
    CHECK(!ev_low_mean(v, 200, 5, &x)); /* 10 lowest: 1..10 */
    CHECK_BITS(x, 5.5);
    CHECK(!ev_low_mean(v, 199, 1, &x)); /* ceil(1.99) = 2 of 200..2: 2, 3 */
    CHECK_BITS(x, 2.5);
    CHECK(!ev_low_mean(v, 3, 1, &x)); /* at least one: the lowest of 200, 199, 198 */
    CHECK_BITS(x, 198.0);
    CHECK(!ev_low_mean(v, 200, 100, &x));
    CHECK_BITS(x, 100.5);
    CHECK(ev_low_mean(v, 200, 0, &x) == -EINVAL);
}

static void check_names(void)
{
    char b[32];
    ev_pool_stat_name((EvPoolStat){ EV_POOL_PERCENTILE, 5 }, b, sizeof(b));
    CHECK_STR(b, "p5");
    ev_pool_stat_name((EvPoolStat){ EV_POOL_PERCENTILE, 99.9 }, b, sizeof(b));
    CHECK_STR(b, "p99.9");
    ev_pool_stat_name((EvPoolStat){ EV_POOL_LOW, 1 }, b, sizeof(b));
    CHECK_STR(b, "low1");
    ev_pool_stat_name((EvPoolStat){ EV_POOL_HARMONIC_MEAN, 0 }, b, sizeof(b));
    CHECK_STR(b, "harmonic_mean");
    ev_pool_stat_name((EvPoolStat){ EV_POOL_LOW, 0 }, b, sizeof(b));
    CHECK_STR(b, "");
}

int main(void)
{
    check_reference_results();
    check_invariants();
    check_refusals();
    check_percentiles();
    check_lows();
    check_names();
    return check_report("stats");
}
