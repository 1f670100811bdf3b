/* Host tests of the arithmetic the adm / float_adm CPU loops and CUDA twins share (adm_math.h,
 * float_adm_math.h, the CSF factors), and whole-frame properties through the API: depth
 * invariance, minimum frame sizes, refusals and names. Expected values were derived apart from
 * this code (exact integers, and float32 rounding of each step with the same glibc libm). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exactvmaf/exactvmaf.h"
#include "features/adm/adm_csf_factors.h"
#include "features/adm/adm_math.h"
#include "features/adm/float_adm_math.h"
#include "unit/check.h"
#include "unit/check_api.h"
#include "unit/check_log.h"

static void test_wrap(void)
{
    CHECK(adm_wrap16(32767) == 32767 && adm_wrap16(32768) == -32768 && adm_wrap16(65535) == -1);
    CHECK(adm_wrap16(-32769) == 32767 && adm_wrap16(69905) == 4369 && adm_wrap16(-65536) == 0);
    CHECK(adm_wrap32(INT64_C(2147483648)) == INT32_MIN &&
          adm_wrap32(-INT64_C(2147483649)) == INT32_MAX);
    CHECK(adm_wrap32(INT64_C(0x1234567890)) == 0x34567890);
    CHECK(adm_abs32(INT32_MIN) == INT32_MIN && adm_abs32(-5) == 5 && adm_abs32(7) == 7);
    CHECK(adm_clz32(1) == 31 && adm_clz32(0x80000000u) == 0 && adm_clz32(100000) == 15);
    CHECK(adm_add64(INT64_MAX, 1) == INT64_MIN);
    CHECK(adm_fold_row(-5, 2) == -1 && adm_fold_row(5, 2) == 1 && adm_fold_row(6, 2) == 2);
    CHECK(adm_fold_row(-6, 2) == -1 && adm_fold_row(-7, 0) == -7);
}

static void test_borders(void)
{
    CHECK(adm_dwt_index(-1, 9) == 1 && adm_dwt_index(0, 9) == 0 && adm_dwt_index(8, 9) == 8);
    CHECK(adm_dwt_index(9, 9) == 8 && adm_dwt_index(10, 9) == 7); /* repeat at the end */
    CHECK(adm_cm_prev(0) == 1 && adm_cm_prev(5) == 4);            /* reflect at the start */
    CHECK(adm_cm_next(4, 5) == 4 && adm_cm_next(3, 5) == 4);      /* replicate at the end */
}

static void test_dwt(void)
{
    CHECK(adm_dwt0_vert_lo(255, 255, 255, 255, 8) == 22990);
    CHECK(adm_dwt0_vert_lo(0, 0, 0, 0, 8) == -23171);
    /* the reference's int32 partial sums wrap here; the kept result does not */
    CHECK(adm_dwt0_vert_lo(65535, 65535, 65535, 65535, 16) == 23170);
    CHECK(adm_dwt0_vert_hi(0, 255, 0, 255, 8) == -23080);
    CHECK(adm_dwt0_vert_hi(65535, 0, 65535, 0, 16) == 23171);
    CHECK(adm_dwt0_vert_hi(77, 77, 77, 77, 10) == 0);
    CHECK(adm_dwt0_horz(adm_taps0_lo(27232, 27232, 27232, 27232)) == 19256);
    CHECK(adm_dwt0_horz(adm_taps0_hi(-100, 200, -300, 400)) == -238);
    CHECK(adm_dwt_round32(adm_taps_lo(1, 1, 1, 1), 16384, 15) == 1);
    CHECK(adm_dwt_round32(-49152, 16384, 15) == -1 && adm_dwt_round32(-49153, 16384, 15) == -2);
}

