/* ssimulacra2: what it refuses (one line naming ssimulacra2), its option and its matrix rule,
 * its listing, identical frames at exactly 100, and properties of ssimulacra2_math.h (the blur's
 * constants from the paper's formulas, the sRGB decoding, the cube root). The goldens check the
 * values against libjxl's tool. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exactvmaf/exactvmaf.h"
#include "features/ssimulacra2/ssimulacra2_math.h"
#include "unit/check.h"

static void keep_last(void *user, EvLogLevel level, const char *line)
{
    (void)level;
    snprintf((char *)user, 512, "%s", line);
}

typedef struct Run {
    double score;
    char name[128];
    char last[512];
} Run;

/* A textured frame (a hash pattern over smooth ramps) against itself (same) or a noisier copy,
 * in every plane of the geometry; one frame scored with the options. */
static int run(unsigned w, unsigned h, EvPixelLayout layout, unsigned depth, const char *opts,
               int same, Run *out)
{
    EvSettings s;
    ev_default_settings(&s);
    s.n_threads = 1;
    s.log = keep_last;
    s.log_user = out->last;
    s.log_level = EV_LOG_ERROR;
    out->last[0] = '\0';
    out->name[0] = '\0';
    EvContext *ctx = NULL;
    int err = ev_open(&ctx, &s);
    if (!err)
        err = ev_use_feature(ctx, "ssimulacra2", opts);
    const size_t n = (size_t)w * h;
    uint16_t *a = malloc(n * 2), *b = malloc(n * 2);
    if (!a || !b)
        err = -ENOMEM;
    const unsigned peak = (1u << depth) - 1;
    for (size_t i = 0; !err && i < n; i++) {
        const unsigned x = (unsigned)(i % w), y = (unsigned)(i / w);
        const unsigned base = (x * 7 + y * 3) % (peak / 2 + 1) + peak / 4;
        const unsigned t = base + (check_hash((uint32_t)i) % (peak / 16 + 1));
        const unsigned d = same ? t : t + (check_hash((uint32_t)i + 77777) % (peak / 8 + 1));
        a[i] = (uint16_t)(t > peak ? peak : t);
        b[i] = (uint16_t)(d > peak ? peak : d);
        if (depth == 8) {
            ((uint8_t *)a)[i] = (uint8_t)a[i];
            ((uint8_t *)b)[i] = (uint8_t)b[i];
        }
    }
    EvPicture ref = { w, h, depth, layout, { 0 }, { 0 } }, dis = ref;
    const unsigned bytes = depth > 8 ? 2 : 1;
    for (unsigned p = 0; p < 3; p++) {
        unsigned pw, ph;
        ev_plane_size(w, h, layout, p, &pw, &ph);
        ref.data[p] = pw ? a : NULL;
        dis.data[p] = pw ? b : NULL;
        ref.stride[p] = dis.stride[p] = (ptrdiff_t)pw * bytes;
    }
    if (!err)
        err = ev_send_pictures(ctx, &ref, &dis);
    if (!err)
        err = ev_flush(ctx);
    if (!err && ev_feature_count(ctx) == 1) {
        snprintf(out->name, sizeof(out->name), "%s", ev_feature_name(ctx, 0));
        if (ev_get_score(ctx, out->name, 0, &out->score) || isnan(out->score))
            err = -EDOM;
    } else if (!err) {
        err = -ENOENT;
    }
    ev_close(&ctx);
    free(a);
    free(b);
    return err;
}

static void check_refused(unsigned w, unsigned h, const char *opts, const char *why)
{
    Run r;
    const int err = run(w, h, EV_PIX_420, 8, opts, 0, &r);
    if (!check_count(err == -EINVAL && strstr(r.last, "ssimulacra2")))
        printf("%ux%u %s: rc %d, log \"%s\"; want refused (%s)\n", w, h, opts ? opts : "", err,
               r.last, why);
}

