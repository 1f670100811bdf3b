/* ADM regions shared by adm and float_adm (libvmaf integer_adm.c / adm.c): the scales'
 * geometry, the decouple/CSF rectangle, the contrast-masking rectangle, and the noise floor of
 * a band. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "features/adm/adm_internal.h"
#include "features/adm/adm_math.h"

int adm_set_geometry(AdmScaleGeom geom[4], const unsigned width, const unsigned height,
                     const int min_in, int **indices)
{
    size_t n = 0;
    for (int k = 0; k < 4; k++) {
        AdmScaleGeom *g = &geom[k];
        g->in_w = k ? geom[k - 1].w : (int)width;
        g->in_h = k ? geom[k - 1].h : (int)height;
        g->w = (g->in_w + 1) / 2;
        g->h = (g->in_h + 1) / 2;
        if (g->in_w < min_in || g->in_h < min_in)
            return -EINVAL;
        n += 4 * (size_t)g->h;
    }
    if (!(*indices = malloc(n * sizeof(int))))
        return -ENOMEM;
    int *p = *indices;
    for (int k = 0; k < 4; k++) {
        AdmScaleGeom *g = &geom[k];
        for (int t = 0; t < 4; t++) {
            g->ind_y[t] = p;
            for (int i = 0; i < g->h; i++)
                *p++ = adm_dwt_index(2 * i - 1 + t, g->in_h);
        }
    }
    return 0;
}

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

int adm_put_values(const char names[18][160], const int debug, const double adm2, const double aim,
                   const double adm3, const double num, const double den, const AdmScaleScore sc[4],
                   const unsigned frame, EvSink *sink)
{
    const double value[18] = { adm2,
                               aim,
                               adm3,
                               (double)sc[0].num / sc[0].den,
                               (double)sc[1].num / sc[1].den,
                               (double)sc[2].num / sc[2].den,
                               (double)sc[3].num / sc[3].den,
                               adm2,
                               num,
                               den,
                               sc[0].num,
                               sc[0].den,
                               sc[1].num,
                               sc[1].den,
                               sc[2].num,
                               sc[2].den,
                               sc[3].num,
                               sc[3].den };
    const int n = debug ? 18 : 7;
    int err = 0;
    for (int k = 0; k < n && !err; k++)
        err = ev_sink_put(sink, names[k], frame, value[k]);
    return err;
}
