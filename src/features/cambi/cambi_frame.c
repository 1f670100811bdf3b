/* CAMBI of one picture (libvmaf feature/cambi.c cambi_preprocessing, get_spatial_mask,
 * filter_mode, decimate, calculate_c_values, spatial_pooling): the C reference. Buffers are
 * packed (row stride = the current width) and decimated in place. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "features/cambi/cambi_internal.h"

/* ---- preprocessing: 10 bits at the scored size, anti-dithering ---------------------------- */

int cambi_range_error(const CambiState *s, const unsigned frame, const unsigned value,
                      const unsigned x, const unsigned y, const unsigned bpc)
{
    ev_log(s->log, EV_LOG_ERROR,
           "cambi: frame %u: luma sample %u at (%u, %u) exceeds the "
           "%u-bit maximum %u",
           frame, value, x, y, bpc, (1u << bpc) - 1);
    return -EINVAL;
}

/* libvmaf refuses a luma sample above the depth's maximum (9..15 bits); the first in raster
 * order is named. */
static int check_range(const CambiState *s, const EvPic *pic, const unsigned frame)
{
    if (pic->bpc == 8 || pic->bpc == 16)
        return 0;
    const unsigned max = (1u << pic->bpc) - 1;
    for (unsigned i = 0; i < pic->h[0]; i++) {
        const uint16_t *row = ev_pic_row16(pic, 0, i);
        for (unsigned j = 0; j < pic->w[0]; j++)
            if (row[j] > max)
                return cambi_range_error(s, frame, row[j], j, i, pic->bpc);
    }
    return 0;
}

static void load_10b(const CambiGeometry *g, const EvPic *pic, uint16_t *image)
{
    for (unsigned i = 0; i < g->h; i++) {
        uint16_t *out = image + (size_t)i * g->w;
        if (pic->bpc == 8) {
            const uint8_t *in = ev_pic_row8(pic, 0, g->row_src[i]);
            for (unsigned j = 0; j < g->w; j++)
                out[j] = cambi_to_10b(in[g->col_src[j]], 8);
        } else {
            const uint16_t *in = ev_pic_row16(pic, 0, g->row_src[i]);
            for (unsigned j = 0; j < g->w; j++)
                out[j] = cambi_to_10b(in[g->col_src[j]], pic->bpc);
        }
    }
}

/* In place, raster order: each output reads only samples not yet replaced (so each is
 * cambi_anti_dither_at of the loaded image). */
static void anti_dither(uint16_t *x, const unsigned w, const unsigned h)
{
    for (unsigned i = 0; i + 1 < h; i++) {
        uint16_t *r0 = x + (size_t)i * w, *r1 = r0 + w;
        for (unsigned j = 0; j + 1 < w; j++)
            r0[j] = cambi_avg4(r0[j], r0[j + 1], r1[j], r1[j + 1]);
        r0[w - 1] = cambi_avg2(r0[w - 1], r1[w - 1]);
    }
    uint16_t *last = x + (size_t)(h - 1) * w;
    for (unsigned j = 0; j + 1 < w; j++)
        last[j] = cambi_avg2(last[j], last[j + 1]);
}

/* ---- the spatial mask: more than `threshold` flat pixels in the 7x7 around ------------------ */

/* A pixel is flat when it equals its right and lower neighbours (the frame's edge counts as
 * equal); adds delta to the column counts for image row r. */
static void count_flat_row(const uint16_t *x, const unsigned w, const unsigned h, const unsigned r,
                           uint32_t *col_count, const int delta)
{
    const uint16_t *row = x + (size_t)r * w;
    const uint16_t *below = r + 1 < h ? row + w : row;
    for (unsigned j = 0; j + 1 < w; j++)
        col_count[j] += (uint32_t)(delta * (int)cambi_flat(row[j], row[j + 1], below[j]));
    col_count[w - 1] += (uint32_t)(delta * (int)cambi_flat(row[w - 1], row[w - 1], below[w - 1]));
}

