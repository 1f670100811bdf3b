/* cambi: Netflix's CAMBI banding index (libvmaf feature/cambi.c): options, init, the per-frame
 * outputs (cambi; cambi_source and cambi_full_reference in full_ref mode) and heatmaps. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "features/cambi/cambi_dsp.h"
#include "features/cambi/cambi_internal.h"

#define DEFAULT_TOPK 0.6

#define OPT(name, alias, type, field, def, min, max, flags, help)                                  \
    {                                                                                              \
        name, alias, help, type, offsetof(CambiOpts, field), def, min, max, flags                  \
    }
#define FP EV_OPT_FEATURE_PARAM

static const EvOption cambi_options[] = {
    OPT("cambi_max_val", "cmxv", EV_OPT_DOUBLE, cambi_max_val, 1000.0, 0.0, 1000.0, FP,
        "largest CAMBI score; larger ones are clipped"),
    OPT("enc_width", "encw", EV_OPT_INT, enc_width, 0, 180, 7680, FP,
        "width the video was encoded at (0: the input's)"),
    OPT("enc_height", "ench", EV_OPT_INT, enc_height, 0, 150, 7680, FP,
        "height the video was encoded at (0: the input's)"),
    OPT("enc_bitdepth", "encbd", EV_OPT_INT, enc_bitdepth, 0, 6, 16, FP,
        "bit depth the video was encoded at (0: the input's)"),
    OPT("src_width", "srcw", EV_OPT_INT, src_width, 0, 320, 7680, FP,
        "source width for full_ref (0: the input's)"),
    OPT("src_height", "srch", EV_OPT_INT, src_height, 0, 200, 4320, FP,
        "source height for full_ref (0: the input's)"),
    OPT("window_size", "ws", EV_OPT_INT, window_size, 65, 15, 127, FP,
        "window size at 4K (scaled with the frame size)"),
    OPT("topk", NULL, EV_OPT_DOUBLE, topk, DEFAULT_TOPK, 0.0001, 1.0, FP,
        "fraction of the worst pixels pooled"),
    OPT("cambi_topk", "ctpk", EV_OPT_DOUBLE, cambi_topk, DEFAULT_TOPK, 0.0001, 1.0, FP,
        "fraction of the worst pixels pooled (overrides topk)"),
    OPT("tvi_threshold", "tvit", EV_OPT_DOUBLE, tvi_threshold, 0.019, 0.0001, 1.0, FP,
        "visibility threshold of luminance steps"),
    OPT("cambi_vis_lum_threshold", "vlt", EV_OPT_DOUBLE, cambi_vis_lum_threshold, 0.0, 0.0, 300.0,
        FP, "luminance (nits) below which banding is not counted"),
    OPT("max_log_contrast", "mlc", EV_OPT_INT, max_log_contrast, 2, 0, 5, FP,
        "largest contrast, as a power of two, searched"),
    OPT("heatmaps_path", NULL, EV_OPT_STRING, heatmaps_path, 0, 0, 0, 0,
        "folder to write per-scale 16-bit heatmaps to (none: no heatmaps)"),
    OPT("full_ref", NULL, EV_OPT_BOOL, full_ref, 0, 0, 1, 0,
        "also score the reference and output their difference"),
    OPT("eotf", NULL, EV_OPT_STRING, eotf, 1, 0, 0, FP, "transfer function: bt1886 or pq"),
    OPT("cambi_eotf", "ceot", EV_OPT_STRING, cambi_eotf, 1, 0, 0, FP,
        "transfer function: bt1886 or pq (overrides eotf)"),
    OPT("cambi_high_res_speedup", "hrs", EV_OPT_INT, cambi_high_res_speedup, 0, 0, 2160, FP,
        "from this resolution (1080, 1440, 2160) up, score at half size"),
    { 0 },
};

/* string defaults, by the options' def: heatmaps_path none, eotf and cambi_eotf BT.1886 */
static const char *const cambi_str_defaults[] = { NULL, "bt1886" };