static void test_decouple(void)
{
    int32_t div[65537];
    div[32768] = 0;
    for (int i = 1; i <= 32768; i++) {
        div[32768 + i] = adm_div_entry(i);
        div[32768 - i] = adm_div_entry(-i);
    }
    CHECK(div[32769] == 1073741824 && div[32767] == -1073741824 && div[32771] == 357913941);
    CHECK(div[65536] == 32768 && div[0] == -32768);
    CHECK(adm_k0(100, 50, div) == 16384 && adm_k0(-100, 50, div) == 0 && adm_k0(7, -3, div) == 0);
    CHECK(adm_k0(3, 1000, div) == 32768 && adm_k0(0, 5, div) == 32768);
    CHECK(adm_k0(-32768, -32768, div) == 32768);
    CHECK(adm_k123(100000, 50000, div) == 16384 && adm_k123(-100000, -70000, div) == 22937);
    CHECK(adm_k123(40000, 12345, div) == 10113 && adm_k123(65535, 65535, div) == 32768);
    CHECK(adm_k123(2147483647, 1073741824, div) == 16384);
    /* gain limit: min/max in double, then truncation toward zero (not floor) */
    CHECK(adm_restore(16384, 100, 50, 1, 100.0) == 50);
    CHECK(adm_restore(8192, 101, 100, 1, 1.5) == 37);
    CHECK(adm_restore(8192, -101, -100, 1, 1.5) == -37);
    CHECK(adm_restore(8192, -101, -100, 0, 1.5) == -25);
    int16_t r, a;
    adm_decouple_coef0(100, 50, 1, 100.0, div, &r, &a);
    CHECK(r == 50 && a == 0);
    adm_decouple_coef0(-100, 50, 0, 100.0, div, &r, &a);
    CHECK(r == 0 && a == 50);
    CHECK(adm_angle_flag(4, 4, 4, 0.99969542f) == 1 && adm_angle_flag(0, 1, 1, 0.99969542f) == 0);
    CHECK(adm_angle_flag(-1, 1, 1, 0.99969542f) == 0);
}

static void test_csf(void)
{
    /* the diagonal rounds with 65535 >> 17, h and v with 16384 >> 15 */
    CHECK(adm_csf_coef0(1, 49417, 1) == 0 && adm_csf_coef0(2, 49417, 1) == 1);
    CHECK(adm_csf_coef0(4, 16384, 1) == 0 && adm_csf_coef0(12, 16384, 1) == 1);
    CHECK(adm_csf_coef0(-4, 16384, 1) == -1 && adm_csf_coef0(1, 16384, 0) == 1);
    CHECK(adm_csf_coef0(1, 36453, 0) == 1 && adm_csf_coef0(-1, 36453, 0) == -1);
    CHECK(adm_csf_coef0(32767, 65535, 0) == -3 && adm_csf_coef0(-32768, 65535, 1) == -16384);
    CHECK(adm_flt_coef0(30) == 32 && adm_flt_coef0(-30000) == 32000);
    CHECK(adm_flt_coef0(32767) == -30585 && adm_flt_coef0(-32768) == -30584);
    /* the s123 filter rounds with -2^31: small values give -1 */
    CHECK(adm_flt_coef123(0) == -1 && adm_flt_coef123(14) == -1 && adm_flt_coef123(15) == 0);
    CHECK(adm_flt_coef123(45) == 1 && adm_flt_coef123(-1000000) == 33332);
    CHECK(adm_csf_coef123(1000, 74653136) == 278 && adm_csf_coef123(-1000, 74653136) == -278);
    CHECK(adm_csf_coef123(1 << 20, 4191379456u) == 16372576);
}

