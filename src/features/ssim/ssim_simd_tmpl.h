/*
 * SSIM row kernels for one vector width (SSIM_W 256: AVX2, 512: AVX-512), the executors of
 * ssim_kernels.h's SsimDsp; the reference is ssim_rows.c with ssim_math.h's arithmetic. A unit
 * is N outputs side by side: their float samples and products (N floats), their double sums
 * (N doubles). Each output keeps the reference's operations and order: the float product of
 * sample and tap, widened, added to its double sum, taps in order; the window terms in the
 * reference's types (float variances, double numerators over widened float denominators).
 * Outputs left over after the last full block are the C kernel's.
 */
#include <immintrin.h>

#include "features/ssim/ssim_kernels.h"

#if SSIM_W == 512
typedef __m256 VF;
typedef __m512d VD;
#define N 8
#define LOADF(p) _mm256_loadu_ps(p)
#define STOREF(p, v) _mm256_storeu_ps((p), (v))
#define SET1F _mm256_set1_ps
#define ZEROF() _mm256_setzero_ps()
#define MULF _mm256_mul_ps
#define ADDF _mm256_add_ps
#define SUBF _mm256_sub_ps
#define DIVF _mm256_div_ps
#define WIDEN _mm512_cvtps_pd
#define NARROW _mm512_cvtpd_ps
#define LOADD(p) _mm512_loadu_pd(p)
#define STORED(p, v) _mm512_storeu_pd((p), (v))
#define SET1D _mm512_set1_pd
#define ZEROD() _mm512_setzero_pd()
#define ADDD _mm512_add_pd
#define MULD _mm512_mul_pd
#define DIVD _mm512_div_pd
#define SQRTD _mm512_sqrt_pd
/* a where the lanes of m are clear, b where they are set */
#define BLENDF(a, b, m) _mm256_blendv_ps((a), (b), (m))
#define CMPF(a, b, op) _mm256_cmp_ps((a), (b), (op))
#define ANDF _mm256_and_ps
#define FN(name) name##_avx512

/* p[0], p[2], ..., p[14]: the even samples of 15 (the 16th may lie past the row). */
static inline VF load_even(const float *p)
{
    const __m512 v = _mm512_maskz_loadu_ps(0x7fff, p);
    const __m512i even = _mm512_set_epi32(0, 0, 0, 0, 0, 0, 0, 0, 14, 12, 10, 8, 6, 4, 2, 0);
    return _mm512_castps512_ps256(_mm512_permutexvar_ps(even, v));
}
#else
typedef __m128 VF;
typedef __m256d VD;
#define N 4
#define LOADF(p) _mm_loadu_ps(p)
#define STOREF(p, v) _mm_storeu_ps((p), (v))
#define SET1F _mm_set1_ps
#define ZEROF() _mm_setzero_ps()
#define MULF _mm_mul_ps
#define ADDF _mm_add_ps
#define SUBF _mm_sub_ps
#define DIVF _mm_div_ps
#define WIDEN _mm256_cvtps_pd
#define NARROW _mm256_cvtpd_ps
#define LOADD(p) _mm256_loadu_pd(p)
#define STORED(p, v) _mm256_storeu_pd((p), (v))
#define SET1D _mm256_set1_pd
#define ZEROD() _mm256_setzero_pd()
#define ADDD _mm256_add_pd
#define MULD _mm256_mul_pd
#define DIVD _mm256_div_pd
#define SQRTD _mm256_sqrt_pd
#define BLENDF(a, b, m) _mm_blendv_ps((a), (b), (m))
#define CMPF(a, b, op) _mm_cmp_ps((a), (b), (op))
#define ANDF _mm_and_ps
#define FN(name) name##_avx2

/* p[0], p[2], p[4], p[6] from p[0..6]. */
static inline VF load_even(const float *p)
{
    const __m128 a = _mm_loadu_ps(p), b = _mm_loadu_ps(p + 3); /* p0..p3, p3..p6 */
    return _mm_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 2, 0));
}
#endif

enum { UNITS = 4, BLOCK = UNITS * N }; /* outputs whose sums stay in registers */

/* One tap for every unit of a block: sum += (double)(sample * coef). */
#define TAP_UNITS(acc, load, base, coef)                                                           \
    do {                                                                                           \
        for (int j = 0; j < UNITS; j++)                                                            \
            acc[j] = ADDD(acc[j], WIDEN(MULF(load(base, j), coef)));                               \
    } while (0)

#define STORE_UNITS(dst, acc)                                                                      \
    do {                                                                                           \
        for (int j = 0; j < UNITS; j++)                                                            \
            STOREF((dst) + j * N, NARROW(acc[j]));                                                 \
    } while (0)

#define CONTIGUOUS(base, j) LOADF((base) + (j)*N)
#define EVEN(base, j) load_even((base) + 2 * (j)*N)

