/*
 * glibc's sin, cos and atan2 (IBM Accurate Mathematical Library's algorithms) as EV_HD
 * replicas; part of glibc_exp_pow.h (which includes this after the helpers it uses), see there.
 */
#ifndef EV_LIBM_GLIBC_SIN_COS_ATAN2_H
#define EV_LIBM_GLIBC_SIN_COS_ATAN2_H

#include <math.h>
#include <stdint.h>

#include "base/bitcast.h"
#include "base/hd.h"

/*
 * sin and cos: glibc's s_sin.c (IBM Accurate Mathematical Library, 2001; here rewritten from
 * its algorithm), the paths for |x| < 105414350 (up to the table-driven reduction by pi/2;
 * beyond it glibc calls __branred: NaN here), with the fusions of __sin_fma / __cos_fma.
 * x = k/128 + r: sin/cos(k/128) from a table of double-double pairs, r by polynomials.
 * tab: 110 entries {sin hi, sin lo, cos hi, cos lo} of k/128, glibc's own (their lo parts are
 * not all the nearest doubles; glibc_ibm_tables.c reads them from the host's libm).
 */
#define LIBM_SIN_S1 -0x1.5555555555555p-3
#define LIBM_SIN_S2 0x1.1111111110ECEp-7
#define LIBM_SIN_S3 -0x1.A01A019DB08B8p-13
#define LIBM_SIN_S4 0x1.71DE27B9A7ED9p-19
#define LIBM_SIN_S5 -0x1.ADDFFC2FCDF59p-26
#define LIBM_SIN_BIG 0x1.8000000000000p45
#define LIBM_SIN_HP0 0x1.921FB54442D18p0
#define LIBM_SIN_HP1 0x1.1A62633145C07p-54
#define LIBM_SIN_MP1 0x1.921FB58000000p0
#define LIBM_SIN_MP2 -0x1.DDE973C000000p-27
#define LIBM_SIN_PP3 -0x1.CB3B398000000p-55
#define LIBM_SIN_PP4 -0x1.d747f23e32ed7p-83
#define LIBM_SIN_HPINV 0x1.45F306DC9C883p-1
#define LIBM_SIN_TOINT 0x1.8000000000000p52
#define LIBM_SIN_SN3 -1.66666666666664880952546298448555E-01
#define LIBM_SIN_SN5 8.33333214285722277379541354343671E-03
#define LIBM_SIN_CS2 4.99999999999999999999950396842453E-01
#define LIBM_SIN_CS4 -4.16666666666664434524222570944589E-02
#define LIBM_SIN_CS6 1.38888874007937613028114285595617E-03
#define LIBM_SINCOS_TABLE_SIZE 440

/* glibc's TAYLOR_SIN(a * a, a, da): sin(a + da) for |a| < 0.126. */
EV_HD double libm_sin_taylor(const double a, const double da)
{
    const double xx = a * a;
    const double p =
        fma(fma(fma(fma(LIBM_SIN_S5, xx, LIBM_SIN_S4), xx, LIBM_SIN_S3), xx, LIBM_SIN_S2), xx,
            LIBM_SIN_S1);
    const double t = fma(xx, fma(p, a, -(0.5 * da)), da);
    return a + t;
}

/* The table index of |x| < 0.86 rounded to a multiple of 1/128 (u = big + |x|), times 4. */
EV_HD int libm_sincos_index(const double u)
{
    return (int)(uint32_t)ev_bits64(u) << 2;
}

/* glibc's do_sin(x, dx): sin(x + dx) for |x| < 0.86. */
EV_HD double libm_do_sin(const double x, double dx, const double *tab)
{
    if (fabs(x) < 0.126)
        return libm_sin_taylor(x, dx);
    if (x <= 0)
        dx = -dx;
    const double u = LIBM_SIN_BIG + fabs(x);
    const double r = fabs(x) - (u - LIBM_SIN_BIG);
    const double xx = r * r;
    const double s = r + fma(r * xx, fma(xx, LIBM_SIN_SN5, LIBM_SIN_SN3), dx);
    const double c = fma(r, dx, xx * fma(xx, fma(xx, LIBM_SIN_CS6, LIBM_SIN_CS4), LIBM_SIN_CS2));
    const int k = libm_sincos_index(u);
    const double sn = tab[k], ssn = tab[k + 1], cs = tab[k + 2], ccs = tab[k + 3];
    const double cor = fma(s, cs, fma(-sn, c, fma(s, ccs, ssn)));
    return copysign(sn + cor, x);
}

