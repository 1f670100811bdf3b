/* The bits of a double or float and back, on the host and the device (EV_HD): what the libm
 * replicas (src/libm/) and their checks work in. */
#ifndef EV_BASE_BITCAST_H
#define EV_BASE_BITCAST_H

#include <stdint.h>
#include <string.h>

#include "base/hd.h"

EV_HD uint64_t ev_bits64(const double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof(u));
    return u;
}

EV_HD double ev_double_of(const uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof(x));
    return x;
}

EV_HD uint32_t ev_bits32(const float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof(u));
    return u;
}

EV_HD float ev_float_of(const uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof(x));
    return x;
}

#endif
