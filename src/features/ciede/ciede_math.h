/*
 * CIEDE2000 arithmetic of libvmaf's feature/ciede.c (a port of av-metrics' ciede2000): one
 * YCbCr sample triple to CIE L*a*b* (BT.709 matrix, sRGB transfer, D65 white), then the
 * CIEDE2000 colour difference of two such colours with kL = 0.65, kC = 1, kH = 4. Shared by
 * the C reference (ciede.c) and a future CUDA twin.
 *
 * The reference mixes float and double on purpose: every intermediate it stores in a float
 * is rounded to float here too, and each expression is evaluated in the type C gives it
 * (float op float stays float; float op double is double). Each step below says which.
 *
 * libm: the bits depend on glibc's (2.36, x86-64; the golden's) results of
 *   pow(x, 2.4)       sRGB transfer, 3 per colour                ciede_linear()
 *   pow(x, 1.0 / 3.0) L*a*b* cube root, 3 per colour              ciede_lab_map()
 *   pow(c, 7.0)       a' correction, double (the reference calls it 4 times per pixel with
 *                     the same argument; once here, same value)   ciede2000()
 *   powf(c, 7.0f)     R_T, float                                 ciede_r_sub_t()
 *   atan2 x 2, cos x 4, sin x 2, exp x 1 per pixel, and log10 once per frame.
 * sqrt is correctly rounded everywhere. GCC folds the reference's pow(x, 2) and powf(x, 2) to
 * x * x (exact, so written so here) and powf(25, 7) to the float 6103515648; those are not
 * libm calls. The CUDA twin (ciede.cu) runs replicas of glibc's algorithms (glibc_exp_pow.h),
 * shown equal to glibc on the inputs ciede produces by tests/unit/libm_check.c. Checked: the golden values (every
 * corpus pair, 8-16 bits, three layouts) and tests/unit/ciede_math_test.c (Netflix's bits for
 * single pixels) match with glibc 2.36 on x86-64, which picks its FMA builds of pow, sin, cos,
 * atan2 and exp on CPUs with FMA (as here); its SSE2 builds, used on CPUs without FMA, have the
 * same error bounds but were not checked to give the same bits.
 */
#ifndef EV_FEATURES_CIEDE_MATH_H
#define EV_FEATURES_CIEDE_MATH_H

#include <math.h>

#include "base/hd.h"

/*
 * The libm calls, by name. The host (the C reference) calls glibc; a unit test may define the
 * CIEDE_HOST_* macros first to wrap them (tests/unit/libm_check.c compares every call
 * with the device's replica). Device code calls the replicas proven equal to glibc on the
 * arguments ciede produces (glibc_exp_pow.h); the sin/cos and atan2 tables are glibc's, read
 * from the host's libm and uploaded by the twin (glibc_ibm_tables.c).
 */
#ifndef CIEDE_HOST_POW
#define CIEDE_HOST_POW pow
#endif
#ifndef CIEDE_HOST_POWF7
#define CIEDE_HOST_POWF7(c) powf(c, 7.0f)
#endif
#ifndef CIEDE_HOST_EXP
#define CIEDE_HOST_EXP exp
#endif
#ifndef CIEDE_HOST_SIN
#define CIEDE_HOST_SIN sin
#endif
#ifndef CIEDE_HOST_COS
#define CIEDE_HOST_COS cos
#endif
#ifndef CIEDE_HOST_ATAN2
#define CIEDE_HOST_ATAN2 atan2
#endif

#ifdef __CUDA_ARCH__
#include "libm/glibc_exp_pow.h"
#define CIEDE_POW ev_glibc_pow
#define CIEDE_POWF7(c) ev_glibc_powf(c, 7.0f)
#define CIEDE_EXP ev_glibc_exp
#define CIEDE_SIN(x) ev_glibc_sin(x, libm_sincos_table_dev)
#define CIEDE_COS(x) ev_glibc_cos(x, libm_sincos_table_dev)
#define CIEDE_ATAN2(y, x) ev_glibc_atan2(y, x, libm_atan2_table_dev)
#else
#define CIEDE_POW CIEDE_HOST_POW
#define CIEDE_POWF7 CIEDE_HOST_POWF7
#define CIEDE_EXP CIEDE_HOST_EXP
#define CIEDE_SIN CIEDE_HOST_SIN
#define CIEDE_COS CIEDE_HOST_COS
#define CIEDE_ATAN2 CIEDE_HOST_ATAN2
#endif

