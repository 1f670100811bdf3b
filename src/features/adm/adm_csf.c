/* Integer ADM: contrast sensitivity weighting of decoupled bands and the masking filter values
 * used by contrast masking (libvmaf integer_adm.c adm_csf and i4_adm_csf), over the CSF
 * rectangle, band by band (h, v, d). */
#include "features/adm/adm_internal.h"
#include "features/adm/adm_math.h"

void adm_csf0(const AdmState *s, const AdmBands16 *src, const AdmBands16 *csf,
              const AdmBands16 *flt, const int w, const int h)
{
    const AdmRect rc = adm_rect_csf(w, h);
    const int16_t *in[3] = { src->h, src->v, src->d };
    int16_t *out[3] = { csf->h, csf->v, csf->d };
    int16_t *mask[3] = { flt->h, flt->v, flt->d };
    for (int b = 0; b < 3; b++) {
        const uint16_t rf = s->irf0[b];
        for (int i = rc.top; i < rc.bottom; i++) {
            const size_t row = (size_t)i * w;
            for (int j = rc.left; j < rc.right; j++) {
                const int16_t v = adm_csf_coef0(in[b][row + j], rf, b == 2);
                out[b][row + j] = v;
                mask[b][row + j] = adm_flt_coef0(v);
            }
        }
    }
}

void adm_csf123(const AdmState *s, const int scale, const AdmBands32 *src, const AdmBands32 *csf,
                const AdmBands32 *flt, const int w, const int h)
{
    const AdmRect rc = adm_rect_csf(w, h);
    const int32_t *in[3] = { src->h, src->v, src->d };
    int32_t *out[3] = { csf->h, csf->v, csf->d };
    int32_t *mask[3] = { flt->h, flt->v, flt->d };
    for (int b = 0; b < 3; b++) {
        const uint32_t rf = s->irf[scale][b];
        for (int i = rc.top; i < rc.bottom; i++) {
            const size_t row = (size_t)i * w;
            for (int j = rc.left; j < rc.right; j++) {
                const int32_t v = adm_csf_coef123(in[b][row + j], rf);
                out[b][row + j] = v;
                mask[b][row + j] = adm_flt_coef123(v);
            }
        }
    }
}
