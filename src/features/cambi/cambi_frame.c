/* CAMBI of one picture (libvmaf feature/cambi.c cambi_preprocessing, get_spatial_mask,
 * filter_mode, decimate, calculate_c_values, spatial_pooling): the C reference. Buffers are
 * packed (row stride = the current width) and decimated in place. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "features/cambi/cambi_internal.h"

/* ---- preprocessing: 10 bits at the scored size, anti-dithering ---------------------------- */

int cambi_range_error(const CambiState *s, const CambiGeometry *g, const unsigned frame,
                      const unsigned value, const unsigned x, const unsigned y, const unsigned bpc)
{
    ev_log(s->log, EV_LOG_ERROR,
           "cambi: frame %u: %s luma sample %u at (%u, %u) exceeds the "
           "%u-bit maximum %u",
           frame, g == &s->src ? "reference" : "distorted", value, x, y, bpc, (1u << bpc) - 1);
    return -EINVAL;
}

/* libvmaf refuses a luma sample above the depth's maximum (9..15 bits); the first in raster
 * order is named. */
static int check_range(const CambiState *s, const CambiGeometry *g, const EvPic *pic,
                       const unsigned frame)
{
    if (pic->bpc == 8 || pic->bpc == 16)
        return 0;
    const unsigned max = (1u << pic->bpc) - 1;
    for (unsigned i = 0; i < pic->h[0]; i++) {
        const uint16_t *row = ev_pic_row16(pic, 0, i);
        uint16_t top = 0; /* the row's largest sample first: a loop the compiler vectorises */
        for (unsigned j = 0; j < pic->w[0]; j++)
            top = row[j] > top ? row[j] : top;
        if (top <= max)
            continue;
        for (unsigned j = 0; j < pic->w[0]; j++)
            if (row[j] > max)
                return cambi_range_error(s, g, frame, row[j], j, i, pic->bpc);
    }
    return 0;
}

/* Row i of the picture at the scored size, as 10 bits. */
static void load_row(const CambiState *s, const CambiGeometry *g, const EvPic *pic,
                     const unsigned i, uint16_t *out)
{
    const unsigned src_row = g->row_src[i];
    if (g->cols_identity) {
        const void *in = pic->bpc == 8 ? (const void *)ev_pic_row8(pic, 0, src_row)
                                       : (const void *)ev_pic_row16(pic, 0, src_row);
        s->dsp.to_10b_row(out, in, g->w, pic->bpc);
    } else if (pic->bpc == 8) {
        const uint8_t *in = ev_pic_row8(pic, 0, src_row);
        for (unsigned j = 0; j < g->w; j++)
            out[j] = cambi_to_10b(in[g->col_src[j]], 8);
    } else {
        const uint16_t *in = ev_pic_row16(pic, 0, src_row);
        for (unsigned j = 0; j < g->w; j++)
            out[j] = cambi_to_10b(in[g->col_src[j]], pic->bpc);
    }
}

/* Row i (even) of the image and of the mask, both final, into row i / 2 of their halved
 * copies, in place (decimate()'s order): row i / 2 of (w + 1) / 2 columns lies before row i,
 * within rows the pass no longer reads; row 0 goes column by column. */
static void halve_row(const CambiDsp *d, uint16_t *x, uint8_t *mask, const unsigned w,
                      const unsigned i)
{
    const unsigned w2 = (w + 1) >> 1;
    const size_t to = (size_t)(i >> 1) * w2, from = (size_t)i * w;
    if (i == 0) {
        for (unsigned j = 0; j < w2; j++) {
            x[j] = x[2 * j];
            mask[j] = mask[2 * j];
        }
        return;
    }
    d->decimate16(x + to, x + from, w2);
    d->decimate8(mask + to, mask + from, w2);
}

/*
 * The picture at the scored size as 10 bits, anti-dithered (encodes below 10 bits), and its
 * spatial mask: a pixel is in it when more than `threshold` of the 7x7 zero-derivative flags
 * around it are set (a pixel is flat when it equals its right and lower neighbours; the frame's
 * edge counts as equal, and nothing beyond the frame is counted).
 *
 * One pass down the rows, each stage a few rows behind the one before, so that the rows it
 * reads are in cache: at step t row t is loaded; row t - 1 is averaged with row t (still as
 * loaded: the reference averages in place in raster order, each output reading samples not yet
 * replaced); the flags of row t - 2 are taken (rows t - 2 and t - 1 are final); the flags of
 * row t - 2 join the vertical counts, those of row t - 9 leave them, and the mask of row
 * t - 5 (flags of rows t - 8 .. t - 2) is written. With `halve` (the high-resolution
 * speed-up, whose first scale is the halved picture) each even row is then halved at once.
 */
