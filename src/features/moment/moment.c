/* float_moment: first and second moments of the reference and distorted luma, as libvmaf's
 * feature/float_moment.c (running double sums in raster order, divided by w*h). */
#include <errno.h>

#include "features/common/sample_math.h"
#include "features/moment/moment_math.h"
#include "core/extractor.h"

typedef struct MomentState {
    float scaler;
} MomentState;

static int moment_init(void *state, const void *opts, const EvPicInfo *info, const EvLog *log)
{
    (void)opts;
    (void)log;
    MomentState *s = state;
    s->scaler = sample_scaler(info->bpc);
    return 0;
}

/* sums[0] += x, sums[1] += x * x (float square), raster order */
static void moment_sums(const EvPic *p, float scaler, double sums[2])
{
    double first = 0.0, second = 0.0;
    for (unsigned y = 0; y < p->h[0]; y++) {
        if (p->bpc > 8) {
            const uint16_t *row = ev_pic_row16(p, 0, y);
            for (unsigned x = 0; x < p->w[0]; x++) {
                const float v = sample_to_float(row[x], scaler, 0);
                first += v;
                second += moment_square(v);
            }
        } else {
            const uint8_t *row = ev_pic_row8(p, 0, y);
            for (unsigned x = 0; x < p->w[0]; x++) {
                const float v = sample_to_float(row[x], scaler, 0);
                first += v;
                second += moment_square(v);
            }
        }
    }
    /* the reference divides by the int product w * h */
    const int n = (int)p->w[0] * (int)p->h[0];
    sums[0] = first / n;
    sums[1] = second / n;
}

static int moment_extract(const void *state, void *scratch, const EvPic *ref, const EvPic *dis,
                          unsigned frame, EvSink *sink)
{
    (void)scratch;
    const MomentState *s = state;
    double r[2], d[2];
    moment_sums(ref, s->scaler, r);
    moment_sums(dis, s->scaler, d);
    int err = ev_sink_put(sink, "float_moment_ref1st", frame, r[0]);
    err |= ev_sink_put(sink, "float_moment_dis1st", frame, d[0]);
    err |= ev_sink_put(sink, "float_moment_ref2nd", frame, r[1]);
    err |= ev_sink_put(sink, "float_moment_dis2nd", frame, d[1]);
    return err ? -ENOMEM : 0;
}

const EvExtractorClass ev_fex_float_moment = {
    .name = "float_moment",
    .state_size = sizeof(MomentState),
    .init = moment_init,
    .extract = moment_extract,
};
