/* float_psnr: luma PSNR on libvmaf's float samples (feature/float_psnr.c, feature/psnr.c):
 * float difference and square, running double in raster order, / (w*h), glibc log10.
 * Fast path: the same sum as exact integers while provably equal (psnr_math.h). */
#include "base/extractor.h"
#include "features/common/sample_math.h"
#include "features/psnr/float_psnr.h"
#include "features/psnr/psnr_math.h"
#include "features/psnr/psnr_score.h"

typedef struct FloatPsnrState {
    float scaler;
    double peak;     /* 255, 255.75, 255.9375, 255.99609375 for 8, 10, 12, 16 bits */
    double psnr_max; /* 60, 72, 84, 108 */
} FloatPsnrState;

static int float_psnr_init(void *state, const void *opts, const EvPicInfo *info, const EvLog *log)
{
    FloatPsnrState *s = state;
    s->scaler = sample_scaler(info->bpc);
    /* libvmaf's table is (2^bpc - 1) / 2^(bpc - 8) and 6 * bpc + 12 for 8, 10, 12, 16; odd
     * depths (refused by libvmaf) follow the same formulas, both exact in double */
    s->peak = (double)((1u << info->bpc) - 1) / (double)(1u << (info->bpc - 8));
    s->psnr_max = 6.0 * info->bpc + 12.0;
    return 0;
}

/* The reference: float terms added to a running double in raster order. */
static double noise_sum_c(const EvPic *ref, const EvPic *dis, float scaler)
{
    double noise = 0;
    for (unsigned y = 0; y < ref->h[0]; y++) {
        if (ref->bpc > 8) {
            const uint16_t *r = ev_pic_row16(ref, 0, y), *d = ev_pic_row16(dis, 0, y);
            for (unsigned x = 0; x < ref->w[0]; x++)
                noise += psnr_float_sq_err(sample_to_float(r[x], scaler, 0),
                                           sample_to_float(d[x], scaler, 0));
        } else {
            const uint8_t *r = ev_pic_row8(ref, 0, y), *d = ev_pic_row8(dis, 0, y);
            for (unsigned x = 0; x < ref->w[0]; x++)
                noise += psnr_float_sq_err(sample_to_float(r[x], scaler, 0),
                                           sample_to_float(d[x], scaler, 0));
        }
    }
    return noise;
}

/* The same sum as an exact integer (psnr_math.h); returns 0 past 2^53 units. */
static int noise_sum_exact(const EvPic *ref, const EvPic *dis, float scaler, double *out)
{
    uint64_t units = 0;
    for (unsigned y = 0; y < ref->h[0]; y++) {
        if (ref->bpc > 8) {
            const uint16_t *r = ev_pic_row16(ref, 0, y), *d = ev_pic_row16(dis, 0, y);
            for (unsigned x = 0; x < ref->w[0]; x++)
                units += psnr_float_sq_err_units(r[x], d[x]);
        } else {
            const uint8_t *r = ev_pic_row8(ref, 0, y), *d = ev_pic_row8(dis, 0, y);
            for (unsigned x = 0; x < ref->w[0]; x++)
                units += psnr_sq_err8(r[x], d[x]);
        }
    }
    if (units >= PSNR_EXACT_LIMIT)
        return 0;
    *out = (double)units / ((double)scaler * scaler);
    return 1;
}

double ev_float_psnr_noise_reference(const EvPic *ref, const EvPic *dis)
{
    return noise_sum_c(ref, dis, sample_scaler(ref->bpc));
}

int ev_float_psnr_noise_fast(const EvPic *ref, const EvPic *dis, double *noise)
{
    return noise_sum_exact(ref, dis, sample_scaler(ref->bpc), noise);
}

int ev_float_psnr_emit(const void *state, double noise_sum, unsigned frame, const EvPic *ref,
                       EvSink *sink)
{
    const FloatPsnrState *s = state;
    const int n = (int)ref->w[0] * (int)ref->h[0]; /* the reference's int w * h */
    const double noise = noise_sum / n;
    return ev_sink_put(sink, "float_psnr", frame,
                       psnr_db(s->peak * s->peak, noise, 1e-10, s->psnr_max));
}

double ev_float_psnr_noise_from_units(const EvPic *ref, const EvPic *dis, uint64_t units)
{
    const double scaler = sample_scaler(ref->bpc);
    if (units < PSNR_EXACT_LIMIT)
        return (double)units / (scaler * scaler);
    return noise_sum_c(ref, dis, (float)scaler);
}

static int float_psnr_extract(const void *state, void *scratch, const EvPic *ref, const EvPic *dis,
                              unsigned frame, EvSink *sink)
{
    const FloatPsnrState *s = state;
    double noise;
    if (!noise_sum_exact(ref, dis, s->scaler, &noise))
        noise = noise_sum_c(ref, dis, s->scaler);
    return ev_float_psnr_emit(state, noise, frame, ref, sink);
}

#define FLOAT_PSNR_CLASS EV_CLASS_COMMON("float_psnr", FloatPsnrState), .init = float_psnr_init
const EvExtractorClass ev_fex_float_psnr = { FLOAT_PSNR_CLASS, .extract = float_psnr_extract };

#ifdef EV_HAVE_CUDA
const EvExtractorClass ev_cuda_float_psnr = { FLOAT_PSNR_CLASS, .flags = EV_FEX_CUDA,
                                              .extract = ev_float_psnr_extract_cuda };
#endif
