/* Unit tests of the SSIM arithmetic (src/features/ssim/ssim_math.h) on hand-derived inputs, and
 * of the streamed SSIM / decimation (ssim_core.c, ssim_filter.c) against a direct full-image
 * evaluation in libvmaf's order. Expected values were derived by emulating each float rounding
 * step exactly (double arithmetic on float operands is exact or innocuously rounded here); the
 * inputs were picked where a step done at the wrong precision gives other bits. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpu.h"
#include "features/ssim/ssim_core.h"
#include "features/ssim/ssim_math.h"
#include "unit/check.h"

static void check_f(const char *what, float got, float want)
{
    uint32_t g, w;
    memcpy(&g, &got, 4);
    memcpy(&w, &want, 4);
    if (g != w) {
        fprintf(stderr, "FAIL %s: got %.9g (0x%08x), want %.9g (0x%08x)\n", what, got, g, want, w);
        check_failed++;
    } else {
        check_passed++;
    }
}

static void check_d(const char *what, double got, double want)
{
    uint64_t g, w;
    memcpy(&g, &got, 8);
    memcpy(&w, &want, 8);
    if (g != w) {
        fprintf(stderr, "FAIL %s: got %.17g (0x%016llx), want %.17g (0x%016llx)\n", what, got,
                (unsigned long long)g, want, (unsigned long long)w);
        check_failed++;
    } else {
        check_passed++;
    }
}

static void check_i(const char *what, long got, long want)
{
    if (got != want) {
        fprintf(stderr, "FAIL %s: got %ld, want %ld\n", what, got, want);
        check_failed++;
    } else {
        check_passed++;
    }
}

static void test_constants(void)
{
    /* (0.01f * 255)^2, (0.03f * 255)^2 and half of it, each step in float: 6.50249958,
     * 58.5224953, 29.2612476 */
    check_f("C1", ssim_c1(), 0x1.a028f4p+2f);
    check_f("C2", ssim_c2(), 0x1.d42e12p+5f);
    check_f("C3", ssim_c3(), 0x1.d42e12p+4f);
}

static void test_taps(void)
{
    check_f("gauss 0", ssim_gauss_tap(0), 0.001028f);
    check_f("gauss 5", ssim_gauss_tap(5), 0.266012f);
    check_f("gauss 7", ssim_gauss_tap(7), 0.109361f);
    check_f("gauss 10", ssim_gauss_tap(10), 0.001028f);
    for (int k = 0; k < SSIM_WINDOW; k++)
        check_f("gauss symmetric", ssim_gauss_tap(k), ssim_gauss_tap(SSIM_WINDOW - 1 - k));
    /* spot values of libvmaf's 9x9 g_lpf, row then column */
    check_f("lpf 0,0", ssim_lpf_tap(0, 0), 0.000714f);
    check_f("lpf 4,4", ssim_lpf_tap(4, 4), 0.363505f);
    check_f("lpf 0,4", ssim_lpf_tap(0, 4), 0.016114f);
    check_f("lpf 3,1", ssim_lpf_tap(3, 1), -0.004490f);
    check_f("lpf 2,6", ssim_lpf_tap(2, 6), 0.006115f);
    check_f("lpf 8,7", ssim_lpf_tap(8, 7), -0.000450f);
    check_f("lpf 5,4", ssim_lpf_tap(5, 4), 0.160885f);
    for (int v = 0; v < SSIM_LPF; v++)
        for (int u = 0; u < SSIM_LPF; u++)
            check_f("lpf transposed", ssim_lpf_tap(v, u), ssim_lpf_tap(u, v));
    check_f("box 2", ssim_box_tap(2), 0.25f);
    check_f("box 3", ssim_box_tap(3), 1.0f / 9.0f);
    check_f("box 10", ssim_box_tap(10), 0.01f);
}

