/* float_moment: first and second moments of the reference and distorted luma, as libvmaf's
 * feature/float_moment.c (running double sums in raster order, divided by the int w*h).
 * Fast path: the same sums as exact integers (moment_math.h), used while they are provably
 * the reference's; past 2^53 units the reference loop runs instead. */
#include <errno.h>

#include "core/extractor.h"
#include "features/common/sample_math.h"
#include "features/moment/moment.h"
#include "features/moment/moment_math.h"

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

static uint32_t sample_at(const EvPic *p, unsigned x, unsigned y)
{
    return p->bpc > 8 ? ev_pic_row16(p, 0, y)[x] : ev_pic_row8(p, 0, y)[x];
}

/* The reference: running doubles in raster order. */
static void moment_sums_c(const EvPic *p, float scaler, double sums[2])
{
    double first = 0.0, second = 0.0;
    for (unsigned y = 0; y < p->h[0]; y++)
        for (unsigned x = 0; x < p->w[0]; x++) {
            const float v = sample_to_float(sample_at(p, x, y), scaler, 0);
            first += v;
            second += moment_square(v);
        }
    sums[0] = first;
    sums[1] = second;
}

/* Integer sums in units; returns 0 when the second-moment sum passed 2^53 units. */
static int moment_sums_exact(const EvPic *p, float scaler, double sums[2])
{
    uint64_t first = 0, second = 0;
    for (unsigned y = 0; y < p->h[0]; y++) {
        if (p->bpc > 8) {
            const uint16_t *row = ev_pic_row16(p, 0, y);
            for (unsigned x = 0; x < p->w[0]; x++) {
                first += moment_first_units(row[x]);
                second += moment_square_units(row[x]);
            }
        } else {
            const uint8_t *row = ev_pic_row8(p, 0, y);
            for (unsigned x = 0; x < p->w[0]; x++) {
                first += moment_first_units(row[x]);
                second += (uint64_t)row[x] * row[x];
            }
        }
    }
    if (first >= MOMENT_EXACT_LIMIT || second >= MOMENT_EXACT_LIMIT)
        return 0;
    /* units -> value: exact conversions and power-of-two scalings */
    sums[0] = (double)first / scaler;
    sums[1] = (double)second / ((double)scaler * scaler);
    return 1;
}

static void moments(const EvPic *p, float scaler, double out[2])
{
    double sums[2];
    if (!moment_sums_exact(p, scaler, sums))
        moment_sums_c(p, scaler, sums);
    const int n = (int)p->w[0] * (int)p->h[0];
    out[0] = sums[0] / n;
    out[1] = sums[1] / n;
}

static int moment_extract(const void *state, void *scratch, const EvPic *ref, const EvPic *dis,
                          unsigned frame, EvSink *sink)
{
    (void)scratch;
    const MomentState *s = state;
    double r[2], d[2];
    moments(ref, s->scaler, r);
    moments(dis, s->scaler, d);
    int err = ev_sink_put(sink, "float_moment_ref1st", frame, r[0]);
    if (!err)
        err = ev_sink_put(sink, "float_moment_dis1st", frame, d[0]);
    if (!err)
        err = ev_sink_put(sink, "float_moment_ref2nd", frame, r[1]);
    if (!err)
        err = ev_sink_put(sink, "float_moment_dis2nd", frame, d[1]);
    return err;
}

/* For tests: the reference loop and the exact path on one picture. */
void ev_moment_sums_reference(const EvPic *p, double sums[2])
{
    moment_sums_c(p, sample_scaler(p->bpc), sums);
}

int ev_moment_sums_fast(const EvPic *p, double sums[2])
{
    return moment_sums_exact(p, sample_scaler(p->bpc), sums);
}

const EvExtractorClass ev_fex_float_moment = {
    .name = "float_moment",
    .state_size = sizeof(MomentState),
    .init = moment_init,
    .extract = moment_extract,
};