static double score_of(unsigned w, unsigned h, EvPixelLayout layout, unsigned depth,
                       const char *opts)
{
    Run r;
    const int err = run(w, h, layout, depth, opts, 0, &r);
    if (!check_count(err == 0))
        printf("%ux%u %s %u-bit %s: rc %d, log \"%s\"; want scored\n", w, h, ev_layout_name(layout),
               depth, opts ? opts : "", err, r.last);
    return err ? NAN : r.score;
}

static void check_geometry(void)
{
    check_refused(7, 8, NULL, "under 8 wide");
    check_refused(8, 7, NULL, "under 8 high");
    static const EvPixelLayout layouts[] = { EV_PIX_420, EV_PIX_422, EV_PIX_444, EV_PIX_400 };
    for (unsigned d = 8; d <= 16; d++)
        for (unsigned l = 0; l < 4; l++) {
            const double v = score_of(9 + d, 8 + 2 * l, layouts[l], d, NULL);
            if (!check_count(v < 100.0 && v > -1000.0))
                printf("%u-bit %s: score %.17g\n", d, ev_layout_name(layouts[l]), v);
        }
}

static void check_identical(void)
{
    static const EvPixelLayout layouts[] = { EV_PIX_420, EV_PIX_444, EV_PIX_400 };
    for (unsigned l = 0; l < 3; l++) {
        Run r;
        CHECK(run(40, 23, layouts[l], 10, NULL, 1, &r) == 0);
        CHECK_BITS(r.score, 100.0);
    }
}

/* auto: BT.709 from 1280 wide or over 576 high (ssimulacra2_rs's guess), else BT.601. */
static void check_matrix(void)
{
    static const struct {
        unsigned w, h;
        const char *want;
    } cases[] = { { 1024, 576, "matrix=bt601" },
                  { 1024, 577, "matrix=bt709" },
                  { 1279, 300, "matrix=bt601" },
                  { 1280, 300, "matrix=bt709" } };
    for (unsigned i = 0; i < 4; i++) {
        const unsigned w = cases[i].w, h = cases[i].h;
        const double a = score_of(w, h, EV_PIX_420, 8, NULL);
        const double want = score_of(w, h, EV_PIX_420, 8, cases[i].want);
        const char *other = strcmp(cases[i].want, "matrix=bt601") ? "matrix=bt601" : "matrix=bt709";
        const double not_want = score_of(w, h, EV_PIX_420, 8, other);
        CHECK_BITS(a, want);
        if (!check_count(check_bits(a) != check_bits(not_want)))
            printf("%ux%u: the two matrices give one score\n", w, h);
        CHECK_BITS(score_of(w, h, EV_PIX_420, 8, "matrix=auto"), a);
    }
}

static void check_options(void)
{
    Run r;
    CHECK(run(16, 16, EV_PIX_420, 8, NULL, 0, &r) == 0);
    CHECK_STR(r.name, "ssimulacra2");
    CHECK(run(16, 16, EV_PIX_420, 8, "matrix=bt709", 0, &r) == 0);
    if (!check_count(strncmp(r.name, "ssimulacra2_", 12) == 0 && strstr(r.name, "bt709")))
        printf("matrix=bt709 output name \"%s\"\n", r.name);
    check_refused(16, 16, "matrix=bt2020", "no such matrix");
    check_refused(16, 16, "range=full", "no such option");
    int listed = 0;
    for (const char *const *n = ev_extractor_names(); *n; n++)
        listed += !strcmp(*n, "ssimulacra2");
    CHECK(listed == 1);
    EvOptionInfo o;
    CHECK(ev_extractor_option("ssimulacra2", 0, &o) == 0);
    CHECK_STR(o.name, "matrix");
    CHECK(ev_extractor_option("ssimulacra2", 1, &o) == -ERANGE);
}

/* The blur's constants from Charalampidis (2016) as libjxl applies them for sigma 1.5: radius
 * N = 5, omega_k = k pi / (2 N), and the weights beta of the three recursions solved from its
 * equations (53)-(56) (here by Cramer's rule); n2 = -beta cos(omega (N + 1)), d1 = -2 cos(omega),
 * in double, then rounded to float. */
