/* Host tests of CAMBI's arithmetic (cambi_math.h), its tables (cambi_tvi.c) and its pooling
 * (cambi_pool.c). Expected values are worked by hand from libvmaf's definitions; the visibility
 * tables are glibc 2.36 pow results (the golden's libm), checked also by their definition. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "features/cambi/cambi_internal.h"
#include "unit/check.h"

static void test_weights_and_window(void)
{
    /* libvmaf's g_contrast_weights, as data */
    static const int want[32] = { 1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8,
                                  8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9 };
    int same = 1;
    for (int d = 0; d < 32; d++)
        same &= cambi_contrast_weight(d) == want[d];
    CHECK(same);
    CHECK(cambi_scale_weight(0) == 16 && cambi_scale_weight(4) == 1);
    /* 65 * (w + h) / 375 >> 4, odd; halved (rounding up) with the speed-up */
    CHECK(cambi_adjust_window(65, 576, 324, 0) == 9);    /* 156 >> 4 = 9 */
    CHECK(cambi_adjust_window(65, 1920, 1080, 0) == 33); /* 520 >> 4 = 32, | 1 */
    CHECK(cambi_adjust_window(65, 3840, 2160, 0) == 65);
    CHECK(cambi_adjust_window(65, 1920, 1080, 1) == 17); /* (32 + 1) >> 1 = 16, | 1 */
    CHECK(cambi_adjust_window(65, 3840, 2160, 1) == 33);
    CHECK(cambi_adjust_window(15, 576, 324, 0) == 3); /* 36 >> 4 = 2, | 1 */
    CHECK(cambi_adjust_window(127, 7680, 4320, 0) == 255);
}

static void test_mask_threshold(void)
{
    CHECK(cambi_ceil_log2(0) == 0 && cambi_ceil_log2(1) == 0 && cambi_ceil_log2(2) == 1);
    CHECK(cambi_ceil_log2(45) == 6 && cambi_ceil_log2(64) == 6 && cambi_ceil_log2(65) == 7);
    /* (49 + 3 * (ceil_log2((w >> 6) * (h >> 6)) - 11) - 1) >> 1 */
    CHECK(cambi_mask_threshold(576, 324) == 16);   /* 9 * 5 = 45 -> 6: 33 >> 1 */
    CHECK(cambi_mask_threshold(1920, 1080) == 21); /* 30 * 16 = 480 -> 9: 42 >> 1 */
    CHECK(cambi_mask_threshold(3840, 2160) == 24); /* 60 * 33 = 1980 -> 11 */
    CHECK(cambi_mask_threshold(100, 60) == 7);     /* 1 * 0 = 0 -> 0: 15 >> 1 */
}

static void test_samples(void)
{
    CHECK(cambi_mode3(5, 5, 1) == 5 && cambi_mode3(1, 5, 5) == 5 && cambi_mode3(5, 1, 5) == 5);
    CHECK(cambi_mode3(3, 1, 2) == 1 && cambi_mode3(2, 3, 1) == 1 && cambi_mode3(1, 2, 3) == 1);
    CHECK(cambi_to_10b(255, 8) == 1020 && cambi_to_10b(511, 9) == 1022);
    CHECK(cambi_to_10b(1023, 10) == 1023 && cambi_to_10b(4095, 12) == 1024);
    CHECK(cambi_to_10b(4093, 12) == 1023 && cambi_to_10b(4094, 12) == 1024); /* +2 >> 2 */
    CHECK(cambi_to_10b(65535, 16) == 1024 && cambi_to_10b(31, 16) == 0 &&
          cambi_to_10b(32, 16) == 1);
    CHECK(cambi_avg4(1, 2, 3, 5) == 2 && cambi_avg2(3, 4) == 3);
}

/* The C row kernels (cambi_rows_tmpl.h, branch-free for the compiler's vectors) against the
 * per-sample definitions above: the mode over every triple of 4 values, the 10-bit
 * conversion of every depth's extremes and a run of values, the band codes at the band's ends. */
