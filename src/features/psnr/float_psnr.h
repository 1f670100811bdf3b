/* float_psnr's two CPU paths, exposed for tests: the reference's running double sum of the
 * squared float differences over the luma plane, and the exact integer path (0 when it cannot
 * prove exactness). */
#ifndef EV_FEATURES_FLOAT_PSNR_H
#define EV_FEATURES_FLOAT_PSNR_H

#include "base/picture.h"

double ev_float_psnr_noise_reference(const EvPic *ref, const EvPic *dis);
int ev_float_psnr_noise_fast(const EvPic *ref, const EvPic *dis, double *noise);

#endif