/* glibc's do_cos(x, dx): cos(x + dx) for |x| < 0.86. */
EV_HD double libm_do_cos(const double x, double dx, const double *tab)
{
    if (x < 0)
        dx = -dx;
    const double u = LIBM_SIN_BIG + fabs(x);
    const double r = fabs(x) - (u - LIBM_SIN_BIG) + dx;
    const double xx = r * r;
    const double s = fma(r * xx, fma(xx, LIBM_SIN_SN5, LIBM_SIN_SN3), r);
    const double c = xx * fma(xx, fma(xx, LIBM_SIN_CS6, LIBM_SIN_CS4), LIBM_SIN_CS2);
    const int k = libm_sincos_index(u);
    const double sn = tab[k], ssn = tab[k + 1], cs = tab[k + 2], ccs = tab[k + 3];
    const double cor = fma(-s, sn, fma(-c, cs, fma(-s, ssn, ccs)));
    return cs + cor;
}

/* glibc's reduce_sincos: x = n pi/2 + (*a + *da), |x| < 105414350; returns n mod 4. */
EV_HD int libm_reduce_sincos(const double x, double *a, double *da)
{
    const double t = fma(x, LIBM_SIN_HPINV, LIBM_SIN_TOINT);
    const double xn = t - LIBM_SIN_TOINT;
    const double y = fma(-xn, LIBM_SIN_MP2, fma(-xn, LIBM_SIN_MP1, x));
    const int n = (int)((uint32_t)ev_bits64(t) & 3u);
    const double t2 = fma(-xn, LIBM_SIN_PP3, y);
    double db = fma(-xn, LIBM_SIN_PP3, y - t2);
    const double b = fma(-xn, LIBM_SIN_PP4, t2);
    db += fma(-xn, LIBM_SIN_PP4, t2 - b);
    *a = b;
    *da = db;
    return n;
}

/* glibc's do_sincos: sin (n even) or cos (n odd) of a + da, negated for n & 2. */
EV_HD double libm_do_sincos(const double a, const double da, const int n, const double *tab)
{
    const double r = (n & 1) ? libm_do_cos(a, da, tab) : libm_do_sin(a, da, tab);
    return (n & 2) ? -r : r;
}

/* The high word of |x| (glibc's k). */
EV_HD uint32_t libm_abs_high(const double x)
{
    return (uint32_t)(ev_bits64(x) >> 32) & 0x7fffffffu;
}

/* glibc's sin(x) for |x| < 105414350 (NaN beyond). */
EV_HD double ev_glibc_sin(const double x, const double *tab)
{
    const uint32_t k = libm_abs_high(x);
    if (k < 0x3e500000u)
        return x;
    if (k < 0x3feb6000u)
        return libm_do_sin(x, 0, tab);
    if (k < 0x400368fdu)
        return copysign(libm_do_cos(LIBM_SIN_HP0 - fabs(x), LIBM_SIN_HP1, tab), x);
    if (k < 0x419921fbu) {
        double a, da;
        const int n = libm_reduce_sincos(x, &a, &da);
        return libm_do_sincos(a, da, n, tab);
    }
    return NAN;
}

/* glibc's cos(x) for |x| < 105414350 (NaN beyond). */
EV_HD double ev_glibc_cos(const double x, const double *tab)
{
    const uint32_t k = libm_abs_high(x);
    if (k < 0x3e400000u)
        return 1.0;
    if (k < 0x3feb6000u)
        return libm_do_cos(x, 0, tab);
    if (k < 0x400368fdu) {
        const double y = LIBM_SIN_HP0 - fabs(x);
        const double a = y + LIBM_SIN_HP1;
        const double da = (y - a) + LIBM_SIN_HP1;
        return libm_do_sin(a, da, tab);
    }
    if (k < 0x419921fbu) {
        double a, da;
        const int n = libm_reduce_sincos(x, &a, &da);
        return libm_do_sincos(a, da, n + 1, tab);
    }
    return NAN;
}

