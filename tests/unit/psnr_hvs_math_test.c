/* Host tests of the PSNR-HVS arithmetic (psnr_hvs_math.h). The expected scores are Netflix
 * libvmaf f85a8536's (scalar build) psnr_hvs_y, _cb, _cr and psnr_hvs of 8x8 (one block per
 * plane), 15x15 (four overlapping blocks) and 22x22 (nine: a count that is not a power of
 * two) 4:4:4 frames of the patterns below, as bits. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "features/psnr_hvs/psnr_hvs_csf.h"
#include "features/psnr_hvs/psnr_hvs_math.h"
#include "unit/check.h"

static const float csf[3][64] = { PSNR_HVS_CSF_Y, PSNR_HVS_CSF_CB, PSNR_HVS_CSF_CR };

typedef struct Want {
    unsigned bpc, size;
    uint64_t bits[20]; /* frames 0..4: y, cb, cr, combined */
} Want;

static const Want wants[] = {
    { 8, 8, { 0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000,
              0x40452eb4dbda068d, 0x4044cd27fba4b196, 0x4045f09f0320bb53, 0x4045347175fc2d8a,
              0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000,
              0x404bfe14211122d7, 0x7ff0000000000000, 0x404e00b2a9328fb9, 0x404c5f40142eea60,
              0x404a3b48f16e5cb9, 0x404b45e9b2d4b8f7, 0x404e00b2a9328fb9, 0x404a82a7e6ec9cb8 } },
    { 8, 15, { 0x404d7f65a35d985f, 0x404dcc813f44a378, 0x404f82042b7f0541, 0x404da9bb5b396087,
               0x4045b19390c0266f, 0x4044e5d7053044ec, 0x404586fd9a22aa8c, 0x4045954667182af2,
               0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000,
               0x404d035a26f9aafb, 0x404c85c18af7623c, 0x404cc99bf368f1de, 0x404cef88815f638b,
               0x404d0351e54243ca, 0x404a38054204cf8d, 0x404d1f4d0f9b2984, 0x404c84162a6890a0 } },
    { 8, 22, { 0x404cb2fadc6bb7ef, 0x404c274f497486b6, 0x405031b4e0fd1a1a, 0x404cd156dc93be32,
               0x40458b5da12bfaa8, 0x4044ed481903fe52, 0x4045973a45d9a286, 0x40457a831bb362c1,
               0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000,
               0x404d7f65a6a6e65f, 0x404d08b4dfc8d2d3, 0x404c9f27570da6d9, 0x404d57f9a4600113,
               0x404bb0ba608ddeed, 0x404bbe1c5254f1d5, 0x404bc8c3da760d34, 0x404bb46a3cc2347c } },
    { 10, 8, { 0x405284a088c4d7f7, 0x4052288b50ac37fc, 0x404e03f68d691185, 0x40512a66b0bb5cbd,
               0x404554cab5aca2d5, 0x404544ae98e556d7, 0x4045ddef8c94ea8d, 0x40455f6964f482a6,
               0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000,
               0x404e0be41404ffa1, 0x7ff0000000000000, 0x404c412b620edc06, 0x404dfc6a17032e7d,
               0x404c015803beeebe, 0x404d53b9a1c3f66a, 0x404c412b620edc06, 0x404c21a3d12ea996 } },
    { 10, 15, { 0x405071df667933f9, 0x404eca090d5bdf36, 0x404f43ce62f28e27, 0x40502e79d9120f62,
                0x4045fab84b476643, 0x40452408725e2243, 0x404583141f955273, 0x4045d482c0ad477d,
                0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000,
                0x404e4051656e9441, 0x4051ea859511f383, 0x404d5fb72584b3cc, 0x404e587efe536a67,
                0x404eda2a036f644d, 0x404b03db10bb3b4e, 0x404c870136e2a1c4, 0x404dbabb7f5cf413 } },
    { 10, 22, { 0x405007bb90beafe1, 0x404d87794ecee4ce, 0x404e2bf90e630aea, 0x404f64c3dd1c66e2,
                0x4045d1fa094a313f, 0x404534bd3b14c892, 0x40458ae6d8ab0cc0, 0x4045b8ccfe2d5cc6,
                0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000,
                0x404e3a3e12bf89f8, 0x4050c7f6a38f2968, 0x404ddea3f9e5ab6a, 0x404e5cf7ae354136,
                0x404df69d988b4960, 0x404b831ac872e464, 0x404dae456e417194, 0x404d86a9e9d38cf8 } },
    { 12, 8, { 0x405052b04b6d2cf1, 0x4053aa451ec43356, 0x404f449efe29e987, 0x40505493f88320e9,
               0x40454e7c9705d103, 0x40456012ea479b27, 0x4045d407dc70de73, 0x40455c422bd6dcfe,
               0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000,
               0x404e0cb4ac1b3d32, 0x405228f39c77bdce, 0x404e4c8806c1ce63, 0x404e4a8b2b856abe,
               0x4049804d8582216d, 0x404c30d8528d3a99, 0x404b49e50228e354, 0x4049cbe115bce38d } },
    { 12, 15, { 0x40502928908a89fa, 0x404d063e2d11c720, 0x404d51c7a5afdddc, 0x404f3a42cf79e21c,
                0x404602cc0da8e999, 0x4045241730c8921f, 0x40457e29c12a86c6, 0x4045d9f66cde55f6,
                0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000,
                0x4050004c3e4dafe2, 0x4050e0035d9dfc8c, 0x404e57c312d03ed7, 0x404fe07e56e30092,
                0x404c32c6558cfa8a, 0x404b05bff70408e0, 0x404ce7ba0962b80e, 0x404c1acc325c7cce } },
    { 12, 22, { 0x405008b9ecae3c4f, 0x404d57a30d0c2852, 0x404dfbaf2ad82bc2, 0x404f519f2229d18c,
                0x4045d60d7523378a, 0x404539daae730389, 0x40458003c1ffeba1, 0x4045bb5cfa0d1a15,
                0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000,
                0x404ee5990fe22f73, 0x4050ee1b56b02c31, 0x404e1372394f9c4a, 0x404ef5ad7398cf80,
                0x404c4e0b2a71c943, 0x404c7885adda8361, 0x404c794c76abccc5, 0x404c565b48d3a3b9 } },
};