static void test_cm(void)
{
    CHECK(adm_cm_centre0(100) == 213 && adm_cm_centre0(15000) == 32000);
    CHECK(adm_cm_centre0(-32768) == 4368); /* wraps through int16 */
    CHECK(adm_cm_centre123(0) == -1 && adm_cm_centre123(7) == -1 && adm_cm_centre123(8) == 0);
    CHECK(adm_cm_centre123(1000000) == 66666);
    CHECK(adm_cm_cube0(1000, 36453, 100, 10, 29, 16, 5) == INT64_C(2795856416925));
    CHECK(adm_cm_cube0(5, 36453, 1000, 10, 29, 0, 0) == 0);
    /* thr << 12 wraps negative, so does |x| - thr: clamped to 0 */
    CHECK(adm_cm_cube0(-20000, 49417, 600000, 12, 30, 32, 6) == 0);
    /* x * x >> 29 wraps through int32 */
    CHECK(adm_cm_cube0(32767, 65535, -3, 10, 29, 8, 4) == -INT64_C(102246691569470));
    CHECK(adm_cm_cube123(200000, 137373792, 1000, 256, 9) == 1980);
    CHECK(adm_cm_cube123(-50000, 74653136, -1, 0, 0) == 0);
    CHECK(adm_den_cube0(-32768) == UINT64_C(1) << 45 && adm_den_cube0(3) == 27);
    /* the square rounds with 2^q, not 2^(q-1) */
    CHECK(adm_den_cube123(65536, 31, 0, 0) == 196608);
    CHECK(adm_den_cube123(-65536, 31, 512, 10) == 192);
    CHECK(adm_den_cube123(123456, 30, 64, 7) == 14468);
}

static void test_factors(void)
{
    static const uint32_t watson[4][2] = { { 0x3c8e63ba, 0x3bc106aa },
                                           { 0x3d030286, 0x3c6a46a3 },
                                           { 0x3d31a788, 0x3cc7dc06 },
                                           { 0x3d3b140b, 0x3d0041c9 } };
    static const uint32_t barten[4] = { 0x3f9af18d, 0x40a159e3, 0x416a0875, 0x41d7ce9b };
    static const uint32_t native[4][2] = { { 0x3bb2731d, 0x3971c0da },
                                           { 0x3e2ad6cf, 0x3d26e4ec },
                                           { 0x3f2af91a, 0x3ec747cb },
                                           { 0x3f7c7bd6, 0x3f609aa9 } };
    for (int k = 0; k < 4; k++) {
        for (int d = 0; d < 2; d++) {
            CHECK_BITS(adm_watson_factor(k, d, 3.0, 1080), ev_float_of(watson[k][d]));
            CHECK_BITS(adm_native_factor(k, d, 3.0, 1080), ev_float_of(native[k][d]));
        }
        CHECK_BITS(adm_barten_factor(k, 3.0, 1080, 100.0, 1.0), ev_float_of(barten[k]));
        CHECK_BITS(adm_barten_factor(k, 1.5, 2160, 100.0, 1.0), ev_float_of(barten[k]));
    }
    CHECK_BITS(adm_watson_factor(0, 0, 5.0, 1080), ev_float_of(0x3be01b27));
    CHECK_BITS(adm_watson_factor(3, 1, 5.0, 1080), ev_float_of(0x3c884687));
    CHECK_BITS(adm_cos_1deg_sq(), ev_float_of(0x3f7fec0a));
    CHECK_BITS(adm_blend_factor(2, 1, 3.0, 2160, 1), 0.010921f);
    CHECK_BITS(adm_blend_factor(0, 0, 1.5, 2160, 0), 0.01183f);
    CHECK_BITS(adm_blend_factor(0, 0, 4.0, 1080, 0), -22.0);
    /* Barten factors above 1 in fixed point: GCC's wrap, in defined C */
    CHECK(adm_gcc_double_to_u16(ev_float_of(barten[0]) * pow(2, 21)) == 48227);
    CHECK(adm_gcc_double_to_u32(ev_float_of(barten[3]) * pow(2, 32)) == 4191379456u);
    CHECK(adm_gcc_double_to_u16(70000.9) == 4464 && adm_gcc_double_to_u16(-1.0) == 65535);
    CHECK(adm_gcc_double_to_u16(2147483648.0) == 0 && adm_gcc_double_to_u16(NAN) == 0);
    CHECK(adm_gcc_double_to_u32(4294967301.0) == 5 && adm_gcc_double_to_u32(-1.0) == 0xFFFFFFFFu);
    CHECK(adm_gcc_double_to_u32(1e19) == 0 && adm_gcc_double_to_u32(NAN) == 0);
}

