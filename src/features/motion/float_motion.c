/* float_motion: float motion of the reference, as libvmaf's feature/float_motion.c and
 * feature/motion.c: blur each frame (float, offset -128), mean absolute difference of
 * consecutive blurred frames; motion2/motion3 of frame i are written while frame i+1 is
 * extracted (the last at flush). Sequential: the two latest blurred frames live in the state. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include "base/extractor.h"
#include "features/common/sample_math.h"
#include "features/motion/float_motion.h"
#include "features/motion/motion_math.h"

#define OPT(field) offsetof(FloatMotionOpts, field)
static const EvOption float_motion_options[] = {
    { "debug", NULL, "debug mode: enable additional output", EV_OPT_BOOL, OPT(debug), 1, 0, 1, 0 },
    { "motion_force_zero", "force_0", "forcing motion score to zero", EV_OPT_BOOL, OPT(force_zero),
      0, 0, 1, EV_OPT_FEATURE_PARAM },
    { "motion_fps_weight", "mfw", "fps-aware multiplicative weight/correction", EV_OPT_DOUBLE,
      OPT(fps_weight), 1.0, 0.0, 5.0, EV_OPT_FEATURE_PARAM },
    { "motion_blend_factor", "mbf", "blend motion score given an offset", EV_OPT_DOUBLE,
      OPT(blend_factor), 1.0, 0.0, 1.0, EV_OPT_FEATURE_PARAM },
    { "motion_blend_offset", "mbo", "blend motion score starting from this offset", EV_OPT_DOUBLE,
      OPT(blend_offset), 40.0, 0.0, 1000.0, EV_OPT_FEATURE_PARAM },
    { "motion_add_scale1", "mdc", "add motion score from scale1", EV_OPT_BOOL, OPT(add_scale1), 0,
      0, 1, EV_OPT_FEATURE_PARAM },
    { "motion_filter_size", "mfs", "filtering size (3; 1 = no-op; else 5)", EV_OPT_INT,
      OPT(filter_size), 5, 0, 9, EV_OPT_FEATURE_PARAM },
    { "motion_add_uv", "mau", "include U and V terms", EV_OPT_BOOL, OPT(add_uv), 0, 0, 1,
      EV_OPT_FEATURE_PARAM },
    { "motion_max_val", "mmxv",
      "maximum value allowed; larger values will be clipped to this value", EV_OPT_DOUBLE,
      OPT(max_val), 10000.0, 0.0, 10000.0, EV_OPT_FEATURE_PARAM },
    { 0 },
};
#undef OPT

extern const EvExtractorClass ev_fex_float_motion;

static void set_taps(FloatMotionState *s)
{
    static const float taps5[5] = FMOTION_TAPS5, taps3[3] = FMOTION_TAPS3;
    static const float no_op[5] = FMOTION_TAPS5_NO_OP;
    const float *t = s->opts.filter_size == 1 ? no_op : s->opts.filter_size == 3 ? taps3 : taps5;
    s->n_taps = s->opts.filter_size == 3 ? 3 : 5;
    for (int k = 0; k < s->n_taps; k++)
        s->taps[k] = t[k];
}

static int check_geometry(const FloatMotionState *s, const EvPicInfo *info, const EvLog *log)
{
    const unsigned min = (unsigned)s->n_taps / 2 + 1; /* the mirror needs radius + 1 samples */
    for (unsigned p = 0; p < s->n_planes; p++) {
        unsigned w, h;
        ev_pic_plane_size(info->width, info->height, info->layout, p, &w, &h);
        if (w < min || h < min) {
            ev_log(log, EV_LOG_ERROR, "float_motion: plane %u is %ux%u, too small (minimum %ux%u)",
                   p, w, h, min, min);
            return -EINVAL;
        }
    }
    if (s->opts.add_scale1 && (int)(info->width * 0.5 + 0.5) > HALF_MAX_WIDTH) {
        ev_log(log, EV_LOG_ERROR,
               "float_motion: motion_add_scale1 needs a width of at most %d, "
               "not %u",
               2 * HALF_MAX_WIDTH, info->width);
        return -EINVAL;
    }
    /* libvmaf scales chroma with a stride computed from the chroma width while its buffers
     * have the luma's: it reads uninitialised memory, so there is no value to reproduce */
    if (s->opts.add_scale1 && s->opts.add_uv && info->layout != EV_PIX_444) {
        ev_log(log, EV_LOG_ERROR,
               "float_motion: motion_add_uv with motion_add_scale1 needs "
               "4:4:4 input (libvmaf's result is undefined for subsampled chroma)");
        return -EINVAL;
    }
    return 0;
}

