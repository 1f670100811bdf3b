/* ev_write_output (exactvmaf.h): validation, then one layout of src/output/. */
#include <errno.h>
#include <string.h>

#include "api/context.h"
#include "output/output.h"
#include "output/output_pool.h"

void ev_default_output_options(EvOutputOptions *const o)
{
    memset(o, 0, sizeof(*o));
    o->format = EV_OUTPUT_XML;
    o->precision = EV_PRECISION_NETFLIX;
    o->fps = 0.0;
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
        ev_log(&c->log, EV_LOG_ERROR, "output: bad precision %d (-2, -1 or 0..17)", opt->precision);
        return -EINVAL;
    }
    if (opt->n_pool && !opt->pool) {
        ev_log(&c->log, EV_LOG_ERROR, "output: %u pooled statistics but no array", opt->n_pool);
        return -EINVAL;
    }
    for (unsigned k = 0; k < opt->n_pool; k++)
        if (!ev_pool_stat_valid(opt->pool[k])) {
            ev_log(&c->log, EV_LOG_ERROR, "output: pooled statistic %u: bad method %d or level %g",
                   k, (int)opt->pool[k].method, opt->pool[k].level);
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
    const EvEngineResults r = ev_engine_results(c->engine);
    EvOut o = { .f = f,
                .col = r.collector,
                .n_frames = r.n_frames,
                .step = r.step,
                .width = r.info.width,
                .height = r.info.height,
                .backend = ev_engine_backend_name(c->engine),
                .version = ev_version(),
                .precision = opt->precision,
                .fps = opt->fps,
                .pool = opt->pool,
                .n_pool = opt->n_pool };
    ev_output_write(&o, opt->format);
    /* A failed fprintf sets the stream's error flag; buffered failures show at the flush. */
    if (fflush(f) || ferror(f)) {
        ev_log(&c->log, EV_LOG_ERROR, "output: write failed");
        return -EIO;
    }
    return 0;
}