/* The 9/7 low-pass (factor 2): the n x n taps, row-major, of each output of a block. */
void FN(ssim_decimate_span)(const float *const *rows, const SsimKernel *k, const int xa,
                            const int xb, float *dst)
{
    int x = xa;
    if (k->factor == 2 && k->n == SSIM_LPF) {
        for (; x + BLOCK <= xb; x += BLOCK) {
            VD acc[UNITS];
            for (int j = 0; j < UNITS; j++)
                acc[j] = ZEROD();
            for (int v = 0; v < SSIM_LPF; v++) {
                const float *src = rows[v] + 2 * x + k->first;
                for (int u = 0; u < SSIM_LPF; u++) {
                    const VF coef = SET1F(k->table[v * SSIM_LPF + u]);
                    TAP_UNITS(acc, EVEN, src + u, coef);
                }
            }
            STORE_UNITS(dst + x, acc);
        }
    }
    if (x < xb)
        ssim_decimate_span_c(rows, k, x, xb, dst);
}

void FN(ssim_gauss_row)(const float *in, const int w, float *out)
{
    const int n = w - (SSIM_WINDOW - 1);
    int x = 0;
    for (; x + BLOCK <= n; x += BLOCK) {
        VD acc[UNITS];
        for (int j = 0; j < UNITS; j++)
            acc[j] = ZEROD();
        for (int t = 0; t < SSIM_WINDOW; t++) {
            const VF g = SET1F(ssim_gauss_tap(t));
            TAP_UNITS(acc, CONTIGUOUS, in + x + t, g);
        }
        STORE_UNITS(out + x, acc);
    }
    if (x < n)
        ssim_gauss_row_c(in + x, w - x, out + x);
}

void FN(ssim_gauss_column)(const float *const *rows, const int n, float *out)
{
    int x = 0;
    for (; x + BLOCK <= n; x += BLOCK) {
        VD acc[UNITS];
        for (int j = 0; j < UNITS; j++)
            acc[j] = ZEROD();
        for (int t = 0; t < SSIM_WINDOW; t++) {
            const VF g = SET1F(ssim_gauss_tap(t));
            TAP_UNITS(acc, CONTIGUOUS, rows[t] + x, g);
        }
        STORE_UNITS(out + x, acc);
    }
    if (x < n) {
        const float *rest[SSIM_WINDOW];
        for (int t = 0; t < SSIM_WINDOW; t++)
            rest[t] = rows[t] + x;
        ssim_gauss_column_c(rest, n - x, out + x);
    }
}

/* ssim_window_terms on N windows. The clamps as the reference's compares: MAX(0.0, v) keeps
 * v unless 0 > v (ordered: NaN and -0.0 stay), the flat-window fix zeroes sigma_xy only when
 * sigma_xy < 0 and root <= 0 (ordered). */
void FN(ssim_terms_row)(const float *const *stat, const int n, double *l, double *c, float *s)
{
    const VF c1 = SET1F(ssim_c1()), c2 = SET1F(ssim_c2()), c3 = SET1F(ssim_c3());
    const VD c1d = SET1D((double)ssim_c1()), c2d = SET1D((double)ssim_c2()), two = SET1D(2.0);
    const VF zero = ZEROF();
    int x = 0;
    for (; x + N <= n; x += N) {
        const VF mx = LOADF(stat[0] + x), my = LOADF(stat[1] + x);
        const VF fxx = LOADF(stat[2] + x), fyy = LOADF(stat[3] + x), fxy = LOADF(stat[4] + x);
        VF var_x = SUBF(fxx, MULF(mx, mx));
        var_x = BLENDF(var_x, zero, CMPF(var_x, zero, _CMP_LT_OQ));
        VF var_y = SUBF(fyy, MULF(my, my));
        var_y = BLENDF(var_y, zero, CMPF(var_y, zero, _CMP_LT_OQ));
        const VF cov = SUBF(fxy, MULF(mx, my));
        const VF root = NARROW(SQRTD(WIDEN(MULF(var_x, var_y))));

        const VD l_num = ADDD(MULD(MULD(two, WIDEN(mx)), WIDEN(my)), c1d);
        const VF l_den = ADDF(ADDF(MULF(mx, mx), MULF(my, my)), c1);
        STORED(l + x, DIVD(l_num, WIDEN(l_den)));

        const VD c_num = ADDD(MULD(two, WIDEN(root)), c2d);
        const VF c_den = ADDF(ADDF(var_x, var_y), c2);
        STORED(c + x, DIVD(c_num, WIDEN(c_den)));

        const VF flat = ANDF(CMPF(cov, zero, _CMP_LT_OQ), CMPF(root, zero, _CMP_LE_OQ));
        const VF cov_fixed = BLENDF(cov, zero, flat);
        STOREF(s + x, DIVF(ADDF(cov_fixed, c3), ADDF(root, c3)));
    }
    if (x < n) {
        const float *rest[5];
        for (int q = 0; q < 5; q++)
            rest[q] = stat[q] + x;
        ssim_terms_row_c(rest, n - x, l + x, c + x, s + x);
    }
}
