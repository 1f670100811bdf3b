/* SSIM and MS-SSIM in dB, host side (glibc log10), as libvmaf's float_ssim.c / float_ms_ssim.c. */
#ifndef EV_FEATURES_SSIM_SCORE_H
#define EV_FEATURES_SSIM_SCORE_H

#include <math.h>

/* The dB cap: +inf, or with clip_db ceil(10 log10(peak^2 / (0.5 / (w h)))), peak = 2^bpc - 1
 * (peak^2 and w * h are unsigned products, as in the reference). */
static inline double ssim_max_db(const int clip_db, const unsigned bpc, const unsigned w,
                                 const unsigned h)
{
    if (!clip_db)
        return INFINITY;
    const unsigned peak = (1u << bpc) - 1;
    const double mse = 0.5 / (w * h);
    return ceil(10. * log10(peak * peak / mse));
}

/* MIN(-10 log10(1 - score), max_db) with the macro's semantics: a NaN gives max_db. */
static inline double ssim_db(const double score, const double max_db)
{
    const double db = -10. * log10(1 - score);
    return db < max_db ? db : max_db;
}

#endif