/* Frame 0 and 3: a hashed texture; 1: flat (zero variance); 2: dis identical to ref;
 * 4: a high-contrast checkerboard (large DCT intermediates). */
static int ref_sample(unsigned bpc, int p, int i, int j, int f)
{
    const int max = (1 << bpc) - 1;
    if (f == 1)
        return (100 << (bpc - 8)) + p;
    if (f == 4)
        return (i + j + p) % 2 ? max - (i * j * 7) % (16 << (bpc - 8)) : (i * 3 + j) << (bpc - 8);
    return ((i * 37 + j * 91 + p * 53 + f * 17) ^ (i * j * 13 * (1 << (bpc - 8)))) % (1 << bpc);
}

static int dis_sample(unsigned bpc, int p, int i, int j, int f)
{
    const int r = ref_sample(bpc, p, i, j, f);
    if (f == 2)
        return r;
    const int v = r + ((i * 5 + j * 3 + p + f) % 7 - 3) * (1 << (bpc - 8)) * (1 + (i + j) % 3);
    const int max = (1 << bpc) - 1;
    return v < 0 ? 0 : v > max ? max : v;
}

static void load(int32_t blk[64], int ref, unsigned bpc, int p, int y, int x, int f)
{
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            blk[i * 8 + j] =
                ref ? ref_sample(bpc, p, y + i, x + j, f) : dis_sample(bpc, p, y + i, x + j, f);
}

/* One plane of an n x n frame, blocks every 7 samples, as the extractor runs them. */
static double plane(unsigned bpc, int n, int p, int f)
{
    float mask[64];
    for (int k = 0; k < 64; k++)
        mask[k] = psnr_hvs_mask_weight(csf[p][k]);
    float sum = 0;
    int coeffs = 0;
    for (int y = 0; y < n - 7; y += PSNR_HVS_STEP)
        for (int x = 0; x < n - 7; x += PSNR_HVS_STEP) {
            int32_t s[64], d[64];
            load(s, 1, bpc, p, y, x, f);
            load(d, 0, bpc, p, y, x, f);
            const float rs = psnr_hvs_variance_ratio(s), rd = psnr_hvs_variance_ratio(d);
            psnr_hvs_fdct8x8(s);
            psnr_hvs_fdct8x8(d);
            const float ts = psnr_hvs_threshold(psnr_hvs_ac_energy(s, mask), rs);
            const float td = psnr_hvs_threshold(psnr_hvs_ac_energy(d, mask), rd);
            sum = psnr_hvs_block_error(sum, s, d, td > ts ? td : ts, mask, csf[p]);
            coeffs += 64;
        }
    return psnr_hvs_plane_score(sum, coeffs, bpc);
}

