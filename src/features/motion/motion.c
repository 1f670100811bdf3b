/* motion: integer motion of the reference luma, as libvmaf's feature/integer_motion.c (the
 * pipelined v2 algorithm): per-frame SAD score, then motion2/motion3 for every frame at flush.
 * Sequential: keeps copies of the previous one (two with the five-frame window) reference
 * lumas and every frame's SAD score in its state, which extract() therefore mutates. With
 * worker threads the SAD runs in the parallel pass instead (motion_window), against the earlier
 * reference that the engine holds, and only the keeping and the score stay in frame order.
 * The CUDA twin (motion.cu) keeps the previous lumas on the device instead. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/extractor.h"
#include "features/motion/motion.h"
#include "features/motion/motion_math.h"

#define OPT(field) offsetof(MotionOpts, field)
static const EvOption motion_options[] = {
    { "motion_force_zero", "force_0", "forcing motion score to zero", EV_OPT_BOOL, OPT(force_zero),
      0, 0, 1, EV_OPT_FEATURE_PARAM },
    { "motion_blend_factor", "mbf", "blend motion score given an offset", EV_OPT_DOUBLE,
      OPT(blend_factor), 1.0, 0.0, 1.0, EV_OPT_FEATURE_PARAM },
    { "motion_blend_offset", "mbo", "blend motion score starting from this offset", EV_OPT_DOUBLE,
      OPT(blend_offset), 40.0, 0.0, 1000.0, EV_OPT_FEATURE_PARAM },
    { "motion_fps_weight", "mfw", "fps-aware multiplicative weight/correction", EV_OPT_DOUBLE,
      OPT(fps_weight), 1.0, 0.0, 5.0, EV_OPT_FEATURE_PARAM },
    { "motion_max_val", "mmxv",
      "maximum value allowed; larger values will be clipped to this value", EV_OPT_DOUBLE,
      OPT(max_val), 10000.0, 0.0, 10000.0, EV_OPT_FEATURE_PARAM },
    { "motion_five_frame_window", "mffw", "use five-frame temporal window", EV_OPT_BOOL,
      OPT(five_frame_window), 0, 0, 1, EV_OPT_FEATURE_PARAM },
    { "motion_moving_average", "mma", "use moving average for motion scores after first frame",
      EV_OPT_BOOL, OPT(moving_average), 0, 0, 1, EV_OPT_FEATURE_PARAM },
    { "debug", NULL, "debug mode: enable additional output", EV_OPT_BOOL, OPT(debug), 0, 0, 1, 0 },
    { 0 },
};
#undef OPT

extern const EvExtractorClass ev_fex_motion;

static void motion_names(MotionState *s)
{
    static const char *const base[MOTION_N_NAMES] = { "VMAF_integer_feature_motion_sad_score",
                                                      "integer_motion", "integer_motion2",
                                                      "integer_motion3" };
    for (unsigned i = 0; i < MOTION_N_NAMES; i++)
        ev_options_feature_name(s->name[i], sizeof(s->name[i]), base[i], &ev_fex_motion, &s->opts);
}

/* What both executors set up: options, geometry, names. */
static int motion_init_common(MotionState *s, const void *opts, const EvPicInfo *info,
                              const EvLog *log)
{
    s->opts = *(const MotionOpts *)opts;
    /* the blur mirrors -2 -> 2 and n + 1 -> n - 3: a plane needs 3 rows and 3 columns */
    if (info->width < 3 || info->height < 3) {
        ev_log(log, EV_LOG_ERROR, "motion: frame %ux%u is too small (minimum 3x3)", info->width,
               info->height);
        return -EINVAL;
    }
    if (info->bpc < 8 || info->bpc > 16) {
        ev_log(log, EV_LOG_ERROR, "motion: %u bits per sample unsupported (8..16)", info->bpc);
        return -EINVAL;
    }
    s->w = info->width;
    s->h = info->height;
    s->bpc = info->bpc;
    s->depth = s->opts.five_frame_window ? 2 : 1;
    s->luma_bytes = (size_t)s->w * s->h * (s->bpc > 8 ? 2 : 1);
    motion_names(s);
    return 0;
}

static int motion_init(void *state, const void *opts, const EvPicInfo *info, const EvLog *log)
{
    MotionState *s = state;
    const int err = motion_init_common(s, opts, info, log);
    if (err)
        return err;
    motion_dsp_init(&s->dsp, info->cpu);
    if (s->opts.force_zero)
        return 0;
    for (unsigned k = 0; k < s->depth; k++)
        if (!(s->prev[k] = malloc(s->luma_bytes)))
            return -ENOMEM;
    return 0;
}

static size_t motion_scratch_size(const void *state)
{
    const MotionState *s = state;
    return motion_dsp_tmp_size((int)s->w);
}

