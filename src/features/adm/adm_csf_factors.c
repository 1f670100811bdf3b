/* ADM contrast-sensitivity factors, computed as libvmaf's integer_adm.h, barten_csf_tools.h and
 * adm_csf_tools.h compute them (float/double mix and order kept; glibc libm). */
#include <math.h>
#include <stddef.h>

#include "features/adm/adm_csf_factors.h"

#define ADM_PI 3.14159265358979323846

/* Display visual resolution in pixels per degree, as a float (56.55 at 3H on 1080 lines). */
static float display_resolution(const double nvd, const int rdh)
{
    return (float)(nvd * rdh * ADM_PI / 180.0);
}

/* ---- Watson 1997 (luma, subject "sfl"); the fields are floats initialised from doubles ---- */

static const float watson_a = 0.495, watson_k = 0.466, watson_f0 = 0.401;
static const float watson_g[4] = { 1.501, 1.0, 0.534, 1.0 };
static const float watson_amplitude[4][4] = {
    { 0.62171, 0.67234, 0.72709, 0.67234 },
    { 0.34537, 0.41317, 0.49428, 0.41317 },
    { 0.18004, 0.22727, 0.28688, 0.22727 },
    { 0.091401, 0.11792, 0.15214, 0.11792 },
};

float adm_watson_factor(const int lambda, const int diag, const double nvd, const int rdh)
{
    const int theta = diag ? 2 : 1;
    const float r = display_resolution(nvd, rdh);
    const float temp = (float)log10(pow(2.0, lambda + 1) * watson_f0 * watson_g[theta] / r);
    const float q = (float)(2.0 * watson_a * pow(10.0, watson_k * temp * temp) /
                            watson_amplitude[lambda][theta]);
    return 1.0f / q;
}

/* ---- Barten (HDR-VDP-2.2.1 parameters at six luminance anchors) ---- */

static const float barten_anchor[6] = { 0.002, 0.02, 0.2, 2, 20, 150 };
static const float barten_param[6][5] = {
    { 0.0160737, 0.991265, 3.74038, 0.50722, 4.46044 },
    { 0.383873, 0.800889, 3.54104, 0.682505, 4.94958 },
    { 0.929301, 0.476505, 4.37453, 0.750315, 5.28678 },
    { 1.29776, 0.405782, 4.40602, 0.935314, 5.61425 },
    { 1.49222, 0.334278, 3.79542, 1.07327, 6.4635 },
    { 1.46213, 0.394533, 2.7755, 1.16577, 7.45665 },
};
static const float barten_sa[4] = { 30.162, 4.0627, 1.6596, 0.2712 };
static const float barten_mtf_a[4] = { 0.424838596301290, 0.572435103936480, 0.000167576239164937,
                                       0.00255872352306433 };
static const float barten_mtf_b[4] = { 0.028, 0.37, 37, 360 };

static float lerp_f(const float x0, const float y0, const float x1, const float y1, const float x)
{
    return y0 + ((y1 - y0) / (x1 - x0)) * (x - x0);
}

static float barten_luminance_sensitivity(const float lum)
{
    return (float)(barten_sa[0] * pow(pow(barten_sa[1] / lum, barten_sa[2]) + 1, -barten_sa[3]));
}

static float barten_mtf(const float f)
{
    float mtf = 0.0f;
    for (int i = 0; i < 4; i++)
        mtf = (float)(mtf + barten_mtf_a[i] * exp(-barten_mtf_b[i] * f));
    return mtf;
}

/* The four interpolated parameters p[0..3] (columns 1..4 of the table) at luminance lum. */
static void barten_params_at(const double lum, float p[4])
{
    double l = lum;
    if (l > barten_anchor[5])
        l = barten_anchor[5];
    else if (l < barten_anchor[0])
        l = barten_anchor[0];
    int lo = 0, hi = 0;
    for (int i = 0; i < 5; i++) {
        if (l >= barten_anchor[i] && l <= barten_anchor[i + 1]) {
            lo = i;
            hi = i + 1;
            break;
        }
    }
    const float x0 = (float)log10(barten_anchor[lo]);
    const float x1 = (float)log10(barten_anchor[hi]);
    const float x = (float)log10(l);
    for (int k = 0; k < 4; k++)
        p[k] = lerp_f(x0, barten_param[lo][k + 1], x1, barten_param[hi][k + 1], x);
}

float adm_barten_factor(const int lambda, const double nvd, const int rdh, const double lum,
                        const double scale)
{
    const float r = display_resolution(nvd, rdh);
    const float f = (float)(r / pow(2, lambda + 1));
    float p[4];
    barten_params_at(lum, p);
    const float a = (float)(1.0f + pow(p[0] * f, p[1]));
    const float b = (float)(1.0f / pow(1 - exp(-pow(f / 7, 2)), p[2]));
    const float csf = (float)(p[3] / pow(a * b, 0.5));
    const float csf_mtf = csf * barten_mtf(f);
    return (float)(csf_mtf * barten_luminance_sensitivity((float)lum) * scale);
}

