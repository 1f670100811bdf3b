/* Host tests of the arithmetic the vif / float_vif CPU loops and CUDA twins share
 * (vif_math.h, vif_float_math.h, the log2 table and the Gaussian filters), and whole-frame
 * properties through the API: depth invariance and the minimum frame size. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exactvmaf/exactvmaf.h"
#include "features/vif/float_vif_scale.h"
#include "features/vif/vif_float_math.h"
#include "features/vif/vif_log2.h"
#include "features/vif/vif_math.h"
#include "unit/check.h"
#include "unit/check_api.h"
#include "unit/check_log.h"

static uint16_t log2_table[VIF_LOG2_TABLE_SIZE];

static void test_reflect(void)
{
    CHECK(vif_reflect(-1, 5) == 1 && vif_reflect(-4, 5) == 4 && vif_reflect(0, 5) == 0);
    CHECK(vif_reflect(5, 5) == 3 && vif_reflect(8, 5) == 0 && vif_reflect(4, 5) == 4);
    /* lines shorter than the radius: the reference's pad rows mirror earlier pad rows */
    CHECK(vif_reflect(-3, 2) == 1 && vif_reflect(5, 2) == 1 && vif_reflect(-8, 2) == 0);
    CHECK(vif_reflect(-5, 3) == 1 && vif_reflect(9, 3) == 1 && vif_reflect(10, 3) == 2);
    CHECK(vif_mirror(-1, 10) == 1 && vif_mirror(10, 10) == 8 && vif_mirror(17, 10) == 1);
    CHECK(vif_mirror(0, 10) == 0 && vif_mirror(9, 10) == 9);
}

static void test_rounding(void)
{
    CHECK(vif_round_shift(127, 8) == 0 && vif_round_shift(128, 8) == 1);
    CHECK(vif_round_shift(65536u * 255u + 128u, 8) == 65281u);
    CHECK(vif_round_shift(4261478400u, 0) == 4261478400u); /* 8-bit squares kept whole */
    CHECK(vif_round_shift((UINT64_C(1) << 48) - 1, 16) == UINT64_C(1) << 32);
    CHECK(vif_round_shift(UINT64_C(0xFFFFFFFF00000000), 16) == UINT64_C(0xFFFFFFFF0000));
    CHECK(vif_mul_q32(0xFFFF0000u, 0xFFFF0000u) == 65535u * 65535u);
    CHECK(vif_mul_q32(1, 0x80000000u) == 1 && vif_mul_q32(1, 0x7FFFFFFFu) == 0);
    CHECK(vif_mul_q32(0x80000000u, 0x80000000u) == 0x40000000u);
    const VifShifts s8 = vif_shifts(0, 8), s10 = vif_shifts(0, 10), s16 = vif_shifts(0, 16);
    const VifShifts s1 = vif_shifts(1, 10);
    CHECK(s8.mu_shift == 8 && s8.sq_shift == 0 && s10.mu_shift == 10 && s10.sq_shift == 4);
    CHECK(s16.mu_shift == 16 && s16.sq_shift == 16 && s1.mu_shift == 16 && s1.sq_shift == 16);
}

static void test_trunc(void)
{
    CHECK(vif_trunc_i32(2.9) == 2 && vif_trunc_i32(-2.9) == -2 && vif_trunc_i32(-0.5) == 0);
    CHECK(vif_trunc_i32(2147483647.9) == INT32_MAX);
    CHECK(vif_trunc_i32(-2147483648.9) == INT32_MIN + 0);
    CHECK(vif_trunc_i32(2147483648.0) == INT32_MIN); /* x86 cvttsd2si: "integer indefinite" */
    CHECK(vif_trunc_i32(-2147483649.0) == INT32_MIN);
    CHECK(vif_trunc_i32(1e300) == INT32_MIN && vif_trunc_i32(NAN) == INT32_MIN);
}

/* The table against log2 in double: within half a unit (plus the float log2f's own error)
 * everywhere, monotone, with the end values glibc gives. */
