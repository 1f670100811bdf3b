/* Reporting one frame of float_ssim and float_ms_ssim from its means, for the C references and
 * their CUDA twins (ssim_emit.h), as libvmaf's float_ssim.c and float_ms_ssim.c. */
#include <errno.h>
#include <math.h>

#include "features/ssim/ssim_emit.h"
#include "features/ssim/ssim_score.h"

/* libvmaf's exponents (float, widened to double by pow): luminance only at the last scale. */
static const float ms_alpha[MS_SCALES] = { 0.0000f, 0.0000f, 0.0000f, 0.0000f, 0.1333f };
static const float ms_beta[MS_SCALES] = { 0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f };
static const float ms_gamma[MS_SCALES] = { 0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f };

static const char *const ms_names[3][MS_SCALES] = {
    { "float_ms_ssim_l_scale0", "float_ms_ssim_l_scale1", "float_ms_ssim_l_scale2",
      "float_ms_ssim_l_scale3", "float_ms_ssim_l_scale4" },
    { "float_ms_ssim_c_scale0", "float_ms_ssim_c_scale1", "float_ms_ssim_c_scale2",
      "float_ms_ssim_c_scale3", "float_ms_ssim_c_scale4" },
    { "float_ms_ssim_s_scale0", "float_ms_ssim_s_scale1", "float_ms_ssim_s_scale2",
      "float_ms_ssim_s_scale3", "float_ms_ssim_s_scale4" },
};

int ev_float_ssim_emit(const SsimState *s, const SsimMeans *m, unsigned frame, EvSink *sink)
{
    double score = m->ssim;
    if (s->opts.enable_db)
        score = ssim_db(score, s->max_db);
    int err = ev_sink_put(sink, "float_ssim", frame, score);
    if (s->opts.enable_lcs) {
        err |= ev_sink_put(sink, "float_ssim_l", frame, m->l);
        err |= ev_sink_put(sink, "float_ssim_c", frame, m->c);
        err |= ev_sink_put(sink, "float_ssim_s", frame, m->s);
    }
    return err ? -ENOMEM : 0;
}

int ev_float_ms_ssim_emit(const MsSsimState *s, const SsimMeans m[MS_SCALES], unsigned frame,
                          EvSink *sink)
{
    double msssim = 1.0;
    for (int k = 0; k < MS_SCALES; k++) {
        msssim *= pow(m[k].l, ms_alpha[k]) * pow(m[k].c, ms_beta[k]) * pow(m[k].s, ms_gamma[k]);
        if (msssim == INFINITY)
            return -ERANGE; /* libvmaf fails the frame ("ms_ssim is INFINITY") */
    }
    if (s->opts.enable_db)
        msssim = ssim_db(msssim, s->max_db);
    int err = ev_sink_put(sink, "float_ms_ssim", frame, msssim);
    for (int t = 0; s->opts.enable_lcs && t < 3; t++)
        for (int k = 0; k < MS_SCALES; k++)
            err |= ev_sink_put(sink, ms_names[t][k], frame,
                               t == 0   ? m[k].l
                               : t == 1 ? m[k].c
                                        : m[k].s);
    return err ? -ENOMEM : 0;
}
