/* Host tests of the arithmetic the psnr/float_psnr/float_moment CPU loops and CUDA twins share
 * (psnr_math.h, moment_math.h, sample_math.h), and of whole-frame edge cases via the API. */
#include <math.h>
#include <stdlib.h>

#include "exactvmaf/exactvmaf.h"
#include "features/common/sample_math.h"
#include "features/moment/moment_math.h"
#include "features/psnr/float_psnr.h"
#include "features/psnr/psnr_math.h"
#include "unit/check.h"
#include "unit/check_api.h"

static void test_integer_terms(void)
{
    CHECK(psnr_sq_err8(0, 255) == 65025u);
    CHECK(psnr_sq_err8(255, 0) == 65025u);
    CHECK(psnr_sq_err8(17, 17) == 0u);
    CHECK(psnr_sq_err16(0, 65535) == 4294836225u);
    CHECK(psnr_sq_err16(65535, 0) == 4294836225u);
    CHECK(psnr_sq_err16(1023, 1000) == 529u);
    /* a row wider than 66052 samples wraps the reference's uint32 row sum */
    enum { W = 70000 };
    static uint8_t a[W], b[W];
    for (unsigned i = 0; i < W; i++)
        b[i] = 255;
    CHECK(psnr_row_sse8(a, b, W) == (uint32_t)((uint64_t)W * 65025u));
    CHECK((uint64_t)psnr_row_sse8(a, b, W) != (uint64_t)W * 65025u);
    static uint16_t c[W], d[W];
    for (unsigned i = 0; i < W; i++)
        d[i] = 65535;
    CHECK(psnr_row_sse16(c, d, W) == (uint64_t)W * 4294836225u);
}

static void test_float_terms(void)
{
    CHECK(sample_scaler(8) == 1.0f && sample_scaler(10) == 4.0f && sample_scaler(16) == 256.0f);
    CHECK(sample_scaler(9) == 2.0f && sample_scaler(13) == 32.0f);
    CHECK(sample_to_float(1023, 4.0f, 0) == 255.75f);
    CHECK(sample_to_float(65535, 256.0f, 0) == 255.99609375f);
    CHECK(sample_to_float(0, 1.0f, -128) == -128.0f);
    CHECK(psnr_float_sq_err(1.5f, 0.25f) == 1.5625f);
    /* the square is rounded to float: 65535/256 squared needs 32 significant bits */
    const float x = 255.99609375f;
    const float sq = moment_square(x);
    CHECK(sq == (float)((double)x * x));
    CHECK((double)sq != (double)x * x);
}

/* libvmaf's own PSNR unit test: 16-bit 0 against 65535 gives psnr 0 and mse 4294836225. */
static void test_16bit_extremes(void)
{
    enum { W = 16, H = 8 };
    static uint16_t zero[W * H], full[W * H];
    for (unsigned i = 0; i < W * H; i++)
        full[i] = 65535;
    EvPicture a = { W, H, 16, EV_PIX_444, { zero, zero, zero }, { 2 * W, 2 * W, 2 * W } };
    EvPicture b = { W, H, 16, EV_PIX_444, { full, full, full }, { 2 * W, 2 * W, 2 * W } };
    EvContext *ctx;
    CHECK(check_open(&ctx, 1, NULL) == 0);
    CHECK(ev_use_feature(ctx, "psnr", "enable_mse=true") == 0);
    CHECK(ev_send_pictures(ctx, &a, &b) == 0);
    CHECK(ev_flush(ctx) == 0);
    double v;
    CHECK(ev_get_score(ctx, "psnr_y", 0, &v) == 0);
    CHECK_BITS(v, 0.0);
    CHECK(ev_get_score(ctx, "mse_y", 0, &v) == 0);
    CHECK_BITS(v, 4294836225.0);
    ev_close(&ctx);
}

/* float_psnr's exact integer path equals the reference's double sum, and declines past 2^53
 * units (then the reference loop runs). */
static void test_float_psnr_paths(void)
{
    for (uint32_t e = 0; e < 65536; e++) {
        const float diff = sample_to_float(e, 256.0f, 0) - sample_to_float(0, 256.0f, 0);
        if ((double)psnr_float_sq_err(diff, 0.0f) * 65536.0 !=
            (double)psnr_float_sq_err_units(e, 0)) {
            CHECK(!"psnr_float_sq_err_units disagrees with the float square");
            break;
        }
    }
    enum { W = 2048, H = 1100 };
    uint16_t *a = calloc((size_t)W * H, 2), *b = calloc((size_t)W * H, 2);
    CHECK(a && b);
    const unsigned depths[] = { 8, 9, 10, 12, 15, 16 };
    for (unsigned k = 0; k < sizeof(depths) / sizeof(depths[0]); k++) {
        const unsigned bpc = depths[k], max = (1u << bpc) - 1;
        for (unsigned i = 0; i < 401 * 203; i++) {
            const uint32_t r = check_hash(i + 17 * k) % (max + 1),
                           d = check_hash(i ^ 0x5bd1e995u) % (max + 1);
            if (bpc > 8) {
                a[i] = (uint16_t)r;
                b[i] = (uint16_t)d;
            } else {
                ((uint8_t *)a)[i] = (uint8_t)r;
                ((uint8_t *)b)[i] = (uint8_t)d;
            }
        }
        const EvPic pa = check_luma_pic(a, 401, 203, bpc), pb = check_luma_pic(b, 401, 203, bpc);
        double fast = 0;
        CHECK(ev_float_psnr_noise_fast(&pa, &pb, &fast) == 1);
        CHECK_BITS(fast, ev_float_psnr_noise_reference(&pa, &pb));
    }
    for (size_t i = 0; i < (size_t)W * H; i++) {
        a[i] = 0;
        b[i] = 65535;
    }
    EvPic pa = check_luma_pic(a, W, 1024, 16), pb = check_luma_pic(b, W, 1024, 16);
    double fast = 0;
    CHECK(ev_float_psnr_noise_fast(&pa, &pb, &fast) == 1);
    CHECK_BITS(fast, ev_float_psnr_noise_reference(&pa, &pb));
    pa = check_luma_pic(a, W, H, 16);
    pb = check_luma_pic(b, W, H, 16);
    CHECK(ev_float_psnr_noise_fast(&pa, &pb, &fast) == 0);
    free(a);
    free(b);
}

int main(void)
{
    test_float_psnr_paths();
    test_integer_terms();
    test_float_terms();
    test_16bit_extremes();
    return check_report("psnr_math");
}
