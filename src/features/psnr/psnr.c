/* psnr: integer PSNR per plane (psnr_y/_cb/_cr), optional MSE and whole-sequence apsnr, as
 * libvmaf's feature/integer_psnr.c. Runs on every frame even when subsampling (libvmaf
 * TEMPORAL); frames are independent, and the apsnr totals are integers added atomically. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>

#include "base/extractor.h"
#include "features/psnr/psnr.h"
#include "features/psnr/psnr_dsp.h"
#include "features/psnr/psnr_math.h"
#include "features/psnr/psnr_score.h"

typedef struct PsnrOpts {
    int enable_chroma;
    int enable_mse;
    int enable_apsnr;
    int reduced_hbd_peak;
    double min_sse;
} PsnrOpts;

typedef struct PsnrTotals {
    _Atomic uint64_t sse[3];
    _Atomic uint64_t n_pixels[3];
} PsnrTotals;

typedef struct PsnrState {
    PsnrOpts opts;
    unsigned bpc;
    unsigned n_planes;
    uint32_t peak; /* (1 << bpc) - 1, or 255 << (bpc - 8) with reduced_hbd_peak */
    double psnr_max[3];
    PsnrTotals *totals; /* written by every worker: order-free integer sums */
    PsnrDsp dsp;
} PsnrState;

static const EvOption psnr_options[] = {
    { "enable_chroma", NULL, "enable calculation for chroma channels", EV_OPT_BOOL,
      offsetof(PsnrOpts, enable_chroma), 1, 0, 1, 0 },
    { "enable_mse", NULL, "enable MSE calculation", EV_OPT_BOOL, offsetof(PsnrOpts, enable_mse), 0,
      0, 1, 0 },
    { "enable_apsnr", NULL, "enable APSNR calculation", EV_OPT_BOOL,
      offsetof(PsnrOpts, enable_apsnr), 0, 0, 1, 0 },
    { "reduced_hbd_peak", NULL, "reduce hbd peak value to align with scaled 8-bit content",
      EV_OPT_BOOL, offsetof(PsnrOpts, reduced_hbd_peak), 0, 0, 1, 0 },
    { "min_sse", NULL, "constrain the minimum possible sse", EV_OPT_DOUBLE,
      offsetof(PsnrOpts, min_sse), 0.0, 0.0, DBL_MAX, 0 },
    { 0 },
};

static int psnr_init(void *state, const void *opts, const EvPicInfo *info, const EvLog *log)
{
    PsnrState *s = state;
    s->opts = *(const PsnrOpts *)opts;
    s->bpc = info->bpc;
    /* 4:0:0 turns chroma off, as the reference does (its apsnr then reports -inf for both) */
    s->n_planes = s->opts.enable_chroma && info->layout != EV_PIX_400 ? 3 : 1;
    s->peak = s->opts.reduced_hbd_peak ? 255u << (info->bpc - 8) : (1u << info->bpc) - 1;
    for (unsigned p = 0; p < 3; p++) {
        if (s->opts.min_sse != 0.0) {
            /* the reference halves chroma sizes with unsigned division, whatever the parity */
            const unsigned ss_x = p && info->layout != EV_PIX_444;
            const unsigned ss_y = p && info->layout == EV_PIX_420;
            const unsigned pw = ss_x ? info->width / 2 : info->width;
            const unsigned ph = ss_y ? info->height / 2 : info->height;
            const double mse = s->opts.min_sse / (pw * ph);
            s->psnr_max[p] = ceil(10. * log10(s->peak * s->peak / mse));
        } else {
            s->psnr_max[p] = 6 * info->bpc + 12;
        }
    }
    psnr_dsp_init(&s->dsp, info->cpu);
    s->totals = calloc(1, sizeof(*s->totals));
    return s->totals ? 0 : -ENOMEM;
}