static int alloc_plane(FmPlane *pl, const int half)
{
    const size_t n = (size_t)pl->w * pl->h;
    for (int k = 0; k < 2; k++)
        if (!(pl->blur[k] = malloc(n * sizeof(float))))
            return -ENOMEM;
    if (!half)
        return 0;
    for (int k = 0; k < 2; k++)
        if (!(pl->half[k] = malloc((size_t)pl->hw * pl->hh * sizeof(float))))
            return -ENOMEM;
    pl->x_lo = malloc((size_t)pl->hw * sizeof(int));
    pl->x_hi = malloc((size_t)pl->hw * sizeof(int));
    pl->x_dx = malloc((size_t)pl->hw * sizeof(float));
    if (!pl->x_lo || !pl->x_hi || !pl->x_dx)
        return -ENOMEM;
    for (int x = 0; x < pl->hw; x++)
        pl->x_dx[x] = fmotion_bilinear_coord(x, pl->w, pl->hw, &pl->x_lo[x], &pl->x_hi[x]);
    return 0;
}

int ev_float_motion_init_common(FloatMotionState *s, const void *opts, const EvPicInfo *info,
                                const EvLog *log)
{
    s->opts = *(const FloatMotionOpts *)opts;
    set_taps(s);
    if (s->opts.add_uv && ev_require_chroma(info, "float_motion with motion_add_uv", log))
        return -EINVAL;
    s->n_planes = s->opts.add_uv ? 3 : 1;
    const int err = check_geometry(s, info, log);
    if (err)
        return err;
    static const char *const base[N_NAMES] = { "motion", "motion2", "motion3" };
    for (unsigned i = 0; i < N_NAMES; i++)
        ev_options_feature_name(s->name[i], sizeof(s->name[i]), base[i], &ev_fex_float_motion,
                                &s->opts);
    s->scaler = sample_scaler(info->bpc);
    for (unsigned p = 0; p < s->n_planes; p++) {
        unsigned w, h;
        ev_pic_plane_size(info->width, info->height, info->layout, p, &w, &h);
        FmPlane *pl = &s->plane[p];
        pl->w = (int)w;
        pl->h = (int)h;
        pl->hw = (int)(w * 0.5 + 0.5);
        pl->hh = (int)(h * 0.5 + 0.5);
    }
    return 0;
}

static int float_motion_init(void *state, const void *opts, const EvPicInfo *info, const EvLog *log)
{
    FloatMotionState *s = state;
    int err = ev_float_motion_init_common(s, opts, info, log);
    if (err || s->opts.force_zero)
        return err;
    for (unsigned p = 0; p < s->n_planes && !err; p++)
        err = alloc_plane(&s->plane[p], s->opts.add_scale1);
    s->conv = malloc((size_t)info->width * info->height * sizeof(float));
    s->tmp = malloc((size_t)info->width * sizeof(float));
    return err ? err : s->conv && s->tmp ? 0 : -ENOMEM;
}

/* libvmaf's picture_copy of plane p with offset -128, into s->conv (packed rows). */
static void to_float(const FloatMotionState *s, const EvPic *pic, unsigned p)
{
    float *dst = s->conv;
    for (unsigned y = 0; y < pic->h[p]; y++, dst += pic->w[p]) {
        if (pic->bpc > 8) {
            const uint16_t *row = ev_pic_row16(pic, p, y);
            for (unsigned x = 0; x < pic->w[p]; x++)
                dst[x] = sample_to_float(row[x], s->scaler, -128);
        } else {
            const uint8_t *row = ev_pic_row8(pic, p, y);
            for (unsigned x = 0; x < pic->w[p]; x++)
                dst[x] = sample_to_float(row[x], s->scaler, -128);
        }
    }
}