static const EvExtractorClass *cambi_class(void);

/* The speed-up applies from its resolution (1080, 1440 or 2160 lines' pixel counts) up. */
static int speedup_applies(const int lines, const unsigned w, const unsigned h)
{
    const unsigned pixels = w * h;
    switch (lines) {
    case 1080: return pixels >= 1920u * 1080;
    case 1440: return pixels >= 2560u * 1440;
    case 2160: return pixels >= 3840u * 2160;
    default: return 0;
    }
}

static int geometry_init(CambiGeometry *g, const unsigned w, const unsigned h, const unsigned in_w,
                         const unsigned in_h, const unsigned window)
{
    g->w = w;
    g->h = h;
    g->window = window;
    g->col_src = malloc(w * sizeof(*g->col_src));
    g->row_src = malloc(h * sizeof(*g->row_src));
    if (!g->col_src || !g->row_src)
        return -ENOMEM;
    cambi_resample_index(g->col_src, in_w, w);
    cambi_resample_index(g->row_src, in_h, h);
    g->cols_identity = 1;
    for (unsigned j = 0; j < w; j++)
        g->cols_identity &= g->col_src[j] == j;
    return 0;
}

/* Every scale must be larger than half the window both ways: below that libvmaf's window
 * loops read outside the frame (and its buffers). */
static int check_scales(const CambiGeometry *g, const int speedup, const char *what,
                        const EvLog *log)
{
    unsigned w = g->w, h = g->h;
    const unsigned pad = g->window >> 1;
    for (unsigned s = 0; s < CAMBI_NUM_SCALES; s++) {
        if (s > 0 || speedup) {
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
        }
        if (w <= pad || h <= pad) {
            ev_log(log, EV_LOG_ERROR,
                   "cambi: %s %ux%u is too small for its %u-pixel window: "
                   "scale %u is %ux%u, and each scale needs more than %u columns and rows",
                   what, g->w, g->h, g->window, s, w, h, pad);
            return -EINVAL;
        }
    }
    return 0;
}

/* libvmaf's mkdirp: every missing directory of path, mode 0770. */
static int make_dirs(const char *path)
{
    char buf[EV_OPT_STRING_SIZE];
    snprintf(buf, sizeof(buf), "%s", path);
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || !*p) {
            const char c = *p;
            *p = '\0';
            if (mkdir(buf, 0770) && errno != EEXIST)
                return -errno;
            if (!c)
                return 0;
            *p = c;
        }
    }
}

static int open_heatmaps(CambiState *s, const EvLog *log)
{
    if (make_dirs(s->opts.heatmaps_path)) {
        ev_log(log, EV_LOG_ERROR, "cambi: cannot create heatmaps_path %s", s->opts.heatmaps_path);
        return -EINVAL;
    }
    /* named by the encode size, halved per scale (also under the speed-up, as libvmaf) */
    unsigned w = (unsigned)s->opts.enc_width, h = (unsigned)s->opts.enc_height;
    for (unsigned scale = 0; scale < CAMBI_NUM_SCALES; scale++) {
        char path[EV_OPT_STRING_SIZE + 64];
        snprintf(path, sizeof(path), "%s/cambi_heatmap_scale_%u_%ux%u_16b.gray",
                 s->opts.heatmaps_path, scale, w, h);
        s->heatmap_fd[scale] = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (s->heatmap_fd[scale] < 0) {
            ev_log(log, EV_LOG_ERROR, "cambi: could not open heatmaps_path: %s", path);
            return -EINVAL;
        }
        w = (w + 1) >> 1;
        h = (h + 1) >> 1;
    }
    return 0;
}

