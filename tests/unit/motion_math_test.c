/* Host tests of the arithmetic the motion/float_motion CPU loops and CUDA twins share
 * (motion_math.h). Expected values are worked by hand or, for float sums, step by step in
 * float (each product and sum rounded to binary32) and written as bits. */
#include <stdint.h>
#include <string.h>

#include "features/motion/motion_math.h"
#include "unit/check.h"

static void test_mirror(void)
{
    CHECK(motion_mirror(-2, 5) == 2 && motion_mirror(-1, 5) == 1 && motion_mirror(0, 5) == 0);
    CHECK(motion_mirror(4, 5) == 4 && motion_mirror(5, 5) == 3 && motion_mirror(6, 5) == 2);
    /* the smallest plane the extractors accept */
    CHECK(motion_mirror(-2, 3) == 2 && motion_mirror(3, 3) == 1 && motion_mirror(4, 3) == 0);
}

static void test_vertical(void)
{
    const int32_t max8[5] = { 255, 255, 255, 255, 255 }, min8[5] = { -255, -255, -255, -255, -255 };
    CHECK(motion_vblur_diff(max8, 8) == 65280);  /* 65536 * 255 / 256 */
    CHECK(motion_vblur_diff(min8, 8) == -65280); /* (-16711680 + 128) >> 8: floor of -65279.5 */
    const int32_t one[5] = { 1, 0, 0, 0, 0 }, neg[5] = { -1, 0, 0, 0, 0 };
    CHECK(motion_vblur_diff(one, 8) == 14);  /* (3571 + 128) >> 8 */
    CHECK(motion_vblur_diff(neg, 8) == -14); /* (-3571 + 128) >> 8 = floor(-13.4) */
    const int32_t centre[5] = { 0, 0, 1, 0, 0 };
    CHECK(motion_vblur_diff(centre, 8) == 103); /* (26386 + 128) >> 8 */
    /* ties: acc = -128 and 128 sit exactly half way, and the rounding term decides */
    const int32_t tie_lo[5] = { -26, 3, 4, 2, -26 }, tie_hi[5] = { 26, -3, -4, -2, 26 };
    CHECK(motion_vblur_diff(tie_lo, 8) == 0 && motion_vblur_diff32(tie_lo, 8) == 0);
    CHECK(motion_vblur_diff(tie_hi, 8) == 1 && motion_vblur_diff32(tie_hi, 8) == 1);
    const int32_t max10[5] = { 1023, 1023, 1023, 1023, 1023 };
    CHECK(motion_vblur_diff(max10, 10) == 65472); /* 1023 * 64 + floor(0.5) */
    CHECK(motion_vblur_diff32(max10, 10) == 65472);
    const int32_t max15[5] = { 32767, 32767, 32767, 32767, 32767 };
    const int32_t min15[5] = { -32767, -32767, -32767, -32767, -32767 };
    CHECK(motion_vblur_diff32(max15, 15) == 65534 && motion_vblur_diff(max15, 15) == 65534);
    CHECK(motion_vblur_diff32(min15, 15) == -65534 && motion_vblur_diff(min15, 15) == -65534);
    const int32_t max16[5] = { 65535, 65535, 65535, 65535, 65535 };
    const int32_t min16[5] = { -65535, -65535, -65535, -65535, -65535 };
    CHECK(motion_vblur_diff(max16, 16) == 65535);  /* floor(65535.5) */
    CHECK(motion_vblur_diff(min16, 16) == -65535); /* floor(-65534.5) */
    const int32_t mixed[5] = { 65535, -65535, 65535, -65535, 65535 };
    CHECK(motion_vblur_diff(mixed, 16) == 1520); /* 65535 * 1520 + 2^15 >> 16 */
}

static void test_horizontal(void)
{
    const int32_t top[5] = { 65535, 65535, 65535, 65535, 65535 };
    const int32_t bottom[5] = { -65535, -65535, -65535, -65535, -65535 };
    CHECK(motion_hblur_abs(top) == 65535u);
    CHECK(motion_hblur_abs(bottom) == 65535u); /* -65534.5 floors to -65535 */
    const int32_t c1[5] = { 0, 0, 1, 0, 0 }, c2[5] = { 0, 0, 2, 0, 0 };
    const int32_t m1[5] = { 0, 0, -1, 0, 0 }, m2[5] = { 0, 0, -2, 0, 0 };
    CHECK(motion_hblur_abs(c1) == 0u); /* (26386 + 32768) >> 16 */
    CHECK(motion_hblur_abs(c2) == 1u); /* 85540 >> 16 */
    CHECK(motion_hblur_abs(m1) == 0u); /* 6382 >> 16 */
    CHECK(motion_hblur_abs(m2) == 1u); /* -20004 >> 16 = -1 */
    /* ties: sums of -32768 and 32768 round to 0 and 1 */
    const int32_t tie_lo[5] = { 32, 38, -56, 38, 32 }, tie_hi[5] = { -32, -38, 56, -38, -32 };
    CHECK(motion_hblur_abs(tie_lo) == 0u);
    CHECK(motion_hblur_abs(tie_hi) == 1u);
}