static void test_geometry(void)
{
    check_i("auto 576x324", ssim_auto_scale(576, 324), 1);
    check_i("auto 1280x720", ssim_auto_scale(1280, 720), 3);   /* 2.8125 */
    check_i("auto 1920x1080", ssim_auto_scale(1920, 1080), 4); /* 4.21875 */
    check_i("auto 3840x2160", ssim_auto_scale(3840, 2160), 8); /* 8.4375 */
    check_i("auto 384 (1.5 rounds up)", ssim_auto_scale(400, 384), 2);
    check_i("auto 383", ssim_auto_scale(383, 1000), 1);
    check_i("auto 640 (2.5)", ssim_auto_scale(640, 640), 3);
    check_i("auto tiny", ssim_auto_scale(20, 11), 1);
    check_i("dec 577/2", ssim_decimated_size(577, 2), 289);
    check_i("dec 576/3", ssim_decimated_size(576, 3), 192);
    check_i("dec 577/3 (parity, not remainder)", ssim_decimated_size(577, 3), 193);
    check_i("dec 578/3", ssim_decimated_size(578, 3), 192);
    check_i("dec 9/3", ssim_decimated_size(9, 3), 4);
    check_i("first 2", ssim_kernel_first(2), -1);
    check_i("first 3", ssim_kernel_first(3), -1);
    check_i("first 4", ssim_kernel_first(4), -2);
    check_i("first 9", ssim_kernel_first(9), -4);
    check_i("reflect -1", ssim_reflect(-1, 10), 0);
    check_i("reflect -5", ssim_reflect(-5, 10), 4);
    check_i("reflect 3", ssim_reflect(3, 10), 3);
    check_i("reflect 10", ssim_reflect(10, 10), 9);
    check_i("reflect 14", ssim_reflect(14, 10), 5);
}

static void test_filter_steps(void)
{
    /* 3 * 0.1f rounds to float before the double sum */
    check_d("tap product in float", ssim_tap(0.0, 3.0f, 0.1f), (double)0x1.333334p-2f);
    check_d("tap adds in double", ssim_tap(1.0, 0x1p-30f, 1.0f), 1.0 + 0x1p-30);
    check_f("tap end rounds", ssim_tap_end(1.0 + 0x1p-30), 1.0f);
    check_f("tap end negative", ssim_tap_end(-0x1.0000018p+0), -0x1.000002p+0f);
    check_f("tap end -0", ssim_tap_end(-0.0), -0.0f);

    /* a 2x2 box at the left edge reads column 0 twice (x0 = -1) */
    const float r0[4] = { 1, 2, 3, 4 }, r1[4] = { 3, 4, 5, 6 };
    const float *rows[2] = { r0, r1 };
    SsimKernel box;
    ssim_kernel_box(&box, 2);
    check_f("box tap", ssim_kernel_tap(&box, 1, 1), 0.25f);
    check_f("decimate edge", ssim_decimate_edge(rows, &box, -1, 4), 2.0f);
    check_f("decimate right edge", ssim_decimate_edge(rows, &box, 3, 4), 5.0f);
    check_f("decimate inner", ssim_decimate_inner(rows, &box, 1), 3.5f);
    check_f("decimate inner = edge", ssim_decimate_edge(rows, &box, 1, 4), 3.5f);
}

static void test_window_terms(void)
{
    check_f("product", ssim_product(4097.0f, 4097.0f), 16785408.0f);
    /* 4097^2 rounds to 16785408 in float: the difference is 2, not 1 */
    check_f("variance float", ssim_variance(16785410.0f, 4097.0f), 2.0f);
    check_f("variance clamp", ssim_variance(1.0f, 2.0f), 0.0f);
    check_f("variance keeps -0", ssim_variance(-0.0f, 0.0f), -0.0f);
    check_f("covariance negative", ssim_covariance(0.0f, 1.0f, 2.0f), -2.0f);
    /* the product is rounded to float before the double sqrt */
    check_f("sigma root", ssim_sigma_root(0x1.5057eap+9f, 0x1.08d524p+12f), 0x1.a613d6p+10f);
    /* numerator in double, denominator in float */
    check_d("luminance", ssim_luminance(0x1.85866ap+7f, 0x1.042ba0p+6f), 0x1.33b13139f5b10p-1);
    check_d("luminance flat", ssim_luminance(100.0f, 100.0f), 0x1.000000754ff07p+0);
    check_d("contrast", ssim_contrast(0x1.61ed9ep+10f, 0x1.73938ap+10f, 0x1.511e48p+10f),
            0x1.ff681d37c460dp-1);
    check_f("structure", ssim_structure(0x1.dffc0cp+10f, 0x1.27c572p+11f), 0x1.a09f4ep-1f);
    check_f("structure flat fix", ssim_structure(-1e-3f, 0.0f), 1.0f);
    check_f("structure negative", ssim_structure(-1.0f, 1.0f), 0x1.de294ep-1f);

    double l, c;
    float s;
    ssim_window_terms(100.0f, 100.0f, 10000.0f, 10000.0f, 10000.0f, &l, &c, &s);
    check_d("flat l", l, 0x1.000000754ff07p+0);
    check_d("flat c", c, 1.0);
    check_f("flat s", s, 1.0f);

    /* ssim += (l * c) * s: l * (c * s) ends one ulp lower here */
    SsimSums sums = { 0.0, 0.0, 0.0, 0.0 };
    ssim_accumulate(&sums, 0x1.6ec9d2937021cp-1, 0x1.c324c9988c8e2p-1, 0x1.008a06p-1f);
    check_d("accumulate order", sums.ssim, 0x1.43df61a874c84p-2);
    check_d("accumulate s", sums.s, (double)0x1.008a06p-1f);
    check_f("mean", ssim_mean(1.0, 1, 3), 0x1.555556p-2f);
    check_f("mean int product", ssim_mean(10.0, 3, 7), 0x1.e79e7ap-2f);
}