/* libvmaf's sizes: encode size (default and at most the input's), source size (full_ref). */
static int resolve_sizes(CambiState *s, const EvPicInfo *info, const EvLog *log)
{
    CambiOpts *o = &s->opts;
    if (!o->enc_bitdepth)
        o->enc_bitdepth = (int)info->bpc;
    if (!o->enc_width || !o->enc_height) {
        o->enc_width = (int)info->width;
        o->enc_height = (int)info->height;
    }
    if (!o->src_width || !o->src_height) {
        o->src_width = (int)info->width;
        o->src_height = (int)info->height;
    }
    if (o->enc_height > (int)info->height || o->enc_width > (int)info->width) {
        o->enc_width = (int)info->width;
        o->enc_height = (int)info->height;
    }
    if (o->enc_width < CAMBI_MIN_DIM && o->enc_height < CAMBI_MIN_DIM) {
        ev_log(log, EV_LOG_ERROR,
               "cambi: encode size %dx%d is too small: width or height "
               "must be at least %d",
               o->enc_width, o->enc_height, CAMBI_MIN_DIM);
        return -EINVAL;
    }
    if (o->src_width < CAMBI_MIN_DIM && o->src_height < CAMBI_MIN_DIM) {
        ev_log(log, EV_LOG_ERROR,
               "cambi: source size %dx%d is too small: width or height "
               "must be at least %d",
               o->src_width, o->src_height, CAMBI_MIN_DIM);
        return -EINVAL;
    }
    if ((o->src_width > o->enc_width && o->src_height < o->enc_height) ||
        (o->src_width < o->enc_width && o->src_height > o->enc_height)) {
        ev_log(log, EV_LOG_ERROR,
               "cambi: source size %dx%d and encode size %dx%d are not "
               "scaled the same way in both directions",
               o->src_width, o->src_height, o->enc_width, o->enc_height);
        return -EINVAL;
    }
    return 0;
}

static void cambi_close(void *state);

static int cambi_setup(CambiState *s, const void *opts, const EvPicInfo *info, const EvLog *log)
{
    for (unsigned i = 0; i < CAMBI_NUM_SCALES; i++)
        s->heatmap_fd[i] = -1;
    s->log = log;
    cambi_dsp_init(&s->dsp, info->cpu);
    s->opts = *(const CambiOpts *)opts;
    ev_options_feature_name(s->name, sizeof(s->name), "cambi", cambi_class(), &s->opts);
    s->in_w = info->width;
    s->in_h = info->height;
    s->bpc = info->bpc;
    int err = resolve_sizes(s, info, log);
    if (err)
        return err;
    CambiOpts *o = &s->opts;
    const unsigned enc_w = (unsigned)o->enc_width, enc_h = (unsigned)o->enc_height;
    const unsigned src_w = (unsigned)o->src_width, src_h = (unsigned)o->src_height;
    s->enc_bitdepth = (unsigned)o->enc_bitdepth;
    s->speedup = speedup_applies(o->cambi_high_res_speedup, enc_w, enc_h);
    s->topk = o->topk != DEFAULT_TOPK ? o->topk : o->cambi_topk;

    const char *eotf_name = strcmp(o->cambi_eotf, "bt1886") ? o->cambi_eotf : o->eotf;
    CambiEotf eotf;
    if (cambi_eotf_parse(eotf_name, &eotf)) {
        ev_log(log, EV_LOG_ERROR, "cambi: unknown EOTF \"%s\" (bt1886 or pq)", eotf_name);
        return -EINVAL;
    }
    s->tables = malloc(sizeof(*s->tables));
    if (!s->tables)
        return -ENOMEM;
    if (cambi_tables_init(s->tables, o, eotf)) {
        ev_log(log, EV_LOG_ERROR,
               "cambi: no visibility threshold for tvi_threshold %g and "
               "cambi_vis_lum_threshold %g",
               o->tvi_threshold, o->cambi_vis_lum_threshold);
        return -EINVAL;
    }

    const unsigned window = cambi_adjust_window((unsigned)o->window_size, enc_w, enc_h, s->speedup);
    const unsigned src_window =
        cambi_adjust_window((unsigned)o->window_size, src_w, src_h, s->speedup);
    const unsigned max_window = window > src_window ? window : src_window;
    if (max_window * max_window >= CAMBI_RECIP_SIZE) {
        ev_log(log, EV_LOG_ERROR,
               "cambi: window_size %u too large for reciprocal LUT "
               "(the adjusted window must be at most 65)",
               max_window);
        return -EINVAL;
    }
    err = geometry_init(&s->dis, enc_w, enc_h, info->width, info->height, window);
    if (!err && o->full_ref)
        err = geometry_init(&s->src, src_w, src_h, info->width, info->height, src_window);
    if (err)
        return err;
    err = check_scales(&s->dis, s->speedup, "encode size", log);
    if (!err && o->full_ref)
        err = check_scales(&s->src, s->speedup, "source size", log);
    if (err)
        return err;
    if (o->full_ref && info->bpc == 10 && enc_w == info->width && enc_h == info->height &&
        ((src_w + 31) & ~31u) > ((info->width + 31) & ~31u)) {
        /* libvmaf copies such a frame with the source's (wider) row stride: undefined */
        ev_log(log, EV_LOG_ERROR,
               "cambi: full_ref with a 10-bit %ux%u frame and a wider source "
               "(src_width %u) is not supported (libvmaf reads it with the wrong row stride)",
               info->width, info->height, src_w);
        return -EINVAL;
    }
    s->mask_threshold_dis = cambi_mask_threshold(enc_w, enc_h);
    s->mask_threshold_src = cambi_mask_threshold(src_w, src_h);
    s->alloc_w = o->full_ref && src_w > enc_w ? src_w : enc_w;
    s->alloc_h = o->full_ref && src_h > enc_h ? src_h : enc_h;
    if (o->heatmaps_path[0])
        return open_heatmaps(s, log);
    return 0;
}

