/* Host tests of the CIEDE2000 arithmetic (ciede_math.h). The expected scores are Netflix
 * libvmaf f85a8536's (scalar build, glibc 2.36) ciede2000 of 1x1 4:4:4 frames holding these
 * pixel pairs, as bits: a 1-pixel frame's score is 45 - 20 log10(dE00), so every step of the
 * per-pixel arithmetic (and each glibc call it makes) shows in it. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "features/ciede/ciede_math.h"
#include "unit/check.h"

/* Hand-picked 8-bit pairs: the reference's Y Cb Cr, the distorted's, and Netflix's score. */
static const struct {
    unsigned px[6];
    uint64_t want;
} fixed_8[] = {
    { { 16, 128, 128, 16, 128, 128 }, 0x7ff0000000000000 },
    { { 16, 128, 128, 235, 128, 128 }, 0x3ff421dc4cd89a00 },
    { { 16, 128, 128, 81, 90, 240 }, 0x402144efe802b280 },
    { { 20, 130, 125, 22, 126, 131 }, 0x4045806fc81d4b2a },
    { { 18, 120, 140, 25, 135, 118 }, 0x403fa13c6e4ce14a },
    { { 30, 100, 150, 17, 140, 120 }, 0x4036b4ddc535472a },
    { { 27, 129, 66, 32, 133, 38 }, 0x403a14c427e5c12f },
    { { 53, 166, 176, 18, 135, 144 }, 0x402d3950c7634232 },
    { { 18, 228, 152, 17, 85, 99 }, 0x402bfe76cec16176 },
};

/* Seeded random pairs of each depth (8-bit: the first 16 with dark lumas). */
static const uint64_t want_8[] = {
    0x40313f8ffd94ccbf, 0x403f182d3504eaf9, 0x40285124186265f0, 0x40292b92a4889dd8,
    0x402bea6f30d58800, 0x402c0d955719fbec, 0x402d043a58286798, 0x403247b7df36d6e8,
    0x402e14d821243da8, 0x40301a31ad61d54b, 0x4036b6dfbbdc5bce, 0x4032b823bb6b7182,
    0x403782dbaad318fe, 0x40265609b92a23b4, 0x4032ed19b9d8891a, 0x4033d1bfe92232e1,
    0x402a24ffcff15ae0, 0x4030a6eee0238db6, 0x40312f449216ed92, 0x403615bfa7d00ab4,
    0x4027797ca695cc30, 0x4031c284313bd85a, 0x40307859824fc6a7, 0x4037b112048e2f8f,
    0x40297cd172c896a0, 0x40314bafe203b043, 0x40303bd202295b39, 0x4012d9b622d93fb8,
    0x40272f6e285ad3fc, 0x402ec3d8d2c70c04, 0x4020b9560bbf4d4c, 0x4032f84b78d4d26e,
    0x402f0f55a9808158, 0x40033326e9c4aec0, 0x402bf3f906d311fc, 0x402afd2a366eddca,
    0x4023c0def8a73b7c, 0x402a1def11d75108, 0x402c92b0cce81ef6, 0x40387fe1c7e013df
};

static const uint64_t want_10[] = { 0x403319fd1da72404, 0x402a15cb0aabd0a0, 0x402124d03dd9eddc,
                                    0x403001f5da77006c, 0x4025e5e90c75a550, 0x400d4ca3a284b670,
                                    0x4027ac7ba35b49c0, 0x401be0d6c8765130, 0x4035b75a11bbb640,
                                    0x4033e840e66e135b, 0x401c6d071858a7f0, 0x40273efb2d63c29c,
                                    0x403a1c9599834a99, 0x401002069da6ba28, 0x403800599346b2fc,
                                    0x40307c64952b8d44, 0x4005d6c6dbe70bb0, 0x4035bc4b58a5c73b,
                                    0x401b7bf680a8f800, 0x402989dd3320bec0, 0x4032e9a8674cb29f,
                                    0x4035a7c413970367, 0x3ff6011afece18c0, 0x4020eeba22f87b0c };

static const uint64_t want_12[] = { 0x4025570bb98dbe84, 0x402663ad338b2f04, 0x4031202811bf4ec6,
                                    0x402e21ad818d81de, 0x402778b4b07ceaac, 0x40233a06e44377f4,
                                    0x402e0671cbde58e0, 0x4013a8fce82b4ae8, 0x4030ce32b675c132,
                                    0x403ad5ef542b4e67, 0x4034ba05edf1817f, 0x4003979173c44080,
                                    0x40337c8ba1e49e1c, 0x403190b611f25b3a, 0x40384b5e217bd3f5,
                                    0x403fdd32504385ef, 0x4032cfeee790a27a, 0x4020c96de21e0924,
                                    0x402ce6283de4a056, 0x402094300b89a018, 0x402d454073b8aac4,
                                    0x402d44638021ea18, 0x4030d3ffd36ac069, 0x403082542b7fc4c7 };