static void preprocess(const CambiState *s, const CambiGeometry *g, const EvPic *pic,
                       const unsigned threshold, CambiScratch *sc, const int halve)
{
    const CambiDsp *d = &s->dsp;
    const unsigned w = g->w, h = g->h, r = CAMBI_MASK_FILTER / 2;
    const int dither = s->enc_bitdepth < 10;
    uint16_t *x = sc->image;
    memset(sc->count, 0, w + 2 * r);
    memset(sc->zeros, 0, w);
    uint8_t *count = sc->count + r;
    for (unsigned t = 0; t < h + r + 2; t++) {
        if (t < h)
            load_row(s, g, pic, t, x + (size_t)t * w);
        if (dither && t >= 1 && t - 1 < h) {
            uint16_t *row = x + (size_t)(t - 1) * w;
            if (t < h) {
                d->anti_dither_row(row, row + w, w);
            } else {
                for (unsigned j = 0; j + 1 < w; j++)
                    row[j] = cambi_avg2(row[j], row[j + 1]);
            }
        }
        if (t >= 2 && t - 2 < h) {
            const unsigned f = t - 2;
            const uint16_t *row = x + (size_t)f * w;
            uint8_t *flags = sc->flags + (size_t)(f % CAMBI_FLAG_ROWS) * w;
            d->flat_row(flags, row, f + 1 < h ? row + w : row, w);
            const uint8_t *leave =
                f >= CAMBI_FLAG_ROWS - 1
                    ? sc->flags + (size_t)((f + 1) % CAMBI_FLAG_ROWS) * w /* row f - 7 */
                    : sc->zeros;
            d->count_row(count, flags, leave, w);
        } else if (t >= 2) {
            const unsigned f = t - 2; /* beyond the frame: only the leaving row */
            if (f >= CAMBI_FLAG_ROWS - 1)
                d->count_row(count, sc->zeros, sc->flags + (size_t)((f + 1) % CAMBI_FLAG_ROWS) * w,
                             w);
        }
        if (t >= r + 2 && t - r - 2 < h) {
            const unsigned i = t - r - 2;
            d->mask_row(sc->mask + (size_t)i * w, sc->count, w, threshold);
            if (halve && !(i & 1))
                halve_row(d, x, sc->mask, w, i);
        }
    }
}

/* ---- per scale: decimation, mode filter ------------------------------------------------------ */

/* Keep the even rows and columns (w, h: the new size), in place: row i > 0 is written below
 * the rows it reads; row 0 column by column, each output before the inputs it could cover. */
static void decimate(const CambiDsp *d, uint16_t *x, uint8_t *mask, const unsigned old_w,
                     const unsigned w, const unsigned h)
{
    for (unsigned j = 0; j < w; j++) {
        x[j] = x[2 * j];
        mask[j] = mask[2 * j];
    }
    for (unsigned i = 1; i < h; i++) {
        d->decimate16(x + (size_t)i * w, x + (size_t)2 * i * old_w, w);
        d->decimate8(mask + (size_t)i * w, mask + (size_t)2 * i * old_w, w);
    }
}

/* Horizontal 3-mode, then vertical 3-mode of those, for rows 1 .. h-2; the first and last rows
 * stay as they are. In place: row r is replaced after row r + 1's horizontal mode is taken.
 * Each row's band codes (cambi_band_code) are taken as soon as it is final. */
static void mode_filter_codes(const CambiDsp *d, const CambiTables *t, uint16_t *x,
                              const uint8_t *mask, const unsigned w, const unsigned h,
                              uint16_t *rows, uint16_t *codes)
{
    if (h < 3) {
        for (unsigned i = 0; i < h; i++)
            d->band_row(codes + (size_t)i * w, x + (size_t)i * w, mask + (size_t)i * w, w,
                        t->band_lo, t->band_n);
        return;
    }
    d->mode_row(rows, x, w);
    d->mode_row(rows + w, x + w, w);
    d->band_row(codes, x, mask, w, t->band_lo, t->band_n);
    for (unsigned r = 1; r + 1 < h; r++) {
        const uint16_t *above = rows + (size_t)((r - 1) % 3) * w;
        const uint16_t *mid = rows + (size_t)(r % 3) * w;
        uint16_t *next = rows + (size_t)((r + 1) % 3) * w;
        d->mode_row(next, x + (size_t)(r + 1) * w, w);
        uint16_t *out = x + (size_t)r * w;
        d->mode_col(out, above, mid, next, w);
        d->band_row(codes + (size_t)r * w, out, mask + (size_t)r * w, w, t->band_lo, t->band_n);
    }
    const size_t last = (size_t)(h - 1) * w;
    d->band_row(codes + last, x + last, mask + last, w, t->band_lo, t->band_n);
}

