/* Float VIF per scale (libvmaf vif.c, vif_tools.c, scalar C): run-time Gaussian filters,
 * separable float filtering (vertical, then horizontal; each output a float sum from 0 in tap
 * order), the per-pixel statistic and the 2:1 decimation. Loops run tap by tap across a row,
 * which keeps every output's own operation order. */
#include <math.h>

#include "features/vif/float_vif_scale.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static const float valid_kernelscales[21] = {
    1.0f,           1.0f / 2.0f,  3.0f / 2.0f, 2.0f,         2.0f / 3.0f,  24.0f / 10.0f,
    360.0f / 97.0f, 4.0f / 3.0f,  3.5f / 3.0f, 3.75f / 3.0f, 4.25f / 3.0f, 5.0f / 3.0f,
    3.0f,           1.0f / 2.25f, 1.4746f,     1.54f,        1.6f,         1.06667f,
    0.711111f,      0.740740f,    1.111111f
};

int vif_float_kernelscale_valid(const float kernelscale)
{
    for (int i = 0; i < 21; i++)
        if (fabsf(kernelscale - valid_kernelscales[i]) < 1e-3)
            return 1;
    return 0;
}

static int filter_size(const int scale, const float kernelscale)
{
    const int c = (int)ceil((float)((1 << (4 - scale)) + 1) * kernelscale);
    const int odd = c % 2 == 0 ? c + 1 : c;
    return odd > 3 ? odd : 3;
}

/* The Gaussian density at x, as the reference: exponent in double, then float num / den. */
static float gaussian_pdf(const float x, const float sigma)
{
    const float num = (float)exp(-0.5 * x / sigma * x / sigma);
    const float den = (float)(1 / (sigma * sqrt(2 * M_PI)));
    return num / den;
}

void vif_float_filter_init(VifFloatFilter *f, const int scale, const float kernelscale)
{
    f->n = filter_size(scale, kernelscale);
    const float sigma = f->n / 5.0f;
    float sum = 0;
    for (int i = 0; i < f->n; i++) {
        f->tap[i] = gaussian_pdf((float)(i - (f->n - 1) / 2), sigma);
        sum += f->tap[i];
    }
    for (int i = 0; i < f->n; i++)
        f->tap[i] /= sum;
}

static size_t line_len(const int max_w, const int max_taps)
{
    return (size_t)max_w + 2 * (size_t)(max_taps / 2);
}

size_t vif_float_rows_size(const int max_w, const int max_taps)
{
    return VIF_FLOAT_LINES * (line_len(max_w, max_taps) + (size_t)max_w) * sizeof(float);
}

void vif_float_rows_init(VifFloatRows *rows, void *mem, const int max_w, const int max_taps)
{
    float *p = mem;
    for (int l = 0; l < VIF_FLOAT_LINES; l++, p += line_len(max_w, max_taps))
        rows->line[l] = p + max_taps / 2;
    for (int l = 0; l < VIF_FLOAT_LINES; l++, p += max_w)
        rows->out[l] = p;
}

static const float *image_row(const VifFloatImage *im, const int i)
{
    return im->data + vif_mirror(i, im->h) * im->stride;
}

void vif_float_scale_stat(float *num, float *den, const VifFloatImage *ref,
                          const VifFloatImage *dis, const VifFloatFilter *f,
                          const VifFloatParams *p, const VifFloatDsp *dsp, VifFloatRows *rows)
{
    const int r = f->n / 2;
    const float *rr[VIF_FLOAT_MAX_TAPS], *dr[VIF_FLOAT_MAX_TAPS];
    float total_num = 0.0f, total_den = 0.0f;
    for (int i = 0; i < ref->h; i++) {
        for (int k = 0; k < f->n; k++) {
            rr[k] = image_row(ref, i - r + k);
            dr[k] = image_row(dis, i - r + k);
        }
        float row_num, row_den;
        dsp->stat_row(&row_num, &row_den, rr, dr, ref->w, f, p, rows);
        total_num += row_num;
        total_den += row_den;
    }
    *num = total_num;
    *den = total_den;
}

void vif_float_scale_down(VifFloatImage *out, const VifFloatImage *in, const VifFloatFilter *f,
                          const VifFloatDsp *dsp, VifFloatRows *rows)
{
    const int r = f->n / 2;
    const float *rr[VIF_FLOAT_MAX_TAPS];
    for (int i = 0; i < out->h; i++) {
        for (int k = 0; k < f->n; k++)
            rr[k] = image_row(in, 2 * i - r + k);
        dsp->down_row(out->data + i * out->stride, rr, in->w, f, rows->line[0]);
    }
}
