/* Host tests of SpEED's per-step arithmetic (speed_math.h), shared by the C reference and a
 * later CUDA twin. Each input is chosen so that a plausible slip (a fused multiply-add, float
 * where the reference widens to double or the reverse, another association) gives other bits;
 * the test checks that too, so it cannot pass by accident. Wanted values are spelled out
 * step by step with volatile intermediates (each rounding forced where the reference rounds). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "features/speed/speed_math.h"
#include "unit/check.h"

static void test_constant(void)
{
    /* GCC folds log2(2 pi e) in libvmaf; glibc's run-time log2 must agree, and so must ours */
    volatile double arg = 2 * M_PI * M_E;
    CHECK_BITS(SPEED_LOG2_2PIE, log2(arg));
    CHECK_BITS(SPEED_LOG2_2PIE, 0x1.06073a671183dp+2);
}

static void test_mirror(void)
{
    CHECK(speed_mirror(-1, 80) == 1 && speed_mirror(-4, 80) == 4 && speed_mirror(0, 80) == 0);
    CHECK(speed_mirror(79, 80) == 79 && speed_mirror(80, 80) == 78 && speed_mirror(83, 80) == 75);
    CHECK(speed_mirror(-4, 5) == 4 && speed_mirror(8, 5) == 0); /* the smallest block row */
}

static void test_tap(void)
{
    const float acc = -1.0f, tap = 0x1.000002p+0f, v = 0x1.fffffep-1f;
    volatile float prod = tap * v;
    const float want = acc + prod;
    CHECK_FBITS(speed_tap(acc, tap, v), check_fbits(want));
    CHECK(check_fbits(fmaf(tap, v, acc)) != check_fbits(want)); /* a fused tap differs */
}

static void test_gaussian(void)
{
    /* the 9-tap anti-alias filter's sigma (2 x 9 / 5) and the 3-tap local one (3 / 5) */
    const float s9 = (float)(sqrt(4) * 9 / 5.0f), s3 = 3 / 5.0f;
    CHECK_FBITS(s9, 0x40666666u);
    volatile float num = (float)exp(-0.5 * 3.0f / s9 * 3.0f / s9);
    volatile float den = (float)(1 / (s9 * sqrt(2 * M_PI)));
    CHECK_FBITS(speed_gaussian_tap(3, s9), check_fbits(num / den));
    CHECK_FBITS(speed_gaussian_tap(0, s3), check_fbits(1.0f / (float)(1 / (s3 * sqrt(2 * M_PI)))));
    /* the density in float throughout gives other bits for some tap */
    int differs = 0;
    for (int x = 0; x <= 4; x++) {
        const float f = expf(-0.5f * x / s9 * x / s9) / (1 / (s9 * sqrtf(2 * (float)M_PI)));
        differs |= check_fbits(f) != check_fbits(speed_gaussian_tap(x, s9));
    }
    CHECK(differs);
}

static void test_covariance(void)
{
    /* centring in double: the float difference would lose the mean */
    CHECK_BITS(speed_centre(3.0f, 1e-9f), 3.0 - (double)1e-9f);
    CHECK(3.0 - (double)1e-9f != (double)(3.0f - 1e-9f));
    /* the running sum in double of double products */
    const double cx = 1.0 + 0x1p-30, cy = 1.0 - 0x1p-30;
    CHECK_BITS(speed_cov_add(1.0, cx, cy), 1.0 + (1.0 - 0x1p-60));
    CHECK_BITS(speed_cov_add(0x1p60, 1.0, 1.0), 0x1p60);
    /* sum / n in double, then float: not float / float */
    const double sum = 0x1.9249249249249p+24;
    CHECK_FBITS(speed_cov_value(sum, 3), check_fbits((float)(sum / 3.0)));
    CHECK(check_fbits((float)(sum / 3.0)) != check_fbits((float)sum / 3.0f));
}

static void test_mean_weighted(void)
{
    /* the count goes to float first: 2^24 + 1 becomes 2^24 */
    CHECK_FBITS(speed_mean_value(3.0f, 16777217u), check_fbits(3.0f / 16777216.0f));
    CHECK(check_fbits((float)(3.0 / 16777217.0)) != check_fbits(3.0f / 16777216.0f));
    /* (x y) / 25 in float, not x (y / 25) */
    const float x = 0x1.cccccep-1f, y = 0x1.7ae148p-2f;
    volatile float xy = x * y;
    CHECK_FBITS(speed_weighted(x, y), check_fbits(xy / 25.0f));
    volatile float y25 = y / 25.0f;
    CHECK(check_fbits(x * y25) != check_fbits(xy / 25.0f));
    CHECK_FBITS(speed_clamp_eigen(-1e-30f), 0u);
    CHECK_FBITS(speed_clamp_eigen(2.5f), check_fbits(2.5f));
}