static void test_float_math(void)
{
    /* taps accumulate in order from 0: summing in reverse gives 0x46febd56 */
    CHECK_BITS(fadm_taps_lo(100000.0f, 1.0f, -70000.0f, 3.0f), ev_float_of(0x46febd55));
    CHECK_BITS(fadm_taps_hi(-128.0f, 127.0f, -1.0f, 0.5f), ev_float_of(0xc14fad77));
    /* the 1/30 product is formed in double: a float product gives 0x4010a040 */
    CHECK_BITS(fadm_flt(ev_float_of(0x4287963c)), ev_float_of(0x4010a041));
    CHECK_BITS(fadm_flt(-3.0f), ev_float_of(0x3dccccce));
    /* the centre term is added in double: a float product gives a different sum */
    CHECK_BITS(
        fadm_thr_band(ev_float_of(0x3fe7c1d4), ev_float_of(0x3fa1d6ee), ev_float_of(0x3e9f7f6d),
                      ev_float_of(0x3dedc04a), ev_float_of(0x4245b139), ev_float_of(0x4038d5b9),
                      ev_float_of(0x3f3718c3), ev_float_of(0x4007477d), ev_float_of(0x3f455c99)),
        ev_float_of(0x41549103));
    CHECK_BITS(fadm_cm_cube(-1234.5f, 0.0173815377f, 3.25f), ev_float_of(0x45bca041));
    CHECK_BITS(fadm_cm_cube(10.0f, 0.0173815377f, 3.25f), 0.0);
    CHECK_BITS(fadm_den_cube(-777.25f, 0.005890687f), ev_float_of(0x42bff5af));
    CHECK(fadm_angle_flag(1.0f, 0.0f, 2.0f, 0.0f, 0.99969542f) == 1);
    CHECK(fadm_angle_flag(1.0f, 0.0f, 0.0f, 2.0f, 0.99969542f) == 0);
    CHECK(fadm_angle_flag(1.0f, 0.0f, -2.0f, 0.0f, 0.99969542f) == 0);
    CHECK(fadm_angle_flag(1.0f, 0.0f, 1.0f, 0.0173f, 0.99969542f) == 1); /* 0.99 degrees */
    CHECK(fadm_angle_flag(1.0f, 0.0f, 1.0f, 0.0177f, 0.99969542f) == 0); /* 1.01 degrees */
}

/* rcpss differs between CPUs; what holds everywhere: a good reciprocal, independent of the
 * exponent (the estimate reads the mantissa only, and the Newton step scales exactly). */
static void test_rcp(void)
{
    const float ds[] = { 1.0f, 3.0f, 1.2345f, 1.9999999f, 0.001f, 65504.0f, 1e-30f, 1.5e30f };
    const uint16_t *const tables[2] = { adm_rcp_table, adm_rcp_table_intel };
    for (unsigned i = 0; i < 2 * sizeof(ds) / sizeof(ds[0]); i++) {
        const uint16_t *const tab = tables[i & 1];
        const float r = fadm_rcp(ds[i >> 1], tab);
        CHECK(fabs((double)r * ds[i >> 1] - 1.0) < 1.0 / (1 << 21));
        CHECK_BITS(fadm_rcp(ds[i >> 1] * 4.0f, tab), r * 0.25f);
        CHECK_BITS(fadm_rcp(-ds[i >> 1], tab), -r);
    }
    float r, a;
    fadm_decouple_coef(4.0f, 6.0f, 0, 100.0, adm_rcp_table, &r, &a); /* k clamps to 1: r = o */
    CHECK_BITS(r, 4.0);
    CHECK_BITS(a, 2.0);
    fadm_decouple_coef(4.0f, 6.0f, 1, 100.0, adm_rcp_table, &r, &a); /* gain: min(400, 6) */
    CHECK_BITS(r, 6.0);
    CHECK_BITS(a, 0.0);
    fadm_decouple_coef(4.0f, -6.0f, 1, 100.0, adm_rcp_table, &r, &a); /* k clamps to 0 */
    CHECK_BITS(r, 0.0);
    CHECK_BITS(a, -6.0);
    fadm_decouple_coef(0.0f, 6.0f, 1, 100.0, adm_rcp_table, &r, &a); /* o = 0: k = 1, r = 0 */
    CHECK_BITS(r, 0.0);
    CHECK_BITS(a, 6.0);
    fadm_decouple_coef(-3.0f, -2.0f, 1, 100.0, adm_rcp_table, &r, &a); /* max(r * 100, t) = t */
    CHECK_BITS(r, -2.0);
    CHECK_BITS(a, 0.0);
}