/* Vertical pass of one row: rows[k] is row i - r + k (mirrored). n is a constant at each call,
 * so the taps unroll and the loop over j vectorises; every output keeps the tap order. */
static inline void vblur_row(const float *taps, const int n, const float *const *rows, int w,
                             float *out)
{
    for (int j = 0; j < w; j++) {
        float v[5];
        for (int k = 0; k < n; k++)
            v[k] = rows[k][j];
        out[j] = fmotion_taps(taps, n, v);
    }
}

static inline float hblur_mirrored(const float *taps, const int n, const float *in, int w, int j)
{
    float v[5];
    for (int k = 0; k < n; k++)
        v[k] = in[motion_mirror(j - n / 2 + k, w)];
    return fmotion_taps(taps, n, v);
}

/* Horizontal pass of one row: direct taps inside, mirrored at the ends (w > n / 2). */
static inline void hblur_row(const float *taps, const int n, const float *in, int w, float *out)
{
    const int r = n / 2, right = w - r > r ? w - r : r;
    for (int j = 0; j < r; j++)
        out[j] = hblur_mirrored(taps, n, in, w, j);
    for (int j = r; j < w - r; j++)
        out[j] = fmotion_taps(taps, n, in + j - r);
    for (int j = right; j < w; j++)
        out[j] = hblur_mirrored(taps, n, in, w, j);
}

static inline void blur_rows(FloatMotionState *s, const int n, int w, int h, float *dst)
{
    const int r = n / 2;
    for (int i = 0; i < h; i++) {
        const float *rows[5];
        for (int k = 0; k < n; k++)
            rows[k] = s->conv + (size_t)motion_mirror(i - r + k, h) * w;
        vblur_row(s->taps, n, rows, w, s->tmp);
        hblur_row(s->taps, n, s->tmp, w, dst + (size_t)i * w);
    }
}

/* convolution_f32_c: s->conv blurred vertically, then horizontally, into dst (w x h). Row by
 * row here; every output is the same sum of the same operands as the reference's. */
static void blur_plane(FloatMotionState *s, int w, int h, float *dst)
{
    if (s->n_taps == 3)
        blur_rows(s, 3, w, h, dst);
    else
        blur_rows(s, 5, w, h, dst);
}

/* vif_scale_frame_s(bilinear) of a blurred plane to its half size. */
static void half_plane(const FmPlane *pl, const float *src, float *dst)
{
    for (int y = 0; y < pl->hh; y++) {
        int y1, y2;
        const float dy = fmotion_bilinear_coord(y, pl->h, pl->hh, &y1, &y2);
        const float *r1 = src + (size_t)y1 * pl->w, *r2 = src + (size_t)y2 * pl->w;
        float *out = dst + (size_t)y * pl->hw;
        for (int x = 0; x < pl->hw; x++) {
            const int lo = pl->x_lo[x], hi = pl->x_hi[x];
            out[x] = fmotion_bilinear(pl->x_dx[x], dy, r1[lo], r1[hi], r2[lo], r2[hi]);
        }
    }
}

/* vmaf_image_sad_c's scale-0 (or scale-1) term: float per row, rows into a float, mean. */
static float mean_abs_diff(const float *a, const float *b, int w, int h)
{
    float total = 0;
    for (int i = 0; i < h; i++) {
        const float *ra = a + (size_t)i * w, *rb = b + (size_t)i * w;
        float row = 0;
        for (int j = 0; j < w; j++)
            row += fmotion_abs_diff(ra[j], rb[j]);
        total += row;
    }
    return fmotion_mean(total, w, h);
}

