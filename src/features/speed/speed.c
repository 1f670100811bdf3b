/* speed_chroma and speed_temporal: SpEED-QA of libvmaf feature/speed.c. speed_chroma scores the
 * U and V planes of each frame pair; speed_temporal (sequential) scores the frame differences
 * of the luma, previous minus current. Samples are libvmaf's floats with offset -128. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/extractor.h"
#include "features/common/sample_math.h"
#include "features/speed/speed.h"
#include "features/speed/speed_core.h"
#include "features/speed/speed_dsp.h"
#include "features/speed/speed_math.h"

static const char *const scale_methods[] = { "nearest", "bilinear", "bicubic", "lanczos4", NULL };

static const EvChoices speed_choices[] = {
    { "speed_prescale_method", scale_methods },
    { NULL, NULL },
};

#define OPT(field) offsetof(SpeedOpts, field)
#define SPEED_COMMON_OPTIONS                                                                       \
    { "speed_kernelscale",                                                                         \
      "ks",                                                                                        \
      "scaling factor for the gaussian kernel",                                                    \
      EV_OPT_DOUBLE,                                                                               \
      OPT(p.kernelscale),                                                                          \
      1.0,                                                                                         \
      0.1,                                                                                         \
      4.0,                                                                                         \
      EV_OPT_FEATURE_PARAM },                                                                      \
        { "speed_prescale",                                                                        \
          "ps",                                                                                    \
          "scaling factor for the frame",                                                          \
          EV_OPT_DOUBLE,                                                                           \
          OPT(p.prescale),                                                                         \
          1.0,                                                                                     \
          0.1,                                                                                     \
          4.0,                                                                                     \
          EV_OPT_FEATURE_PARAM },                                                                  \
        { "speed_prescale_method",                                                                 \
          "psm",                                                                                   \
          "scaling method for the frame",                                                          \
          EV_OPT_CHOICE,                                                                           \
          OPT(p.prescale_method),                                                                  \
          SPEED_NEAREST,                                                                           \
          0,                                                                                       \
          0,                                                                                       \
          EV_OPT_FEATURE_PARAM },                                                                  \
        { "speed_sigma_nn",                                                                        \
          "snn",                                                                                   \
          "standard deviation of neural noise",                                                    \
          EV_OPT_DOUBLE,                                                                           \
          OPT(p.sigma_nn),                                                                         \
          0.29,                                                                                    \
          0.1,                                                                                     \
          2.0,                                                                                     \
          EV_OPT_FEATURE_PARAM },                                                                  \
        { "speed_nn_floor",                                                                        \
          "nnf",                                                                                   \
          "neural noise floor, in percentage of sigma_nn",                                         \
          EV_OPT_DOUBLE,                                                                           \
          OPT(p.nn_floor),                                                                         \
          0.0,                                                                                     \
          0.0,                                                                                     \
          1.0,                                                                                     \
          EV_OPT_FEATURE_PARAM },                                                                  \
    {                                                                                              \
        "speed_max_val", "mxv", "maximum value allowed; larger values are clipped", EV_OPT_DOUBLE, \
            OPT(max_val), 1000.0, 0.0, 1000.0, EV_OPT_FEATURE_PARAM                                \
    }

static const EvOption speed_chroma_options[] = {
    SPEED_COMMON_OPTIONS,
    { "speed_weight_var_mode", "wvm", "variance weighting of the entropies (0..6)", EV_OPT_INT,
      OPT(p.weight_var_mode), 0, 0, 6, EV_OPT_FEATURE_PARAM },
    { 0 },
};

/* libvmaf's speed_temporal reads speed_max_val (it shows in names) but never clips with it. */
static const EvOption speed_temporal_options[] = {
    SPEED_COMMON_OPTIONS,
    { "speed_use_ref_diff", "urd", "the distorted difference taken against the reference",
      EV_OPT_BOOL, OPT(use_ref_diff), 0, 0, 1, EV_OPT_FEATURE_PARAM },
    { 0 },
};
#undef OPT

extern const EvExtractorClass ev_fex_speed_chroma;
extern const EvExtractorClass ev_fex_speed_temporal;

/* One plane's rows the pipeline reads, as libvmaf's floats: all rows when it resamples, else
 * only those the decimated anti-alias filter reads. */
static void plane_to_float(const SpeedPlan *pl, const EvPic *pic, const unsigned p, float *dst)
{
    const float scaler = sample_scaler(pic->bpc);
    for (int y = 0; y < pl->h; y++, dst += pl->w) {
        if (!pl->scaling && (y >= pl->sh || !pl->scaled_rows[y]))
            continue;
        if (pic->bpc > 8) {
            const uint16_t *row = ev_pic_row16(pic, p, (unsigned)y);
            for (int x = 0; x < pl->w; x++)
                dst[x] = sample_to_float(row[x], scaler, -128);
        } else {
            const uint8_t *row = ev_pic_row8(pic, p, (unsigned)y);
            for (int x = 0; x < pl->w; x++)
                dst[x] = sample_to_float(row[x], scaler, -128);
        }
    }
}