static void test_row_kernels(void)
{
    uint16_t a[64], b[64], c[64], out[64];
    unsigned n = 0;
    for (unsigned x = 0; x < 4; x++)
        for (unsigned y = 0; y < 4; y++)
            for (unsigned z = 0; z < 4; z++, n++) {
                a[n] = (uint16_t)(x * 300);
                b[n] = (uint16_t)(y * 300);
                c[n] = (uint16_t)(z * 300);
            }
    cambi_mode_col_c(out, a, b, c, n);
    int same = 1;
    for (unsigned k = 0; k < n; k++)
        same &= out[k] == cambi_mode3(a[k], b[k], c[k]);
    CHECK(same);
    for (unsigned bpc = 8; bpc <= 16; bpc++) {
        uint16_t in[6] = { 0,
                           1,
                           (uint16_t)((1u << bpc) - 1),
                           (uint16_t)((1u << bpc) - 2),
                           (uint16_t)(1u << (bpc - 1)),
                           (uint16_t)((1u << (bpc - 1)) + 1) };
        uint8_t in8[6];
        for (int k = 0; k < 6; k++)
            in8[k] = (uint8_t)in[k];
        cambi_to_10b_row_c(out, bpc == 8 ? (const void *)in8 : (const void *)in, 6, bpc);
        same = 1;
        for (int k = 0; k < 6; k++)
            same &= out[k] == cambi_to_10b(in[k], bpc);
        CHECK(same);
    }
    const uint16_t x[4] = { 99, 100, 199, 200 };
    const uint8_t m[4] = { 1, 1, 1, 0 };
    cambi_band_row_c(out, x, m, 4, 100, 100);
    CHECK(out[0] == CAMBI_NOT_COUNTED && out[1] == 0 && out[2] == 99 &&
          out[3] == CAMBI_NOT_COUNTED);
}

/* The C slide kernel (runs of columns, each count written once per run) against the
 * definition: per changed column, the counts within pad of it, of the leaving code down by 1,
 * of the entering one up by 1. Random rows of short and long runs, some columns not counted. */
static void test_slide_row(void)
{
    enum { W = 300, CODES = 6, STEPS = 40 };
    static uint16_t want[CODES * W], got[CODES * W];
    uint16_t leave[W], enter[W];
    unsigned seed = 12345;
    int same = 1;
    for (unsigned pad = 0; pad <= 33; pad += 3) {
        memset(want, 0, sizeof(want));
        memset(got, 0, sizeof(got));
        for (int step = 0; step < STEPS; step++) {
            uint16_t *rows[2] = { leave, enter };
            for (int r = 0; r < 2; r++) {
                uint16_t code = 0;
                for (unsigned j = 0; j < W; j++) {
                    seed = seed * 1103515245u + 12345u;
                    if ((seed >> 16) % (step & 1 ? 40 : 3) == 0)
                        code = (seed >> 8) % 5 == 0 ? (uint16_t)CAMBI_NOT_COUNTED
                                                    : (uint16_t)((seed >> 4) % CODES);
                    rows[r][j] = code;
                }
            }
            for (unsigned j = 0; j < W; j++) {
                if (leave[j] == enter[j])
                    continue;
                const unsigned lo = j > pad ? j - pad : 0, hi = j + pad + 1 < W ? j + pad + 1 : W;
                for (unsigned k = lo; k < hi; k++) {
                    if (leave[j] != CAMBI_NOT_COUNTED)
                        want[leave[j] * W + k]--;
                    if (enter[j] != CAMBI_NOT_COUNTED)
                        want[enter[j] * W + k]++;
                }
            }
            cambi_slide_row_c(got, W, pad, leave, enter);
        }
        same &= !memcmp(want, got, sizeof(want));
    }
    CHECK(same);
}

static void test_resample(void)
{
    unsigned idx[8];
    cambi_resample_index(idx, 8, 8); /* ratio 1: start 0, identity */
    int ident = 1;
    for (unsigned k = 0; k < 8; k++)
        ident &= idx[k] == k;
    CHECK(ident);
    cambi_resample_index(idx, 8, 4); /* ratio 2: start 0.5, (int)(pos + 0.5): 1, 3, 5, 7 */
    CHECK(idx[0] == 1 && idx[1] == 3 && idx[2] == 5 && idx[3] == 7);
    cambi_resample_index(idx, 3, 2); /* ratio 1.5: start 0.25 -> 0, 1.75 -> 2 */
    CHECK(idx[0] == 0 && idx[1] == 2);
    cambi_resample_index(idx, 2, 4); /* ratio 0.5: start -0.25 -> (int)0.25 = 0, 0.25, 0.75.. */
    CHECK(idx[0] == 0 && idx[1] == 0 && idx[2] == 1 && idx[3] == 1);
}

