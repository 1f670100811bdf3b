/* The parity runs' contexts and comparison of a batch (compare.h). */
#include <inttypes.h>
#include <stdio.h>

#include "base/bitcast.h"
#include "compare.h"

EvContext *parity_open(const EvBackend backend, const unsigned threads, const EvLogCallback log)
{
    EvSettings s;
    ev_default_settings(&s);
    s.backend = backend;
    s.n_threads = threads;
    s.log = log;
    EvContext *c = NULL;
    return ev_open(&c, &s) ? NULL : c;
}

unsigned long parity_compare_batch(EvContext *cpu, EvContext *twin, unsigned frames,
                                   unsigned long first, const char *where, unsigned long *values)
{
    const unsigned nf = ev_feature_count(cpu);
    if (nf != ev_feature_count(twin))
        return frames;
    unsigned long bad = 0;
    for (unsigned i = 0; i < frames; i++) {
        int same = 1;
        for (unsigned f = 0; f < nf; f++) {
            const char *name = ev_feature_name(cpu, f);
            double a, b;
            if (ev_get_score(cpu, name, i, &a) || ev_get_score(twin, name, i, &b)) {
                same = 0;
                continue;
            }
            (*values)++;
            if (ev_bits64(a) == ev_bits64(b))
                continue;
            if (same) {
                char at[160] = "";
                if (where)
                    snprintf(at, sizeof(at), " (%s, frame %u of its batch)", where, i);
                printf("frame %lu%s: %s cpu %.17g (0x%016" PRIx64 ") twin %.17g (0x%016" PRIx64
                       ")\n",
                       first + i, at, name, a, ev_bits64(a), b, ev_bits64(b));
            }
            same = 0;
        }
        bad += !same;
    }
    return bad;
}
