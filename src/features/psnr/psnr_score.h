/* PSNR from a mean squared error, host side (glibc log10), as libvmaf. */
#ifndef EV_FEATURES_PSNR_SCORE_H
#define EV_FEATURES_PSNR_SCORE_H

#include <math.h>

/* min(10 log10(peak2 / max(mse, floor)), cap), with libvmaf's MIN/MAX macro semantics. */
static inline double psnr_db(const double peak2, const double mse, const double floor_mse,
                             const double cap)
{
    const double m = mse > floor_mse ? mse : floor_mse;
    const double db = 10. * log10(peak2 / m);
    return db < cap ? db : cap;
}

#endif