static size_t plane_floats(const SpeedPlan *pl)
{
    return (size_t)pl->w * pl->h;
}

/* ---- speed_chroma ---- */

enum {
    NAME_U = SPEED_NAME_U,
    NAME_V = SPEED_NAME_V,
    NAME_UV = SPEED_NAME_UV,
    N_CHROMA_NAMES = SPEED_N_CHROMA_NAMES
};

static int speed_chroma_init(void *state, const void *opts, const EvPicInfo *info, const EvLog *log)
{
    SpeedChromaState *s = state;
    s->opts = *(const SpeedOpts *)opts;
    s->log = log;
    if (ev_require_chroma(info, "speed_chroma", log))
        return -EINVAL;
    unsigned w, h;
    ev_pic_plane_size(info->width, info->height, info->layout, 1, &w, &h);
    const int err =
        speed_plan_init(&s->plan, &s->opts.p, (int)w, (int)h, "speed_chroma", "chroma plane", log);
    if (err)
        return err;
    speed_dsp_init(&s->plan.dsp, info->cpu);
    static const char *const base[N_CHROMA_NAMES] = { "speed_chroma_u", "speed_chroma_v",
                                                      "speed_chroma_uv" };
    for (int i = 0; i < N_CHROMA_NAMES; i++)
        ev_options_feature_name(s->name[i], sizeof(s->name[i]), base[i], &ev_fex_speed_chroma,
                                &s->opts);
    return 0;
}

static size_t speed_chroma_scratch_size(const void *state)
{
    const SpeedChromaState *s = state;
    return sizeof(SpeedWork) + 2 * plane_floats(&s->plan) * sizeof(float) +
           speed_work_size(&s->plan);
}

static int speed_chroma_extract(const void *state, void *scratch, const EvPic *ref,
                                const EvPic *dis, unsigned frame, EvSink *sink)
{
    const SpeedChromaState *s = state;
    const SpeedPlan *pl = &s->plan;
    SpeedWork *wk = scratch;
    float *fr = (float *)(wk + 1), *fd = fr + plane_floats(pl);
    speed_work_init(wk, pl, fd + plane_floats(pl));
    float score[2];
    int err[2];
    for (unsigned p = 1; p <= 2; p++) {
        plane_to_float(pl, ref, p, fr);
        plane_to_float(pl, dis, p, fd);
        err[p - 1] = speed_score(pl, wk, fr, fd, pl->w, &score[p - 1]);
    }
    return ev_speed_chroma_emit(s, score, err, frame, sink);
}

int ev_speed_chroma_emit(const SpeedChromaState *s, const float score[2], const int err[2],
                         const unsigned frame, EvSink *sink)
{
    /* a singular plane takes the other plane's score as the uv score */
    const float uv = err[0] && !err[1]   ? score[1]
                     : err[1] && !err[0] ? score[0]
                                         : speed_uv_mean(score[0], score[1]);
    const double mx = s->opts.max_val;
    int e = ev_sink_put(sink, s->name[NAME_U], frame, speed_clip(score[0], mx));
    if (!e)
        e = ev_sink_put(sink, s->name[NAME_V], frame, speed_clip(score[1], mx));
    if (!e)
        e = ev_sink_put(sink, s->name[NAME_UV], frame, speed_clip(uv, mx));
    return e;
}

static void speed_chroma_close(void *state)
{
    speed_plan_close(&((SpeedChromaState *)state)->plan);
}

#define SPEED_CHROMA_CLASS                                                                         \
    EV_CLASS_COMMON("speed_chroma", SpeedChromaState),                                             \
        EV_CLASS_OPTIONS(speed_chroma_options, SpeedOpts),                                         \
        .choices = speed_choices, .init = speed_chroma_init, .close = speed_chroma_close
const EvExtractorClass ev_fex_speed_chroma = { SPEED_CHROMA_CLASS,
                                               .scratch_size = speed_chroma_scratch_size,
                                               .extract = speed_chroma_extract };

/* ---- speed_temporal ---- */

static void speed_temporal_close(void *state);

/* The engine closes only what initialised: on failure, release what this allocated. */
static int speed_temporal_init(void *state, const void *opts, const EvPicInfo *info,
                               const EvLog *log);

/* What the reference and the twin share: the plan, its checks and the name. */
static int speed_temporal_plan(SpeedTemporalState *s, const void *opts, const EvPicInfo *info,
                               const EvLog *log)
{
    s->opts = *(const SpeedOpts *)opts;
    s->bpc = info->bpc;
    int err = speed_plan_init(&s->plan, &s->opts.p, (int)info->width, (int)info->height,
                              "speed_temporal", "luma plane", log);
    if (err)
        return err;
    speed_dsp_init(&s->plan.dsp, info->cpu);
    if (s->plan.sh > s->plan.h) {
        /* libvmaf's frame buffers hold h rows: a taller prescaled frame overflows them */
        ev_log(log, EV_LOG_ERROR,
               "speed_temporal: speed_prescale=%g enlarges the %dx%d frame "
               "to %dx%d, past libvmaf's frame buffers (it crashes); use speed_prescale <= 1",
               s->opts.p.prescale, s->plan.w, s->plan.h, s->plan.sw, s->plan.sh);
        return -EINVAL;
    }
    ev_options_feature_name(s->name, sizeof(s->name), "speed_temporal", &ev_fex_speed_temporal,
                            &s->opts);
    return 0;
}