/* ---- streamed SSIM against a direct evaluation in libvmaf's order ---------------------- */

static float *gauss_2pass(const float *img, int w, int h)
{
    const int n = w - 10, m = h - 10;
    float *tmp = calloc((size_t)w * h, sizeof(float)), *out = calloc((size_t)n * m, 4);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < n; x++) {
            double sum = 0.0;
            for (int k = 0; k < 11; k++)
                sum = ssim_tap(sum, img[y * w + x + k], ssim_gauss_tap(k));
            tmp[y * w + x] = ssim_tap_end(sum);
        }
    for (int x = 0; x < n; x++)
        for (int y = 0; y < m; y++) {
            double sum = 0.0;
            for (int k = 0; k < 11; k++)
                sum = ssim_tap(sum, tmp[(y + k) * w + x], ssim_gauss_tap(k));
            out[y * n + x] = ssim_tap_end(sum);
        }
    free(tmp);
    return out;
}

static SsimMeans direct_ssim(const float *a, const float *b, int w, int h)
{
    float *p[3];
    for (int i = 0; i < 3; i++)
        p[i] = malloc((size_t)w * h * sizeof(float));
    for (int i = 0; i < w * h; i++) {
        p[0][i] = a[i] * a[i];
        p[1][i] = b[i] * b[i];
        p[2][i] = a[i] * b[i];
    }
    float *mx = gauss_2pass(a, w, h), *my = gauss_2pass(b, w, h);
    float *fxx = gauss_2pass(p[0], w, h), *fyy = gauss_2pass(p[1], w, h);
    float *fxy = gauss_2pass(p[2], w, h);
    const int n = w - 10, m = h - 10;
    SsimSums sums = { 0.0, 0.0, 0.0, 0.0 };
    for (int i = 0; i < n * m; i++) {
        double l, c;
        float s;
        ssim_window_terms(mx[i], my[i], fxx[i], fyy[i], fxy[i], &l, &c, &s);
        ssim_accumulate(&sums, l, c, s);
    }
    SsimMeans r = { ssim_mean(sums.ssim, n, m), ssim_mean(sums.l, n, m), ssim_mean(sums.c, n, m),
                    ssim_mean(sums.s, n, m) };
    float *all[] = { p[0], p[1], p[2], mx, my, fxx, fyy, fxy };
    for (int i = 0; i < 8; i++)
        free(all[i]);
    return r;
}

static uint32_t lcg(uint32_t *st)
{
    *st = *st * 1664525u + 1013904223u;
    return *st >> 8;
}

/* The row kernels under test: each CPU level this machine has, in turn. */
static const SsimDsp *g_dsp;