/* A refusal frees what the setup took (the engine closes only what init accepted). */
static int cambi_init(void *state, const void *opts, const EvPicInfo *info, const EvLog *log)
{
    const int err = cambi_setup(state, opts, info, log);
    if (err)
        cambi_close(state);
    return err;
}

static size_t align64(const size_t n)
{
    return (n + 63) & ~(size_t)63;
}

/* The scratch block's parts, in order; carve and size walk the same list. */
static size_t scratch_walk(const CambiState *s, char *base, CambiScratch *sc)
{
    const size_t w = s->alloc_w, px = w * s->alloc_h;
    const size_t hist_rows = s->tables->band_n + CAMBI_MAX_DIFFS + 1;
    const size_t sizes[] = {
        px * sizeof(uint16_t),    px,
        px * sizeof(uint16_t),    hist_rows * w * sizeof(uint16_t) + CAMBI_HIST_SLACK,
        3 * w * sizeof(uint16_t), w + CAMBI_MASK_FILTER,
        CAMBI_FLAG_ROWS * w,      w,
        px * sizeof(float),       2 * 65536 * sizeof(uint32_t)
    };
    void **parts[] = { (void **)&sc->image, (void **)&sc->mask,      (void **)&sc->codes,
                       (void **)&sc->hist,  (void **)&sc->mode_rows, (void **)&sc->count,
                       (void **)&sc->flags, (void **)&sc->zeros,     (void **)&sc->c_values,
                       (void **)&sc->radix };
    size_t at = 0;
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        if (base)
            *parts[i] = base + at;
        at += align64(sizes[i]);
    }
    return at + 64;
}

size_t cambi_scratch_size(const CambiState *s)
{
    CambiScratch unused;
    return scratch_walk(s, NULL, &unused);
}

void cambi_scratch_carve(const CambiState *s, void *block, CambiScratch *out)
{
    char *base = (char *)(((uintptr_t)block + 63) & ~(uintptr_t)63);
    scratch_walk(s, base, out);
}

static size_t cambi_scratch_bytes(const void *state)
{
    return cambi_scratch_size(state);
}

/* The outputs of a frame: cambi (the distorted picture's score), and with full_ref
 * cambi_source and cambi_full_reference; each clipped to cambi_max_val. */