static void test_netflix_frames(void)
{
    for (size_t c = 0; c < sizeof(wants) / sizeof(wants[0]); c++) {
        const Want *w = &wants[c];
        for (int f = 0; f < 5; f++) {
            double score[3];
            for (int p = 0; p < 3; p++) {
                score[p] = plane(w->bpc, (int)w->size, p, f);
                CHECK_BITS(psnr_hvs_db(score[p]), ev_double_of(w->bits[f * 4 + p]));
            }
            CHECK_BITS(psnr_hvs_db(psnr_hvs_combined(score[0], score[1], score[2])),
                       ev_double_of(w->bits[f * 4 + 3]));
        }
    }
}

static void test_integer_steps(void)
{
    /* Daala's unbiased halving rounds toward zero */
    CHECK(psnr_hvs_half(3) == 1 && psnr_hvs_half(-3) == -1 && psnr_hvs_half(-1) == 0);
    CHECK(psnr_hvs_lift(3, 16384, 15) == 2 && psnr_hvs_lift(-3, 16384, 15) == -1);
    /* a flat block transforms to its DC alone: 8 times the sample, less the lifting's
     * rounding */
    int32_t blk[64];
    for (int k = 0; k < 64; k++)
        blk[k] = 4095;
    psnr_hvs_fdct8x8(blk);
    int ac_zero = 1;
    for (int k = 1; k < 64; k++)
        ac_zero &= blk[k] == 0;
    CHECK(blk[0] == 8 * 4095 - 1 && ac_zero);
    CHECK(psnr_hvs_quadrant(0, 0) == 0 && psnr_hvs_quadrant(4, 0) == 1 &&
          psnr_hvs_quadrant(0, 4) == 2 && psnr_hvs_quadrant(7, 7) == 3);
}

static void test_float_steps(void)
{
    /* flat block: zero variance, the ratio stays 0 */
    int32_t flat[64];
    for (int k = 0; k < 64; k++)
        flat[k] = 77;
    CHECK(psnr_hvs_variance_ratio(flat) == 0.0f);
    CHECK_FBITS(psnr_hvs_mask_weight(1.0f),
                check_fbits((float)(PSNR_HVS_MASK_FACTOR * PSNR_HVS_MASK_FACTOR)));
    CHECK(isinf(psnr_hvs_db(0.0)) && psnr_hvs_db(0.1) == 10.0);
}

/* The two-block forms the extractor runs equal the one-block spec, bit for bit. */
static void test_pair_forms(void)
{
    uint32_t x = 77;
    float mask[64];
    for (int k = 0; k < 64; k++)
        mask[k] = psnr_hvs_mask_weight(csf[0][k]);
    for (int round = 0; round < 200; round++) {
        int32_t a[64], b[64];
        const int range = round % 3 == 0 ? 4096 : round % 3 == 1 ? 256 : 3;
        for (int k = 0; k < 64; k++) {
            x = x * 1103515245u + 12345u;
            a[k] = (int32_t)((x >> 8) % (uint32_t)range);
            x = x * 1103515245u + 12345u;
            b[k] = round % 5 == 0 ? 9 : (int32_t)((x >> 8) % (uint32_t)range);
        }
        const int32_t *const pair[2] = { a, b };
        float ratio[2], energy[2];
        psnr_hvs_variance_ratio2(pair, ratio);
        CHECK_FBITS(ratio[0], check_fbits(psnr_hvs_variance_ratio(a)));
        CHECK_FBITS(ratio[1], check_fbits(psnr_hvs_variance_ratio(b)));
        psnr_hvs_fdct8x8(a);
        psnr_hvs_fdct8x8(b);
        psnr_hvs_ac_energy2(pair, mask, energy);
        CHECK_FBITS(energy[0], check_fbits(psnr_hvs_ac_energy(a, mask)));
        CHECK_FBITS(energy[1], check_fbits(psnr_hvs_ac_energy(b, mask)));
    }
}

/* The block grid: psnr_hvs_blocks counts the reference's loop "for (y = 0; y < n - 7;
 * y += 7)", and block b of the twin's raster numbering starts where that loop's b-th does. */
static void test_block_grid(void)
{
    for (int n = 0; n <= 300; n++) {
        int count = 0;
        for (int y = 0; y < n - 7; y += PSNR_HVS_STEP)
            CHECK(y == count++ * PSNR_HVS_STEP);
        CHECK(psnr_hvs_blocks(n) == count);
    }
    uint16_t wide[12 * 10];
    uint8_t narrow[12 * 10];
    for (int k = 0; k < 120; k++) {
        wide[k] = (uint16_t)(k * 37 % 4096);
        narrow[k] = (uint8_t)(k * 37);
    }
    int32_t a[64], b[64];
    psnr_hvs_load_block(wide, 12 * sizeof(uint16_t), 1, 3, 2, a);
    psnr_hvs_load_block(narrow, 12, 0, 4, 1, b);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            CHECK(a[i * 8 + j] == wide[(2 + i) * 12 + 3 + j]);
            CHECK(b[i * 8 + j] == narrow[(1 + i) * 12 + 4 + j]);
        }
}