static void test_core(int w, int h, uint32_t seed)
{
    float *a = malloc((size_t)w * h * 4), *b = malloc((size_t)w * h * 4);
    for (int i = 0; i < w * h; i++) {
        a[i] = (float)((i % w) * 3 % 256) + (float)(lcg(&seed) % 16);
        b[i] = a[i] + (float)(lcg(&seed) % 9) - 4.0f;
    }
    const SsimMeans want = direct_ssim(a, b, w, h);
    void *scratch = malloc(ssim_core_scratch_size(w));
    const SsimPlane pa = ssim_plane_of_img(a, w, h), pb = ssim_plane_of_img(b, w, h);
    SsimMeans got;
    ssim_core(&pa, &pb, g_dsp, scratch, &got);
    char what[64];
    snprintf(what, sizeof(what), "core %dx%d ssim", w, h);
    check_f(what, got.ssim, want.ssim);
    snprintf(what, sizeof(what), "core %dx%d l", w, h);
    check_f(what, got.l, want.l);
    snprintf(what, sizeof(what), "core %dx%d s", w, h);
    check_f(what, got.s, want.s);
    free(scratch);
    free(a);
    free(b);
}

/* Decimation of a float image against iqa's per-pixel reflected 2-D sum. */
static void test_decimate(int w, int h, int factor, int lpf)
{
    SsimKernel k;
    if (lpf)
        ssim_kernel_lpf(&k);
    else
        ssim_kernel_box(&k, factor);
    float *img = malloc((size_t)w * h * 4);
    uint32_t seed = 7;
    for (int i = 0; i < w * h; i++)
        img[i] = (float)(lcg(&seed) % 256);
    const int sw = ssim_decimated_size(w, k.factor), sh = ssim_decimated_size(h, k.factor);
    float *got = malloc((size_t)sw * sh * 4);
    SsimRowCache cache;
    void *cache_mem = malloc(ssim_row_cache_size(k.n, w));
    ssim_row_cache_init(&cache, cache_mem, k.n, w);
    const SsimPlane src = ssim_plane_of_img(img, w, h);
    ssim_decimate(&src, &k, g_dsp, &cache, got);
    /* the same samples as an 8-bit picture: converted rows go through the row cache */
    uint8_t *bytes = malloc((size_t)w * h);
    for (int i = 0; i < w * h; i++)
        bytes[i] = (uint8_t)img[i];
    const EvPic pic = {
        .bpc = 8, .w = { (unsigned)w }, .h = { (unsigned)h }, .stride = { w }, .data = { bytes }
    };
    const SsimPlane src_pic = ssim_plane_of_pic(&pic);
    float *got_pic = malloc((size_t)sw * sh * 4);
    ssim_decimate(&src_pic, &k, g_dsp, &cache, got_pic);
    int bad = 0;
    for (int y = 0; y < sh; y++)
        for (int x = 0; x < sw; x++) {
            double sum = 0.0;
            for (int v = 0; v < k.n; v++)
                for (int u = 0; u < k.n; u++) {
                    const int yy = ssim_reflect(y * k.factor + k.first + v, h);
                    const int xx = ssim_reflect(x * k.factor + k.first + u, w);
                    sum = ssim_tap(sum, img[yy * w + xx], ssim_kernel_tap(&k, v, u));
                }
            bad += memcmp(&got[y * sw + x], &(float){ ssim_tap_end(sum) }, 4) != 0;
            bad += memcmp(&got_pic[y * sw + x], &(float){ ssim_tap_end(sum) }, 4) != 0;
        }
    char what[64];
    snprintf(what, sizeof(what), "decimate %dx%d by %d%s", w, h, k.factor, lpf ? " lpf" : "");
    check_i(what, bad, 0);
    free(img);
    free(got);
    free(got_pic);
    free(bytes);
    free(cache_mem);
}

int main(void)
{
    test_constants();
    test_taps();
    test_geometry();
    test_filter_steps();
    test_window_terms();
    /* C, then up to AVX2, then every level the machine has */
    const unsigned levels[3] = { 0, ev_cpu_detect() & (EV_CPU_AVX512 - 1), ev_cpu_detect() };
    for (int l = 0; l < 3; l++) {
        g_dsp = ssim_dsp(levels[l]);
        test_core(11, 11, 1);
        test_core(37, 23, 2);
        test_core(64, 40, 3);
        test_core(97, 30, 4);
        test_decimate(37, 29, 2, 0);
        test_decimate(37, 29, 3, 0);
        test_decimate(40, 33, 4, 0);
        test_decimate(115, 111, 10, 0);
        test_decimate(301, 290, 17, 0); /* automatic scales go past the option's 10 */
        test_decimate(37, 29, 2, 1);
        test_decimate(44, 24, 2, 1);
        test_decimate(101, 24, 2, 1);
    }
    return check_report("ssim_math");
}