static void test_recip_and_step(void)
{
    static float recip[CAMBI_RECIP_SIZE];
    cambi_recip_table(recip);
    CHECK(recip[0] == 0.0f && recip[1] == 1.0f && recip[2] == 0.5f);
    /* libvmaf's literal 0.012195122f for 1/82: one ulp above 1.0f / 82 */
    CHECK_FBITS(recip[82], 0x3c47ce0d);
    CHECK_FBITS(1.0f / 82.0f, 0x3c47ce0c);
    CHECK_FBITS(recip[504], 0x3b020820); /* 0.00198412698f: one ulp below 1.0f / 504 */
    unsigned differ = 0;
    for (unsigned n = 1; n < CAMBI_RECIP_SIZE; n++)
        differ += recip[n] != 1.0f / (float)n;
    CHECK(differ == 42);
    /* (float)(weight * p0 * p) * recip: 4 * 3 * 5 = 60 times recip[8] = 0.125 */
    CHECK_FBITS(cambi_step_value(4, 3, 5, recip[8]), 0x40f00000); /* 7.5 */
    /* a product above 2^24 rounds to float first: 9 * 2112 * 2113 = 40163904 is a float
     * already; + 1 is not: 9 * 1 * 4473925 = 40265325 -> 40265324 */
    CHECK_FBITS(cambi_step_value(9, 1, 4473925, 1.0f), 0x4c19999b);
    CHECK(cambi_step_value(3, 7, 0, recip[7]) == 0.0f);
    /* a full 65x65 window: 9 * 2003 * 2222 = 40055994 rounds to 40055992 before the product
     * with recip[4225]; rounding the product only once would give ...d6 */
    CHECK_FBITS(cambi_step_value(9, 2003, 2222, recip[4225]), 0x461422d5);
}

static void test_pooling_counts(void)
{
    CHECK(cambi_topk_count(0.6, 100) == 60 && cambi_topk_count(0.0001, 100) == 1);
    CHECK(cambi_topk_count(1.0, 7) == 7 && cambi_topk_count(0.6, 576 * 324) == 111974);
    const double s[5] = { 1.0, 2.0, 3.0, 4.0, 5.0 };
    CHECK_BITS(cambi_combine_scales(s, 9), (16.0 + 16.0 + 12.0 + 8.0 + 5.0) / 81.0);
}

static void test_tables(void)
{
    /* BT.1886 at the default tvi 0.019: codes 178, 305, 432, 559 for steps 1..4; step 7 and up
     * stay visible to the top (1023) */
    const int want[7] = { 178, 305, 432, 559, 686, 813, 1023 };
    for (int d = 0; d < 7; d++)
        CHECK(cambi_tvi_for_diff(d + 1, 0.019, CAMBI_EOTF_BT1886) == want[d]);
    CHECK(cambi_tvi_for_diff(1, 0.019, CAMBI_EOTF_PQ) == 233);
    CHECK(cambi_tvi_for_diff(2, 0.019, CAMBI_EOTF_PQ) == 1023);
    /* the definition: the step is visible at the code and not one code above */
    for (int d = 1; d <= 4; d++) {
        const int c = cambi_tvi_for_diff(d, 0.019, CAMBI_EOTF_BT1886);
        const double l0 = cambi_luminance(c, CAMBI_EOTF_BT1886);
        const double l1 = cambi_luminance(c + 1, CAMBI_EOTF_BT1886);
        CHECK(cambi_luminance(c + d, CAMBI_EOTF_BT1886) - l0 > 0.019 * l0);
        CHECK(!(cambi_luminance(c + 1 + d, CAMBI_EOTF_BT1886) - l1 > 0.019 * l1));
    }
    /* the v1.0.16 models' cambi_vis_lum_threshold 0.06 */
    CHECK(cambi_vlt_luma(0.0, CAMBI_EOTF_BT1886) == 0);
    CHECK(cambi_vlt_luma(0.06, CAMBI_EOTF_BT1886) == 78);
    CHECK(cambi_luminance(77, CAMBI_EOTF_BT1886) < 0.06 &&
          cambi_luminance(78, CAMBI_EOTF_BT1886) >= 0.06);
    CHECK(cambi_vlt_luma(0.06, CAMBI_EOTF_PQ) == 108);
    CHECK_BITS(cambi_luminance(940, CAMBI_EOTF_BT1886), 300.0);
    CHECK_BITS(cambi_luminance(2000, CAMBI_EOTF_PQ), 10000.0); /* clipped to the head */

    CambiOpts o;
    memset(&o, 0, sizeof(o));
    o.max_log_contrast = 2;
    o.tvi_threshold = 0.019;
    o.cambi_vis_lum_threshold = 0.06;
    CambiTables *t = malloc(sizeof(*t));
    CHECK(t && !cambi_tables_init(t, &o, CAMBI_EOTF_BT1886));
    if (t) {
        /* band: vlt - 3 * 4 + 1 = 67 .. tvi[3] + 4 = 563 */
        CHECK(t->num_diffs == 4 && t->vlt == 78 && t->band_lo == 67 && t->band_n == 497);
        CHECK(t->weight[3] == 4 && t->tvi[0] == 178);
    }
    free(t);
}