/*
 * What the CUDA twin runs, on the host: each block's threshold (psnr_hvs_block_threshold, one
 * call for the pair) equals the one-block spec's, and the plane's sum formed from the terms
 * written out in raster block order and added afterwards in that order equals the running sum
 * of psnr_hvs_block_error, bit for bit; so does the sum of only the terms that are not zero
 * (psnr_hvs_block_nonzero_terms), padded with +0.
 */
static void test_twin_order(void)
{
    enum { W = 37, H = 30 };
    uint32_t x = 12345;
    uint16_t ref[W * H], dis[W * H];
    float mask[64];
    for (int k = 0; k < 64; k++)
        mask[k] = psnr_hvs_mask_weight(csf[1][k]);
    int zeros_seen = 0, many_seen = 0; /* rounds with terms dropped, with many kept */
    for (int round = 0; round < 20; round++) {
        const uint32_t range = round % 2 ? 4096 : 64;
        for (int k = 0; k < W * H; k++) {
            x = x * 1103515245u + 12345u;
            ref[k] = (uint16_t)((x >> 8) % range);
            x = x * 1103515245u + 12345u;
            const uint32_t r = x >> 8;
            dis[k] = round % 3 == 0   ? ref[k]                               /* all 0 */
                     : round % 3 == 1 ? (uint16_t)((ref[k] + r % 9) % range) /* close */
                                      : (uint16_t)(r % range);               /* apart */
        }
        const int nx = psnr_hvs_blocks(W), ny = psnr_hvs_blocks(H);
        static float terms[64 * 64], dense[64 * 64];
        int n_dense = 0;
        float chain = 0;
        for (int blk = 0; blk < nx * ny; blk++) {
            const int bx = blk % nx, by = blk / nx;
            int32_t bs[64], bd[64], s1[64], d1[64];
            psnr_hvs_load_block(ref, W * 2, 1, bx * PSNR_HVS_STEP, by * PSNR_HVS_STEP, bs);
            psnr_hvs_load_block(dis, W * 2, 1, bx * PSNR_HVS_STEP, by * PSNR_HVS_STEP, bd);
            memcpy(s1, bs, sizeof(s1));
            memcpy(d1, bd, sizeof(d1));
            const float rs = psnr_hvs_variance_ratio(s1), rd = psnr_hvs_variance_ratio(d1);
            psnr_hvs_fdct8x8(s1);
            psnr_hvs_fdct8x8(d1);
            const float ts = psnr_hvs_threshold(psnr_hvs_ac_energy(s1, mask), rs);
            const float td = psnr_hvs_threshold(psnr_hvs_ac_energy(d1, mask), rd);
            const float th = psnr_hvs_block_threshold(bs, bd, mask);
            CHECK_FBITS(th, check_fbits(td > ts ? td : ts));
            CHECK(!memcmp(bs, s1, sizeof(s1)) && !memcmp(bd, d1, sizeof(d1)));
            chain = psnr_hvs_block_error(chain, bs, bd, th, mask, csf[1]);
            for (int k = 0; k < 64; k++)
                terms[blk * 64 + k] = psnr_hvs_coeff_term(bs, bd, k, th, mask, csf[1]);
            float kept[64];
            const int n = psnr_hvs_block_nonzero_terms(bs, bd, th, mask, csf[1], kept);
            CHECK(n >= 0 && n <= 64);
            for (int k = 0; k < n; k++)
                dense[n_dense++] = kept[k];
        }
        float sum = 0, sum_dense = 0;
        for (int k = 0; k < nx * ny * 64; k++)
            sum += terms[k];
        for (int k = 0; k < n_dense; k++)
            sum_dense += dense[k];
        for (int k = 0; k < 37; k++) /* the twin's padding of its last loads */
            sum_dense += 0.0f;
        CHECK_FBITS(sum, check_fbits(chain));
        CHECK_FBITS(sum_dense, check_fbits(chain));
        zeros_seen |= n_dense < nx * ny * 64;
        many_seen |= 3 * n_dense > nx * ny * 64;
    }
    CHECK(zeros_seen && many_seen);
}

int main(void)
{
    test_integer_steps();
    test_pair_forms();
    test_block_grid();
    test_twin_order();
    test_float_steps();
    test_netflix_frames();
    return check_report("psnr_hvs_math");
}