static void test_entropy(void)
{
    /* L S + sigma in float */
    const float l = 1.0f + FLT_EPSILON, s = 1.0f - FLT_EPSILON / 2, snn = 0.29f;
    volatile float ls = l * s;
    CHECK_FBITS(speed_entropy_arg(l, s, snn), check_fbits(ls + snn));
    /* entropy + (log2 + log2(2 pi e)) in double, one float rounding at the end */
    const float e = 0x1.7645a2p+1f;
    const double lg = -0x1.c41fe97ea068dp+0;
    const volatile double inner = lg + SPEED_LOG2_2PIE;
    CHECK_FBITS(speed_entropy_add(e, lg), check_fbits((float)((double)e + inner)));
    CHECK_FBITS(speed_entropy_add(e, lg), 0x40a81109u); /* 0x1.502212p+2 */
    /* the same steps in float give 0x1.50221p+2 */
    CHECK(check_fbits((e + (float)lg) + (float)SPEED_LOG2_2PIE) != 0x40a81109u);
    /* the base entropy: (1 + floor) sigma in float, 25 (log2 + C) in double */
    CHECK_FBITS(speed_base_arg(0.1f, 0.19f), check_fbits((1 + 0.1f) * 0.19f));
    volatile double lb = log2((double)speed_base_arg(0.1f, 0.19f));
    CHECK_FBITS(speed_base_entropy(lb), check_fbits((float)(25.0 * (lb + SPEED_LOG2_2PIE))));
    CHECK(check_fbits(speed_base_entropy(lb)) !=
          check_fbits(25.0f * ((float)lb + (float)SPEED_LOG2_2PIE)));
}

static void test_weights(void)
{
    /* a variance that float 1 + v loses and double keeps */
    const float v = 1e-8f, w = 0.5f;
    CHECK_BITS(speed_weight_arg(0, 0, v, w), 1.0);
    CHECK_BITS(speed_weight_arg(0, 1, w, v), 1.0);
    CHECK_BITS(speed_weight_arg(1, 1, v, w), 1.0);
    CHECK_BITS(speed_weight_arg(2, 0, w, v), 1.0);
    /* modes 3, 4: the float sum rv + dv, halved in double */
    CHECK_BITS(speed_weight_arg(3, 0, 1.0f, v), 1.5);
    CHECK_BITS(speed_weight_arg(3, 1, 1.0f, v), 1.5);
    CHECK_BITS(speed_weight_arg(4, 0, v, 1.0f), 1.0);
    CHECK_BITS(speed_weight_arg(4, 1, 1.0f, v), 1.5);
    CHECK(1 + (1.0 + (double)v) / 2.0 != 1.5);
    /* modes 5, 6: double blends */
    CHECK_BITS(speed_weight_arg(5, 1, v, 0.0f), 1 + 0.75 * (double)v);
    CHECK_BITS(speed_weight_arg(6, 1, 0.0f, v), 1 + 0.75 * (double)v);
    CHECK_BITS(speed_weight_arg(5, 0, v, 1.0f), 1.0);
    CHECK_BITS(speed_weight_arg(6, 0, v, 1.0f), 1.0);
    CHECK(1 + 0.75 * (double)v != 1.0);
    /* entropy x log2 in double, rounded once */
    const float ent = 0x1.80001p+1f;
    const double lw = 0x1.55555577b16d2p-2;
    CHECK_FBITS(speed_spatial(ent, lw), check_fbits((float)(ent * lw)));
    CHECK(check_fbits((float)(ent * lw)) != check_fbits(ent * (float)lw));
}

static void test_score(void)
{
    CHECK(!speed_block_visible(1.0f, 2.0f, 3.0f));
    CHECK(speed_block_visible(3.0f, 2.0f, 3.0f) && speed_block_visible(1.0f, 4.0f, 3.0f));
    CHECK_FBITS(speed_score_add(1.0f, 2.0f, 5.0f), check_fbits(4.0f));
    CHECK_FBITS(speed_score_add(1.0f, 5.0f, 2.0f), check_fbits(4.0f));
    CHECK_FBITS(speed_score_value(1.0f, 3), check_fbits(1.0f / 3.0f));
    CHECK_FBITS(speed_score_value(3.0f, 16777217u), check_fbits(3.0f / 16777216.0f));
    /* uv: float sum, halved (halving commutes with the rounding, so where it happens is moot) */
    CHECK_FBITS(speed_uv_mean(16777216.0f, 1.0f), check_fbits(8388608.0f));
    CHECK_FBITS(speed_uv_mean(3.0f, 4.0f), check_fbits(3.5f));
    /* clipping compares the widened float with the double bound */
    CHECK_BITS(speed_clip(0.1f, 45.0), (double)0.1f);
    CHECK_BITS(speed_clip(50.0f, 45.0), 45.0);
    CHECK_BITS(speed_clip(0.1f, 0.1), 0.1); /* (double)0.1f > 0.1: the bound */
}

int main(void)
{
    test_constant();
    test_mirror();
    test_tap();
    test_gaussian();
    test_covariance();
    test_mean_weighted();
    test_entropy();
    test_weights();
    test_score();
    printf("speed_math: %u passed, %u failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}
