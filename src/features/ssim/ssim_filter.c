/* SSIM decimation (float_ssim box, MS-SSIM 9/7 low-pass) and the separable Gaussian row passes,
 * as libvmaf's feature/iqa/decimate.c, convolve.c (IQA_CONVOLVE_1D) and _iqa_filter_pixel; the
 * row kernels are ssim_kernels.h's. */
#include <stdint.h>

#include "features/common/sample_math.h"
#include "features/ssim/ssim_filter.h"

SsimPlane ssim_plane_of_pic(const EvPic *pic)
{
    return (SsimPlane){ pic, NULL, (int)pic->w[0], (int)pic->h[0] };
}

SsimPlane ssim_plane_of_img(const float *img, const int w, const int h)
{
    return (SsimPlane){ NULL, img, w, h };
}

const float *ssim_plane_row(const SsimPlane *p, const int y, float *buf)
{
    if (p->img)
        return p->img + (size_t)y * p->w;
    const float scaler = sample_scaler(p->pic->bpc);
    if (p->pic->bpc > 8) {
        const uint16_t *row = ev_pic_row16(p->pic, 0, (unsigned)y);
        for (int x = 0; x < p->w; x++)
            buf[x] = sample_to_float(row[x], scaler, 0);
    } else {
        const uint8_t *row = ev_pic_row8(p->pic, 0, (unsigned)y);
        for (int x = 0; x < p->w; x++)
            buf[x] = sample_to_float(row[x], scaler, 0);
    }
    return buf;
}

size_t ssim_row_cache_size(const int slots, const int w)
{
    size_t off = 0;
    ssim_take(NULL, &off, (size_t)slots * (size_t)w * sizeof(float));
    ssim_take(NULL, &off, (size_t)slots * sizeof(int));
    ssim_take(NULL, &off, (size_t)slots * sizeof(const float *));
    return off;
}

void ssim_row_cache_init(SsimRowCache *c, void *mem, const int slots, const int w)
{
    size_t off = 0;
    c->slots = slots;
    c->rows = ssim_take(mem, &off, (size_t)slots * (size_t)w * sizeof(float));
    c->tag = ssim_take(mem, &off, (size_t)slots * sizeof(int));
    c->window = ssim_take(mem, &off, (size_t)slots * sizeof(const float *));
}

/* Row y of src, through the cache when src is a picture. A decimation window spans at most
 * k->n <= slots consecutive rows (reflection stays inside that span), so the rows one window
 * holds never share a slot. */
static const float *cached_row(const SsimPlane *src, SsimRowCache *cache, const int y)
{
    if (src->img)
        return src->img + (size_t)y * src->w;
    const int slot = y % cache->slots;
    float *row = cache->rows + (size_t)slot * src->w;
    if (cache->tag[slot] != y) {
        ssim_plane_row(src, y, row);
        cache->tag[slot] = y;
    }
    return row;
}

/* One output row: sample x is centred on source column x * factor; the samples whose taps
 * leave the row reflect them one by one. */
static void decimate_row(const float *const *rows, const SsimKernel *k, const SsimDsp *dsp,
                         const int src_w, const int dst_w, float *dst)
{
    int xa = 0, xb = dst_w;
    while (xa < dst_w && xa * k->factor + k->first < 0)
        xa++;
    while (xb > xa && (xb - 1) * k->factor + k->first + k->n > src_w)
        xb--;
    for (int x = 0; x < dst_w; x++)
        if (x < xa || x >= xb)
            dst[x] = ssim_decimate_edge(rows, k, x * k->factor + k->first, src_w);
    dsp->decimate_span(rows, k, xa, xb, dst);
}

/* libvmaf decimates float_ssim's frames in place; every read there precedes the write over it
 * for the sizes accepted (>= 11 samples after decimation), so out of place is the same. */
void ssim_decimate(const SsimPlane *src, const SsimKernel *k, const SsimDsp *dsp,
                   SsimRowCache *cache, float *dst)
{
    const int dst_w = ssim_decimated_size(src->w, k->factor);
    const int dst_h = ssim_decimated_size(src->h, k->factor);
    for (int i = 0; i < cache->slots; i++)
        cache->tag[i] = -1;
    const float **rows = cache->window;
    for (int y = 0; y < dst_h; y++) {
        for (int v = 0; v < k->n; v++)
            rows[v] = cached_row(src, cache, ssim_reflect(y * k->factor + k->first + v, src->h));
        decimate_row(rows, k, dsp, src->w, dst_w, dst + (size_t)y * dst_w);
    }
}