static void test_log2_table(void)
{
    int bad = 0;
    for (unsigned i = 0; i < VIF_LOG2_TABLE_SIZE; i++) {
        const double exact = log2(32768.0 + i) * 2048.0;
        bad += fabs(log2_table[i] - exact) > 0.5 + 1e-3;
        bad += i > 0 && log2_table[i] < log2_table[i - 1];
    }
    CHECK(bad == 0);
    CHECK(log2_table[0] == 30720 && log2_table[1] == 30720 && log2_table[32767] == 32768);
    CHECK(vif_log2_32(log2_table, 1u << 17) == 17 * 2048);
    CHECK(vif_log2_32(log2_table, 655360) == 39571); /* 5 x 2^17: 31379 + 4 x 2048 */
    CHECK(vif_log2_32(log2_table, 0xFFFFFFFFu) == 32 * 2048);
    CHECK(vif_log2_64(log2_table, UINT64_C(1) << 46) == 46 * 2048);
    CHECK(vif_log2_64(log2_table, 3 * (UINT64_C(1) << 40)) == 85166);
    CHECK(vif_log2_64(log2_table, 262144) == 36864);
    CHECK(vif_log2_64(log2_table, 393215) == 38062); /* 49151: 31918 + 3 x 2048 */
}

static VifSums stat_of(uint32_t mu1, uint32_t mu2, uint32_t xx, uint32_t yy, uint32_t xy,
                       double egl)
{
    VifSums s = { 0 };
    vif_pixel_stat(&s, log2_table, mu1, mu2, xx, yy, xy, egl);
    return s;
}

static void test_pixel_stat(void)
{
    /* a flat 8-bit 128 patch: mean 2^31 (2^24 units), square 2^30; no variance */
    VifSums s = stat_of(1u << 31, 1u << 31, 1u << 30, 1u << 30, 1u << 30, 100.0);
    CHECK(s.den_non_log == 1 && s.num_non_log == 0 && s.den_log == 0 && s.num_log == 0);
    /* just below and at the noise floor 131072 */
    s = stat_of(0, 0, 131071, 5000, 0, 100.0);
    CHECK(s.den_non_log == 1 && s.num_non_log == 5000 && s.den_log == 0);
    s = stat_of(0, 0, 131072, 0, 0, 100.0);
    CHECK(s.den_non_log == 0 && s.den_log == 2048 && s.num_log == 0);
    /* sigma2_sq < 0 (yy below mu2^2) is clamped to 0; sigma1_sq wraps negative: non-log */
    s = stat_of(1u << 24, 1u << 24, 10, 10, 0, 100.0);
    CHECK(s.den_non_log == 1 && s.num_non_log == 0);
    /* s1 = 4 x 2^17, s2 = s12 = 2^18: g = 0.5 - eps, sv = 131072, g^2 s1 truncates to 131071 */
    s = stat_of(0, 0, 524288, 262144, 262144, 100.0);
    CHECK(s.den_log == 4755);          /* log2(5) x 2048, rounded by the table */
    CHECK(s.num_log == 38062 - 36864); /* log2(393215) - log2(262144) */
    /* gain above the limit: s1 = 2^18, s12 = 2^19, s2 = 2^21: g = 2 - eps, sv = 2^20 */
    const uint32_t n1 = 1048576 + 131072;
    s = stat_of(0, 0, 262144, 2097152, 524288, 100.0);
    CHECK(s.num_log == vif_log2_64(log2_table, 1048575 + n1) - vif_log2_64(log2_table, n1));
    s = stat_of(0, 0, 262144, 2097152, 524288, 1.0);
    CHECK(s.num_log == vif_log2_64(log2_table, 262144 + n1) - vif_log2_64(log2_table, n1));
    /* negative covariance: only the denominator */
    s = stat_of(0, 0, 524288, 262144, (uint32_t)-262144, 100.0);
    CHECK(s.den_log == 4755 && s.num_log == 0 && s.den_non_log == 0);
}

static void test_scale_totals(void)
{
    VifSums s = { 2048, 4096, (int64_t)16384 * 65025, 3 };
    CHECK_BITS(vif_scale_num(&s), 3.0);
    CHECK_BITS(vif_scale_den(&s), 5.0);
    /* stored as float: 2^25 + 1 units of 1/2048 round to 16384 */
    VifSums t = { 0, (INT64_C(1) << 25) + 1, 0, 0 };
    CHECK_BITS(vif_scale_den(&t), 16384.0);
}

/* The polynomial log2 in float, re-derived: each Horner step a float product, then a float
 * sum (done in double and rounded once: exact for float operands). */
static float horner_reference(float x)
{
    static const double c[9] = { -0.012671635276421, 0.064841182402670,  -0.157048836463065,
                                 0.257167726303123,  -0.353800560300520, 0.480131410397451,
                                 -0.721314327952201, 1.442694803896991,  0 };
    int e;
    const float m = (float)frexp(x, &e) * 2.0f; /* x = m 2^(e-1), m in [1, 2) */
    const float t = m - 1.0f;
    float p = 0;
    for (int i = 0; i < 9; i++)
        p = (float)((double)(float)((double)p * t) + (float)c[i]);
    return (float)(e - 1) + p;
}