/* col_count has r zeros on each side of the w columns (the frame's edge counts nothing). */
static void spatial_mask(const uint16_t *x, const unsigned w, const unsigned h,
                         const unsigned threshold, uint32_t *col_count, uint8_t *mask)
{
    const int r = CAMBI_MASK_FILTER / 2;
    memset(col_count, 0, (w + 2 * r) * sizeof(*col_count));
    uint32_t *cc = col_count + r;
    for (int i = 0; i < r && i < (int)h; i++)
        count_flat_row(x, w, h, (unsigned)i, cc, 1);
    for (int i = 0; i < (int)h; i++) {
        if (i + r < (int)h)
            count_flat_row(x, w, h, (unsigned)(i + r), cc, 1);
        if (i - r - 1 >= 0)
            count_flat_row(x, w, h, (unsigned)(i - r - 1), cc, -1);
        uint8_t *m = mask + (size_t)i * w;
        for (unsigned j = 0; j < w; j++) {
            const uint32_t *c = col_count + j; /* columns j - r .. j + r */
            m[j] = c[0] + c[1] + c[2] + c[3] + c[4] + c[5] + c[6] > threshold;
        }
    }
}

/* ---- per scale: decimation, mode filter ------------------------------------------------------ */

/* Keep the even rows and columns (w, h: the new size). In place: output i*w + j never lies
 * after the input it reads. */
static void decimate16(uint16_t *x, const unsigned old_w, const unsigned w, const unsigned h)
{
    for (unsigned i = 0; i < h; i++)
        for (unsigned j = 0; j < w; j++)
            x[(size_t)i * w + j] = x[(size_t)2 * i * old_w + 2 * j];
}

static void decimate8(uint8_t *x, const unsigned old_w, const unsigned w, const unsigned h)
{
    for (unsigned i = 0; i < h; i++)
        for (unsigned j = 0; j < w; j++)
            x[(size_t)i * w + j] = x[(size_t)2 * i * old_w + 2 * j];
}

static void mode_row(const uint16_t *in, const unsigned w, uint16_t *out)
{
    out[0] = in[0];
    for (unsigned j = 1; j + 1 < w; j++)
        out[j] = cambi_mode3(in[j - 1], in[j], in[j + 1]);
    out[w - 1] = in[w - 1];
}

/* Horizontal 3-mode, then vertical 3-mode of those, for rows 1 .. h-2; the first and last rows
 * stay as they are. In place: row r is replaced after row r + 1's horizontal mode is taken. */
static void mode_filter(uint16_t *x, const unsigned w, const unsigned h, uint16_t *rows)
{
    if (h < 3)
        return;
    mode_row(x, w, rows);
    mode_row(x + w, w, rows + w);
    for (unsigned r = 1; r + 1 < h; r++) {
        const uint16_t *above = rows + (size_t)((r - 1) % 3) * w;
        const uint16_t *mid = rows + (size_t)(r % 3) * w;
        uint16_t *next = rows + (size_t)((r + 1) % 3) * w;
        mode_row(x + (size_t)(r + 1) * w, w, next);
        uint16_t *out = x + (size_t)r * w;
        for (unsigned j = 0; j < w; j++)
            out[j] = cambi_mode3(above[j], mid[j], next[j]);
    }
}

/* ---- contrast values: sliding window histograms --------------------------------------------- */

#define NOT_COUNTED CAMBI_NOT_COUNTED

typedef struct Window {
    uint16_t *hist; /* hist[code * w + col]: pixels of band code `code` around col */
    unsigned w, pad;
} Window;

/* Band codes of a scale (cambi_band_code). */
static void band_codes(const uint16_t *x, const uint8_t *mask, const size_t n, const CambiTables *t,
                       uint16_t *codes)
{
    for (size_t k = 0; k < n; k++)
        codes[k] = cambi_band_code(x[k], mask[k], t->band_lo, t->band_n);
}

static void add_range(uint16_t *row, const unsigned lo, const unsigned hi)
{
    for (unsigned k = lo; k < hi; k++)
        row[k]++;
}

static void sub_range(uint16_t *row, const unsigned lo, const unsigned hi)
{
    for (unsigned k = lo; k < hi; k++)
        row[k]--;
}

static int same4(const uint16_t *a, const uint16_t *b)
{
    uint64_t x, y;
    memcpy(&x, a, sizeof(x));
    memcpy(&y, b, sizeof(y));
    return x == y;
}

/* Move the window down: the row of codes `out` (or none) leaves it, `in` (or none) enters.
 * A column where the same code leaves and enters (or neither counts) changes nothing. */