static void check_gauss_constants(void)
{
    const double pi = 3.14159265358979323846, sigma = 1.5, n = 5.0;
    double om[3], p[3], r[3], rho[3];
    for (int i = 0; i < 3; i++) {
        om[i] = (2 * i + 1) * pi / (2.0 * n);
        const double sign = i == 1 ? -1.0 : 1.0;
        p[i] = sign / tan(0.5 * om[i]);
        r[i] = sign * p[i] * p[i] / sin(om[i]);
        rho[i] = exp(-0.5 * sigma * sigma * om[i] * om[i]) / n;
    }
    const double d13 = p[0] * r[1] - r[0] * p[1], d35 = p[1] * r[2] - r[1] * p[2];
    const double d51 = p[2] * r[0] - r[2] * p[0];
    const double z15 = d35 / d13, z35 = d51 / d13;
    const double a[3][3] = { { p[0], p[1], p[2] }, { r[0], r[1], r[2] }, { z15, z35, 1.0 } };
    const double g[3] = { 1.0, n * n - sigma * sigma, z15 * rho[0] + z35 * rho[1] + rho[2] };
    const double det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
                       a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                       a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
    const Ssimu2Gauss want = SSIMU2_GAUSS;
    for (int k = 0; k < 3; k++) {
        double m[3][3];
        memcpy(m, a, sizeof(m));
        for (int row = 0; row < 3; row++)
            m[row][k] = g[row];
        const double dk = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                          m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                          m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
        const double beta = dk / det;
        CHECK_FBITS((float)(-beta * cos(om[k] * (n + 1.0))), check_fbits(want.n2[k]));
        CHECK_FBITS((float)(-2.0 * cos(om[k])), check_fbits(want.d1[k]));
    }
}

static void check_srgb(void)
{
    const float t = 0x1.4b5dccp-5f; /* 0.04045f: the last value on the linear segment */
    CHECK_FBITS(ssimu2_linear_from_srgb(t), check_fbits(t * (1.0f / 12.92f)));
    CHECK_FBITS(ssimu2_linear_from_srgb(0.0f), 0);
    CHECK_FBITS(ssimu2_linear_from_srgb(-0.0f), 0x80000000u);
    for (unsigned i = 0; i <= 1000; i++) {
        const float x = (float)i / 1000.0f;
        const float l = ssimu2_linear_from_srgb(x);
        const double exact = x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4);
        CHECK_FBITS(ssimu2_linear_from_srgb(-x), check_fbits(-l)); /* odd */
        if (!check_count(fabs(l - exact) < 2e-6))
            printf("sRGB %.9g: %.9g, the curve %.9g\n", (double)x, (double)l, exact);
    }
}

static void check_cbrt(void)
{
    CHECK_FBITS(ssimu2_cbrt_add(0.0f, 0.5f), check_fbits(0.5f)); /* the zero guess */
    for (unsigned i = 1; i <= 1000; i++) {
        const float x = (float)i * 0.003f;
        const float c = ssimu2_cbrt_add(x, 0.0f), want = cbrtf(x);
        if (!check_count(fabsf(c - want) <= 8.0f * (nextafterf(want, 2.0f) - want)))
            printf("cbrt %.9g: %.9g, cbrtf %.9g\n", (double)x, (double)c, (double)want);
    }
    /* mid-grey and white land in the ranges the tool's comment gives for sRGB */
    float x, y, b;
    ssimu2_xyb(1.0f, 1.0f, 1.0f, &x, &y, &b);
    CHECK(y > 0.85f && y < 0.8554f && x > 0.41f && x < 0.43f);
    ssimu2_xyb(0.0f, 0.0f, 0.0f, &x, &y, &b);
    CHECK(fabsf(y - 0.01f) < 1e-6f && fabsf(x - 0.42f) < 1e-6f && fabsf(b - 0.55f) < 1e-6f);
}

int main(void)
{
    check_geometry();
    check_identical();
    check_matrix();
    check_options();
    check_gauss_constants();
    check_srgb();
    check_cbrt();
    return check_report("ssimulacra2_unit");
}