static int speed_temporal_setup(void *state, const void *opts, const EvPicInfo *info,
                                const EvLog *log)
{
    SpeedTemporalState *s = state;
    const int err = speed_temporal_plan(s, opts, info, log);
    if (err)
        return err;
    const size_t n = plane_floats(&s->plan);
    for (int k = 0; k < 2; k++) {
        for (int j = 0; j < 2; j++)
            if (!(s->frame[k][j] = calloc(n, sizeof(float))))
                return -ENOMEM;
        if (!(s->diff[k] = calloc(n, sizeof(float))))
            return -ENOMEM;
    }
    if (!(s->work_mem = malloc(speed_work_size(&s->plan))))
        return -ENOMEM;
    speed_work_init(&s->work, &s->plan, s->work_mem);
    return 0;
}

static int speed_temporal_init(void *state, const void *opts, const EvPicInfo *info,
                               const EvLog *log)
{
    const int err = speed_temporal_setup(state, opts, info, log);
    if (err)
        speed_temporal_close(state);
    return err;
}

static void subtract(const SpeedPlan *pl, const float *a, const float *b, float *out)
{
    for (size_t i = 0; i < plane_floats(pl); i++)
        out[i] = a[i] - b[i];
}

static int speed_temporal_extract(const void *state, void *scratch, const EvPic *ref,
                                  const EvPic *dis, unsigned frame, EvSink *sink)
{
    SpeedTemporalState *s = (SpeedTemporalState *)state; /* sequential: owns its state */
    const SpeedPlan *pl = &s->plan;
    float *const *cur = s->frame[frame & 1], *const *prev = s->frame[(frame + 1) & 1];
    plane_to_float(pl, ref, 0, cur[0]);
    plane_to_float(pl, dis, 0, cur[1]);
    if (frame == 0)
        return ev_sink_put(sink, s->name, frame, 0.0);
    subtract(pl, prev[0], cur[0], s->diff[0]);
    subtract(pl, prev[1], s->opts.use_ref_diff ? cur[0] : cur[1], s->diff[1]);
    float score;
    speed_score(pl, &s->work, s->diff[0], s->diff[1], pl->w, &score);
    return ev_sink_put(sink, s->name, frame, score);
}

static void speed_temporal_close(void *state)
{
    SpeedTemporalState *s = state;
    speed_plan_close(&s->plan);
    for (int k = 0; k < 2; k++) {
        free(s->frame[k][0]);
        free(s->frame[k][1]);
        free(s->diff[k]);
    }
    free(s->work_mem);
}

/* The twin has its own init and close (below). */
#define SPEED_TEMPORAL_CLASS                                                                       \
    EV_CLASS_COMMON("speed_temporal", SpeedTemporalState),                                         \
        EV_CLASS_OPTIONS(speed_temporal_options, SpeedOpts), .choices = speed_choices
const EvExtractorClass ev_fex_speed_temporal = {
    SPEED_TEMPORAL_CLASS, .flags = EV_FEX_SEQUENTIAL | EV_FEX_NO_SUBSAMPLE,
    .init = speed_temporal_init, .extract = speed_temporal_extract, .close = speed_temporal_close
};

#ifdef EV_HAVE_CUDA
/* The CUDA twins (speed.cu): the same options, state and outputs. speed_chroma reads the
 * chroma planes; speed_temporal keeps the previous frame's luma on the device and runs in
 * frame order on a stream of its own, so it needs no EV_FEX_SEQUENTIAL. */
const EvExtractorClass ev_cuda_speed_chroma = { SPEED_CHROMA_CLASS, .flags = EV_FEX_CUDA,
                                                .launch = ev_speed_chroma_launch_cuda,
                                                .extract = ev_speed_chroma_extract_cuda };

static void speed_temporal_cuda_close(void *state)
{
    SpeedTemporalState *s = state;
    ev_speed_temporal_cuda_close(s);
    speed_plan_close(&s->plan);
}

static int speed_temporal_cuda_init(void *state, const void *opts, const EvPicInfo *info,
                                    const EvLog *log)
{
    SpeedTemporalState *s = state;
    int err = speed_temporal_plan(s, opts, info, log);
    if (!err)
        err = ev_speed_temporal_cuda_open(s, log);
    if (err)
        speed_temporal_cuda_close(s);
    return err;
}

const EvExtractorClass ev_cuda_speed_temporal = { SPEED_TEMPORAL_CLASS,
                                                  .flags = EV_FEX_NO_SUBSAMPLE | EV_FEX_CUDA |
                                                           EV_FEX_CUDA_LUMA,
                                                  .init = speed_temporal_cuda_init,
                                                  .close = speed_temporal_cuda_close,
                                                  .launch = ev_speed_temporal_launch_cuda,
                                                  .extract = ev_speed_temporal_extract_cuda };
#endif
