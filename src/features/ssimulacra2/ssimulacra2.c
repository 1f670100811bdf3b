/* ssimulacra2: SSIMULACRA2 per frame, as libjxl 0.11's ssimulacra2 tool (scalar build) scores
 * the frames' R'G'B' (limited range, BT.709 from 1280 wide or over 576 high, else BT.601;
 * chroma repeated; option matrix) read as sRGB; docs/SSIMULACRA2.md. The reference is the
 * tool's "original", the distorted its "distorted". Frames are independent: any order. */
#include <errno.h>
#include <stddef.h>

#include "base/extractor.h"
#include "features/ssimulacra2/ssimulacra2_dsp.h"
#include "features/ssimulacra2/ssimulacra2_frame.h"
#include "features/ssimulacra2/ssimulacra2_twin.h"

enum { SSIMU2_AUTO, SSIMU2_709, SSIMU2_601 };

typedef struct Ssimu2Opts {
    int matrix;
} Ssimu2Opts;

extern const EvExtractorClass ev_fex_ssimulacra2;

static const char *const ssimu2_matrices[] = { "auto", "bt709", "bt601", NULL };

static const EvChoices ssimu2_choices[] = {
    { "matrix", ssimu2_matrices },
    { NULL, NULL },
};

static const EvOption ssimu2_options[] = {
    { "matrix", NULL,
      "Y'CbCr to R'G'B' matrix: auto (bt709 from 1280 wide or over 576 high, else bt601, as "
      "ssimulacra2_rs guesses), bt709 or bt601",
      EV_OPT_CHOICE, offsetof(Ssimu2Opts, matrix), SSIMU2_AUTO, 0, 0, EV_OPT_FEATURE_PARAM },
    { 0 },
};

static int ssimu2_init(void *state, const void *opts, const EvPicInfo *info, const EvLog *log)
{
    Ssimu2State *s = state;
    if (info->width < SSIMU2_MIN_SIZE || info->height < SSIMU2_MIN_SIZE) {
        ev_log(log, EV_LOG_ERROR, "ssimulacra2: frames of %ux%u: the tool needs 8x8 at least",
               info->width, info->height);
        return -EINVAL;
    }
    if (info->bpc < 8 || info->bpc > 16) {
        ev_log(log, EV_LOG_ERROR, "ssimulacra2: %u bits per sample: 8 to 16 are supported",
               info->bpc);
        return -EINVAL;
    }
    const int choice = ((const Ssimu2Opts *)opts)->matrix;
    const int hd = info->width >= 1280 || info->height > 576;
    static const Ssimu2Matrix bt709 = SSIMU2_BT709, bt601 = SSIMU2_BT601;
    s->m = choice == SSIMU2_709 || (choice == SSIMU2_AUTO && hd) ? bt709 : bt601;
    s->w = info->width;
    s->h = info->height;
    s->log = log;
    ssimu2_dsp_init(&s->dsp, info->cpu);
    ev_options_feature_name(s->name, sizeof(s->name), "ssimulacra2", &ev_fex_ssimulacra2, opts);
    return 0;
}

static size_t ssimu2_scratch_size(const void *state)
{
    const Ssimu2State *s = state;
    return ssimu2_buffer_size(s->w, s->h);
}

static int ssimu2_extract(const void *state, void *scratch, const EvPic *ref, const EvPic *dis,
                          const unsigned frame, EvSink *sink)
{
    const Ssimu2State *s = state;
    Ssimu2Planes p;
    ssimu2_planes_bind(&p, scratch, s->w, s->h);
    ssimu2_first_scale(&p, &s->dsp, 0, ref, &s->m);
    ssimu2_first_scale(&p, &s->dsp, 1, dis, &s->m);
    Ssimu2Result r;
    ssimu2_compute(&p, &s->dsp, &r);
    return ev_sink_put(sink, s->name, frame, ssimu2_score(&r));
}

#define SSIMU2_CLASS                                                                               \
    EV_CLASS_COMMON("ssimulacra2", Ssimu2State), EV_CLASS_OPTIONS(ssimu2_options, Ssimu2Opts),     \
        .choices = ssimu2_choices, .init = ssimu2_init

const EvExtractorClass ev_fex_ssimulacra2 = { SSIMU2_CLASS, .scratch_size = ssimu2_scratch_size,
                                              .extract = ssimu2_extract };

#ifdef EV_HAVE_CUDA
/* The CUDA twin: the same init, options and output; the scales, blurs and maps on the device,
 * each map's sum in the C's raster order (ssimulacra2.cu). */
const EvExtractorClass ev_cuda_ssimulacra2 = { SSIMU2_CLASS, .flags = EV_FEX_CUDA,
                                               .launch = ev_ssimu2_launch_cuda,
                                               .extract = ev_ssimu2_extract_cuda };
#endif
