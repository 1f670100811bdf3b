/* checkasm: the SSIM row kernels (features/ssim/ssim_filter.h) of every level vs C. */
#include <string.h>

#include "checkasm/checkasm.h"
#include "features/ssim/ssim_dsp.h"
#include "features/ssim/ssim_filter.h"

enum { MAX_W = 4097, MARGIN = 16 };

/* a row of floats as SSIM reads a picture (v / scaler for v of bits bits) */
static void fill_samples(float *p, const int n, const unsigned bits, const int pattern)
{
    check_fill_floats(p, (size_t)n, bits, pattern, 0.0f);
}

/* a float in [lo, hi) from the generator */
static float uniform(const float lo, const float hi)
{
    return lo + (hi - lo) * (float)(check_rand() & 0xffffff) / 16777216.0f;
}

static int differ(const void *a, const void *b, const size_t bytes)
{
    return memcmp(a, b, bytes) != 0;
}

static void check_decimate(const SsimDsp *c, const SsimDsp *d, const char *lvl)
{
    static float src[SSIM_MAX_FACTOR][MAX_W], out[2][MAX_W / 2 + MARGIN];
    if (!check_func((const void *)d->decimate_span, (const void *)c->decimate_span,
                    "ssim_decimate_span", lvl))
        return;
    for (int kind = 0; kind < 3; kind++) {
        SsimKernel k;
        if (kind == 0)
            ssim_kernel_lpf(&k);
        else
            ssim_kernel_box(&k, kind == 1 ? 2 : 4);
        const float *rows[SSIM_LPF];
        for (int v = 0; v < k.n; v++)
            rows[v] = src[v];
        for (int w = k.n; w; w = check_next_width(w))
            for (int pattern = 0; pattern < CHECK_N_PATTERNS; pattern++) {
                const unsigned bits = 8 + check_rand() % 9;
                for (int v = 0; v < k.n; v++)
                    fill_samples(src[v], w, bits, (pattern + v) % CHECK_N_PATTERNS);
                /* the outputs whose taps lie inside the row, as ssim_decimate asks */
                const int dst_w = ssim_decimated_size(w, k.factor);
                int xa = 0, xb = dst_w;
                while (xa < dst_w && xa * k.factor + k.first < 0)
                    xa++;
                while (xb > xa && (xb - 1) * k.factor + k.first + k.n > w)
                    xb--;
                memset(out, 0x5A, sizeof(out));
                c->decimate_span(rows, &k, xa, xb, out[0]);
                d->decimate_span(rows, &k, xa, xb, out[1]);
                if (check_planted() && xb > xa)
                    out[1][xb - 1] = -out[1][xb - 1];
                if (differ(out[0], out[1], sizeof(out[0])) &&
                    check_fail("kernel %d w %d [%d, %d) pattern %d: outputs differ", kind, w, xa,
                               xb, pattern))
                    return;
            }
    }
}

static void check_gauss(const SsimDsp *c, const SsimDsp *d, const char *lvl)
{
    static float src[SSIM_WINDOW][MAX_W], out[2][MAX_W + MARGIN];
    if (check_func((const void *)d->gauss_row, (const void *)c->gauss_row, "ssim_gauss_row", lvl))
        for (int w = SSIM_WINDOW; w; w = check_next_width(w))
            for (int pattern = 0; pattern < CHECK_N_PATTERNS; pattern++) {
                fill_samples(src[0], w, 8 + check_rand() % 9, pattern);
                if (pattern == 4) /* products, as the x^2, y^2, xy rows */
                    for (int j = 0; j < w; j++)
                        src[0][j] *= src[0][(j * 7) % w];
                memset(out, 0x5A, sizeof(out));
                c->gauss_row(src[0], w, out[0]);
                d->gauss_row(src[0], w, out[1]);
                if (check_planted())
                    out[1][w - SSIM_WINDOW] = -out[1][w - SSIM_WINDOW];
                if (differ(out[0], out[1], sizeof(out[0])) &&
                    check_fail("w %d pattern %d: outputs differ", w, pattern))
                    break;
            }
    if (check_func((const void *)d->gauss_column, (const void *)c->gauss_column,
                   "ssim_gauss_column", lvl)) {
        const float *rows[SSIM_WINDOW];
        for (int t = 0; t < SSIM_WINDOW; t++)
            rows[t] = src[t];
        for (int n = 1; n; n = check_next_width(n))
            for (int pattern = 0; pattern < CHECK_N_PATTERNS; pattern++) {
                const unsigned bits = 8 + check_rand() % 9;
                for (int t = 0; t < SSIM_WINDOW; t++)
                    fill_samples(src[t], n, bits, (pattern + t) % CHECK_N_PATTERNS);
                memset(out, 0x5A, sizeof(out));
                c->gauss_column(rows, n, out[0]);
                d->gauss_column(rows, n, out[1]);
                if (check_planted())
                    out[1][n - 1] = -out[1][n - 1];
                if (differ(out[0], out[1], sizeof(out[0])) &&
                    check_fail("n %d pattern %d: outputs differ", n, pattern))
                    break;
            }
    }
}