/* ---- whole frames through the API ---- */

/* A textured 8-bit luma pair: smooth gradient plus noise; dis blurs and adds noise. */
static void make_pair(unsigned w, unsigned h, uint8_t *a, uint8_t *b)
{
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            const unsigned v = (x * 3 + y * 5) % 200 + (check_hash(y * w + x) & 31);
            a[y * w + x] = (uint8_t)v;
            b[y * w + x] = (uint8_t)((v * 3 + (x ? a[y * w + x - 1] : v)) / 4 +
                                     (check_hash(7 + y * w + x) % 9));
        }
}

/* Run one extractor on one w x h pair (8-bit samples shifted to bpc) and read n outputs. */
static int run_pair(const char *fex, const char *opts, unsigned w, unsigned h, unsigned bpc,
                    const uint8_t *a, const uint8_t *b, const char *const *names, int n,
                    double *out)
{
    check_last_line[0] = '\0';
    return check_run_pair(fex, opts, w, h, bpc, a, b, check_keep_error, names, n, out);
}

static const char *const int_names[7] = { "integer_adm2",       "integer_aim",
                                          "integer_adm3",       "integer_adm_scale0",
                                          "integer_adm_scale1", "integer_adm_scale2",
                                          "integer_adm_scale3" };
static const char *const float_names[7] = { "adm2",       "aim",        "adm3",      "adm_scale0",
                                            "adm_scale1", "adm_scale2", "adm_scale3" };

/* Samples v << (bpc - 8) give the 8-bit values at every depth: the scale-0 DWT shifts by bpc
 * with rounding 2^(bpc-1) (integer), and v / 2^(bpc-8) is exact (float). */
static void test_depth_invariance(void)
{
    const unsigned w = 96, h = 64;
    uint8_t *a = malloc(w * h), *b = malloc(w * h);
    make_pair(w, h, a, b);
    double v8[7], v[7], f8[7], f[7];
    CHECK(run_pair("adm", NULL, w, h, 8, a, b, int_names, 7, v8) == 0);
    CHECK(run_pair("float_adm", NULL, w, h, 8, a, b, float_names, 7, f8) == 0);
    CHECK(v8[0] > 0.5 && v8[0] < 1.0 && f8[0] > 0.5 && f8[0] < 1.0);
    static const unsigned depths[] = { 10, 12, 16 };
    for (int d = 0; d < 3; d++) {
        CHECK(run_pair("adm", NULL, w, h, depths[d], a, b, int_names, 7, v) == 0);
        CHECK(run_pair("float_adm", NULL, w, h, depths[d], a, b, float_names, 7, f) == 0);
        for (int k = 0; k < 7; k++) {
            CHECK_BITS(v[k], v8[k]);
            CHECK_BITS(f[k], f8[k]);
        }
    }
    free(a);
    free(b);
}

