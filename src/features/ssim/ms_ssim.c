/* float_ms_ssim: 5-scale MS-SSIM (Wang) of the luma on libvmaf's floats, as
 * feature/float_ms_ssim.c and feature/ms_ssim.c: a 9/7 low-pass pyramid, one _iqa_ssim per
 * scale (ssim_core.c), and the product of pow(l, a) pow(c, b) pow(s, g) over the scales. */
#include <errno.h>
#include <stddef.h>

#include "base/extractor.h"
#include "features/ssim/ssim.h"
#include "features/ssim/ssim_core.h"
#include "features/ssim/ssim_dsp.h"
#include "features/ssim/ssim_score.h"

/* Per-worker memory: scales 1..4 of both planes, the row cache, ssim_core's buffers. */
typedef struct MsSsimBufs {
    float *ref[MS_SCALES], *dis[MS_SCALES];
    SsimRowCache *cache;
    void *core;
} MsSsimBufs;

static const EvOption ms_ssim_options[] = {
    { "enable_lcs", NULL, "enable luminance, contrast and structure intermediate output",
      EV_OPT_BOOL, offsetof(MsSsimOpts, enable_lcs), 0, 0, 1, 0 },
    { "enable_db", NULL, "write MS-SSIM values as dB", EV_OPT_BOOL, offsetof(MsSsimOpts, enable_db),
      0, 0, 1, 0 },
    { "clip_db", NULL, "clip dB scores", EV_OPT_BOOL, offsetof(MsSsimOpts, clip_db), 0, 0, 1, 0 },
    { 0 },
};

static size_t ms_layout(const MsSsimState *s, char *base, MsSsimBufs *b)
{
    size_t off = 0;
    b->ref[0] = b->dis[0] = NULL; /* scale 0 is read from the picture */
    for (int k = 1; k < MS_SCALES; k++) {
        const size_t plane = (size_t)s->w[k] * (size_t)s->h[k] * sizeof(float);
        b->ref[k] = ssim_take(base, &off, plane);
        b->dis[k] = ssim_take(base, &off, plane);
    }
    b->cache = ssim_take(base, &off, sizeof(SsimRowCache));
    void *rows = ssim_take(base, &off, ssim_row_cache_size(SSIM_LPF, s->w[0]));
    if (base)
        ssim_row_cache_init(b->cache, rows, SSIM_LPF, s->w[0]);
    b->core = ssim_take(base, &off, ssim_core_scratch_size(s->w[0]));
    return off;
}

/* libvmaf's check, before any scale is built: halving (floor) 4 times, every size stays >= 11
 * (so min(w, h) >= 176). The pyramid itself rounds odd sizes up. */
static int ms_fits(unsigned w, unsigned h)
{
    for (int k = 0; k < MS_SCALES; k++, w /= 2, h /= 2)
        if (w < SSIM_WINDOW || h < SSIM_WINDOW)
            return 0;
    return 1;
}

static int ms_ssim_init(void *state, const void *opts, const EvPicInfo *info, const EvLog *log)
{
    MsSsimState *s = state;
    s->opts = *(const MsSsimOpts *)opts;
    if (!ms_fits(info->width, info->height)) {
        ev_log(log, EV_LOG_ERROR,
               "float_ms_ssim: frame %ux%u is too small: its %d scales need at least %dx%d",
               info->width, info->height, MS_SCALES, SSIM_WINDOW << (MS_SCALES - 1),
               SSIM_WINDOW << (MS_SCALES - 1));
        return -EINVAL;
    }
    s->w[0] = (int)info->width;
    s->h[0] = (int)info->height;
    for (int k = 1; k < MS_SCALES; k++) {
        s->w[k] = ssim_decimated_size(s->w[k - 1], 2);
        s->h[k] = ssim_decimated_size(s->h[k - 1], 2);
    }
    s->max_db = ssim_max_db(s->opts.clip_db, info->bpc, info->width, info->height);
    s->cpu = info->cpu;
    return 0;
}

static size_t ms_ssim_scratch_size(const void *state)
{
    MsSsimBufs b;
    return ms_layout(state, NULL, &b);
}

/* Build scales 1..4 of one plane; level[0] is the picture. */
static void ms_pyramid(const MsSsimState *s, const MsSsimBufs *b, const SsimKernel *lpf,
                       const SsimDsp *dsp, float *const *imgs, SsimPlane level[MS_SCALES])
{
    for (int k = 1; k < MS_SCALES; k++) {
        ssim_decimate(&level[k - 1], lpf, dsp, b->cache, imgs[k]);
        level[k] = ssim_plane_of_img(imgs[k], s->w[k], s->h[k]);
    }
}

static int ms_ssim_extract(const void *state, void *scratch, const EvPic *ref, const EvPic *dis,
                           unsigned frame, EvSink *sink)
{
    const MsSsimState *s = state;
    MsSsimBufs b;
    ms_layout(s, scratch, &b);
    SsimPlane r[MS_SCALES], d[MS_SCALES];
    r[0] = ssim_plane_of_pic(ref);
    d[0] = ssim_plane_of_pic(dis);
    SsimKernel lpf;
    ssim_kernel_lpf(&lpf);
    const SsimDsp *dsp = ssim_dsp(s->cpu);
    ms_pyramid(s, &b, &lpf, dsp, b.ref, r);
    ms_pyramid(s, &b, &lpf, dsp, b.dis, d);

    SsimMeans m[MS_SCALES];
    for (int k = 0; k < MS_SCALES; k++)
        ssim_core(&r[k], &d[k], dsp, b.core, &m[k]);
    return ev_float_ms_ssim_emit(s, m, frame, sink);
}

#define MS_SSIM_CLASS                                                                              \
    EV_CLASS_COMMON("float_ms_ssim", MsSsimState), EV_CLASS_OPTIONS(ms_ssim_options, MsSsimOpts),  \
        .init = ms_ssim_init
const EvExtractorClass ev_fex_float_ms_ssim = { MS_SSIM_CLASS, .scratch_size = ms_ssim_scratch_size,
                                                .extract = ms_ssim_extract };

#ifdef EV_HAVE_CUDA
/* The CUDA twin (ssim.cu): the same options and state; reads only the luma. */
const EvExtractorClass ev_cuda_float_ms_ssim = { MS_SSIM_CLASS,
                                                 .flags = EV_FEX_CUDA | EV_FEX_CUDA_LUMA,
                                                 .extract = ev_float_ms_ssim_extract_cuda };
#endif
