/* float_ssim: SSIM of the luma on libvmaf's floats, as feature/float_ssim.c and feature/ssim.c:
 * optional box decimation by the scale factor, then one _iqa_ssim (ssim_core.c). */
#include <errno.h>
#include <stddef.h>

#include "base/extractor.h"
#include "features/ssim/ssim.h"
#include "features/ssim/ssim_core.h"
#include "features/ssim/ssim_dsp.h"
#include "features/ssim/ssim_score.h"

/* Per-worker memory: the decimated planes, the row cache, ssim_core's buffers. */
typedef struct SsimBufs {
    float *ref, *dis;
    SsimRowCache *cache;
    void *core;
} SsimBufs;

static const EvOption ssim_options[] = {
    { "enable_lcs", NULL, "enable luminance, contrast and structure intermediate output",
      EV_OPT_BOOL, offsetof(SsimOpts, enable_lcs), 0, 0, 1, 0 },
    { "enable_db", NULL, "write SSIM values as dB", EV_OPT_BOOL, offsetof(SsimOpts, enable_db), 0,
      0, 1, 0 },
    { "clip_db", NULL, "clip dB scores", EV_OPT_BOOL, offsetof(SsimOpts, clip_db), 0, 0, 1, 0 },
    { "scale", NULL, "decimation scale factor (0=auto, 1=no downscaling, 2-10=explicit)",
      EV_OPT_INT, offsetof(SsimOpts, scale), 0, 0, SSIM_MAX_FACTOR, 0 },
    { 0 },
};

static size_t ssim_layout(const SsimState *s, char *base, SsimBufs *b)
{
    size_t off = 0;
    b->ref = b->dis = NULL;
    b->cache = NULL;
    if (s->scale > 1) {
        const size_t plane = (size_t)s->sw * (size_t)s->sh * sizeof(float);
        b->ref = ssim_take(base, &off, plane);
        b->dis = ssim_take(base, &off, plane);
        b->cache = ssim_take(base, &off, sizeof(SsimRowCache));
        void *rows = ssim_take(base, &off, ssim_row_cache_size(s->scale, s->w));
        if (base)
            ssim_row_cache_init(b->cache, rows, s->scale, s->w);
    }
    b->core = ssim_take(base, &off, ssim_core_scratch_size(s->sw));
    return off;
}

static int ssim_init(void *state, const void *opts, const EvPicInfo *info, const EvLog *log)
{
    SsimState *s = state;
    s->opts = *(const SsimOpts *)opts;
    s->w = (int)info->width;
    s->h = (int)info->height;
    s->scale = s->opts.scale > 0 ? s->opts.scale : ssim_auto_scale(s->w, s->h);
    s->sw = s->scale > 1 ? ssim_decimated_size(s->w, s->scale) : s->w;
    s->sh = s->scale > 1 ? ssim_decimated_size(s->h, s->scale) : s->h;
    if (s->sw < SSIM_WINDOW || s->sh < SSIM_WINDOW) {
        ev_log(log, EV_LOG_ERROR,
               "float_ssim: frame %ux%u is too small: at scale %d the %dx%d window sees %dx%d "
               "samples, at least %dx%d are needed",
               info->width, info->height, s->scale, SSIM_WINDOW, SSIM_WINDOW, s->sw, s->sh,
               SSIM_WINDOW, SSIM_WINDOW);
        return -EINVAL;
    }
    s->max_db = ssim_max_db(s->opts.clip_db, info->bpc, info->width, info->height);
    s->cpu = info->cpu;
    return 0;
}

static size_t ssim_scratch_size(const void *state)
{
    SsimBufs b;
    return ssim_layout(state, NULL, &b);
}

static int ssim_extract(const void *state, void *scratch, const EvPic *ref, const EvPic *dis,
                        unsigned frame, EvSink *sink)
{
    const SsimState *s = state;
    SsimBufs b;
    ssim_layout(s, scratch, &b);
    const SsimDsp *dsp = ssim_dsp(s->cpu);
    SsimPlane r = ssim_plane_of_pic(ref), d = ssim_plane_of_pic(dis);
    if (s->scale > 1) {
        SsimKernel box;
        ssim_kernel_box(&box, s->scale);
        ssim_decimate(&r, &box, dsp, b.cache, b.ref);
        ssim_decimate(&d, &box, dsp, b.cache, b.dis);
        r = ssim_plane_of_img(b.ref, s->sw, s->sh);
        d = ssim_plane_of_img(b.dis, s->sw, s->sh);
    }
    SsimMeans m;
    ssim_core(&r, &d, dsp, b.core, &m);
    return ev_float_ssim_emit(s, &m, frame, sink);
}

#define SSIM_CLASS                                                                                 \
    EV_CLASS_COMMON("float_ssim", SsimState), EV_CLASS_OPTIONS(ssim_options, SsimOpts),            \
        .init = ssim_init
const EvExtractorClass ev_fex_float_ssim = { SSIM_CLASS, .scratch_size = ssim_scratch_size,
                                             .extract = ssim_extract };

#ifdef EV_HAVE_CUDA
/* The CUDA twin (ssim.cu): the same options and state; reads only the luma. */
const EvExtractorClass ev_cuda_float_ssim = { SSIM_CLASS, .flags = EV_FEX_CUDA | EV_FEX_CUDA_LUMA,
                                              .extract = ev_float_ssim_extract_cuda };
#endif

#ifndef EV_HAVE_CUDA
void ev_ssim_cuda_mean_counts(unsigned long long *certified, unsigned long long *in_order)
{
    *certified = *in_order = 0;
}
#endif
