/* What every layout shares: the pooling names, the number format, the frames printed. */
#include <math.h>

#include "output/output_common.h"

const char *const ev_out_pool_name[EV_POOL_HARMONIC_MEAN + 1] = { [EV_POOL_MIN] = "min",
                                                                  [EV_POOL_MAX] = "max",
                                                                  [EV_POOL_MEAN] = "mean",
                                                                  [EV_POOL_HARMONIC_MEAN] =
                                                                      "harmonic_mean" };

int ev_output_leading_zeros(const double x)
{
    const double ax = fabs(x);
    if (!(ax < 2147483648.0)) /* |x| >= 2^31 or NaN: Netflix's (int) is INT_MIN there */
        return 0;
    double frac = ax - (double)(int)ax;
    int zeros = 0;
    while (frac < 1.0 && frac != 0.0) {
        frac *= 10.0;
        zeros++;
    }
    return zeros;
}

void ev_out_number(const EvOut *const o, const double x)
{
    if (o->precision == EV_PRECISION_MAX) {
        fprintf(o->f, "%.17g", x);
        return;
    }
    int digits = o->precision;
    if (digits == EV_PRECISION_NETFLIX)
        digits = ev_output_leading_zeros(x) <= 6 ? 6 : 16;
    fprintf(o->f, "%.*f", digits, x);
}

void ev_out_json_number(const EvOut *const o, const double x)
{
    if (isfinite(x))
        ev_out_number(o, x);
    else
        fputs("null", o->f);
}

unsigned ev_out_frame_values(const EvOut *const o, const unsigned i)
{
    if (i % o->step)
        return 0;
    unsigned n = 0;
    for (unsigned j = 0; j < o->col->n_feat; j++)
        n += (unsigned)ev_out_written(&o->col->feat[j], i);
    return n;
}
