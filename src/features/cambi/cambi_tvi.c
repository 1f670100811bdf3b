/* CAMBI's visibility tables (libvmaf feature/cambi.c get_tvi_for_diff, get_vlt_luma, and
 * feature/luminance_tools.c): luminance of 10-bit limited-range codes through the BT.1886 or PQ
 * EOTF (glibc pow), reduced to integers once at init. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "features/cambi/cambi_internal.h"

#define LUMA_FOOT 64 /* 10-bit limited range: 16 << 2 .. 235 << 2 */
#define LUMA_HEAD 940

static double bt1886_eotf(const double v)
{
    /* BT.1886 with L_W = 300, L_B = 0.01, gamma 2.4, the terms in the reference's order */
    const double gamma = 2.4, lw = 300.0, lb = 0.01;
    const double a = pow(pow(lw, 1.0 / gamma) - pow(lb, 1.0 / gamma), gamma);
    const double b = pow(lb, 1.0 / gamma) / (pow(lw, 1.0 / gamma) - pow(lb, 1.0 / gamma));
    const double x = v + b;
    return a * pow(x > 0 ? x : 0, gamma);
}

static double pq_eotf(const double v)
{
    /* SMPTE ST 2084 */
    const double m1 = 0.1593017578125, m2 = 78.84375;
    const double c1 = 0.8359375, c2 = 18.8515625, c3 = 18.6875;
    const double num = pow(v, 1.0 / m2) - c1;
    const double den = c2 - c3 * pow(v, 1.0 / m2);
    return 10000 * pow((num > 0 ? num : 0) / den, 1.0 / m1);
}

int cambi_eotf_parse(const char *name, CambiEotf *out)
{
    if (!strcmp(name, "bt1886"))
        *out = CAMBI_EOTF_BT1886;
    else if (!strcmp(name, "pq"))
        *out = CAMBI_EOTF_PQ;
    else
        return -EINVAL;
    return 0;
}

/* Luminance (cd/m^2) of a 10-bit code, clipped to the limited range first. */
double cambi_luminance(const int code, const CambiEotf eotf)
{
    const int c = code < LUMA_FOOT ? LUMA_FOOT : (code > LUMA_HEAD ? LUMA_HEAD : code);
    const double v = (double)(c - LUMA_FOOT) / (LUMA_HEAD - LUMA_FOOT);
    return eotf == CAMBI_EOTF_PQ ? pq_eotf(v) : bt1886_eotf(v);
}

/* A step of diff codes above code is visible: L(code + diff) - L(code) > tvi * L(code). */
static int step_visible(const int code, const int diff, const double tvi, const CambiEotf eotf)
{
    const double mean = cambi_luminance(code, eotf);
    const double up = cambi_luminance(code + diff, eotf);
    return up - mean > tvi * mean;
}

/* -1: code is too small (the step is still visible one code higher), 1: too big (invisible at
 * code), 0: code is the last one where the step is visible. */
static int tvi_side(const int code, const int diff, const double tvi, const CambiEotf eotf)
{
    if (!step_visible(code, diff, tvi, eotf))
        return 1;
    return step_visible(code + 1, diff, tvi, eotf) ? -1 : 0;
}

int cambi_tvi_for_diff(const int diff, const double tvi, const CambiEotf eotf)
{
    int lo = LUMA_FOOT, hi = LUMA_HEAD - diff - 1;
    int side = tvi_side(lo, diff, tvi, eotf);
    if (side > 0)
        return 0;
    if (side == 0)
        return lo;
    side = tvi_side(hi, diff, tvi, eotf);
    if (side < 0)
        return 1023;
    if (side == 0)
        return hi;
    while (hi - lo > 1) { /* the reference loops forever where L is not monotone: refuse */
        const int mid = lo + (hi - lo) / 2;
        side = tvi_side(mid, diff, tvi, eotf);
        if (side == 0)
            return mid;
        if (side > 0)
            hi = mid;
        else
            lo = mid;
    }
    return -1;
}

int cambi_vlt_luma(const double threshold, const CambiEotf eotf)
{
    /* a uint16 code counting up from the foot, as the reference */
    uint16_t code = LUMA_FOOT;
    while (cambi_luminance(code, eotf) < threshold) {
        if (code >= LUMA_HEAD)
            return -1; /* never reached: the reference loops forever */
        code++;
    }
    return code == LUMA_FOOT ? 0 : code;
}

/* libvmaf's reciprocal_lut: 1/n to 9 significant digits, as a float literal reads ([0] = 0). */
void cambi_recip_table(float recip[CAMBI_RECIP_SIZE])
{
    recip[0] = 0.0f;
    for (unsigned n = 1; n < CAMBI_RECIP_SIZE; n++) {
        char text[32];
        snprintf(text, sizeof(text), "%.9g", 1.0 / n);
        recip[n] = strtof(text, NULL);
    }
}

int cambi_tables_init(CambiTables *t, const CambiOpts *o, const CambiEotf eotf)
{
    t->num_diffs = 1 << o->max_log_contrast;
    for (int d = 0; d < t->num_diffs; d++) {
        t->weight[d] = cambi_contrast_weight(d);
        t->tvi[d] = cambi_tvi_for_diff(d + 1, o->tvi_threshold, eotf);
        if (t->tvi[d] < 0)
            return -EINVAL;
    }
    t->vlt = cambi_vlt_luma(o->cambi_vis_lum_threshold, eotf);
    if (t->vlt < 0)
        return -EINVAL;
    /* Codes that can take part in a contrast value: vlt - 3 * num_diffs < code <= the last
     * tvi + num_diffs (libvmaf's band; its uint16 size wraps when the band is empty, and then every value
     * is 0: no code passes both gates). */
    const int lo = t->vlt - 3 * t->num_diffs + 1;
    t->band_lo = lo > 0 ? (unsigned)lo : 0;
    const int hi = t->tvi[t->num_diffs - 1] + t->num_diffs; /* inclusive */
    t->band_n = hi + 1 >= (int)t->band_lo ? (unsigned)(hi + 1 - (int)t->band_lo) : 0;
    cambi_recip_table(t->recip);
    return 0;
}