static void test_log2f_approx(void)
{
    CHECK_BITS(vif_log2f_approx(1.0f), 0.0);
    CHECK_BITS(vif_log2f_approx(2.0f), 1.0);
    CHECK_BITS(vif_log2f_approx(0.5f), -1.0);
    CHECK_BITS(vif_log2f_approx(1024.0f), 10.0);
    CHECK(vif_log2f_approx(0.0f) == -INFINITY && isnan(vif_log2f_approx(-1.0f)));
    const float xs[] = { 1.5f, 1.0000001f, 1.9999999f, 3.0f, 5.0f, 1.08f, 1.32f, 123456.7f };
    for (unsigned i = 0; i < sizeof(xs) / sizeof(xs[0]); i++) {
        CHECK_BITS(vif_log2f_approx(xs[i]), horner_reference(xs[i]));
        CHECK(fabs(vif_log2f_approx(xs[i]) - log2(xs[i])) < 2e-5);
    }
    /* not libm: the polynomial misses log2(1.5) in the last bits */
    CHECK(vif_log2f_approx(1.5f) != log2f(1.5f));
}

static void pixel(float xx, float yy, float xy, float egl, float *n, float *d)
{
    const VifFloatParams p = { egl, 2.0, (float)(powf(2.0f, 2.0f) / (255.0 * 255.0)) };
    vif_float_pixel(0.0f, 0.0f, xx, yy, xy, &p, n, d);
}

static void test_float_pixel(void)
{
    float n, d;
    /* flat: below the noise floor, num = 1 - s2 x 4 / 255^2, den = 1 */
    const VifFloatParams flat = { 100.0f, 2.0, (float)(4.0 / 65025.0) };
    vif_float_pixel(10.0f, 10.0f, 100.0f, 100.0f, 100.0f, &flat, &n, &d);
    CHECK_BITS(n, 1.0);
    CHECK_BITS(d, 1.0);
    pixel(1.0f, 65.025f, 0.5f, 100.0f, &n, &d);
    CHECK_BITS(n, (double)(1.0f - 65.025f * (float)(4.0 / 65025.0)));
    CHECK_BITS(d, 1.0);
    /* s1 = 8, s2 = 4, s12 = 2: g = 0.25, sv = 3.5 */
    pixel(8.0f, 4.0f, 2.0f, 100.0f, &n, &d);
    CHECK_BITS(n, vif_log2f_approx((float)(1.0 + 0.5 / 5.5)));
    CHECK_BITS(d, vif_log2f_approx(5.0f));
    /* negative covariance: num 0 */
    pixel(8.0f, 4.0f, -2.0f, 100.0f, &n, &d);
    CHECK_BITS(n, 0.0);
    CHECK_BITS(d, vif_log2f_approx(5.0f));
    /* s1 = 4, s12 = 8, s2 = 64: g = 2 (or the limit 1), sv = 48 */
    pixel(4.0f, 64.0f, 8.0f, 100.0f, &n, &d);
    CHECK_BITS(n, vif_log2f_approx((float)(1.0 + 16.0 / 50.0)));
    pixel(4.0f, 64.0f, 8.0f, 1.0f, &n, &d);
    CHECK_BITS(n, vif_log2f_approx((float)(1.0 + 4.0 / 50.0)));
    /* the log argument is a double expression: a float one differs here */
    pixel(3.0f, 3.0f, 2.0f, 100.0f, &n, &d);
    const float g = 2.0f / (3.0f + 1e-10f), sv = 3.0f - g * 2.0f;
    CHECK_BITS(n, vif_log2f_approx((float)(1.0f + (double)(g * g * 3.0f) / ((double)sv + 2.0))));
    CHECK(n != vif_log2f_approx(1.0f + (g * g * 3.0f) / (sv + 2.0f)));
}

