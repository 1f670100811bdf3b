/*
 * libswscale's filters (scale_filter.h), in its steps: weights in 64-bit fixed point with
 * `unit` standing for 1.0, the near-zero ends trimmed, the taps aligned, the taps that fall
 * outside the source folded onto its edge samples, then each row quantised to int16 with its
 * rounding error carried along the row.
 */
#include "io/scale_filter.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EV_SCALE_REDUCE_CUTOFF 0.002 /* libswscale's SWS_MAX_REDUCE_CUTOFF */
#define EV_SCALE_WIDEST 170          /* its widest filter before cascading (accurate rounding) */
#define EV_SCALE_PI 3.14159265358979323846 /* M_PI */

static int floor_log2(int v)
{
    int n = 0;
    while (v > 1) {
        v >>= 1;
        n++;
    }
    return n;
}

static int64_t abs64(int64_t v)
{
    return v < 0 ? -v : v;
}

/* libswscale's ROUNDED_DIV: halves away from zero. */
static int64_t div_round(int64_t a, int64_t b)
{
    return (a >= 0 ? a + (b >> 1) : a - (b >> 1)) / b;
}

static int param_given(double p)
{
    return !isnan(p);
}

/* Parameters whose fixed-point arithmetic stays in range: bicubic B and C in [-1, 1] (beyond,
 * libswscale's 64-bit sums overflow), a lanczos width in (0, 25] (libswscale's own limit). */
static int params_valid(const EvScaleKernelSpec *k)
{
    if (k->kernel == EV_SCALE_BICUBIC) {
        for (int i = 0; i < 2; i++)
            if (param_given(k->param[i]) && !(k->param[i] >= -1 && k->param[i] <= 1))
                return 0;
        return 1;
    }
    if (k->kernel == EV_SCALE_LANCZOS)
        return !param_given(k->param[0]) || (k->param[0] > 0 && k->param[0] <= 25);
    return k->kernel == EV_SCALE_BILINEAR;
}

/* Taps per output before trimming (0: refused). */
static int raw_taps(const EvScaleKernelSpec *k, int src_n, int out_n, int64_t step)
{
    if (!params_valid(k))
        return 0;
    int factor = 4;
    if (k->kernel == EV_SCALE_BILINEAR)
        factor = 2;
    else if (k->kernel == EV_SCALE_LANCZOS)
        factor = param_given(k->param[0]) ? (int)ceil(2 * k->param[0]) : 6;
    if (factor <= 0 || factor > 50)
        return 0;
    int taps = step <= (1 << 16) ? 1 + factor : 1 + (factor * src_n + out_n - 1) / out_n;
    if (taps > src_n - 2)
        taps = src_n - 2;
    return taps < 1 ? 1 : taps;
}

/* The weight at distance d (1 << 30 = one source sample, already scaled to the output grid
 * when shrinking), in units of `unit`. */
static int64_t kernel_weight(const EvScaleKernelSpec *k, int64_t d, int64_t unit)
{
    const double x = d * (1.0 / (1 << 30));
    if (k->kernel == EV_SCALE_BILINEAR) {
        int64_t w = (1 << 30) - d;
        return (w < 0 ? 0 : w) * (unit >> 30);
    }
    if (k->kernel == EV_SCALE_LANCZOS) {
        const double width = param_given(k->param[0]) ? k->param[0] : 3.0;
        if (x > width)
            return 0;
        const double w = d ? sin(x * EV_SCALE_PI) * sin(x * EV_SCALE_PI / width) /
                                 (x * x * EV_SCALE_PI * EV_SCALE_PI / width)
                           : 1.0;
        return (int64_t)(w * unit);
    }
    /* bicubic: Mitchell-Netravali's two cubics in 24-bit fixed point, d as 30-bit */
    const int64_t one24 = 1 << 24;
    const int64_t b = (int64_t)((param_given(k->param[0]) ? k->param[0] : 0) * (1 << 24));
    const int64_t c = (int64_t)((param_given(k->param[1]) ? k->param[1] : 0.6) * (1 << 24));
    if (d >= (int64_t)1 << 31)
        return 0;
    const int64_t d2 = (d * d) >> 30;
    const int64_t d3 = (d2 * d) >> 30;
    int64_t w;
    if (d < (int64_t)1 << 30)
        w = (12 * one24 - 9 * b - 6 * c) * d3 + (-18 * one24 + 12 * b + 6 * c) * d2 +
            (6 * one24 - 2 * b) * ((int64_t)1 << 30);
    else
        w = (-b - 6 * c) * d3 + (6 * b + 30 * c) * d2 + (-12 * b - 48 * c) * d +
            (8 * b + 24 * c) * ((int64_t)1 << 30);
    return w / (((int64_t)1 << 54) / unit);
}

/* The untrimmed weights: each output's taps at consecutive source positions from first[i]. */
static void raw_weights(int64_t *w, int32_t *first, int taps, const EvScaleKernelSpec *k, int src_n,
                        int out_n, int64_t step, int src_pos, int out_pos, int64_t unit)
{
    if (abs64(step - 0x10000) < 10 && src_pos == out_pos) { /* same size: the identity */
        for (int i = 0; i < out_n; i++) {
            w[i] = unit;
            first[i] = i;
        }
        return;
    }
    /* the output's centre in source samples, 1 << 17 = one sample */
    int64_t centre = ((out_pos * step) >> 7) - ((src_pos * (int64_t)0x10000) >> 7);
    for (int i = 0; i < out_n; i++, centre += 2 * step) {
        int pos = (int)((centre - (taps - 2) * ((int64_t)1 << 16)) / (1 << 17));
        first[i] = pos;
        for (int j = 0; j < taps; j++, pos++) {
            int64_t d = abs64((int64_t)pos * (1 << 17) - centre) << 13;
            if (step > 1 << 16)
                d = d * out_n / src_n;
            w[(size_t)i * taps + j] = kernel_weight(k, d, unit);
        }
    }
}