static void slide_rows(const Window *win, const uint16_t *out, const uint16_t *in,
                       const uint16_t *none)
{
    const unsigned w = win->w, pad = win->pad;
    out = out ? out : none;
    in = in ? in : none;
    for (unsigned j = 0; j < w; j++) {
        if (!(j & 3) && j + 4 <= w && same4(out + j, in + j)) {
            j += 3;
            continue;
        }
        const unsigned co = out[j], ci = in[j];
        if (co == ci)
            continue;
        const unsigned lo = j > pad ? j - pad : 0;
        const unsigned hi = j + pad + 1 < w ? j + pad + 1 : w;
        if (co != NOT_COUNTED)
            sub_range(win->hist + (size_t)co * w, lo, hi);
        if (ci != NOT_COUNTED)
            add_range(win->hist + (size_t)ci * w, lo, hi);
    }
}

/* The contrast value of a counted pixel of band code `code` at column col. */
static float c_value(const Window *win, const CambiTables *t, const unsigned code,
                     const unsigned col)
{
    const int v = (int)(code + t->band_lo);
    const uint16_t *h = win->hist + col;
    const size_t w = win->w;
    const uint32_t p0 = h[(size_t)code * w];
    float best = 0.0f;
    for (int d = 0; d < t->num_diffs; d++) {
        if (!cambi_step_counts(t, d, v))
            continue;
        const uint32_t up = h[(size_t)(code + d + 1) * w];
        const uint32_t down = (int)code - d - 1 >= 0 ? h[(size_t)(code - d - 1) * w] : 0;
        best = cambi_step_best(best, t, d, p0, up, down);
    }
    return best;
}

/* c[] of one scale (0 where the pixel is not counted) and the pooling's totals of it. */
static void c_values(const CambiTables *t, const uint16_t *codes, const unsigned w,
                     const unsigned h, const unsigned window, uint16_t *hist, uint16_t *none,
                     float *c, CambiTotals *tot)
{
    const Window win = { hist, w, window >> 1 };
    memset(hist, 0, (size_t)(t->band_n + CAMBI_MAX_DIFFS + 1) * w * sizeof(*hist));
    for (unsigned k = 0; k < w; k++)
        none[k] = NOT_COUNTED;
    for (unsigned r = 0; r < win.pad && r < h; r++)
        slide_rows(&win, NULL, codes + (size_t)r * w, none);
    cambi_totals_reset(tot);
    for (unsigned i = 0; i < h; i++) {
        const int out = (int)i - (int)win.pad - 1;
        const unsigned in = i + win.pad;
        slide_rows(&win, out >= 0 ? codes + (size_t)out * w : NULL,
                   in < h ? codes + (size_t)in * w : NULL, none);
        const uint16_t *cr = codes + (size_t)i * w;
        float *row = c + (size_t)i * w;
        memset(row, 0, w * sizeof(*row));
        for (unsigned j = 0; j < w; j++) {
            if (!(j & 3) && j + 4 <= w && same4(cr + j, none)) {
                j += 3;
                continue;
            }
            if (cr[j] != NOT_COUNTED) {
                row[j] = c_value(&win, t, cr[j], j);
                cambi_totals_add(tot, row[j]);
            }
        }
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
    if (check_range(s, pic, frame))
        return -EINVAL;
    unsigned w = g->w, h = g->h;
    load_10b(g, pic, sc->image);
    if (s->enc_bitdepth < 10)
        anti_dither(sc->image, w, h);
    spatial_mask(sc->image, w, h, mask_threshold, sc->col_count, sc->mask);

    double scores[CAMBI_NUM_SCALES];
    for (unsigned scale = 0; scale < CAMBI_NUM_SCALES; scale++) {
        if (scale > 0 || s->speedup) {
            const unsigned old_w = w;
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
            decimate16(sc->image, old_w, w, h);
            decimate8(sc->mask, old_w, w, h);
        }
        mode_filter(sc->image, w, h, sc->mode_rows);
        band_codes(sc->image, sc->mask, (size_t)w * h, s->tables, sc->codes);
        CambiTotals tot;
        c_values(s->tables, sc->codes, w, h, g->window, sc->hist, sc->mode_rows, sc->c_values,
                 &tot);
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
