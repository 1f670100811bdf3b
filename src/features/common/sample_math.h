/*
 * How libvmaf's float extractors see a sample (feature/picture_copy.c): (float)v / scaler +
 * offset, with scaler 4, 16, 256 for 10, 12, 16 bits and no division at 8 bits. Every result
 * is exact in float. libvmaf misreads odd depths (9, 11, 13-15) as bytes; exactvmaf extends
 * the rule to them with scaler 2^(bpc-8), which is what the 10/12/16-bit cases are.
 */
#ifndef EV_FEATURES_SAMPLE_MATH_H
#define EV_FEATURES_SAMPLE_MATH_H

#include <stdint.h>

#include "base/hd.h"

EV_HD float sample_scaler(const unsigned bpc)
{
    return (float)(1u << (bpc - 8));
}

/* The float a libvmaf float extractor works on, for a sample v of a bpc-bit picture. */
EV_HD float sample_to_float(const uint32_t v, const float scaler, const int offset)
{
    return (float)v / scaler + (float)offset;
}

#endif