static const uint64_t want_16[] = { 0x4038f16ed95ef592, 0x40325a8cd7ac0f29, 0x4031589803e3e608,
                                    0x4031ee48ca90dfe2, 0x4021b8ab7c37a728, 0x401d9a6b259d6b00,
                                    0x4032128caa64e3fe, 0x402dd486c70faad8, 0x4031adbc1ba992e8,
                                    0x40332160d28a3b79, 0x4024b1897a761b88, 0x4031908ae4c22173,
                                    0x402511f7801ba670, 0x4033ef165f072a07, 0x402f13112f4dadae,
                                    0x40379f93331037b9, 0x40346bab6d26b549, 0x403443a9f5bbc0dc,
                                    0x402b58064e6ac5d0, 0x40281170912e5a5c, 0x402f2c8d1adeea72,
                                    0x4032395e8a85d456, 0x40198e9938e12670, 0x40244097b729bf30 };

static uint32_t lcg_state;

static unsigned lcg_sample(unsigned bpc)
{
    lcg_state = lcg_state * 1103515245u + 12345u;
    return (lcg_state >> 8) % (1u << bpc);
}

/* One pair's score (a 1x1 frame of each) against Netflix's bits. */
static void check_pair(unsigned bpc, const char *set, unsigned i, const unsigned px[6],
                       uint64_t want)
{
    const CiedeRange rg = ciede_range(bpc);
    const CiedeLab p = ciede_lab_of(px[0], px[1], px[2], rg);
    const CiedeLab q = ciede_lab_of(px[3], px[4], px[5], rg);
    const double got = ciede_score(ciede2000(p, q), 1.0);
    if (check_bits(got) != want)
        printf("depth %u %s pair %u: (%u %u %u) (%u %u %u)\n", bpc, set, i, px[0], px[1], px[2],
               px[3], px[4], px[5]);
    CHECK_BITS(got, ev_double_of(want));
}

static void check_depth(unsigned bpc, const uint64_t *want, unsigned n)
{
    lcg_state = 2024 + bpc;
    for (unsigned f = 0; f < n; f++) {
        unsigned px[6];
        for (unsigned k = 0; k < 6; k++)
            px[k] = bpc == 8 && f < 16 && k % 3 == 0 ? 16 + lcg_sample(8) % 32 /* dark lumas */
                                                     : lcg_sample(bpc);
        check_pair(bpc, "seeded", f, px, want[f]);
    }
}

static void test_netflix_pairs(void)
{
    for (unsigned i = 0; i < sizeof(fixed_8) / sizeof(fixed_8[0]); i++)
        check_pair(8, "hand-picked", i, fixed_8[i].px, fixed_8[i].want);
    check_depth(8, want_8, sizeof(want_8) / sizeof(want_8[0]));
    check_depth(10, want_10, sizeof(want_10) / sizeof(want_10[0]));
    check_depth(12, want_12, sizeof(want_12) / sizeof(want_12[0]));
    check_depth(16, want_16, sizeof(want_16) / sizeof(want_16[0]));
}

/* What GCC folds in the reference, against glibc: powf(25, 7) and pow(25, 7). */
static void test_folded_constants(void)
{
    volatile float b = 25.0f, e = 7.0f;
    CHECK(powf(b, e) == CIEDE_25_POW_7F);
    CHECK(pow((double)b, (double)e) == CIEDE_25_POW_7);
    CHECK(CIEDE_25_POW_7F == 6103515648.0f && (double)CIEDE_25_POW_7F != CIEDE_25_POW_7);
}

static void test_steps(void)
{
    const CiedeRange r10 = ciede_range(10);
    CHECK(r10.y_offset == 64.0 && r10.c_offset == 512.0);
    CHECK_BITS(r10.y_gain, 1.0 / 876.0);
    /* black: RGB 0, XYZ 0, the linear branch of f (16 / 116 as float): a = b = 0 exactly,
     * L = 116 f - 16 = -2^-24 from f's rounding */
    const CiedeLab black = ciede_lab_of(16, 128, 128, ciede_range(8));
    CHECK(black.l == -0x1p-24f && black.a == 0.0f && black.b == 0.0f);
    CHECK(ciede_hue(0.0f, 0.0f) == 0.0f);
    /* atan2 below 0 is wrapped into [0, 2 pi) through double */
    CHECK_FBITS(ciede_hue(-1.0f, 0.0f),
                check_fbits((float)(-(double)(float)(CIEDE_PI / 2) + 2. * CIEDE_PI)));
    /* hue differences over pi wrap by 2 pi, either way */
    CHECK(ciede_delta_hue(1, 1, 0.5f, 6.0f) == (float)((double)(6.0f - 0.5f) - 2. * CIEDE_PI));
    CHECK(ciede_delta_hue(1, 1, 6.0f, 0.5f) == (float)((double)(0.5f - 6.0f) + 2. * CIEDE_PI));
    CHECK(ciede_delta_hue(0, 1, 6.0f, 0.5f) == 0.0f);
    CHECK(ciede_mean_hue(0.5f, 6.0f) == (float)(((double)6.5f + 2.0 * CIEDE_PI) / 2.0));
    CHECK(ciede_mean_hue(1.0f, 2.0f) == 1.5f);
    CHECK(ciede2000(black, black) == 0.0f && isinf(ciede_score(0.0, 1.0)));
}

int main(void)
{
    test_folded_constants();
    test_steps();
    test_netflix_pairs();
    return check_report("ciede_math");
}
