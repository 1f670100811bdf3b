/* Which registration runs on which frame (registration.h). */
#include <string.h>

#include "core/registration.h"

static int skipped_by_subsample(const EvEngine *c, const EvExtractorClass *cls, unsigned frame)
{
    const unsigned n = c->settings.n_subsample;
    return n > 1 && frame % n && !(cls->flags & EV_FEX_NO_SUBSAMPLE);
}

int ev_reg_runs_now(const EvEngine *c, const EvRegistration *reg, unsigned frame, int sequential)
{
    return !!(reg->run->flags & EV_FEX_SEQUENTIAL) == sequential &&
           !skipped_by_subsample(c, reg->run, frame);
}

int ev_context_runs(const EvEngine *c, const EvExtractorClass *run, const void *opts,
                    const unsigned frame)
{
    if (c->use_cuda)
        return 0;
    for (unsigned r = 0; r < c->n_reg; r++) {
        const EvRegistration *reg = &c->reg[r];
        if (reg->run == run && ev_reg_runs_now(c, reg, frame, 0) &&
            !memcmp(reg->opts, opts, run->opts_size))
            return 1;
    }
    return 0;
}
