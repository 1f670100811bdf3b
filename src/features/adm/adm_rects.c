/* ADM regions shared by adm and float_adm (libvmaf integer_adm.c / adm.c): the decouple/CSF
 * rectangle, the contrast-masking rectangle, and the noise floor of a band. */
#include <math.h>

#include "features/adm/adm_internal.h"

AdmRect adm_rect_csf(const int w, const int h)
{
    /* one tap wider than the CM rectangle on each side; the right/bottom edges are derived from
     * the unclamped left/top, as in the reference */
    AdmRect r;
    r.left = (int)(w * 0.1 - 0.5 - 1);
    r.top = (int)(h * 0.1 - 0.5 - 1);
    r.right = w - r.left + 2;
    r.bottom = h - r.top + 2;
    if (r.left < 0)
        r.left = 0;
    if (r.right > w)
        r.right = w;
    if (r.top < 0)
        r.top = 0;
    if (r.bottom > h)
        r.bottom = h;
    return r;
}

AdmRect adm_rect_cm(const int w, const int h)
{
    AdmRect r;
    r.left = (int)(w * 0.1 - 0.5);
    r.top = (int)(h * 0.1 - 0.5);
    r.right = w - r.left;
    r.bottom = h - r.top;
    return r;
}

float adm_noise_floor(const AdmRect *r, const double noise_weight)
{
    return powf((float)((r->bottom - r->top) * (r->right - r->left) * noise_weight), 1.0f / 3.0f);
}