/* The SAD of the luma prev (rows prev_stride bytes apart) against cur's. */
static uint64_t frame_sad(const MotionState *s, const uint8_t *prev, const ptrdiff_t prev_stride,
                          const EvPic *cur, void *tmp)
{
    uint64_t sad = 0;
    for (unsigned i = 0; i < s->h; i++) {
        const void *rp[5], *rc[5];
        for (int k = 0; k < 5; k++) {
            const int r = motion_mirror((int)i - MOTION_RADIUS + k, (int)s->h);
            rp[k] = prev + (ptrdiff_t)r * prev_stride;
            rc[k] = (const uint8_t *)cur->data[0] + (ptrdiff_t)r * cur->stride[0];
        }
        sad += s->dsp.sad_row(rp, rc, (int)s->w, s->bpc, tmp);
    }
    return sad;
}

static void keep_luma(MotionState *s, const EvPic *cur, unsigned frame)
{
    const size_t row = s->luma_bytes / s->h;
    uint8_t *dst = s->prev[frame % s->depth];
    for (unsigned i = 0; i < s->h; i++)
        memcpy(dst + i * row, (const uint8_t *)cur->data[0] + (ptrdiff_t)i * cur->stride[0], row);
}

static int push_score(MotionState *s, double score)
{
    if (s->n_scores == s->cap_scores) {
        const unsigned cap = s->cap_scores ? 2 * s->cap_scores : 256;
        double *v = realloc(s->score, cap * sizeof(*v));
        if (!v)
            return -ENOMEM;
        s->score = v;
        s->cap_scores = cap;
    }
    s->score[s->n_scores++] = score;
    return 0;
}

/* The SAD score of frame: a function of the reference lumas and the options only, so the
 * contexts of a many-encodes group score it once (by_reference). 0 before the window is full. */
static double frame_score(const MotionState *s, const EvPic *ref, unsigned frame, void *tmp)
{
    if (s->opts.force_zero || frame < s->depth)
        return 0.;
    /* against the previous luma of the window (n-1, or n-2), kept by motion_emit() */
    const ptrdiff_t stride = (ptrdiff_t)(s->luma_bytes / s->h);
    return motion_sad_score(frame_sad(s, s->prev[frame % s->depth], stride, ref, tmp), s->w, s->h,
                            s->opts.fps_weight, s->opts.max_val);
}

/* The same score in the parallel pass (EvWindowScoring): the luma of frame n - depth read in
 * place from prev[depth - 1], the reference the engine still holds. */
static unsigned motion_lookback(const void *state)
{
    return ((const MotionState *)state)->depth;
}

static void motion_window_score(const void *state, void *scratch, const EvPic *ref,
                                const EvPic *const *prev, const unsigned frame, double *values)
{
    const MotionState *s = state;
    const EvPic *back = prev[s->depth - 1];
    if (s->opts.force_zero || frame < s->depth || !back) {
        values[0] = 0.;
        return;
    }
    values[0] = motion_sad_score(frame_sad(s, back->data[0], back->stride[0], ref, scratch), s->w,
                                 s->h, s->opts.fps_weight, s->opts.max_val);
}

/* Sequential: frames arrive in order on one thread, so the state may change here: the luma kept
 * for the next frames (by every member of a group: any may be the one to score the next), the
 * score for motion2/motion3. */
static int motion_emit(const void *state, void *scratch, const EvPic *ref, const unsigned frame,
                       const double *score, EvSink *sink)
{
    MotionState *s = (MotionState *)state;
    if (frame != s->n_scores)
        return -EINVAL; /* the engine calls a sequential extractor for 0, 1, 2... */
    if (!s->opts.force_zero)
        keep_luma(s, ref, frame);
    const int err = push_score(s, *score);
    return err ? err : ev_motion_put_frame(s, frame, *score, sink);
}

static int motion_extract(const void *state, void *scratch, const EvPic *ref, const EvPic *dis,
                          unsigned frame, EvSink *sink)
{
    const double score = frame_score(state, ref, frame, scratch);
    return motion_emit(state, scratch, ref, frame, &score, sink);
}

static void motion_group_score(const void *state, void *scratch, void *group_scratch,
                               const EvPic *ref, const EvPic *const *dis, const unsigned n,
                               const unsigned frame, double *values)
{
    values[0] = frame_score(state, ref, frame, scratch);
}

static const EvGroupScoring motion_group = {
    .n_values = 1, .by_reference = 1, .score = motion_group_score, .emit = motion_emit
};

/* The ordered part of a windowed frame: the score only. No luma is kept: the frames after it
 * score windowed too, from the engine's references. (Only a frame of a many-encodes group, or
 * of a run without workers, scores from the kept copies: through motion_emit(), which keeps
 * them; a group's frames follow none but its own, since a context that left a group never
 * joins one again.) */
static int motion_window_emit(const void *state, void *scratch, const EvPic *ref,
                              const unsigned frame, const double *score, EvSink *sink)
{
    MotionState *s = (MotionState *)state;
    if (frame != s->n_scores)
        return -EINVAL; /* the engine calls a sequential extractor for 0, 1, 2... */
    const int err = push_score(s, *score);
    return err ? err : ev_motion_put_frame(s, frame, *score, sink);
}

