/*
 * Speed-family kernels for one vector width (SPEED_W 256: AVX2, 512: AVX-512 F), the executors
 * of speed_kernels.h; the reference is speed_rows.c. The covariance row: each position's 25
 * centred values as the C computes them, then each row x of the triangle of sums N at a time:
 * acc[t] + v[x] * v[y], the product rounded, then the sum, lane by lane the C's operations in
 * its order (positions one after another).
 */
#include <immintrin.h>

#include "features/speed/speed_kernels.h"
#include "features/speed/speed_math.h"

#if SPEED_W == 512
typedef __m512d VD;
#define N 8
#define LOAD(p) _mm512_load_pd(p)
#define STORE(p, v) _mm512_store_pd((p), (v))
#define SET1 _mm512_set1_pd
#define MUL _mm512_mul_pd
#define ADD _mm512_add_pd
#define FN(name) ev_##name##_avx512
#else
typedef __m256d VD;
#define N 4
#define LOAD(p) _mm256_load_pd(p)
#define STORE(p, v) _mm256_store_pd((p), (v))
#define SET1 _mm256_set1_pd
#define MUL _mm256_mul_pd
#define ADD _mm256_add_pd
#define FN(name) ev_##name##_avx2
#endif

/* The sums live in rows padded to whole vectors for the whole row of positions (no masked
 * store is read back by the next position's load: that stalls); a padding lane sums products
 * that are never written back. */
enum { PAD = (SPEED_COV_N + N - 1) / N * N };

void FN(speed_cov_row)(double *acc, const float *d, const ptrdiff_t stride, const float *mean,
                       const int n)
{
    double sums[SPEED_COV_N][PAD] __attribute__((aligned(64)));
    double v[PAD] __attribute__((aligned(64)));
    for (int x = 0, t = 0; x < SPEED_COV_N; x++)
        for (int y = 0; y < PAD; y++)
            sums[x][y] = y <= x ? acc[t++] : 0.;
    for (int o = SPEED_COV_N; o < PAD; o++)
        v[o] = 0.;
    for (int j = 0; j < n; j++) {
        for (int o = 0; o < SPEED_COV_N; o++)
            v[o] = speed_centre(d[(o / 5) * stride + o % 5 + j], mean[o]);
        for (int x = 0; x < SPEED_COV_N; x++) {
            const VD vx = SET1(v[x]);
            for (int y = 0; y <= x; y += N)
                STORE(sums[x] + y, ADD(LOAD(sums[x] + y), MUL(vx, LOAD(v + y))));
        }
    }
    for (int x = 0, t = 0; x < SPEED_COV_N; x++)
        for (int y = 0; y <= x; y++)
            acc[t++] = sums[x][y];
}