static int cambi_emit(const CambiState *s, const unsigned frame, const double dis_score,
                      const double src_score, EvSink *sink)
{
    const double max_val = s->opts.cambi_max_val;
    int err = ev_sink_put(sink, s->name, frame, dis_score < max_val ? dis_score : max_val);
    if (err || !s->opts.full_ref)
        return err;
    const double diff = dis_score - src_score;
    const double combined = 0 > diff ? 0 : diff;
    err = ev_sink_put(sink, "cambi_source", frame, src_score < max_val ? src_score : max_val);
    if (!err)
        err = ev_sink_put(sink, "cambi_full_reference", frame,
                          combined < max_val ? combined : max_val);
    return err;
}

static int cambi_extract(const void *state, void *scratch, const EvPic *ref, const EvPic *dis,
                         const unsigned frame, EvSink *sink)
{
    const CambiState *s = state;
    CambiScratch sc;
    cambi_scratch_carve(s, scratch, &sc);
    double dis_score, src_score = 0;
    int err = cambi_picture_score(s, &s->dis, s->mask_threshold_dis, dis, &sc,
                                  s->heatmap_fd[0] >= 0 ? s->heatmap_fd : NULL, frame, &dis_score);
    if (!err && s->opts.full_ref)
        err = cambi_picture_score(s, &s->src, s->mask_threshold_src, ref, &sc, NULL, frame,
                                  &src_score);
    return err ? err : cambi_emit(s, frame, dis_score, src_score, sink);
}

/* Frees and closes what the state holds, and forgets it (a second call does nothing). */
static void cambi_close(void *state)
{
    CambiState *s = state;
    for (unsigned i = 0; i < CAMBI_NUM_SCALES; i++) {
        if (s->heatmap_fd[i] >= 0)
            close(s->heatmap_fd[i]);
        s->heatmap_fd[i] = -1;
    }
    free(s->dis.col_src);
    free(s->dis.row_src);
    free(s->src.col_src);
    free(s->src.row_src);
    free(s->tables);
    s->dis.col_src = s->dis.row_src = s->src.col_src = s->src.row_src = NULL;
    s->tables = NULL;
}

#define CAMBI_CLASS                                                                                \
    EV_CLASS_COMMON("cambi", CambiState), EV_CLASS_OPTIONS(cambi_options, CambiOpts),              \
        .str_defaults = cambi_str_defaults, .init = cambi_init, .close = cambi_close
const EvExtractorClass ev_fex_cambi = { CAMBI_CLASS, .scratch_size = cambi_scratch_bytes,
                                        .extract = cambi_extract };

static const EvExtractorClass *cambi_class(void)
{
    return &ev_fex_cambi;
}

#ifdef EV_HAVE_CUDA
EV_LAUNCH_FN(ev_cambi_launch_cuda);
EV_EXTRACT_FN(ev_cambi_extract_cuda);
int ev_cambi_twin_emit(const CambiState *s, unsigned frame, double dis_score, double src_score,
                       EvSink *sink);

int ev_cambi_twin_emit(const CambiState *s, const unsigned frame, const double dis_score,
                       const double src_score, EvSink *sink)
{
    return cambi_emit(s, frame, dis_score, src_score, sink);
}

/* The twin's host scratch: one scale's contrast values (copied back only where the CPU takes
 * libvmaf's order, or for heatmaps) and a heatmap row. */
static size_t cambi_twin_scratch_bytes(const void *state)
{
    const CambiState *s = state;
    return (size_t)s->alloc_w * s->alloc_h * sizeof(float) + s->alloc_w * sizeof(uint16_t) + 64;
}

/* The CUDA twin: the same options, init and outputs; the five scales on the device
 * (cambi.cu). */
const EvExtractorClass ev_cuda_cambi = { CAMBI_CLASS, .flags = EV_FEX_CUDA | EV_FEX_CUDA_LUMA,
                                         .scratch_size = cambi_twin_scratch_bytes,
                                         .launch = ev_cambi_launch_cuda,
                                         .extract = ev_cambi_extract_cuda };
#endif
