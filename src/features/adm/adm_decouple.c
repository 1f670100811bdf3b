/* Integer ADM: decoupling of the distorted bands t into restored r = k*o and additive a = t - r
 * (libvmaf integer_adm.c adm_decouple and adm_decouple_s123), over the CSF rectangle. */
#include "features/adm/adm_internal.h"
#include "features/adm/adm_math.h"

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

/* The angle test runs on the (h, v) pair; its flag gates the gain step of all three bands. */
void adm_decouple0(const AdmState *s, const AdmWork *wk, const int w, const int h)
{
    const AdmRect rc = adm_rect_csf(w, h);
    const AdmBands16 *o = &wk->ref0, *t = &wk->dis0, *r = &wk->r0, *a = &wk->a0;
    const double egl = s->opts.enhn_gain_limit;
    const int32_t *div = s->div_lookup;
    for (int i = rc.top; i < rc.bottom; i++) {
        for (int j = rc.left; j < rc.right; j++) {
            const size_t x = (size_t)i * w + j;
            const int16_t oh = o->h[x], ov = o->v[x], th = t->h[x], tv = t->v[x];
            const int64_t ot_dp = (int64_t)oh * th + (int64_t)ov * tv;
            const int64_t o_mag_sq = (int64_t)oh * oh + (int64_t)ov * ov;
            const int64_t t_mag_sq = (int64_t)th * th + (int64_t)tv * tv;
            const int flag = adm_angle_flag(ot_dp, o_mag_sq, t_mag_sq, s->cos_1deg_sq);
            adm_decouple_coef0(oh, th, flag, egl, div, &r->h[x], &a->h[x]);
            adm_decouple_coef0(ov, tv, flag, egl, div, &r->v[x], &a->v[x]);
            adm_decouple_coef0(o->d[x], t->d[x], flag, egl, div, &r->d[x], &a->d[x]);
        }
    }
}

void adm_decouple123(const AdmState *s, const AdmWork *wk, const int w, const int h)
{
    const AdmRect rc = adm_rect_csf(w, h);
    const AdmBands32 *o = &wk->ref1, *t = &wk->dis1, *r = &wk->r1, *a = &wk->a1;
    const double egl = s->opts.enhn_gain_limit;
    const int32_t *div = s->div_lookup;
    for (int i = rc.top; i < rc.bottom; i++) {
        for (int j = rc.left; j < rc.right; j++) {
            const size_t x = (size_t)i * w + j;
            const int32_t oh = o->h[x], ov = o->v[x], th = t->h[x], tv = t->v[x];
            const int64_t ot_dp = (int64_t)oh * th + (int64_t)ov * tv;
            const int64_t o_mag_sq = (int64_t)oh * oh + (int64_t)ov * ov;
            const int64_t t_mag_sq = (int64_t)th * th + (int64_t)tv * tv;
            const int flag = adm_angle_flag(ot_dp, o_mag_sq, t_mag_sq, s->cos_1deg_sq);
            adm_decouple_coef123(oh, th, flag, egl, div, &r->h[x], &a->h[x]);
            adm_decouple_coef123(ov, tv, flag, egl, div, &r->v[x], &a->v[x]);
            adm_decouple_coef123(o->d[x], t->d[x], flag, egl, div, &r->d[x], &a->d[x]);
        }
    }
}
