/* float_moment: first and second moments of the reference and distorted luma, as libvmaf's
 * feature/float_moment.c (running double sums in raster order, divided by the int w*h).
 * Fast path: the same sums as exact integers (moment_math.h), used while they are provably
 * the reference's; past 2^53 units the reference loop runs instead. */
#include <errno.h>

#include "base/extractor.h"
#include "features/common/sample_math.h"
#include "features/moment/moment.h"
#include "features/moment/moment_math.h"

typedef struct MomentState {
    float scaler;
} MomentState;

static int moment_init(void *state, const void *opts, const EvPicInfo *info, const EvLog *log)
{
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
                second += moment_square_units_small(row[x]);
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

/* The four outputs from each picture's sums (x and x*x, not yet divided by the int w*h). */
int ev_moment_emit(const EvPic *ref, const double r[2], const double d[2], unsigned frame,
                   EvSink *sink)
{
    const int n = (int)ref->w[0] * (int)ref->h[0];
    int err = ev_sink_put(sink, "float_moment_ref1st", frame, r[0] / n);
    if (!err)
        err = ev_sink_put(sink, "float_moment_dis1st", frame, d[0] / n);
    if (!err)
        err = ev_sink_put(sink, "float_moment_ref2nd", frame, r[1] / n);
    if (!err)
        err = ev_sink_put(sink, "float_moment_dis2nd", frame, d[1] / n);
    return err;
}

int ev_moment_sums_from_units(const EvPic *p, uint64_t first, uint64_t second, double sums[2])
{
    const double scaler = sample_scaler(p->bpc);
    if (first >= MOMENT_EXACT_LIMIT || second >= MOMENT_EXACT_LIMIT) {
        moment_sums_c(p, (float)scaler, sums);
        return 0;
    }
    sums[0] = (double)first / scaler;
    sums[1] = (double)second / (scaler * scaler);
    return 1;
}

static void moment_sums(const EvPic *p, float scaler, double sums[2])
{
    if (!moment_sums_exact(p, scaler, sums))
        moment_sums_c(p, scaler, sums);
}

static int moment_extract(const void *state, void *scratch, const EvPic *ref, const EvPic *dis,
                          unsigned frame, EvSink *sink)
{
    const MomentState *s = state;
    double r[2], d[2];
    moment_sums(ref, s->scaler, r);
    moment_sums(dis, s->scaler, d);
    return ev_moment_emit(ref, r, d, frame, sink);
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

#define MOMENT_CLASS EV_CLASS_COMMON("float_moment", MomentState), .init = moment_init
const EvExtractorClass ev_fex_float_moment = { MOMENT_CLASS, .extract = moment_extract };

#ifdef EV_HAVE_CUDA
const EvExtractorClass ev_cuda_float_moment = { MOMENT_CLASS, .flags = EV_FEX_CUDA,
                                                .extract = ev_moment_extract_cuda };
#endif