/* Sizes, refusals, names and relations between outputs. */
static void test_frames(void)
{
    uint8_t *a = malloc(64 * 64), *b = malloc(64 * 64);
    double v[18];
    make_pair(33, 33, a, b);
    CHECK(run_pair("adm", NULL, 33, 33, 8, a, b, int_names, 7, v) == 0);
    CHECK(run_pair("adm", NULL, 32, 33, 8, a, b, int_names, 7, v) == -EINVAL);
    CHECK(strstr(check_last_line, "adm: frame 32x33 is too small (minimum 33x33)") != NULL);
    make_pair(17, 17, a, b);
    CHECK(run_pair("float_adm", NULL, 17, 17, 8, a, b, float_names, 7, v) == 0);
    CHECK(run_pair("float_adm", NULL, 17, 16, 8, a, b, float_names, 7, v) == -EINVAL);
    CHECK(strstr(check_last_line, "float_adm: frame 17x16 is too small") != NULL);
    make_pair(64, 64, a, b);
    CHECK(run_pair("adm", "adm_norm_view_dist=1.5", 64, 64, 8, a, b, int_names, 1, v) == -EINVAL);
    CHECK(strstr(check_last_line, "below 3 x 1080") != NULL);
    const char *const suffixed[1] = { "integer_adm2_nvd_1.5_rdh_2160" };
    double u[18];
    CHECK(run_pair("adm", "adm_norm_view_dist=1.5:adm_ref_display_height=2160", 64, 64, 8, a, b,
                   suffixed, 1, u) == 0);
    CHECK(run_pair("adm", NULL, 64, 64, 8, a, b, int_names, 1, v) == 0);
    CHECK_BITS(u[0], v[0]); /* same pixels per degree, same hard-coded scale-0 factors */
    const char *const no_aim[2] = { "integer_adm2", "integer_aim" };
    CHECK(run_pair("adm", "adm_skip_aim=true", 64, 64, 8, a, b, no_aim, 2, u) == 0);
    CHECK_BITS(u[0], v[0]);
    CHECK_BITS(u[1], 0.0);
    const char *const dbg[5] = { "integer_adm2_egl_1", "integer_adm_num_egl_1",
                                 "integer_adm_den_egl_1", "integer_adm_num_scale2_egl_1",
                                 "integer_adm_den_scale2_egl_1" };
    const char *const dbg_scale[1] = { "integer_adm_scale2_egl_1" };
    CHECK(run_pair("adm", "debug=true:adm_enhn_gain_limit=1", 64, 64, 8, a, b, dbg, 5, u) == 0);
    CHECK_BITS(u[0], u[1] / u[2]);
    CHECK(run_pair("adm", "adm_enhn_gain_limit=1", 64, 64, 8, a, b, dbg_scale, 1, v) == 0);
    CHECK_BITS(v[0], u[3] / u[4]);
    const char *const fdbg[3] = { "adm2_egl_1", "adm_num_egl_1", "adm_den_egl_1" };
    CHECK(run_pair("float_adm", "debug=true:adm_enhn_gain_limit=1", 64, 64, 8, a, b, fdbg, 3, u) ==
          0);
    CHECK_BITS(u[0], u[1] / u[2]);
    free(a);
    free(b);
}

/* Odd and tiny sizes: bands under 15 lines make CM visit the first/last rows and columns with
 * mirrored/replicated neighbours (run under ASan to check every access stays in the bands). */
static void test_small_sizes(void)
{
    static const unsigned int_sizes[][2] = { { 33, 35 }, { 37, 34 }, { 41, 97 }, { 100, 33 } };
    static const unsigned float_sizes[][2] = { { 17, 18 }, { 19, 23 }, { 18, 17 }, { 35, 17 } };
    uint8_t *a = malloc(100 * 100), *b = malloc(100 * 100);
    double v[7];
    for (int k = 0; k < 4; k++) {
        const unsigned w = int_sizes[k][0], h = int_sizes[k][1];
        make_pair(w, h, a, b);
        CHECK(run_pair("adm", "debug=true", w, h, 10, a, b, int_names, 7, v) == 0);
        CHECK(isfinite(v[0]) && v[0] > 0.0 && isfinite(v[1]) && isfinite(v[6]));
        const unsigned fw = float_sizes[k][0], fh = float_sizes[k][1];
        make_pair(fw, fh, a, b);
        CHECK(run_pair("float_adm", "debug=true", fw, fh, 12, a, b, float_names, 7, v) == 0);
        CHECK(isfinite(v[0]) && v[0] > 0.0 && isfinite(v[1]) && isfinite(v[6]));
    }
    free(a);
    free(b);
}

int main(void)
{
    test_wrap();
    test_borders();
    test_dwt();
    test_decouple();
    test_csf();
    test_cm();
    test_factors();
    test_float_math();
    test_rcp();
    test_depth_invariance();
    test_frames();
    test_small_sizes();
    return check_report("adm_math");
}