/* compute_motion of the frames in slots prev and cur: luma, plus chroma with motion_add_uv. */
static double frame_motion(const FloatMotionState *s, int prev, int cur)
{
    double score = 0;
    for (unsigned p = 0; p < s->n_planes; p++) {
        const FmPlane *pl = &s->plane[p];
        float m = mean_abs_diff(pl->blur[prev], pl->blur[cur], pl->w, pl->h);
        if (s->opts.add_scale1)
            m = m + mean_abs_diff(pl->half[prev], pl->half[cur], pl->hw, pl->hh);
        score = p ? score + m : m;
    }
    return score;
}

double ev_float_motion_weighted(const FloatMotionState *s, double score)
{
    return motion_clip(score * s->opts.fps_weight, s->opts.max_val);
}

double ev_float_motion_blended(const FloatMotionState *s, double score)
{
    const FloatMotionOpts *o = &s->opts;
    return motion_clip(motion_blend(score * o->fps_weight, o->blend_factor, o->blend_offset),
                       o->max_val);
}

int ev_float_motion_put_zeros(const FloatMotionState *s, unsigned frame, EvSink *sink)
{
    int err = ev_sink_put(sink, s->name[NAME_MOTION2], frame, 0.);
    if (!err)
        err = ev_sink_put(sink, s->name[NAME_MOTION3], frame, 0.);
    if (!err && s->opts.debug)
        err = ev_sink_put(sink, s->name[NAME_MOTION], frame, 0.);
    return err;
}

/* Frame i's blur goes to slot i & 1; motion of frame i is SAD(i-1, i). motion2 and motion3 of
 * frame i-1 use min(SAD(i-2, i-1), SAD(i-1, i)): the reference recomputes SAD(i-1, i-2), which
 * is the previous frame's score bit for bit (|a - b| = |b - a| term by term), so it is reused.
 * Sequential: frames arrive in order on one thread, so the state may change here. */
static int float_motion_extract(const void *state, void *scratch, const EvPic *ref,
                                const EvPic *dis, unsigned frame, EvSink *sink)
{
    FloatMotionState *s = (FloatMotionState *)state;
    if (s->opts.force_zero)
        return ev_float_motion_put_zeros(s, frame, sink);
    const int cur = frame & 1, prev = cur ^ 1;
    s->index = frame;
    for (unsigned p = 0; p < s->n_planes; p++) {
        FmPlane *pl = &s->plane[p];
        to_float(s, ref, p);
        blur_plane(s, pl->w, pl->h, pl->blur[cur]);
        if (s->opts.add_scale1)
            half_plane(pl, pl->blur[cur], pl->half[cur]);
    }
    int err = 0;
    if (frame == 0) {
        err = ev_sink_put(sink, s->name[NAME_MOTION2], 0, 0.);
        if (!err && s->opts.debug)
            err = ev_sink_put(sink, s->name[NAME_MOTION], 0, 0.);
        return err;
    }
    const double score = frame_motion(s, prev, cur);
    if (s->opts.debug)
        err = ev_sink_put(sink, s->name[NAME_MOTION], frame, ev_float_motion_weighted(s, score));
    const double before = s->score;
    s->score = score;
    if (err || frame == 1)
        return err ? err
                   : ev_sink_put(sink, s->name[NAME_MOTION3], 0, ev_float_motion_blended(s, score));
    const double score2 = before < score ? before : score;
    err = ev_sink_put(sink, s->name[NAME_MOTION2], frame - 1, ev_float_motion_weighted(s, score2));
    if (!err)
        err =
            ev_sink_put(sink, s->name[NAME_MOTION3], frame - 1, ev_float_motion_blended(s, score2));
    return err;
}

/* The last frame's motion2/motion3 from its own score; with one frame, motion3 = 0. */
static int float_motion_flush(void *state, unsigned n_frames, EvSink *sink)
{
    const FloatMotionState *s = state;
    if (s->opts.force_zero)
        return 0;
    if (s->index == 0)
        return ev_sink_put(sink, s->name[NAME_MOTION3], 0, 0.);
    int err =
        ev_sink_put(sink, s->name[NAME_MOTION2], s->index, ev_float_motion_weighted(s, s->score));
    if (!err)
        err = ev_sink_put(sink, s->name[NAME_MOTION3], s->index,
                          ev_float_motion_blended(s, s->score));
    return err;
}