#define CIEDE_PI 3.14159265358979323846
#define CIEDE_25_POW_7 6103515625.0   /* pow(25, 7), exact in double */
#define CIEDE_25_POW_7F 6103515648.0f /* powf(25, 7): 25^7 rounded to float */

typedef struct CiedeLab {
    float l, a, b;
} CiedeLab;

/* The per-depth constants of the YCbCr normalisation: scale = 2^(bpc - 8). */
typedef struct CiedeRange {
    double y_offset, y_gain, c_offset, c_gain;
} CiedeRange;

EV_HD CiedeRange ciede_range(const unsigned bpc)
{
    const double scale = (double)(1u << (bpc - 8));
    const CiedeRange r = { 16. * scale, 1. / (219. * scale), 128. * scale, 1. / (224. * scale) };
    return r;
}

/* sRGB electro-optical transfer of one normalised component (double). */
EV_HD double ciede_linear(const double c)
{
    if (c > 10. / 255.)
        return CIEDE_POW((c + 0.055) * (1.0 / 1.055), 2.4);
    return c * (1.0 / 12.92);
}

/* The L*a*b* companding f(t), rounded to float as the reference's return type does. */
EV_HD float ciede_lab_map(const double t)
{
    if (t > 216.0 / 24389.0)
        return (float)CIEDE_POW(t, 1.0 / 3.0);
    return (float)((24389.0 / 27.0 * t + 16.0) * (1.0 / 116.0));
}

/* Samples (integers of bpc bits) to L*a*b*; all in double until the float results. */
EV_HD CiedeLab ciede_lab_of(const double y_in, const double u_in, const double v_in,
                            const CiedeRange rg)
{
    const double y = (y_in - rg.y_offset) * rg.y_gain;
    const double u = (u_in - rg.c_offset) * rg.c_gain;
    const double v = (v_in - rg.c_offset) * rg.c_gain;
    const double r = ciede_linear(y + 1.28033 * v);
    const double g = ciede_linear(y - 0.21482 * u - 0.38059 * v);
    const double b = ciede_linear(y + 2.12798 * u);
    const double cx = r * 0.4124564390896921 + g * 0.357576077643909 + b * 0.18043748326639894;
    const double cy = r * 0.21267285140562248 + g * 0.715152155287818 + b * 0.07217499330655958;
    const double cz = r * 0.019333895582329317 + g * 0.119192025881303 + b * 0.9503040785363677;
    const double fx = ciede_lab_map(cx * (1.0 / 0.95047));
    const double fy = ciede_lab_map(cy);
    const double fz = ciede_lab_map(cz * (1.0 / 1.08883));
    const CiedeLab lab = { (float)(116.0 * fy - 16.0), (float)(500.0 * (fx - fy)),
                           (float)(200.0 * (fy - fz)) };
    return lab;
}

/* Hue angle h' in [0, 2 pi): atan2 in double, kept as float, wrapped in double. */
EV_HD float ciede_hue(const float b, const float a_prime)
{
    if (b == 0.0f && a_prime == 0.0f)
        return 0.0f;
    const float h = (float)CIEDE_ATAN2((double)b, (double)a_prime);
    return h < 0.0f ? (float)((double)h + 2. * CIEDE_PI) : h;
}

/* delta h': the float difference, wrapped by 2 pi in double when over pi. */
EV_HD float ciede_delta_hue(const float c1, const float c2, const float h1, const float h2)
{
    if (c1 == 0.0f || c2 == 0.0f)
        return 0.0f;
    const float d = h2 - h1;
    if ((double)fabsf(h1 - h2) <= CIEDE_PI)
        return d;
    return h2 <= h1 ? (float)((double)d + 2. * CIEDE_PI) : (float)((double)d - 2. * CIEDE_PI);
}