static uint64_t plane_sse(const PsnrDsp *dsp, const EvPic *ref, const EvPic *dis, unsigned p)
{
    uint64_t sse = 0;
    for (unsigned y = 0; y < ref->h[p]; y++) {
        if (ref->bpc > 8)
            sse += dsp->row_sse16(ev_pic_row16(ref, p, y), ev_pic_row16(dis, p, y), ref->w[p]);
        else
            sse += dsp->row_sse8(ev_pic_row8(ref, p, y), ev_pic_row8(dis, p, y), ref->w[p]);
    }
    return sse;
}

/* Score one plane from its sum of squared errors (shared by the C loop and the CUDA twin). */
int ev_psnr_emit_plane(const void *state, unsigned p, uint64_t sse, unsigned n, unsigned frame,
                       EvSink *sink)
{
    static const char *const psnr_name[3] = { "psnr_y", "psnr_cb", "psnr_cr" };
    static const char *const mse_name[3] = { "mse_y", "mse_cb", "mse_cr" };
    const PsnrState *s = state;
    /* the reference's 8-bit path hard-wires the peak to 255 (an int square) */
    const double peak2 = s->bpc > 8 ? (double)(s->peak * s->peak) : (double)(255 * 255);
    if (s->opts.enable_apsnr) {
        atomic_fetch_add(&s->totals->sse[p], sse);
        atomic_fetch_add(&s->totals->n_pixels[p], n);
    }
    const double mse = (double)sse / n;
    int err = ev_sink_put(sink, psnr_name[p], frame, psnr_db(peak2, mse, 1e-16, s->psnr_max[p]));
    if (!err && s->opts.enable_mse)
        err = ev_sink_put(sink, mse_name[p], frame, mse);
    return err;
}

unsigned ev_psnr_planes(const void *state)
{
    return ((const PsnrState *)state)->n_planes;
}

static int psnr_extract(const void *state, void *scratch, const EvPic *ref, const EvPic *dis,
                        unsigned frame, EvSink *sink)
{
    int err = 0;
    for (unsigned p = 0; p < ev_psnr_planes(state) && !err; p++)
        err = ev_psnr_emit_plane(state, p, plane_sse(&((const PsnrState *)state)->dsp, ref, dis, p),
                                 ref->w[p] * ref->h[p], frame, sink);
    return err;
}

/* apsnr for all three planes, as the reference does even with chroma off (then its sums are
 * 0, log10(0) = -inf and the value is min(NaN, -inf) = -inf). */
static int psnr_flush(void *state, unsigned n_frames, EvSink *sink)
{
    static const char *const apsnr_name[3] = { "apsnr_y", "apsnr_cb", "apsnr_cr" };
    PsnrState *s = state;
    if (!s->opts.enable_apsnr)
        return 0;
    int err = 0;
    for (unsigned p = 0; p < 3 && !err; p++) {
        const uint64_t sse = atomic_load(&s->totals->sse[p]);
        const uint64_t n = atomic_load(&s->totals->n_pixels[p]);
        const uint32_t peak2 = s->peak * s->peak;
        const double apsnr = 10 * (log10(peak2) + log10((double)n) - log10((double)sse));
        const double max_apsnr = ceil(10 * log10((double)(peak2 * n * 2)));
        err = ev_sink_put_aggregate(sink, apsnr_name[p], apsnr < max_apsnr ? apsnr : max_apsnr);
    }
    return err;
}

static void psnr_close(void *state)
{
    PsnrState *s = state;
    free(s->totals);
}

#define PSNR_CLASS                                                                                 \
    EV_CLASS_COMMON("psnr", PsnrState), EV_CLASS_OPTIONS(psnr_options, PsnrOpts),                  \
        .init = psnr_init, .flush = psnr_flush, .close = psnr_close
const EvExtractorClass ev_fex_psnr = { PSNR_CLASS, .flags = EV_FEX_NO_SUBSAMPLE,
                                       .extract = psnr_extract };

#ifdef EV_HAVE_CUDA
/* The CUDA twin: the same options, state and end of stream; sums on the device (psnr.cu). */
const EvExtractorClass ev_cuda_psnr = { PSNR_CLASS, .flags = EV_FEX_NO_SUBSAMPLE | EV_FEX_CUDA,
                                        .extract = ev_psnr_extract_cuda };
#endif