static void float_motion_close(void *state)
{
    FloatMotionState *s = state;
    for (unsigned p = 0; p < 3; p++) {
        FmPlane *pl = &s->plane[p];
        for (int k = 0; k < 2; k++) {
            free(pl->blur[k]);
            free(pl->half[k]);
        }
        free(pl->x_lo);
        free(pl->x_hi);
        free(pl->x_dx);
    }
    free(s->conv);
    free(s->tmp);
}

#define FLOAT_MOTION_CLASS                                                                         \
    EV_CLASS_COMMON("float_motion", FloatMotionState),                                             \
        EV_CLASS_OPTIONS(float_motion_options, FloatMotionOpts)
const EvExtractorClass ev_fex_float_motion = {
    FLOAT_MOTION_CLASS,          .flags = EV_FEX_SEQUENTIAL | EV_FEX_NO_SUBSAMPLE,
    .init = float_motion_init,   .extract = float_motion_extract,
    .flush = float_motion_flush, .close = float_motion_close
};

/* Frame i's motion2 and motion3 from the SAD scores sad[0..n-1] (sad[0] unused): frame 0
 * gets motion2 0 and motion3 blended(sad[1]) (0 alone); frame i in 1..n-2 uses
 * min(sad[i], sad[i + 1]); the last frame its own score. */
int ev_float_motion_put_motion23(const FloatMotionState *s, const double *sad, const unsigned n,
                                 EvSink *sink)
{
    int err = ev_sink_put(sink, s->name[NAME_MOTION2], 0, 0.);
    if (!err)
        err = ev_sink_put(sink, s->name[NAME_MOTION3], 0,
                          n > 1 ? ev_float_motion_blended(s, sad[1]) : 0.);
    for (unsigned i = 1; i < n && !err; i++) {
        /* as float_motion_extract: before < score ? before : score */
        const double m = i + 1 < n ? (sad[i] < sad[i + 1] ? sad[i] : sad[i + 1]) : sad[i];
        err = ev_sink_put(sink, s->name[NAME_MOTION2], i, ev_float_motion_weighted(s, m));
        if (!err)
            err = ev_sink_put(sink, s->name[NAME_MOTION3], i, ev_float_motion_blended(s, m));
    }
    return err;
}

#ifdef EV_HAVE_CUDA
/* The CUDA twin: the same options and outputs; blurs and SAD totals on the device in frame
 * order (float_motion.cu), scores kept by frame number; at flush, motion2/motion3 of every
 * frame from them, the values float_motion_extract and float_motion_flush write. */
static int float_motion_cuda_init(void *state, const void *opts, const EvPicInfo *info,
                                  const EvLog *log)
{
    FloatMotionState *s = state;
    const int err = ev_float_motion_init_common(s, opts, info, log);
    return err || s->opts.force_zero ? err : ev_float_motion_cuda_open(s, log);
}

static int float_motion_cuda_flush(void *state, const unsigned n_frames, EvSink *sink)
{
    FloatMotionState *s = state;
    if (s->opts.force_zero || !n_frames)
        return 0;
    double *sad = NULL;
    int err = ev_float_motion_cuda_scores(s, n_frames, &sad);
    if (!err)
        err = ev_float_motion_put_motion23(s, sad, n_frames, sink);
    free(sad);
    return err;
}

static void float_motion_cuda_close(void *state)
{
    ev_float_motion_cuda_close(state);
}

const EvExtractorClass ev_cuda_float_motion = { FLOAT_MOTION_CLASS,
                                                .flags = EV_FEX_NO_SUBSAMPLE | EV_FEX_CUDA,
                                                .init = float_motion_cuda_init,
                                                .launch = ev_float_motion_launch_cuda,
                                                .extract = ev_float_motion_extract_cuda,
                                                .flush = float_motion_cuda_flush,
                                                .close = float_motion_cuda_close };
#endif
