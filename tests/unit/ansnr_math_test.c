/* Host tests of the arithmetic the float_ansnr CPU loop and CUDA twin share (ansnr_math.h).
 * Expected filter outputs were worked step by step in binary32 (each product and each sum
 * rounded) with the reference's mirror, and are written as bits. */
#include <stdint.h>
#include <string.h>

#include "features/ansnr/ansnr_math.h"
#include "unit/check.h"

static const float ref_k[9] = ANSNR_REF_KERNEL;
static const float dis_k[25] = ANSNR_DIS_KERNEL;

static void test_kernels(void)
{
    CHECK(ref_k[0] == 0.0625f && ref_k[1] == 0.125f && ref_k[4] == 0.25f && ref_k[8] == 0.0625f);
    /* n / 571.0 in double, then rounded to float */
    CHECK_FBITS(dis_k[0], 0x3b658c54);  /* 2 */
    CHECK_FBITS(dis_k[1], 0x3c48daca);  /* 7 */
    CHECK_FBITS(dis_k[2], 0x3cac293f);  /* 12 */
    CHECK_FBITS(dis_k[6], 0x3d5e5ff2);  /* 31 */
    CHECK_FBITS(dis_k[7], 0x3dba8204);  /* 52 */
    CHECK_FBITS(dis_k[12], 0x3e63c13c); /* 127 */
    CHECK(dis_k[24] == dis_k[0] && dis_k[14] == dis_k[10] && dis_k[18] == dis_k[6]);
}

static void test_mirror(void)
{
    CHECK(ansnr_mirror(-1, 5) == 1 && ansnr_mirror(-2, 5) == 2 && ansnr_mirror(0, 5) == 0);
    /* the end repeats the edge sample, unlike the start */
    CHECK(ansnr_mirror(5, 5) == 4 && ansnr_mirror(6, 5) == 3 && ansnr_mirror(4, 5) == 4);
    CHECK(ansnr_mirror(-2, 3) == 2 && ansnr_mirror(4, 3) == 1);
}

/* a 3 x 4 image of values (7i + 13j) mod 23 - 11.5 */
static void fill(float img[3][4])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            img[i][j] = (float)((i * 7 + j * 13) % 23) - 11.5f;
}

static void test_filter(void)
{
    float img[3][4];
    fill(img);
    const float *src = &img[0][0];
    CHECK_FBITS(ansnr_filter_at(dis_k, 5, src, 4, 4, 3, 0, 0), 0xbfeff8d2);
    CHECK_FBITS(ansnr_filter_at(dis_k, 5, src, 4, 4, 3, 2, 3), 0xc056b26f);
    CHECK_FBITS(ansnr_filter_at(dis_k, 5, src, 4, 4, 3, 1, 1), 0x3b2c2ca0);
    CHECK_FBITS(ansnr_filter_at(ref_k, 3, src, 4, 4, 3, 0, 0), 0xbfc00000);
    CHECK_FBITS(ansnr_filter_at(ref_k, 3, src, 4, 4, 3, 2, 3), 0xc0700000);
    CHECK_FBITS(ansnr_filter_at(ref_k, 3, src, 4, 4, 3, 1, 1), 0xbe000000);
    /* the fast interior form is the same sum */
    CHECK_FBITS(ansnr_filter_inside(ref_k, 3, &img[1][1], 4), 0xbe000000);
    CHECK_FBITS(ansnr_filter_inside(ref_k, 3, &img[1][2], 4),
                check_fbits(ansnr_filter_at(ref_k, 3, src, 4, 4, 3, 1, 2)));
}

static void test_terms(void)
{
    CHECK(ansnr_signal_term(-128.0f) == 16384.0f);
    CHECK(ansnr_noise_term(-128.0f, 127.0f) == 65025.0f);
    CHECK(ansnr_noise_term(127.0f, -128.0f) == 65025.0f);
    /* rounded to float: 1 + 2^-12 squared needs 25 bits */
    const float x = 1.0f + 0x1p-12f;
    CHECK_FBITS(ansnr_signal_term(x), check_fbits(1.0f + 0x1p-11f));
    CHECK_FBITS(ansnr_noise_term(x, 0.0f), check_fbits(1.0f + 0x1p-11f));
}

int main(void)
{
    test_kernels();
    test_mirror();
    test_filter();
    test_terms();
    return check_report("ansnr_math");
}