static const EvWindowScoring motion_window = { .n_values = 1,
                                               .lookback = motion_lookback,
                                               .score = motion_window_score,
                                               .emit = motion_window_emit };

int ev_motion_put_frame(const MotionState *s, const unsigned frame, const double score,
                        EvSink *sink)
{
    int err = ev_sink_put(sink, s->name[MOTION_NAME_SAD], frame, score);
    if (!err && s->opts.debug)
        err = ev_sink_put(sink, s->name[MOTION_NAME_MOTION], frame, score);
    return err;
}

/* motion2 of frame i from the SAD scores: 0 before the window is full; the last frame keeps its
 * own score; otherwise the next frame's, or the smaller of it and the score stride-1 frames
 * back (stride 2 with the five-frame window) when that one is inside the window. */
static double motion2_at(const MotionState *s, unsigned i, unsigned min_idx)
{
    const double *sad = s->score;
    if (i < min_idx)
        return 0.;
    if (i + 1 >= s->n_scores)
        return sad[i];
    const unsigned stride = s->opts.five_frame_window ? 2 : 1;
    const int lo = (int)i - (int)(stride - 1);
    if (lo < (int)min_idx)
        return sad[i + 1];
    return sad[lo] < sad[i + 1] ? sad[lo] : sad[i + 1];
}

/* Writes motion2 and motion3 of every frame, interleaved as the reference. The frames before
 * the window is full get as motion3 the "stamp": the blended, clipped SAD score of the first
 * full-window frame (0 when there is none); it also seeds the moving average. */
static int motion_flush(void *state, unsigned n_frames, EvSink *sink)
{
    MotionState *s = state;
    const MotionOpts *o = &s->opts;
    const unsigned min_idx = s->depth;
    const unsigned n = s->n_scores;
    double stamp = 0.;
    if (n > min_idx)
        stamp = motion_clip(motion_blend(s->score[min_idx], o->blend_factor, o->blend_offset),
                            o->max_val);
    double prev = 0.;
    int err = 0;
    for (unsigned i = 0; i < n && !err; i++) {
        const double m2 = motion2_at(s, i, min_idx);
        double m3 = stamp;
        if (i >= min_idx) {
            const double p =
                motion_clip(motion_blend(m2, o->blend_factor, o->blend_offset), o->max_val);
            m3 = o->moving_average ? (p + prev) / 2.0 : p;
            prev = p;
        } else {
            prev = stamp;
        }
        err = ev_sink_put(sink, s->name[MOTION_NAME_MOTION2], i, m2);
        if (!err)
            err = ev_sink_put(sink, s->name[MOTION_NAME_MOTION3], i, m3);
    }
    return err;
}

static void motion_close(void *state)
{
    MotionState *s = state;
    free(s->prev[0]);
    free(s->prev[1]);
    free(s->score);
}

#define MOTION_CLASS                                                                               \
    EV_CLASS_COMMON("motion", MotionState), EV_CLASS_OPTIONS(motion_options, MotionOpts)
const EvExtractorClass ev_fex_motion = { MOTION_CLASS,
                                         .flags = EV_FEX_SEQUENTIAL | EV_FEX_NO_SUBSAMPLE,
                                         .init = motion_init,
                                         .scratch_size = motion_scratch_size,
                                         .extract = motion_extract,
                                         .flush = motion_flush,
                                         .close = motion_close,
                                         .group = &motion_group,
                                         .window = &motion_window };

#ifdef EV_HAVE_CUDA
/* The CUDA twin: the same options and outputs; frames run in parallel on the workers, their
 * SAD scores gathered by frame number (motion.cu), motion2/motion3 at flush as above. */
static int motion_cuda_init(void *state, const void *opts, const EvPicInfo *info, const EvLog *log)
{
    MotionState *s = state;
    const int err = motion_init_common(s, opts, info, log);
    return err ? err : ev_motion_cuda_open(s, log);
}

static int motion_cuda_flush(void *state, unsigned n_frames, EvSink *sink)
{
    MotionState *s = state;
    const int err = ev_motion_cuda_scores(s, n_frames, &s->score, &s->n_scores);
    return err ? err : motion_flush(state, n_frames, sink);
}

static void motion_cuda_close(void *state)
{
    MotionState *s = state;
    ev_motion_cuda_close(s);
    free(s->score);
}

const EvExtractorClass ev_cuda_motion = { MOTION_CLASS,
                                          .flags =
                                              EV_FEX_NO_SUBSAMPLE | EV_FEX_CUDA | EV_FEX_CUDA_LUMA,
                                          .init = motion_cuda_init,
                                          .launch = ev_motion_launch_cuda,
                                          .extract = ev_motion_extract_cuda,
                                          .flush = motion_cuda_flush,
                                          .close = motion_cuda_close };
#endif