/* Mean hue H-bar': the float sum, then the wrap and the halving in double. */
EV_HD float ciede_mean_hue(const float h1, const float h2)
{
    const float sum = h1 + h2;
    if (fabs((double)(h1 - h2)) > CIEDE_PI)
        return (float)(((double)sum + 2.0 * CIEDE_PI) / 2.0);
    return (float)((double)sum / 2.0);
}

/* T of the hue weighting, in double, left to right. */
EV_HD float ciede_t(const float h_bar)
{
    const double h = h_bar;
    return (float)(1.0 - 0.17 * CIEDE_COS(h - CIEDE_PI / 6.0) + 0.24 * CIEDE_COS(2.0 * h) +
                   0.32 * CIEDE_COS(3.0 * h + CIEDE_PI / 30.0) -
                   0.20 * CIEDE_COS(4.0 * h - 7.0 * CIEDE_PI / 20.0));
}

/* R_T, the rotation term: degrees and radians pass through floats as in the reference. */
EV_HD float ciede_r_sub_t(const float c_bar_prime, const float h_bar)
{
    const float h_deg = (float)((double)h_bar * (180.0 / CIEDE_PI));
    const float x = (float)(((double)h_deg - 275.0) * (1.0 / 25.0));
    const float c7 = CIEDE_POWF7(c_bar_prime);
    const float ratio = c7 / (c7 + CIEDE_25_POW_7F);
    const float angle_deg = (float)(60.0 * CIEDE_EXP(-(double)(x * x)));
    const float angle = (float)((double)angle_deg * (CIEDE_PI / 180.0));
    return (float)(-2.0 * sqrt((double)ratio) * CIEDE_SIN((double)angle));
}

/* The CIEDE2000 difference of two colours (kL 0.65, kC 1, kH 4), rounded to float. */
EV_HD float ciede2000(const CiedeLab p, const CiedeLab q)
{
    const float delta_l = q.l - p.l;
    const float l_bar = (p.l + q.l) / 2;
    const float c1 = (float)sqrt((double)p.a * p.a + (double)p.b * p.b);
    const float c2 = (float)sqrt((double)q.a * q.a + (double)q.b * q.b);
    const float c_bar = (c1 + c2) / 2;
    const double c_bar7 = CIEDE_POW((double)c_bar, 7.0);
    const double g = 1 - sqrt(c_bar7 / (c_bar7 + CIEDE_25_POW_7));
    const float a1 = (float)((double)p.a + (double)(p.a / 2) * g);
    const float a2 = (float)((double)q.a + (double)(q.a / 2) * g);
    const float cp1 = (float)sqrt((double)a1 * a1 + (double)p.b * p.b);
    const float cp2 = (float)sqrt((double)a2 * a2 + (double)q.b * q.b);
    const float cp_bar = (cp1 + cp2) / 2;
    const float delta_c = cp2 - cp1;
    const double l50 = (double)(l_bar - 50.0f);
    const float s_l = (float)(1. + (0.015 * (l50 * l50)) / sqrt(20 + l50 * l50));
    const float s_c = (float)(1. + 0.045 * (double)cp_bar);
    const float h1 = ciede_hue(p.b, a1);
    const float h2 = ciede_hue(q.b, a2);
    const float delta_h = ciede_delta_hue(c1, c2, h1, h2);
    const float delta_big_h =
        (float)(2.0 * sqrt((double)(cp1 * cp2)) * CIEDE_SIN((double)delta_h / 2.0));
    const float h_bar = ciede_mean_hue(h1, h2);
    const float t = ciede_t(h_bar);
    const float s_h = (float)(1.0 + 0.015 * (double)cp_bar * (double)t);
    const float r_t = ciede_r_sub_t(cp_bar, h_bar);
    const float lightness = delta_l / (0.65f * s_l);
    const float chroma = delta_c / (1.0f * s_c);
    const float hue = delta_big_h / (4.0f * s_h);
    const double sum = (double)lightness * lightness + (double)chroma * chroma + (double)hue * hue +
                       (double)(r_t * chroma * hue);
    return (float)sqrt(sum);
}

/* The frame's score from the double sum of the per-pixel differences over n pixels. */
EV_HD double ciede_score(const double de00_sum, const double n_pixels)
{
    return 45. - 20. * log10(de00_sum / n_pixels);
}

#endif
