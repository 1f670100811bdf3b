/* One frame's VMAF scores from its feature values: normalisation, SVM, score transform, clip,
 * and bootstrap statistics (reference: libvmaf/src/predict.c). Every step keeps libvmaf's
 * order of double operations. */
#include <math.h>
#include <stdlib.h>

#include "model/model.h"

/* The line through two knots, as libvmaf computes it: a knot at x = 0 gives the offset
 * directly. The caller guarantees a.x < b.x and a.y < b.y (checked when loading). */
static void knot_line(double ax, double ay, double bx, double by, double *slope, double *offset)
{
    if (ax == 0) {
        *offset = ay;
        *slope = (by - *offset) / bx;
    } else {
        *slope = (by - ay) / (bx - ax);
        *offset = ay - ax * *slope;
    }
}

/* libvmaf's piecewise-linear mapping: every segment whose closed range holds x overwrites the
 * result (so an inner knot takes the later segment), the first and last segments extend
 * beyond the ends, and an x no segment holds (NaN) maps to 0. Fewer than two knots: y itself. */
static double map_knots(const EvScoreTransform *t, double x)
{
    if (t->n_knots < 2)
        return x;
    const unsigned last = t->n_knots - 2;
    double y = 0.0;
    for (unsigned i = 0; i <= last; i++) {
        const double ax = t->knot_x[i], ay = t->knot_y[i];
        const double bx = t->knot_x[i + 1], by = t->knot_y[i + 1];
        const int inside = ax <= x && x <= bx;
        const int before = i == 0 && x < ax;
        const int after = i == last && x > bx;
        if (!inside && !before && !after)
            continue;
        if (ay == by) {
            y = ay;
        } else {
            double slope, offset;
            knot_line(ax, ay, bx, by, &slope, &offset);
            y = slope * x + offset;
        }
    }
    return y;
}

double ev_model_transform(const EvModel *const m, const double y)
{
    const EvScoreTransform *t = &m->transform;
    if (!t->enabled)
        return y;
    double out = y;
    if (t->has_p0 || t->has_p1 || t->has_p2) {
        out = 0.0;
        if (t->has_p0)
            out += t->p0;
        if (t->has_p1)
            out += t->p1 * y;
        if (t->has_p2)
            out += t->p2 * y * y;
    }
    if (t->has_knots)
        out = map_knots(t, out);
    if (t->out_lte_in && out > y)
        out = y;
    if (t->out_gte_in && out < y)
        out = y;
    return out;
}

double ev_model_clip(const EvModel *const m, double y)
{
    if (!m->clip)
        return y;
    y = y < m->clip_min ? m->clip_min : y;
    return y > m->clip_max ? m->clip_max : y;
}

static double normalise(const EvModel *m, unsigned i, double v)
{
    return m->linear_rescale ? m->feature[i].slope * v + m->feature[i].intercept : v;
}

/* The inverse, as libvmaf computes it from the normalised value (not the raw one). */
static double denormalise(const EvModel *m, unsigned i, double v)
{
    return m->linear_rescale ? (v - m->feature[i].intercept) / m->feature[i].slope : v;
}

/* v1 models: when the normalised speed_chroma feature, taken back to its scale, is exactly 0
 * (no chroma score, e.g. planes too small for its scaling), it is replaced by
 * parameter - parameter * adm3 (adm3 also taken back from its normalised value), normalised.
 * libvmaf: post_process_feature_from_another() in predict.c. */
static void correct_chroma(const EvModel *m, double *x)
{
    const unsigned guided = m->chroma_guided, guiding = m->chroma_guiding;
    if (denormalise(m, guided, x[guided]) != 0.0)
        return;
    const double adm3 = denormalise(m, guiding, x[guiding]);
    const double cp = m->chroma_parameter;
    x[guided] = normalise(m, guided, (-cp * adm3) + cp);
}

double ev_model_predict(const EvModel *const m, const double *const raw, const int raw_score)
{
    double x[EV_MODEL_MAX_FEATURES] = { 0 };
    for (unsigned i = 0; i < m->n_features; i++)
        x[i] = normalise(m, i, raw[i]);
    if (m->chroma_correction)
        correct_chroma(m, x);
    double y = ev_svm_predict(&m->svm, x);
    if (m->linear_rescale)
        y = (y - m->intercept) / m->slope;
    if (raw_score)
        return y;
    return ev_model_clip(m, ev_model_transform(m, y));
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x > y ? 1 : x < y ? -1 : 0;
}

/* Linear interpolation between the neighbours of rank perc * (n - 1) / 100 (sorted s). */
static double percentile(const double *s, unsigned n, double perc)
{
    const double p = perc * (n - 1) / 100.0;
    const int lo = (int)floor(p), hi = (int)ceil(p);
    return lo == hi ? s[lo] : s[lo] * (hi - p) + s[hi] * (p - lo);
}

static double transform_clip(const EvModel *m, double y)
{
    return ev_model_clip(m, ev_model_transform(m, y));
}

void ev_bootstrap_scores(const EvModel *const first, double *const raw, const unsigned n,
                         EvBootstrapScores *const out)
{
    double sum = 0.0;
    for (unsigned i = 0; i < n; i++)
        sum += raw[i];
    const double mean = sum / n;
    double ssd = 0.0;
    for (unsigned i = 0; i < n; i++) {
        const double d = raw[i] - mean;
        ssd += d * d; /* libvmaf writes pow(d, 2), which GCC compiles to d * d */
    }
    const double stddev = sqrt(ssd / n);
    qsort(raw, n, sizeof(*raw), cmp_double);

    /* The spread is carried through the transform by its slope around the mean. */
    const double delta = 0.01;
    const double up = transform_clip(first, mean + delta);
    const double down = transform_clip(first, mean - delta);
    out->bagging = transform_clip(first, mean);
    out->ci_lo = transform_clip(first, percentile(raw, n, 2.5));
    out->ci_hi = transform_clip(first, percentile(raw, n, 97.5));
    out->stddev = stddev * ((up - down) / (2.0 * delta));
}