/* Drop each row's leading near-zero weights (moving first on, keeping first increasing) and
 * count its trailing ones. @return the taps the widest row still needs. */
static int trim(int64_t *w, int32_t *first, int taps, int out_n, int64_t unit)
{
    const double cutoff = EV_SCALE_REDUCE_CUTOFF * unit;
    int widest = 0;
    for (int i = out_n - 1; i >= 0; i--) {
        int64_t *row = w + (size_t)i * taps;
        int64_t dropped = 0;
        for (int j = 0; j < taps; j++) {
            dropped += abs64(row[0]);
            if (dropped > cutoff || (i < out_n - 1 && first[i] >= first[i + 1]))
                break;
            memmove(row, row + 1, (size_t)(taps - 1) * sizeof(*row));
            row[taps - 1] = 0;
            first[i]++;
        }
        int needed = taps;
        int64_t tail = 0;
        for (int j = taps - 1; j > 0; j--) {
            tail += abs64(row[j]);
            if (tail > cutoff)
                break;
            needed--;
        }
        if (needed > widest)
            widest = needed;
    }
    return widest;
}

/* Fold the weights of taps outside [0, src_n) onto the edge samples, as libswscale does. */
static void fold_edges(int64_t *row, int32_t *first, int taps, int src_n)
{
    if (*first < 0) {
        for (int j = 1; j < taps; j++) {
            const int to = j + *first > 0 ? j + *first : 0;
            row[to] += row[j];
            row[j] = 0;
        }
        *first = 0;
    }
    if (*first + taps > src_n) {
        const int shift = *first + (taps - src_n < 0 ? taps - src_n : 0);
        int64_t beyond = 0;
        for (int j = taps - 1; j >= 0; j--) {
            if (*first + j >= src_n) {
                beyond += row[j];
                row[j] = 0;
            }
        }
        for (int j = taps - 1; j >= 0; j--)
            row[j] = j < shift ? 0 : row[j - shift];
        *first -= shift;
        row[src_n - 1 - *first] += beyond;
    }
}

/* Quantise one row to int16 weights summing to about one, carrying the rounding error. */
static void quantise(int16_t *out, const int64_t *row, int taps, int one)
{
    int64_t sum = 0;
    for (int j = 0; j < taps; j++)
        sum += row[j];
    sum = (sum + one / 2) / one;
    if (!sum)
        sum = 1;
    int64_t carry = 0;
    for (int j = 0; j < taps; j++) {
        const int64_t v = row[j] + carry;
        const int q = (int)div_round(v, sum);
        out[j] = (int16_t)q;
        carry = v - (int64_t)q * sum;
    }
}

int ev_scale_filter_make(EvScaleFilter *f, const EvScaleKernelSpec *k, int src_n, int out_n,
                         int64_t step, int src_pos, int out_pos, int one, int align)
{
    memset(f, 0, sizeof(*f));
    if (src_n < 1 || out_n < 1 || align < 1 || (align & (align - 1)))
        return -3;
    const int64_t unit = (int64_t)1
                         << (54 - (floor_log2(src_n / out_n) < 8 ? floor_log2(src_n / out_n) : 8));
    const int same = abs64(step - 0x10000) < 10 && src_pos == out_pos;
    if (!params_valid(k))
        return -2;
    const int taps0 = same ? 1 : raw_taps(k, src_n, out_n, step);
    if (!taps0)
        return -2;
    int64_t *w = calloc((size_t)out_n * taps0, sizeof(*w));
    f->first = calloc((size_t)out_n, sizeof(*f->first));
    if (!w || !f->first) {
        free(w);
        ev_scale_filter_free(f);
        return -1;
    }
    raw_weights(w, f->first, taps0, k, src_n, out_n, step, src_pos, out_pos, unit);
    const int widest = trim(w, f->first, taps0, out_n, unit);
    if (widest == 1 && align == 2) /* libswscale's x86 special case: an unfiltered vertical pass */
        align = 1;
    const int taps = (widest + align - 1) & ~(align - 1);
    if (taps >= EV_SCALE_WIDEST) {
        free(w);
        ev_scale_filter_free(f);
        return -2;
    }
    int64_t *aligned = calloc((size_t)out_n * taps, sizeof(*aligned));
    f->coef = calloc((size_t)out_n * taps, sizeof(*f->coef));
    if (!aligned || !f->coef) {
        free(w);
        free(aligned);
        ev_scale_filter_free(f);
        return -1;
    }
    for (int i = 0; i < out_n; i++)
        for (int j = 0; j < taps && j < taps0; j++)
            if (!(k->bitexact && j >= widest))
                aligned[(size_t)i * taps + j] = w[(size_t)i * taps0 + j];
    free(w);
    for (int i = 0; i < out_n; i++) {
        fold_edges(aligned + (size_t)i * taps, &f->first[i], taps, src_n);
        quantise(f->coef + (size_t)i * taps, aligned + (size_t)i * taps, taps, one);
    }
    free(aligned);
    f->out_n = out_n;
    f->taps = taps;
    return 0;
}

void ev_scale_filter_free(EvScaleFilter *f)
{
    free(f->first);
    free(f->coef);
    memset(f, 0, sizeof(*f));
}