/* ---- contrast values: sliding window histograms --------------------------------------------- */

#define NOT_COUNTED CAMBI_NOT_COUNTED

/* c[] of one scale (0 where the pixel is not counted) and the pooling's totals of it: the
 * window's counts (hist[code * w + col]: pixels of band code `code` within pad of col and of
 * the row) move down a row at a time. */
static void c_values(const CambiDsp *d, const CambiTables *t, const uint16_t *codes,
                     const unsigned w, const unsigned h, const unsigned window, uint16_t *hist,
                     uint16_t *none, float *c, CambiTotals *tot)
{
    const unsigned pad = window >> 1;
    memset(hist, 0, (size_t)(t->band_n + CAMBI_MAX_DIFFS + 1) * w * sizeof(*hist));
    for (unsigned k = 0; k < w; k++)
        none[k] = NOT_COUNTED;
    for (unsigned r = 0; r < pad && r < h; r++)
        d->slide_row(hist, w, pad, none, codes + (size_t)r * w);
    cambi_totals_reset(tot);
    for (unsigned i = 0; i < h; i++) {
        const int out = (int)i - (int)pad - 1;
        const unsigned in = i + pad;
        d->slide_row(hist, w, pad, out >= 0 ? codes + (size_t)out * w : none,
                     in < h ? codes + (size_t)in * w : none);
        const uint16_t *cr = codes + (size_t)i * w;
        float *row = c + (size_t)i * w;
        d->c_values_row(row, cr, hist, w, t);
        for (unsigned j = d->next_diff(cr, none, 0, w); j < w; j = d->next_diff(cr, none, j + 1, w))
            cambi_totals_add(tot, row[j]);
    }
}

/* ---- heatmaps -------------------------------------------------------------------------------- */

/* libvmaf's dump_c_values: each value scaled to 16 bits by 65535 / (max weight * window^2 / 4),
 * native-endian uint16, frame after frame. */
int cambi_write_heatmap(const int fd, const CambiTables *t, const float *c, const unsigned w,
                        const unsigned h, const unsigned window, const unsigned frame,
                        uint16_t *row_buf)
{
    int max_weight = t->weight[0];
    for (int d = 0; d < t->num_diffs; d++)
        if (t->weight[d] > max_weight)
            max_weight = t->weight[d];
    const int max_c = max_weight * (int)window * (int)window / 4;
    const double scale = (double)((1 << 16) - 1) / max_c;
    for (unsigned i = 0; i < h; i++) {
        for (unsigned j = 0; j < w; j++)
            row_buf[j] = (uint16_t)(scale * c[(size_t)i * w + j]);
        const off_t at = ((off_t)frame * h + i) * w * (off_t)sizeof(uint16_t);
        const size_t n = w * sizeof(uint16_t);
        if (pwrite(fd, row_buf, n, at) != (ssize_t)n)
            return -EIO;
    }
    return 0;
}

/* ---- one picture ----------------------------------------------------------------------------- */

int cambi_picture_score(const CambiState *s, const CambiGeometry *g, const unsigned mask_threshold,
                        const EvPic *pic, CambiScratch *sc, const int *heatmap_fd,
                        const unsigned frame, double *score)
{
    if (check_range(s, g, pic, frame))
        return -EINVAL;
    unsigned w = g->w, h = g->h;
    preprocess(s, g, pic, mask_threshold, sc, s->speedup);

    double scores[CAMBI_NUM_SCALES];
    for (unsigned scale = 0; scale < CAMBI_NUM_SCALES; scale++) {
        if (scale > 0 || s->speedup) {
            const unsigned old_w = w;
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
            if (scale > 0) /* the speed-up's halving was done in preprocess() */
                decimate(&s->dsp, sc->image, sc->mask, old_w, w, h);
        }
        mode_filter_codes(&s->dsp, s->tables, sc->image, sc->mask, w, h, sc->mode_rows, sc->codes);
        CambiTotals tot;
        c_values(&s->dsp, s->tables, sc->codes, w, h, g->window, sc->hist, sc->mode_rows,
                 sc->c_values, &tot);
        if (heatmap_fd) {
            const int err = cambi_write_heatmap(heatmap_fd[scale], s->tables, sc->c_values, w, h,
                                                g->window, frame, sc->mode_rows);
            if (err)
                return err;
        }
        const int n = (int)(w * h);
        scores[scale] = cambi_topk_mean(sc->c_values, (unsigned)n, cambi_topk_count(s->topk, n),
                                        &tot, sc->radix);
    }
    *score = cambi_combine_scales(scores, g->window);
    return 0;
}
