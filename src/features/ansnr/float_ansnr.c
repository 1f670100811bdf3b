/* float_ansnr: anti-noise SNR and PSNR of the filtered luma, as libvmaf's feature/float_ansnr.c,
 * feature/ansnr.c and feature/ansnr_tools.c (2-D filters, mirrored borders, float sums). */
#include <errno.h>
#include <math.h>
#include <stddef.h>

#include "base/extractor.h"
#include "features/ansnr/ansnr_math.h"
#include "features/ansnr/float_ansnr.h"
#include "features/common/sample_math.h"

/* Per worker: both lumas as floats, and one filtered row of each. */
typedef struct AnsnrScratch {
    float *ref, *dis, *ref_row, *dis_row;
} AnsnrScratch;

static const float ref_kernel[ANSNR_REF_WIDTH * ANSNR_REF_WIDTH] = ANSNR_REF_KERNEL;
static const float dis_kernel[ANSNR_DIS_WIDTH * ANSNR_DIS_WIDTH] = ANSNR_DIS_KERNEL;

static int ansnr_init(void *state, const void *opts, const EvPicInfo *info, const EvLog *log)
{
    AnsnrState *s = state;
    /* libvmaf knows the peak of these depths only, and fails init for the others */
    if (info->bpc != 8 && info->bpc != 10 && info->bpc != 12 && info->bpc != 16) {
        ev_log(log, EV_LOG_ERROR, "float_ansnr: %u bits per sample unsupported (8, 10, 12, 16)",
               info->bpc);
        return -EINVAL;
    }
    /* the 5x5 mirror maps -2 -> 2: a luma needs 3 rows and 3 columns */
    if (info->width < 3 || info->height < 3) {
        ev_log(log, EV_LOG_ERROR, "float_ansnr: frame %ux%u is too small (minimum 3x3)",
               info->width, info->height);
        return -EINVAL;
    }
    s->w = (int)info->width;
    s->h = (int)info->height;
    s->scaler = sample_scaler(info->bpc);
    /* (2^bpc - 1) / 2^(bpc - 8) and 6 * bpc + 12: libvmaf's table, exact in double */
    s->peak = (double)((1u << info->bpc) - 1) / (double)(1u << (info->bpc - 8));
    s->psnr_max = 6.0 * info->bpc + 12.0;
    return 0;
}

static size_t ansnr_scratch_size(const void *state)
{
    const AnsnrState *s = state;
    const size_t plane = (size_t)s->w * s->h, row = (size_t)s->w;
    return (2 * plane + 2 * row) * sizeof(float);
}

static AnsnrScratch carve(const AnsnrState *s, void *scratch)
{
    const size_t plane = (size_t)s->w * s->h;
    float *f = scratch;
    const AnsnrScratch b = { f, f + plane, f + 2 * plane, f + 2 * plane + s->w };
    return b;
}

/* libvmaf's picture_copy of the luma with offset -128. */
static void luma_to_float(const AnsnrState *s, const EvPic *pic, float *dst)
{
    for (int y = 0; y < s->h; y++, dst += s->w) {
        if (pic->bpc > 8) {
            const uint16_t *row = ev_pic_row16(pic, 0, (unsigned)y);
            for (int x = 0; x < s->w; x++)
                dst[x] = sample_to_float(row[x], s->scaler, -128);
        } else {
            const uint8_t *row = ev_pic_row8(pic, 0, (unsigned)y);
            for (int x = 0; x < s->w; x++)
                dst[x] = sample_to_float(row[x], s->scaler, -128);
        }
    }
}

/* Row i of a w x h float image filtered with a fw x fw kernel, into out: the window-inside
 * outputs in one loop over j (fw is a constant at each call, so it vectorises across j; each
 * output keeps its own sum order), the border outputs through the mirror. */
static inline void filter_row(const float *k, const int fw, const float *src, int w, int h, int i,
                              float *restrict out)
{
    const int r = fw / 2;
    int j = 0, inside_end = 0;
    if (i >= r && i + r < h) {
        for (j = 0; j < r; j++)
            out[j] = ansnr_filter_at(k, fw, src, w, w, h, i, j);
        const float *row = src + (size_t)i * w;
        inside_end = w - r > r ? w - r : r;
        for (; j < inside_end; j++)
            out[j] = ansnr_filter_inside(k, fw, row + j, w);
    }
    for (; j < w; j++)
        out[j] = ansnr_filter_at(k, fw, src, w, w, h, i, j);
}

/* ansnr_mse over the filtered images, one row at a time: float row sums added into floats. */
static void signal_noise(const AnsnrState *s, const AnsnrScratch *b, float *sig, float *noise)
{
    float sig_total = 0, noise_total = 0;
    for (int i = 0; i < s->h; i++) {
        filter_row(ref_kernel, ANSNR_REF_WIDTH, b->ref, s->w, s->h, i, b->ref_row);
        filter_row(dis_kernel, ANSNR_DIS_WIDTH, b->dis, s->w, s->h, i, b->dis_row);
        float sig_row = 0, noise_row = 0;
        for (int j = 0; j < s->w; j++) {
            sig_row += ansnr_signal_term(b->ref_row[j]);
            noise_row += ansnr_noise_term(b->ref_row[j], b->dis_row[j]);
        }
        sig_total += sig_row;
        noise_total += noise_row;
    }
    *sig = sig_total;
    *noise = noise_total;
}

static int ansnr_extract(const void *state, void *scratch, const EvPic *ref, const EvPic *dis,
                         unsigned frame, EvSink *sink)
{
    const AnsnrState *s = state;
    const AnsnrScratch b = carve(s, scratch);
    luma_to_float(s, ref, b.ref);
    luma_to_float(s, dis, b.dis);
    float sig, noise;
    signal_noise(s, &b, &sig, &noise);
    return ev_ansnr_emit(s, sig, noise, frame, sink);
}

int ev_ansnr_emit(const AnsnrState *s, const float sig, const float noise, const unsigned frame,
                  EvSink *sink)
{
    /* sig / noise is a float quotient; the noise floor compares the float with a double */
    const double ansnr = noise == 0 ? s->psnr_max : 10.0 * log10(sig / noise);
    const double floor_noise = noise > 1e-10 ? (double)noise : 1e-10;
    const double db = 10 * log10(s->peak * s->peak * s->w * s->h / floor_noise);
    const double anpsnr = db < s->psnr_max ? db : s->psnr_max;
    int err = ev_sink_put(sink, "float_ansnr", frame, ansnr);
    if (!err)
        err = ev_sink_put(sink, "float_anpsnr", frame, anpsnr);
    return err;
}

#define ANSNR_CLASS EV_CLASS_COMMON("float_ansnr", AnsnrState), .init = ansnr_init
const EvExtractorClass ev_fex_float_ansnr = { ANSNR_CLASS, .scratch_size = ansnr_scratch_size,
                                              .extract = ansnr_extract };

#ifdef EV_HAVE_CUDA
/* The CUDA twin: the same init and outputs; filters and float sums on the device
 * (float_ansnr.cu), log10 on the host. */
const EvExtractorClass ev_cuda_float_ansnr = { ANSNR_CLASS, .flags = EV_FEX_CUDA | EV_FEX_CUDA_LUMA,
                                               .launch = ev_ansnr_launch_cuda,
                                               .extract = ev_ansnr_extract_cuda };
#endif
