/* SSIM row kernels, the C reference (ssim_kernels.h's SsimDsp): each output's taps in order,
 * the arithmetic of ssim_math.h. ssim_avx2.c and ssim_avx512.c run several outputs side by
 * side with the same operations per output; tests/checkasm compares them with these. */
#include "features/ssim/ssim_kernels.h"

/* Samples [xa, xb) of one output row, tap by tap over a chunk of samples, each sum still in
 * row-major tap order. */
void ssim_decimate_span_c(const float *const *rows, const SsimKernel *k, const int xa, const int xb,
                          float *dst)
{
    enum { CHUNK = 256 };
    double acc[CHUNK];
    for (int c0 = xa; c0 < xb; c0 += CHUNK) {
        const int len = xb - c0 < CHUNK ? xb - c0 : CHUNK;
        for (int i = 0; i < len; i++)
            acc[i] = 0.0;
        for (int v = 0; v < k->n; v++)
            for (int u = 0; u < k->n; u++) {
                const float *src = rows[v] + c0 * k->factor + k->first + u;
                const float coef = ssim_kernel_tap(k, v, u);
                for (int i = 0; i < len; i++)
                    acc[i] = ssim_tap(acc[i], src[i * k->factor], coef);
            }
        for (int i = 0; i < len; i++)
            dst[c0 + i] = ssim_tap_end(acc[i]);
    }
}

void ssim_gauss_row_c(const float *in, const int w, float *out)
{
    const int n = w - (SSIM_WINDOW - 1);
    for (int x = 0; x < n; x++) {
        double sum = 0.0;
        for (int k = 0; k < SSIM_WINDOW; k++)
            sum = ssim_tap(sum, in[x + k], ssim_gauss_tap(k));
        out[x] = ssim_tap_end(sum);
    }
}

/* Row by row over a chunk of columns: each sum still takes its taps in order. */
void ssim_gauss_column_c(const float *const *rows, const int n, float *out)
{
    enum { CHUNK = 256 };
    double acc[CHUNK];
    for (int x0 = 0; x0 < n; x0 += CHUNK) {
        const int len = n - x0 < CHUNK ? n - x0 : CHUNK;
        for (int i = 0; i < len; i++)
            acc[i] = 0.0;
        for (int k = 0; k < SSIM_WINDOW; k++) {
            const float *row = rows[k] + x0;
            const float g = ssim_gauss_tap(k);
            for (int i = 0; i < len; i++)
                acc[i] = ssim_tap(acc[i], row[i], g);
        }
        for (int i = 0; i < len; i++)
            out[x0 + i] = ssim_tap_end(acc[i]);
    }
}

void ssim_terms_row_c(const float *const *stat, const int n, double *l, double *c, float *s)
{
    for (int x = 0; x < n; x++)
        ssim_window_terms(stat[0][x], stat[1][x], stat[2][x], stat[3][x], stat[4][x], &l[x], &c[x],
                          &s[x]);
}
