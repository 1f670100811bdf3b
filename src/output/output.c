/* ev_write_output(): validation, dispatch to one layout, and the shared number format. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "output/output.h"

const char *const ev_out_pool_name[EV_POOL_HARMONIC_MEAN + 1] = {
    [EV_POOL_MIN] = "min",
    [EV_POOL_MAX] = "max",
    [EV_POOL_MEAN] = "mean",
    [EV_POOL_HARMONIC_MEAN] = "harmonic_mean",
};

void ev_default_output_options(EvOutputOptions *const o)
{
    memset(o, 0, sizeof(*o));
    o->format = EV_OUTPUT_XML;
    o->precision = EV_PRECISION_NETFLIX;
    o->fps = 0.0;
}

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
    const unsigned step = o->c->settings.n_subsample;
    if (step > 1 && i % step)
        return 0;
    unsigned n = 0;
    for (unsigned j = 0; j < o->col->n_feat; j++)
        n += (unsigned)ev_out_written(&o->col->feat[j], i);
    return n;
}

/* Writes exist only below n_frames; looping to the longest vector is Netflix's bound and
 * prints exactly what the collector holds. */
static unsigned longest_vector(const EvCollector *const col)
{
    unsigned n = 0;
    for (unsigned j = 0; j < col->n_feat; j++)
        if (col->feat[j].cap > n)
            n = col->feat[j].cap;
    return n;
}

static int valid_precision(const int p)
{
    return p == EV_PRECISION_NETFLIX || p == EV_PRECISION_MAX || (p >= 0 && p <= 17);
}

static int check_args(const EvContext *const c, const EvOutputOptions *const opt)
{
    if (!c->flushed) {
        ev_log(&c->log, EV_LOG_ERROR, "output: the context is not flushed");
        return -EINVAL;
    }
    if (c->error) {
        ev_log(&c->log, EV_LOG_ERROR, "output: not written, scoring failed (%s)",
               strerror(-c->error));
        return c->error;
    }
    if (!valid_precision(opt->precision)) {
        ev_log(&c->log, EV_LOG_ERROR, "output: bad precision %d (-2, -1 or 0..17)",
               opt->precision);
        return -EINVAL;
    }
    if (opt->format < EV_OUTPUT_XML || opt->format > EV_OUTPUT_SUB) {
        ev_log(&c->log, EV_LOG_ERROR, "output: unknown format %d", (int)opt->format);
        return -EINVAL;
    }
    return 0;
}

int ev_write_output(const EvContext *const c, FILE *const f, const EvOutputOptions *const opt)
{
    if (!c || !f || !opt)
        return -EINVAL;
    const int err = check_args(c, opt);
    if (err)
        return err;
    const EvOut o = {
        .f = f,
        .c = c,
        .col = &c->collector,
        .precision = opt->precision,
        .fps = opt->fps,
        .n_rows = longest_vector(&c->collector),
    };
    switch (opt->format) {
    case EV_OUTPUT_XML: ev_write_xml(&o); break;
    case EV_OUTPUT_JSON: ev_write_json(&o); break;
    case EV_OUTPUT_CSV: ev_write_csv(&o); break;
    case EV_OUTPUT_SUB: ev_write_sub(&o); break;
    }
    /* A failed fprintf sets the stream's error flag; buffered failures show at the flush. */
    if (fflush(f) || ferror(f)) {
        ev_log(&c->log, EV_LOG_ERROR, "output: write failed");
        return -EIO;
    }
    return 0;
}