/* glibc's filters for kernelscale 1 (half taps, centre last), as listed in the reference map. */
static void test_gaussian_filters(void)
{
    static const char *const want[4][9] = {
        { "0.00745626912", "0.0142655009", "0.0250313189", "0.0402820669", "0.059452612",
          "0.0804750994", "0.0999041051", "0.113746069", "0.118773833" },
        { "0.0189780816", "0.0558981709", "0.120920911", "0.192116067", "0.224173561" },
        { "0.0544886813", "0.244201332", "0.402619928" },
        { "0.166378513", "0.667242944" },
    };
    static const int n[4] = { 17, 9, 5, 3 };
    for (int s = 0; s < 4; s++) {
        VifFloatFilter f;
        vif_float_filter_init(&f, s, 1.0f);
        CHECK(f.n == n[s]);
        for (int k = 0; k <= n[s] / 2; k++) {
            CHECK_BITS(f.tap[k], strtof(want[s][k], NULL));
            CHECK_BITS(f.tap[n[s] - 1 - k], f.tap[k]);
        }
    }
    VifFloatFilter f;
    vif_float_filter_init(&f, 0, 4.0f);
    CHECK(f.n == 69);
    vif_float_filter_init(&f, 3, 0.5f);
    CHECK(f.n == 3);
    CHECK(vif_float_kernelscale_valid(1.0f) && vif_float_kernelscale_valid(3.71134f));
    CHECK(!vif_float_kernelscale_valid(1.2f) && !vif_float_kernelscale_valid(0.1f));
}

/* Run one extractor on one w x h luma pair (8-bit samples shifted to bpc) and read its outputs
 * name0..name3; 0 on success. */
static int run_pair(const char *fex, const char *opts, unsigned w, unsigned h, unsigned bpc,
                    const uint8_t *a, const uint8_t *b, const char *name, double out[4])
{
    char buf[4][64];
    const char *names[4];
    for (int k = 0; k < 4; k++) {
        snprintf(buf[k], sizeof(buf[k]), "%s%d", name, k);
        names[k] = buf[k];
    }
    return check_run_pair(fex, opts, w, h, bpc, a, b, check_keep_error, names, 4, out);
}

/* Integer VIF shifts by bpc and float VIF divides by 2^(bpc-8): the same 8-bit content at
 * any depth gives the same bits. And below the minimum size, a clear refusal. */
static void test_frames(void)
{
    enum { W = 67, H = 45 };
    static uint8_t a[W * H], b[W * H];
    for (unsigned i = 0; i < W * H; i++) {
        a[i] = (uint8_t)((i % W) * 3 + (i / W) * 2 + (check_hash(i) & 15));
        b[i] = (uint8_t)(a[i] + (check_hash(i ^ 77) % 9) - 4);
    }
    const unsigned depths[] = { 9, 10, 12, 16 };
    double want[4], got[4];
    CHECK(run_pair("vif", "", W, H, 8, a, b, "integer_vif_scale", want) == 0);
    CHECK(want[0] > 0.1 && want[0] < 1.0 && want[3] > 0.1);
    for (unsigned k = 0; k < 4; k++) {
        CHECK(run_pair("vif", "", W, H, depths[k], a, b, "integer_vif_scale", got) == 0);
        for (int s = 0; s < 4; s++)
            CHECK_BITS(got[s], want[s]);
    }
    CHECK(run_pair("float_vif", "", W, H, 8, a, b, "vif_scale", want) == 0);
    CHECK(want[0] > 0.1 && want[0] < 1.0);
    for (unsigned k = 0; k < 4; k++) {
        CHECK(run_pair("float_vif", "", W, H, depths[k], a, b, "vif_scale", got) == 0);
        for (int s = 0; s < 4; s++)
            CHECK_BITS(got[s], want[s]);
    }
    CHECK(run_pair("vif", "", 16, 16, 8, a, b, "integer_vif_scale", got) == 0);
    CHECK(run_pair("float_vif", "", 16, 16, 10, a, b, "vif_scale", got) == 0);
    check_last_line[0] = '\0';
    CHECK(run_pair("vif", "", 15, 40, 8, a, b, "integer_vif_scale", got) != 0);
    CHECK(strstr(check_last_line, "vif: frame 15x40 is too small (minimum 16x16)") != NULL);
    CHECK(run_pair("float_vif", "", 40, 15, 8, a, b, "vif_scale", got) != 0);
    CHECK(strstr(check_last_line, "float_vif: frame 40x15 is too small (minimum 16x16)") != NULL);
    CHECK(run_pair("float_vif", "vif_kernelscale=3.0", 39, 45, 8, a, b, "vif_scale", got) != 0);
    CHECK(strstr(check_last_line, "(minimum 40x40)") != NULL);
    CHECK(run_pair("float_vif", "vif_kernelscale=1.2", W, H, 8, a, b, "vif_scale", got) != 0);
    CHECK(strstr(check_last_line, "invalid vif_kernelscale") != NULL);
}

int main(void)
{
    vif_log2_table_build(log2_table);
    test_reflect();
    test_rounding();
    test_trunc();
    test_log2_table();
    test_pixel_stat();
    test_scale_totals();
    test_log2f_approx();
    test_float_pixel();
    test_gaussian_filters();
    test_frames();
    return check_report("vif_math");
}