/* Window statistics as the filters give them, with the cases the clamps exist for: E[x^2]
 * below mu^2 (a negative variance, clamped), flat windows (variance 0) with a negative
 * covariance (zeroed), means of 0 and at the top of the range. */
static void fill_stats(float *const *st, const int n, const int pattern)
{
    for (int x = 0; x < n; x++) {
        const int flat = pattern == 1 || (pattern == 0 && check_rand() % 4 == 0);
        const float top = pattern == 2 ? 65535.0f / 256.0f : 255.0f;
        const float mx = pattern == 3 ? 0.0f : uniform(0.0f, top);
        const float my = pattern == 3 ? uniform(0.0f, 1.0f) : uniform(0.0f, top);
        st[0][x] = mx;
        st[1][x] = my;
        st[2][x] = mx * mx + (flat ? (check_rand() % 2 ? 0.0f : -uniform(0.0f, 1.0f))
                                   : uniform(-2.0f, 400.0f));
        st[3][x] = my * my + (flat ? 0.0f : uniform(-2.0f, 400.0f));
        st[4][x] = mx * my + uniform(-300.0f, 300.0f);
    }
}

static void check_terms(const SsimDsp *c, const SsimDsp *d, const char *lvl)
{
    static float stat_mem[5][MAX_W], s[2][MAX_W + MARGIN];
    static double l[2][MAX_W + MARGIN], cc[2][MAX_W + MARGIN];
    if (!check_func((const void *)d->terms_row, (const void *)c->terms_row, "ssim_terms_row", lvl))
        return;
    float *st[5];
    for (int q = 0; q < 5; q++)
        st[q] = stat_mem[q];
    for (int n = 1; n; n = check_next_width(n))
        for (int pattern = 0; pattern < 4; pattern++) {
            fill_stats(st, n, pattern);
            memset(s, 0x5A, sizeof(s));
            memset(l, 0x5A, sizeof(l));
            memset(cc, 0x5A, sizeof(cc));
            c->terms_row((const float *const *)st, n, l[0], cc[0], s[0]);
            d->terms_row((const float *const *)st, n, l[1], cc[1], s[1]);
            if (check_planted())
                cc[1][n - 1] = -cc[1][n - 1];
            if ((differ(l[0], l[1], sizeof(l[0])) || differ(cc[0], cc[1], sizeof(cc[0])) ||
                 differ(s[0], s[1], sizeof(s[0]))) &&
                check_fail("n %d pattern %d: terms differ", n, pattern))
                return;
        }
}

void checkasm_ssim(void)
{
    const SsimDsp *c = ssim_dsp(0);
    for (int i = 0; i < check_n_levels(); i++) {
        const CheckLevel *l = check_level(i);
        const SsimDsp *d = ssim_dsp(l->cpu);
        check_decimate(c, d, l->name);
        check_gauss(c, d, l->name);
        check_terms(c, d, l->name);
    }
}
