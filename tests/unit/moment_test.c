/* float_moment: the exact integer path equals the reference's running double sums, bit for
 * bit, at every depth, and hands over to the reference loop past 2^53 units. */
#include <stdlib.h>

#include "features/moment/moment.h"
#include "features/moment/moment_math.h"
#include "unit/check.h"
#include "unit/check_api.h"

static void fill(uint16_t *buf, size_t n, unsigned bpc, unsigned seed, uint32_t floor)
{
    const uint32_t max = (1u << bpc) - 1;
    for (size_t i = 0; i < n; i++) {
        uint32_t v = floor + check_hash((uint32_t)i * 2654435761u + seed) % (max - floor + 1);
        if (bpc > 8)
            buf[i] = (uint16_t)v;
        else
            ((uint8_t *)buf)[i] = (uint8_t)v;
    }
}

static void check_paths_agree(const EvPic *p, int want_fast)
{
    double ref[2], fast[2] = { 0, 0 };
    ev_moment_sums_reference(p, ref);
    const int used = ev_moment_sums_fast(p, fast);
    CHECK(used == want_fast);
    if (used) {
        CHECK_BITS(fast[0], ref[0]);
        CHECK_BITS(fast[1], ref[1]);
    }
}

int main(void)
{
    /* the float square of v / 2^k rounds like the integer v * v converted to float */
    for (uint32_t v = 0; v < 65536; v++) {
        const float x = sample_to_float(v, 256.0f, 0);
        if ((double)moment_square(x) * 65536.0 != (double)moment_square_units(v)) {
            CHECK(!"moment_square_units disagrees with the float square");
            break;
        }
    }
    enum { W = 2048, H = 1100 };
    uint16_t *buf = malloc((size_t)W * H * sizeof(uint16_t));
    CHECK(buf != NULL);
    const unsigned depths[] = { 8, 9, 10, 11, 12, 14, 16 };
    for (unsigned d = 0; d < sizeof(depths) / sizeof(depths[0]); d++) {
        fill(buf, 357 * 353, depths[d], d, 0);
        const EvPic p = check_luma_pic(buf, 357, 353, depths[d]);
        check_paths_agree(&p, 1);
    }
    /* 2^21 samples of 65535 (4294836224 units each after the float rounding): the sum stays
     * below 2^53 units; one more row passes it and the reference loop must take over. */
    for (size_t i = 0; i < (size_t)W * H; i++)
        buf[i] = 65535;
    EvPic p = check_luma_pic(buf, W, 1024, 16);
    check_paths_agree(&p, 1);
    p = check_luma_pic(buf, W, 1025, 16);
    check_paths_agree(&p, 0);
    /* bright noise past the limit: the double sum rounds, the fast path declines */
    fill(buf, (size_t)W * H, 16, 7, 64000);
    p = check_luma_pic(buf, W, H, 16);
    check_paths_agree(&p, 0);
    free(buf);
    return check_report("moment");
}
