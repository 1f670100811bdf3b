/*
 * PSNR arithmetic of libvmaf (feature/integer_psnr.c and feature/psnr.c), shared by the C
 * reference and the CUDA twins.
 *
 * Integer psnr: 8-bit squares of the int16 difference summed per row in uint32 (wrapping as
 * the reference does for rows wider than 66052 samples), rows added into uint64; 9..16-bit
 * squares of |difference| as uint32, added straight into uint64. Integer sums: any order.
 * float_psnr: float difference, float square, running double in raster order.
 */
#ifndef EV_FEATURES_PSNR_MATH_H
#define EV_FEATURES_PSNR_MATH_H

#include <math.h>
#include <stdint.h>

#include "base/hd.h"

EV_HD uint32_t psnr_sq_err8(const uint8_t r, const uint8_t d)
{
    const int16_t e = (int16_t)(r - d);
    return (uint32_t)(e * e);
}

EV_HD uint32_t psnr_sq_err16(const uint16_t r, const uint16_t d)
{
    const uint32_t e = (uint32_t)(r > d ? r - d : d - r);
    return e * e;
}

/* One row's 8-bit sum, in the reference's uint32 (wraps modulo 2^32). */
EV_HD uint32_t psnr_row_sse8(const uint8_t *r, const uint8_t *d, const unsigned w)
{
    uint32_t sum = 0;
    for (unsigned x = 0; x < w; x++)
        sum += psnr_sq_err8(r[x], d[x]);
    return sum;
}

EV_HD uint64_t psnr_row_sse16(const uint16_t *r, const uint16_t *d, const unsigned w)
{
    uint64_t sum = 0;
    for (unsigned x = 0; x < w; x++)
        sum += psnr_sq_err16(r[x], d[x]);
    return sum;
}

/* float_psnr's per-sample term: (ref - dis)^2 with both operations in float. */
EV_HD float psnr_float_sq_err(const float r, const float d)
{
    const float diff = r - d;
    return diff * diff;
}

/* float_psnr's term in units of 1/scaler^2 for samples r, d of one depth: the float
 * difference (r - d) / scaler is exact, and its float square rounds as the integer (r - d)^2
 * converted to float does (scaler is a power of two). While the running sum stays below 2^53
 * units the reference's double sum is exactly the integer sum, in any order. */
EV_HD uint64_t psnr_float_sq_err_units(const uint32_t r, const uint32_t d)
{
    const uint64_t e = r > d ? r - d : d - r;
    return (uint64_t)(float)(e * e);
}

#define PSNR_EXACT_LIMIT (UINT64_C(1) << 53)

#endif
