/*
 * NVDEC's frame layouts as the software decoder's, one sample at a time, shared by decode.c's
 * host unpack and the device one (unpack_twin.cu): NV12, P010 and P016 keep chroma as
 * interleaved U/V pairs and their samples MSB-aligned; the software decoder gives planes apart
 * with samples LSB-aligned. The samples themselves are the same (decoding is exactly
 * specified): only their place and alignment change.
 */
#ifndef EV_IO_UNPACK_MATH_H
#define EV_IO_UNPACK_MATH_H

#include <stdint.h>

#ifdef __CUDACC__
#define EV_UNPACK_FN static __host__ __device__ inline
#else
#define EV_UNPACK_FN static inline
#endif

/* Sample x of a row of 16-bit samples, shifted down to LSB alignment. */
EV_UNPACK_FN uint16_t ev_unpack_sample16(const uint16_t *row, unsigned x, unsigned shift)
{
    return (uint16_t)(row[x] >> shift);
}

/* Chroma sample x of component c (0 U, 1 V) of an interleaved row. */
EV_UNPACK_FN uint8_t ev_unpack_pair8(const uint8_t *row, unsigned x, unsigned c)
{
    return row[2 * x + c];
}

EV_UNPACK_FN uint16_t ev_unpack_pair16(const uint16_t *row, unsigned x, unsigned c, unsigned shift)
{
    return (uint16_t)(row[2 * x + c] >> shift);
}

#endif