/* ---- Barten/Watson blend tables: [diag][lambda] ---- */

typedef struct BlendTable {
    int height;
    double dist;
    float legacy[2][4];
    float mae[2][4];
} BlendTable;

static const BlendTable blend_tables[] = {
    { 1080,
      3.0,
      { { 0.01183, 0.025026, 0.04295, 0.058621 }, { 0.004302, 0.011778, 0.023918, 0.035901 } },
      { { 0.011249, 0.022606, 0.035930, 0.045673 }, { 0.004097, 0.010921, 0.021430, 0.031313 } } },
    { 1080,
      5.0,
      { { 0.004212, 0.014809, 0.029642, 0.047464 }, { 0.000984, 0.005852, 0.0146, 0.027574 } },
      { { 0.004052, 0.013939, 0.026298, 0.038833 }, { 0.000927, 0.005544, 0.013415, 0.024515 } } },
    /* 2160 lines at 1.5H has the pixels per degree of 1080 at 3H */
    { 2160,
      1.5,
      { { 0.01183, 0.025026, 0.04295, 0.058621 }, { 0.004302, 0.011778, 0.023918, 0.035901 } },
      { { 0.011249, 0.022606, 0.035930, 0.045673 }, { 0.004097, 0.010921, 0.021430, 0.031313 } } },
    { 2160,
      3.0,
      { { 0.00226, 0.01183, 0.025026, 0.04295 }, { 0.000479, 0.004302, 0.011778, 0.023918 } },
      { { 0.002166, 0.011249, 0.022606, 0.035930 }, { 0.000447, 0.004097, 0.010921, 0.021430 } } },
    { 2160,
      5.0,
      { { 0.000092, 0.004212, 0.014809, 0.029642 }, { 0.000050, 0.000984, 0.005852, 0.0146 } },
      { { 0.000077, 0.004052, 0.013939, 0.026298 }, { 0.000045, 0.000927, 0.005544, 0.013415 } } },
    { 720,
      3.0,
      { { 0.018715, 0.035637, 0.052798, 0.061509 }, { 0.007999, 0.018396, 0.031851, 0.037718 } },
      { { 0.017329, 0.030870, 0.042134, 0.047410 }, { 0.007509, 0.016707, 0.028072, 0.032722 } } },
    { 720,
      5.0,
      { { 0.010144, 0.022561, 0.040309, 0.05672 }, { 0.003463, 0.010282, 0.021839, 0.034641 } },
      { { 0.009689, 0.020577, 0.034162, 0.044523 }, { 0.003302, 0.009579, 0.019661, 0.030318 } } },
    { 480,
      3.0,
      { { 0.027961, 0.045875, 0.060275, 0.056234 }, { 0.013572, 0.026277, 0.036959, 0.034511 } },
      { { 0.024969, 0.037825, 0.046676, 0.043974 }, { 0.012511, 0.023424, 0.032139, 0.030166 } } },
    { 480,
      5.0,
      { { 0.016781, 0.032822, 0.05032, 0.061594 }, { 0.00691, 0.016545, 0.029917, 0.037777 } },
      { { 0.015665, 0.028766, 0.040612, 0.047483 }, { 0.006514, 0.015107, 0.026476, 0.032776 } } },
};

float adm_blend_factor(const int lambda, const int diag, const double nvd, const int rdh,
                       const int mae)
{
    for (size_t i = 0; i < sizeof(blend_tables) / sizeof(blend_tables[0]); i++) {
        const BlendTable *t = &blend_tables[i];
        if (rdh == t->height && nvd == t->dist)
            return mae ? t->mae[diag][lambda] : t->legacy[diag][lambda];
    }
    return -22.0f;
}

/* ---- DLM paper's CSF ---- */

float adm_native_factor(const int lambda, const int diag, const double nvd, const int rdh)
{
    const float r = display_resolution(nvd, rdh);
    float f = (float)(r / pow(2, lambda + 1));
    if (diag)
        f = (float)(f / 0.7); /* oblique effect */
    return (float)((0.31 + 0.69 * f) * exp(-0.29 * f));
}

float adm_cos_1deg_sq(void)
{
    return (float)(cos(1.0 * ADM_PI / 180.0) * cos(1.0 * ADM_PI / 180.0));
}

uint16_t adm_gcc_double_to_u16(const double v)
{
    if (!(v > -2147483649.0 && v < 2147483648.0))
        return 0;
    return (uint16_t)(uint64_t)(int64_t)v;
}

uint32_t adm_gcc_double_to_u32(const double v)
{
    if (!(v > -9223372036854775808.0 && v < 9223372036854775808.0))
        return 0;
    return (uint32_t)(uint64_t)(int64_t)v;
}
