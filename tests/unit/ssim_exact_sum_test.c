/*
 * The certified SSIM mean (ssim_exact_sum.h): whenever it certifies, it gives the bits of the
 * reference's sequential sum; it declines at constructed rounding boundaries and on bad terms;
 * it certifies nearly every mean of realistic term sets (a stub that always declines fails).
 */
#include <math.h>
#include <stdlib.h>

#include "features/ssim/ssim_exact_sum.h"
#include "features/ssim/ssim_math.h"
#include "unit/check.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dull;
}

/* Uniform in [0, 1) with all 53 bits random. */
static double uniform(void)
{
    return (double)(rng() >> 11) * 0x1p-53;
}

/* Row records of terms[0 .. w h - 1] (raster order), as a twin's row reduction makes them:
 * each row summed in two halves merged in reverse, to show the words do not depend on order. */
static void row_records(const double *terms, int w, int h, SsimFixed *rows)
{
    for (int y = 0; y < h; y++) {
        SsimFixed a, b;
        ssim_fixed_zero(&a);
        ssim_fixed_zero(&b);
        for (int x = 0; x < w / 2; x++)
            ssim_fixed_add(&a, terms[(size_t)y * w + x]);
        for (int x = w - 1; x >= w / 2; x--)
            ssim_fixed_add(&b, terms[(size_t)y * w + x]);
        ssim_fixed_merge(&b, &a);
        rows[y] = b;
    }
}

/* 1 when certified; then the certified mean must equal the sequential sum's mean. */
static int certify_matches(const double *terms, int w, int h, int *certified)
{
    SsimFixed *rows = malloc((size_t)h * sizeof(*rows));
    row_records(terms, w, h, rows);
    float mean = 0.0f;
    *certified = ssim_certify_mean(rows, 1, w, h, &mean);
    free(rows);
    const float want = ssim_mean(ssim_sequential_sum(terms, (size_t)w * h), w, h);
    if (*certified && check_fbits(mean) != check_fbits(want)) {
        printf("certified %.9g (0x%08x), the sequential sum gives %.9g (0x%08x)\n", (double)mean,
               (unsigned)check_fbits(mean), (double)want, (unsigned)check_fbits(want));
        return 0;
    }
    return 1;
}

/* A term of each kind of content. */
enum { VIDEO, NOISE, SIGNED_WIDE, TINY_MIX, N_KINDS };

static double draw(int kind)
{
    switch (kind) {
    case VIDEO: /* SSIM of an encode: near 1 */ return 0.7 + 0.3 * uniform();
    case NOISE: /* structure of uncorrelated content: small, either sign */
        return 0.1 * (uniform() - 0.5);
    case SIGNED_WIDE: return ldexp(uniform() - 0.5, (int)(rng() % 24) - 12);
    default: /* terms spanning 60 binades, with cancellation */
        return (uniform() - 0.45) * ldexp(1.0, -(int)(rng() % 60));
    }
}

static void test_random_sets(void)
{
    static const char *const names[N_KINDS] = { "video", "noise", "signed wide", "tiny mix" };
    for (int kind = 0; kind < N_KINDS; kind++) {
        unsigned sets = 0, certified = 0, wrong = 0;
        for (int trial = 0; trial < 400; trial++) {
            const int w = 1 + (int)(rng() % 300), h = 1 + (int)(rng() % 40);
            double *t = malloc((size_t)w * h * sizeof(*t));
            for (int i = 0; i < w * h; i++)
                t[i] = draw(kind);
            int ok;
            wrong += !certify_matches(t, w, h, &ok);
            certified += (unsigned)ok;
            sets++;
            free(t);
        }
        printf("%-12s %u sets, %u certified, %u summed in order\n", names[kind], sets, certified,
               sets - certified);
        CHECK(wrong == 0);
        CHECK(certified * 100 >= sets * 95); /* the bound is tight enough to be useful */
    }
}

/* Terms whose sequential sum is exact and whose mean is exactly half way between two floats:
 * any error bound straddles the tie, so the mean must not be certified. Moving the terms a
 * little away from the tie makes it certifiable again. */
static void test_boundaries(void)
{
    const int w = 7, h = 5, n = w * h;
    const float f = 0.75f;
    const double tie = (double)f + (double)(nextafterf(f, 1.0f) - f) / 2.0;
    double t[7 * 5];
    int ok;
    for (int i = 0; i < n; i++)
        t[i] = tie;
    CHECK(certify_matches(t, w, h, &ok));
    CHECK(!ok);
    /* the sum is exact, so the mean is the tie itself, rounded half to even */
    CHECK_FBITS(ssim_mean(ssim_sequential_sum(t, (size_t)n), w, h), check_fbits(f));
    for (int i = 0; i < n; i++)
        t[i] = tie + 0x1p-40;
    CHECK(certify_matches(t, w, h, &ok));
    CHECK(ok);
    for (int i = 0; i < n; i++)
        t[i] = tie - 0x1p-40;
    CHECK(certify_matches(t, w, h, &ok));
    CHECK(ok);
    /* a tie reached only through cancellation */
    for (int i = 0; i < n; i++)
        t[i] = i % 2 ? -1024.0 : 1024.0;
    t[n - 1] = tie * n;
    CHECK(certify_matches(t, w, h, &ok));
    CHECK(!ok);
    /* terms absorbed by a large running sum: the sequential sum is 0, the exact one is not,
     * so the mean of the exact sum would be wrong; it must not be certified */
    t[0] = 0x1p15;
    for (int i = 1; i < n - 1; i++)
        t[i] = 0x1p-40;
    t[n - 1] = -0x1p15;
    CHECK(certify_matches(t, w, h, &ok));
    CHECK(!ok);
    CHECK_FBITS(ssim_mean(ssim_sequential_sum(t, (size_t)n), w, h), 0u);
}

static void test_bad_terms(void)
{
    double t[4 * 3];
    int ok;
    for (int i = 0; i < 12; i++)
        t[i] = 0.5;
    CHECK(certify_matches(t, 4, 3, &ok));
    CHECK(ok);
    t[5] = NAN;
    SsimFixed rows[3];
    float mean;
    row_records(t, 4, 3, rows);
    CHECK(rows[1].bad == 1);
    CHECK(!ssim_certify_mean(rows, 1, 4, 3, &mean));
    t[5] = SSIM_TERM_LIMIT;
    row_records(t, 4, 3, rows);
    CHECK(!ssim_certify_mean(rows, 1, 4, 3, &mean));
    t[5] = nextafter(SSIM_TERM_LIMIT, 0.0);
    row_records(t, 4, 3, rows);
    CHECK(rows[1].bad == 0);
}

/* A term is recovered exactly from its chunks whenever it has no bits below 2^-76. */
static void test_chunks(void)
{
    unsigned wrong = 0;
    for (int i = 0; i < 100000; i++) {
        const double t = ldexp(uniform() - 0.5, (int)(rng() % 40) - 22);
        SsimFixed a;
        ssim_fixed_zero(&a);
        ssim_fixed_add(&a, t);
        const double back =
            ((double)a.c2 * 0x1p64 + (double)a.c1 * 0x1p32 + (double)a.c0) / SSIM_FIX_UNIT;
        wrong += check_bits(back) != check_bits(t);
        wrong += !(a.abs >= fabs(t) * SSIM_ABS_UNIT);
    }
    CHECK(wrong == 0);
}

int main(void)
{
    test_chunks();
    test_bad_terms();
    test_boundaries();
    test_random_sets();
    return check_report("ssim_exact_sum");
}