/*
 * atan2: glibc's e_atan2.c (IBM Accurate Mathematical Library; here rewritten from its
 * algorithm) without its slow paths (removed in glibc 2.35), with the fusions of
 * __ieee754_atan2_fma. u = min(|x|,|y|) / max(|x|,|y|) + du exactly (du by an fma), then
 * atan(u) by a polynomial (u < 1/16) or the table point x0 <= u (cij[i] = {x0, atan x0,
 * Taylor coefficients}), combined into the quadrant's result with pi/2 or pi as double-doubles.
 * cij: 241 rows of 7, glibc's own (its points are chosen by a search: glibc_ibm_tables.c
 * reads it from the host's libm). Finite arguments only (NaN for NaN or infinite ones).
 */
#define LIBM_ATAN2_ROWS 241
#define LIBM_ATAN2_TABLE_SIZE (7 * LIBM_ATAN2_ROWS)

EV_HD double libm_atan2_const(const uint64_t bits)
{
    return ev_double_of(bits);
}

#define LIBM_AT_D3 libm_atan2_const(0xbfd5555555555555ull)
#define LIBM_AT_D5 libm_atan2_const(0x3fc99999999997fdull)
#define LIBM_AT_D7 libm_atan2_const(0xbfc24924923f7603ull)
#define LIBM_AT_D9 libm_atan2_const(0x3fbc71c6e5129a3bull)
#define LIBM_AT_D11 libm_atan2_const(0xbfb7458022b13c25ull)
#define LIBM_AT_D13 libm_atan2_const(0x3fb375f08b31cbceull)
#define LIBM_AT_INV16 0x1p-4
#define LIBM_AT_OPI libm_atan2_const(0x400921fb54442d18ull)
#define LIBM_AT_OPI1 libm_atan2_const(0x3ca1a62633145c07ull)
#define LIBM_AT_HPI libm_atan2_const(0x3ff921fb54442d18ull)
#define LIBM_AT_HPI1 libm_atan2_const(0x3c91a62633145c07ull)
#define LIBM_AT_QPI libm_atan2_const(0x3fe921fb54442d18ull)
#define LIBM_AT_TQPI libm_atan2_const(0x4002d97c7f3321d2ull)
#define LIBM_AT_TWO52 0x1p52

/* atan(u + du) - u - du for u < 1/16 by glibc's polynomial I, times u v (v = u u). */
EV_HD double libm_atan2_poly(const double v)
{
    return fma(v,
               fma(v, fma(v, fma(v, fma(v, LIBM_AT_D13, LIBM_AT_D11), LIBM_AT_D9), LIBM_AT_D7),
                   LIBM_AT_D5),
               LIBM_AT_D3);
}

/* The row of the table point below u in [1/16, 1]: (2^52 + 256 u) - 2^52 - 16. */
EV_HD const double *libm_atan2_row(const double u, const double *cij)
{
    const int i = (int)(fma(u, 256.0, LIBM_AT_TWO52) - LIBM_AT_TWO52) - 16;
    return cij + 7 * i;
}

/* c[2] + v (c[3] + v (c[4] + v (c[5] + v c[6]))) of a row. */
EV_HD double libm_atan2_taylor2(const double v, const double *c)
{
    return fma(v, fma(v, fma(v, fma(v, c[6], c[5]), c[4]), c[3]), c[2]);
}

