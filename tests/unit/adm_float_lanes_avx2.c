/* adm_float_avx2.h's conversion of four lanes, for adm_float_avx2_test.c (this file alone is
 * compiled with AVX2). */
#include <immintrin.h>
#include <stdint.h>

#include "features/adm/adm_float_avx2.h"

void adm_float_lanes_avx2(const int64_t in[4], double out[4]);

void adm_float_lanes_avx2(const int64_t in[4], double out[4])
{
    _mm256_storeu_pd(out, adm_float_of_i64_avx2(_mm256_loadu_si256((const __m256i *)in)));
}