/* The pooling: the exact path (radix selection, integer sum) against libvmaf's quick select
 * and double sum, on values of the proven form. */
static void fill(float *c, unsigned n, unsigned seed, unsigned zero_in, float big)
{
    for (unsigned i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        const unsigned r = seed >> 8;
        /* 0, or p0 * p / (p0 + p) scaled like a contrast value, >= 0.5 */
        c[i] = r % zero_in ? 0.0f : 0.5f + (float)(r % 4096) * big / 4096.0f;
    }
}

static double pool(float *c, unsigned n, double topk, uint32_t *radix, int select)
{
    CambiTotals tot;
    cambi_totals_reset(&tot);
    for (unsigned i = 0; i < n; i++)
        cambi_totals_add(&tot, c[i]);
    const int k = cambi_topk_count(topk, (int)n);
    return select ? cambi_topk_mean_select(c, n, k) : cambi_topk_mean(c, n, k, &tot, radix);
}

static void test_pooling(void)
{
    enum { N = 50000 };
    float *a = malloc(N * sizeof(float)), *b = malloc(N * sizeof(float));
    uint32_t *radix = malloc(2 * 65536 * sizeof(uint32_t));
    if (!a || !b || !radix) {
        CHECK(0);
        goto out;
    }
    const double topks[] = { 0.6, 0.05, 0.0001, 1.0 };
    const unsigned zero_in[] = { 1, 2, 10, 1000 };
    unsigned cases = 0, equal = 0;
    for (unsigned z = 0; z < 4; z++)
        for (unsigned t = 0; t < 4; t++)
            for (unsigned seed = 1; seed <= 3; seed++) {
                fill(a, N, seed * 7919 + z, zero_in[z], 2000.0f);
                memcpy(b, a, N * sizeof(float));
                const double fast = pool(a, N, topks[t], radix, 0);
                const double ref = pool(b, N, topks[t], radix, 1);
                cases++;
                equal += check_bits(fast) == check_bits(ref);
                if (check_bits(fast) != check_bits(ref))
                    printf("pooling z=%u topk=%g seed=%u: %.17g vs %.17g\n", zero_in[z], topks[t],
                           seed, fast, ref);
            }
    CHECK(cases == equal);
    /* ties at the k-th value: many equal values straddle position k */
    for (unsigned i = 0; i < N; i++)
        a[i] = b[i] = i % 3 ? 7.5f : (i % 5 ? 3.0f : 0.0f);
    CHECK_BITS(pool(a, N, 0.6, radix, 0), pool(b, N, 0.6, radix, 1));
    /* a value outside the proven form goes the reference's way */
    fill(a, N, 5, 2, 100.0f);
    a[17] = 0.25f;
    memcpy(b, a, N * sizeof(float));
    CHECK_BITS(pool(a, N, 0.6, radix, 0), pool(b, N, 0.6, radix, 1));
    /* sums past 2^53 units (2^29) take the reference's order: 50000 values near 16000 */
    for (unsigned i = 0; i < N; i++)
        a[i] = b[i] = 16000.0f + (float)(i % 977) / 1024.0f;
    CHECK_BITS(pool(a, N, 1.0, radix, 0), pool(b, N, 1.0, radix, 1));
out:
    free(a);
    free(b);
    free(radix);
}

int main(void)
{
    test_weights_and_window();
    test_mask_threshold();
    test_samples();
    test_row_kernels();
    test_slide_row();
    test_resample();
    test_recip_and_step();
    test_pooling_counts();
    test_tables();
    test_pooling();
    printf("cambi_math: %u checks passed, %u failed\n", check_passed, check_failed);
    return check_failed != 0;
}