static void test_scores(void)
{
    /* 3 per sample, weight 1.6: 3 * 1.6 rounds up in double */
    CHECK_BITS(motion_sad_score(768 * 100, 10, 10, 1.6, 10000.0), ev_double_of(0x4013333333333334));
    CHECK_BITS(motion_sad_score(256 * 186624 * 7ull, 576, 324, 1.0, 5.0), 5.0);
    CHECK_BITS(motion_sad_score(0, 576, 324, 1.0, 10000.0), 0.0);
    /* w * h is an unsigned product: 65536 * 65536 wraps to 0, x / 0 = inf, clipped */
    CHECK_BITS(motion_sad_score(1, 65536, 65536, 1.0, 10000.0), 10000.0);
    CHECK_BITS(motion_sad_score(0, 65536, 65536, 1.0, 77.0), 77.0); /* NaN: MIN gives max */
    /* golden nat576_8bit_x264_crf23, motion_blend, frame 1: blend(6.4976..., 0.5, 2) */
    CHECK_BITS(motion_blend(ev_double_of(0x4019fd9421b64151), 0.5, 2.0),
               ev_double_of(0x4010feca10db20a8));
    CHECK_BITS(motion_blend(7.0, 1.0, 40.0), 7.0);
    CHECK_BITS(motion_blend(7.0, 0.0, 2.0), 2.0);
    CHECK_BITS(motion_clip(12.5, 10.0), 10.0);
    CHECK_BITS(motion_clip(-0.0, 10.0), -0.0);
}

static void test_float_taps(void)
{
    static const float t5[5] = FMOTION_TAPS5, t3[3] = FMOTION_TAPS3, no_op[5] = FMOTION_TAPS5_NO_OP;
    CHECK_FBITS(t5[0], 0x3d5f2f87);
    CHECK_FBITS(t5[1], 0x3e7a0feb);
    CHECK_FBITS(t5[2], 0x3ece2434);
    CHECK(t5[3] == t5[1] && t5[4] == t5[0]);
    CHECK_FBITS(t3[0], 0x3e2a5f20);
    CHECK_FBITS(t3[1], 0x3f2ad070);
    const float v[5] = { -128.0f, 127.0f, 0.5f, -3.25f, 100.0f };
    CHECK_FBITS(fmotion_taps(t5, 5, v), 0x41e72a12);
    CHECK_FBITS(fmotion_taps(t3, 3, v), 0x427e1b3e);
    const float ones[5] = { 1, 1, 1, 1, 1 };
    CHECK_FBITS(fmotion_taps(t5, 5, ones), 0x3f800000);
    CHECK_FBITS(fmotion_taps(no_op, 5, v), 0x3f000000);
    /* an output whose every product is -0 is +0: the sum starts from +0 */
    const float zeros[5] = { -0.0f, -0.0f, -0.0f, -0.0f, -0.0f };
    CHECK_FBITS(fmotion_taps(t5, 5, zeros), 0x00000000);
}

static void test_sad_terms(void)
{
    CHECK_FBITS(fmotion_abs_diff(1.5f, 3.0f), 0x3fc00000);
    CHECK_FBITS(fmotion_abs_diff(3.0f, 1.5f), 0x3fc00000);
    CHECK_FBITS(fmotion_abs_diff(-128.0f, 127.0f), 0x437f0000);
    CHECK_FBITS(fmotion_mean(373248.0f, 576, 324), 0x40000000);
    /* w * h = 2^24 + 1 becomes 2^24 as a float divisor: the mean is exactly 1 */
    CHECK_FBITS(fmotion_mean(16777216.0f, 24929, 673), 0x3f800000);
}

static void test_bilinear(void)
{
    int lo, hi;
    CHECK_FBITS(fmotion_bilinear_coord(0, 576, 288, &lo, &hi), 0x3f000000);
    CHECK(lo == 0 && hi == 1);
    CHECK_FBITS(fmotion_bilinear_coord(287, 576, 288, &lo, &hi), 0x3f000000);
    CHECK(lo == 574 && hi == 575);
    /* ratio (float)5 / 3 rounds: the weights are not thirds */
    CHECK_FBITS(fmotion_bilinear_coord(0, 5, 3, &lo, &hi), 0x3eaaaaaa);
    CHECK(lo == 0 && hi == 1);
    CHECK_FBITS(fmotion_bilinear_coord(2, 5, 3, &lo, &hi), 0x3f2aaaa8);
    CHECK(lo == 3 && hi == 4);
    CHECK_FBITS(fmotion_bilinear_coord(1, 7, 4, &lo, &hi), 0x3e000000);
    CHECK(lo == 2 && hi == 3);
    CHECK(fmotion_bilinear_index(-1.0, 3) == 1 && fmotion_bilinear_index(4.0, 3) == 2);
    CHECK(fmotion_bilinear_index(3.0, 3) == 3);
    CHECK_FBITS(fmotion_bilinear(0x1.555554p-2f, 0.75f, -128.0f, 17.5f, 3.3f, -0.1f), 0xc1920000);
}

int main(void)
{
    test_mirror();
    test_vertical();
    test_horizontal();
    test_scores();
    test_float_taps();
    test_sad_terms();
    test_bilinear();
    return check_report("motion_math");
}