/* glibc's atan2(y, x) for finite x, y (NaN otherwise). */
EV_HD double ev_glibc_atan2(const double y, const double x, const double *cij)
{
    const uint64_t bx = ev_bits64(x), by = ev_bits64(y);
    const uint32_t ux = (uint32_t)(bx >> 32), uy = (uint32_t)(by >> 32);
    if ((ux & 0x7ff00000u) == 0x7ff00000u || (uy & 0x7ff00000u) == 0x7ff00000u)
        return NAN;
    if ((by & 0x7fffffffffffffffull) == 0)
        return (ux & 0x80000000u) == 0 ? ((uy & 0x80000000u) ? -0.0 : 0.0)
                                       : ((uy & 0x80000000u) ? -LIBM_AT_OPI : LIBM_AT_OPI);
    if (x == 0)
        return (uy & 0x80000000u) == 0 ? LIBM_AT_HPI : -LIBM_AT_HPI;
    double ax = x < 0 ? -x : x;
    double ay = y < 0 ? -y : y;
    const int de = (int)(uy & 0x7ff00000u) - (int)(ux & 0x7ff00000u);
    if (de >= 59768832)
        return y > 0 ? LIBM_AT_HPI : -LIBM_AT_HPI;
    if (de <= -59768832) {
        if (x > 0)
            return copysign(ay / ax, y);
        return y > 0 ? LIBM_AT_OPI : -LIBM_AT_OPI;
    }
    if (ax < 0x1p-500 || ay < 0x1p-500) {
        ax *= 0x1p500;
        ay *= 0x1p500;
    }
    if (ax > 0x1p500 || ay > 0x1p500) {
        ax *= 0x1p-500;
        ay *= 0x1p-500;
    }
    double u, du;
    if (ay < ax) {
        u = ay / ax;
        const double v = ax * u, vv = fma(ax, u, -v);
        du = ((ay - v) - vv) / ax;
    } else {
        u = ax / ay;
        const double v = ay * u, vv = fma(ay, u, -v);
        du = ((ax - v) - vv) / ay;
    }
    double z;
    if (x > 0) {
        if (ay < ax) { /* (i) atan(ay / ax) */
            if (u < LIBM_AT_INV16) {
                const double v = u * u;
                const double zz = fma(u * v, libm_atan2_poly(v), du);
                z = u + zz;
            } else {
                const double *c = libm_atan2_row(u, cij);
                const double t3 = u - c[0];
                const double v = du + t3;
                const double dv = fabs(t3) > fabs(du) ? (t3 - v) + du : (du - v) + t3;
                const double p = fma(v, fma(v, fma(v, c[6], c[5]), c[4]), c[3]);
                const double zz = fma(v, c[2], fma(dv, c[2], (v * v) * p));
                z = zz + c[1];
            }
        } else if (u < LIBM_AT_INV16) { /* (ii) pi/2 - atan(ax / ay) */
            const double v = u * u;
            const double zz = (u * v) * libm_atan2_poly(v);
            const double t2 = LIBM_AT_HPI - u;
            const double cor =
                LIBM_AT_HPI > fabs(u) ? (LIBM_AT_HPI - t2) - u : LIBM_AT_HPI - (u + t2);
            const double t3 = ((cor + LIBM_AT_HPI1) - du) - zz;
            z = t3 + t2;
        } else {
            const double *c = libm_atan2_row(u, cij);
            const double v = (u - c[0]) + du;
            const double zz = fma(-v, libm_atan2_taylor2(v, c), LIBM_AT_HPI1);
            const double t1 = LIBM_AT_HPI - c[1];
            z = t1 + zz;
        }
    } else if (ax < ay) { /* (iii) pi/2 + atan(ax / ay) */
        if (u < LIBM_AT_INV16) {
            const double v = u * u;
            const double zz = (u * v) * libm_atan2_poly(v);
            const double t2 = u + LIBM_AT_HPI;
            const double cor =
                LIBM_AT_HPI > fabs(u) ? (LIBM_AT_HPI - t2) + u : (u - t2) + LIBM_AT_HPI;
            const double t3 = ((cor + LIBM_AT_HPI1) + du) + zz;
            z = t3 + t2;
        } else {
            const double *c = libm_atan2_row(u, cij);
            const double t1 = LIBM_AT_HPI + c[1];
            const double v = (u - c[0]) + du;
            const double zz = fma(v, libm_atan2_taylor2(v, c), LIBM_AT_HPI1);
            z = t1 + zz;
        }
    } else if (u < LIBM_AT_INV16) { /* (iv) pi - atan(ay / ax) */
        const double v = u * u;
        const double zz = (u * v) * libm_atan2_poly(v);
        const double t2 = LIBM_AT_OPI - u;
        const double cor = LIBM_AT_OPI > fabs(u) ? (LIBM_AT_OPI - t2) - u : LIBM_AT_OPI - (t2 + u);
        const double t3 = ((cor + LIBM_AT_OPI1) - du) - zz;
        z = t3 + t2;
    } else {
        const double *c = libm_atan2_row(u, cij);
        const double v = (u - c[0]) + du;
        const double zz = fma(-v, libm_atan2_taylor2(v, c), LIBM_AT_OPI1);
        const double t1 = LIBM_AT_OPI - c[1];
        z = t1 + zz;
    }
    return copysign(z, y);
}

#endif
