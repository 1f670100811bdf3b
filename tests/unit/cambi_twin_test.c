/* The CAMBI twin's decomposition (cambi_twin.h) run on the host, output by output as cambi.cu's
 * kernels do, against the C reference (cambi_picture_score): the 10-bit image with
 * anti-dithering per output, the mask at scale 0's grid, the mode filter and band codes of each
 * scale from the previous one read at even positions, the contrast values from box counts of
 * the codes around each pixel, and the pooling through the device's three-pass radix selection
 * and cambi_topk_exact. Every picture score compared bit for bit, on banded gradients (10-bit
 * ramps quantised to 8 bits, dithered or not), blocks of random levels (many codes in one
 * window), noise and native 10-bit ramps; every depth; the options that change arithmetic.
 * CI has no GPU: this is where the twin's arithmetic is proven. */
#include <stdlib.h>
#include <string.h>

#include "features/cambi/cambi_internal.h"
#include "features/registry_list.h"
#include "unit/check.h"

static uint32_t rng_state = 4242;

static uint32_t rnd(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

enum { RAMP8, RAMP8_DITHER, BLOCKS, NOISE, RAMP10, N_PATTERNS, STRIPES = N_PATTERNS };

/* A w x h plane of bpc-bit samples (packed). */
static void *make_plane(const unsigned w, const unsigned h, const unsigned bpc, const int pattern)
{
    const size_t n = (size_t)w * h;
    uint16_t *p16 = malloc(n * 2);
    uint8_t *p8 = malloc(n);
    const unsigned max = (1u << bpc) - 1;
    uint16_t level[64 * 64];
    for (unsigned k = 0; k < 64 * 64; k++)
        level[k] = (uint16_t)(rnd() & max);
    for (unsigned i = 0; i < h; i++)
        for (unsigned j = 0; j < w; j++) {
            /* a smooth diagonal 10-bit ramp over part of the range */
            const unsigned r10 = 200 + (unsigned)((600.0 * (i + 2.0 * j)) / (h + 2.0 * w));
            uint32_t v;
            switch (pattern) {
            case RAMP8:
            case RAMP8_DITHER: {
                int q = (int)((r10 + 2) >> 2);
                if (pattern == RAMP8_DITHER && rnd() % 4 == 0)
                    q += (int)(rnd() % 3) - 1;
                v = (uint32_t)(q < 0 ? 0 : q > 255 ? 255 : q);
                v = bpc >= 8 ? v << (bpc - 8) : v;
                break;
            }
            case BLOCKS: v = level[((i / 8) % 64) * 64 + (j / 8) % 64]; break;
            case NOISE: v = rnd() & max; break;
            case STRIPES: v = (75u + (j / 4) % 2) << (bpc - 8); break; /* codes 300, 304 */
            default: v = bpc >= 10 ? r10 << (bpc - 10) : r10 >> (10 - bpc); break;
            }
            p16[(size_t)i * w + j] = (uint16_t)(v & max);
            p8[(size_t)i * w + j] = (uint8_t)v;
        }
    if (bpc == 8) {
        free(p16);
        return p8;
    }
    free(p8);
    return p16;
}

/* ---- the twin's stages on the host ------------------------------------------------------- */

static uint16_t load(const EvPic *pic, const unsigned y, const unsigned x)
{
    const uint32_t v = pic->bpc == 8 ? ev_pic_row8(pic, 0, y)[x] : ev_pic_row16(pic, 0, y)[x];
    return cambi_to_10b(v, pic->bpc);
}

/* The device's three radix passes (16, 8, 8 bits) for the k-th largest of the values not 0. */
static uint32_t kth_by_passes(const float *c, const unsigned n, const unsigned k)
{
    static unsigned hist[0x780];
    unsigned left = k, sel = 0;
    for (int pass = 0; pass < 3; pass++) {
        const unsigned bins = pass ? 256 : 0x780;
        memset(hist, 0, sizeof(hist));
        for (unsigned i = 0; i < n; i++) {
            uint32_t v;
            memcpy(&v, &c[i], 4);
            if (!v)
                continue;
            if (pass == 0)
                hist[(v >> 16) - 0x3F00]++;
            else if (pass == 1 && v >> 16 == sel)
                hist[(v >> 8) & 0xff]++;
            else if (pass == 2 && v >> 8 == sel)
                hist[v & 0xff]++;
        }
        unsigned bin = bins - 1;
        while (hist[bin] < left)
            left -= hist[bin--];
        sel = pass == 0 ? bin + 0x3F00 : sel << 8 | bin;
    }
    return sel;
}

/* c_kernel's loop on the host: every tile of a scale, its threads run one after another in
 * each phase (between the kernel's barriers), with v in vbytes of memory. */
enum { TILE_W = 128, TILE_H = 32 };
static unsigned tile_passes_seen; /* tiles done in more than one pass */

static void tile_values(const uint16_t *codes, float *c, const unsigned w, const unsigned h,
                        const int pad, const CambiTables *tab, const int vbytes,
                        CambiTileSums *total)
{
    const int nd = tab->num_diffs, span = cambi_tile_span(TILE_W, pad);
    const int cap = cambi_tile_cap(vbytes, span, tab->band_n, nd);
    uint8_t *v = malloc((size_t)cap * span);
    for (unsigned i0 = 0; i0 < h; i0 += TILE_H)
        for (unsigned j0 = 0; j0 < w; j0 += TILE_W) {
            CambiTile b = { codes,
                            c,
                            (int)w,
                            (int)h,
                            (int)j0,
                            (int)i0,
                            (int)(i0 + TILE_H < h ? i0 + TILE_H : h),
                            TILE_W,
                            pad,
                            span,
                            cap };
            unsigned lo = 0xffffu, hi = 0;
            for (int t = 0; t < TILE_W; t++) {
                unsigned l = 0xffffu, u = 0;
                cambi_tile_code_range(&b, t, &l, &u);
                lo = l < lo ? l : lo;
                hi = u > hi ? u : hi;
            }
            CambiTileSums sums = { 0, 0, 0 };
            if (lo > hi) {
                for (int i = b.i0; i < b.i_end; i++)
                    for (int t = 0; t < TILE_W; t++)
                        cambi_tile_query(&b, NULL, tab, nd, lo, hi, 0, t, i, &sums);
                continue;
            }
            const int passes = cambi_tile_passes(lo, hi, cap, nd);
            tile_passes_seen += passes > 1;
            for (int q = 0; q < passes; q++) {
                const int base = (int)lo + q * cambi_tile_step(cap, nd);
                memset(v, 0, (size_t)cap * span);
                for (int r = cambi_tile_row_lo(&b); r < (int)h && r < b.i0 + pad; r++)
                    for (int t = 0; t < TILE_W; t++)
                        cambi_tile_slide(&b, v, base, t, r, 1);
                for (int i = b.i0; i < b.i_end; i++) {
                    for (int t = 0; t < TILE_W; t++) {
                        if (i + pad < (int)h)
                            cambi_tile_slide(&b, v, base, t, i + pad, 1);
                        if (i > b.i0 && i - pad - 1 >= 0)
                            cambi_tile_slide(&b, v, base, t, i - pad - 1, -1);
                    }
                    for (int t = 0; t < TILE_W; t++)
                        cambi_tile_query(&b, v, tab, nd, lo, hi, q, t, i, &sums);
                }
            }
            total->units += sums.units;
            total->nonzero += sums.nonzero;
            total->irregular |= sums.irregular;
        }
    free(v);
}

static int tile_vbytes = 40 * 1024; /* the twin's V_BYTES, or less to force passes */
static unsigned tile_mismatch;

static double twin_score(const CambiState *s, const CambiGeometry *g, const unsigned thr,
                         const EvPic *pic, unsigned *fallbacks)
{
    const CambiTables *t = s->tables;
    const unsigned w = g->w, h = g->h;
    uint16_t *image = malloc((size_t)w * h * 2), *filt[CAMBI_NUM_SCALES], *codes = NULL;
    uint8_t *flat = malloc((size_t)w * h), *mask = malloc((size_t)w * h);
    float *c = malloc((size_t)w * h * sizeof(float));
    float *c_tiles = malloc((size_t)w * h * sizeof(float));
    for (unsigned i = 0; i < h; i++)
        for (unsigned j = 0; j < w; j++) {
            const unsigned y0 = g->row_src[i], x0 = g->col_src[j];
            const unsigned y1 = i + 1 < h ? g->row_src[i + 1] : y0;
            const unsigned x1 = j + 1 < w ? g->col_src[j + 1] : x0;
            const uint16_t x00 = load(pic, y0, x0);
            image[(size_t)i * w + j] =
                s->enc_bitdepth < 10
                    ? cambi_anti_dither_at(x00, load(pic, y0, x1), load(pic, y1, x0),
                                           load(pic, y1, x1), i, j, w, h)
                    : x00;
        }
    for (unsigned i = 0; i < h; i++)
        for (unsigned j = 0; j < w; j++) {
            const uint16_t *row = image + (size_t)i * w, *below = i + 1 < h ? row + w : row;
            flat[(size_t)i * w + j] =
                (uint8_t)cambi_flat(row[j], j + 1 < w ? row[j + 1] : row[j], below[j]);
        }
    const unsigned step = s->speedup ? 2 : 1;
    unsigned sw = s->speedup ? (w + 1) >> 1 : w, sh = s->speedup ? (h + 1) >> 1 : h;
    const unsigned w0 = sw;
    for (unsigned i0 = 0; i0 < sh; i0++)
        for (unsigned j0 = 0; j0 < sw; j0++) {
            const int y = (int)(i0 * step), x = (int)(j0 * step);
            unsigned count = 0;
            for (int dy = -3; dy <= 3; dy++)
                for (int dx = -3; dx <= 3; dx++)
                    if (y + dy >= 0 && y + dy < (int)h && x + dx >= 0 && x + dx < (int)w)
                        count += flat[(size_t)(y + dy) * w + x + dx];
            mask[(size_t)i0 * w0 + j0] = count > thr;
        }
    double scores[CAMBI_NUM_SCALES];
    const uint16_t *src = image;
    unsigned src_w = w;
    const int pad = (int)(g->window >> 1), nd = t->num_diffs;
    for (unsigned k = 0; k < CAMBI_NUM_SCALES; k++) {
        if (k > 0) {
            sw = (sw + 1) >> 1;
            sh = (sh + 1) >> 1;
        }
        filt[k] = malloc((size_t)sw * sh * 2);
        free(codes);
        codes = malloc((size_t)sw * sh * 2);
        const CambiScaleIn in = { src, src_w, k > 0 || s->speedup ? 2u : 1u, sw, sh };
        for (unsigned r = 0; r < sh; r++)
            for (unsigned q = 0; q < sw; q++) {
                const uint16_t v = cambi_mode_filter_at(&in, r, q);
                filt[k][(size_t)r * sw + q] = v;
                codes[(size_t)r * sw + q] = cambi_band_code(
                    v, mask[(size_t)(r << k) * w0 + (q << k)], t->band_lo, t->band_n);
            }
        CambiTotals tot;
        cambi_totals_reset(&tot);
        for (int i = 0; i < (int)sh; i++)
            for (int j = 0; j < (int)sw; j++) {
                const unsigned code = codes[(size_t)i * sw + j];
                float v = 0.0f;
                if (code != CAMBI_NOT_COUNTED) {
                    uint32_t cnt[2 * CAMBI_MAX_DIFFS + 1] = { 0 };
                    for (int y = i - pad; y <= i + pad; y++)
                        for (int x = j - pad; x <= j + pad; x++) {
                            if (y < 0 || y >= (int)sh || x < 0 || x >= (int)sw)
                                continue;
                            const int d = (int)codes[(size_t)y * sw + x] - (int)code;
                            if (codes[(size_t)y * sw + x] != CAMBI_NOT_COUNTED && d >= -nd &&
                                d <= nd)
                                cnt[d + nd]++;
                        }
                    uint32_t up[CAMBI_MAX_DIFFS], down[CAMBI_MAX_DIFFS];
                    for (int d = 0; d < nd; d++) {
                        up[d] = cnt[nd + d + 1];
                        down[d] = cnt[nd - d - 1];
                    }
                    v = cambi_c_value_of(t, nd, code, cnt[nd], up, down);
                }
                c[(size_t)i * sw + j] = v;
                cambi_totals_add(&tot, v);
            }
        const unsigned n = sw * sh;
        /* the kernel's way: tiles, passes, vertical counts summed from bytes */
        CambiTileSums ts = { 0, 0, 0 };
        for (unsigned i = 0; i < n; i++)
            c_tiles[i] = -1.0f; /* every value must be written */
        tile_values(codes, c_tiles, sw, sh, pad, t, tile_vbytes, &ts);
        const unsigned before = tile_mismatch;
        tile_mismatch += memcmp(c, c_tiles, n * sizeof(float)) != 0;
        tile_mismatch += ts.units != tot.units || ts.nonzero != tot.nonzero ||
                         (int)ts.irregular != tot.irregular;
        if (tile_mismatch != before)
            printf("cambi twin: scale %u: the tiles' values differ from the box counts'\n", k);
        const int topk = cambi_topk_count(s->topk, (int)n);
        uint32_t kth = 0;
        unsigned above = 0;
        uint64_t above_units = 0;
        if (!tot.irregular && tot.nonzero > (unsigned)topk) {
            kth = kth_by_passes(c, n, (unsigned)topk);
            for (unsigned i = 0; i < n; i++) {
                uint32_t b;
                memcpy(&b, &c[i], 4);
                if (b > kth) {
                    above++;
                    above_units += cambi_value_units(c[i]);
                }
            }
        }
        if (cambi_topk_exact(&tot, (unsigned)topk, kth, above, above_units, &scores[k])) {
            scores[k] = cambi_topk_mean_select(c, n, topk);
            (*fallbacks)++;
        }
        src = filt[k];
        src_w = sw;
    }
    for (unsigned k = 0; k < CAMBI_NUM_SCALES; k++)
        free(filt[k]);
    free(codes);
    free(image);
    free(flat);
    free(mask);
    free(c);
    free(c_tiles);
    return cambi_combine_scales(scores, g->window);
}

/* ---- cases ------------------------------------------------------------------------------- */

static unsigned cases, fallbacks, refused;

static void run_case(const char *opts, const unsigned w, const unsigned h, const unsigned bpc,
                     const int pattern)
{
    const EvExtractorClass *cls = &ev_fex_cambi;
    void *o = calloc(1, cls->opts_size);
    CambiState *s = calloc(1, cls->state_size);
    const EvLog log = { 0 };
    ev_options_defaults(cls, o);
    const EvPicInfo info = { w, h, bpc, EV_PIX_444, 0 };
    if (ev_options_parse(cls, o, opts, &log) || cls->init(s, o, &info, &log)) {
        printf("cambi twin: %s %ux%u %u-bit: refused by the reference\n", opts, w, h, bpc);
        refused++;
        free(o);
        free(s);
        return;
    }
    void *plane = make_plane(w, h, bpc, pattern);
    EvPic pic = { 0 };
    pic.bpc = bpc;
    pic.layout = EV_PIX_444;
    pic.w[0] = w;
    pic.h[0] = h;
    pic.stride[0] = (ptrdiff_t)(w * (bpc > 8 ? 2 : 1));
    pic.data[0] = plane;
    void *scratch = calloc(1, cambi_scratch_size(s));
    CambiScratch sc;
    cambi_scratch_carve(s, scratch, &sc);
    const CambiGeometry *geo[2] = { &s->dis, &s->src };
    const unsigned thr[2] = { s->mask_threshold_dis, s->mask_threshold_src };
    for (int k = 0; k < (s->opts.full_ref ? 2 : 1); k++) {
        double want = 0;
        const int err = cambi_picture_score(s, geo[k], thr[k], &pic, &sc, NULL, 0, &want);
        CHECK(!err);
        const double got = twin_score(s, geo[k], thr[k], &pic, &fallbacks);
        cases++;
        if (check_bits(got) != check_bits(want))
            printf("cambi twin: %s %ux%u %u-bit pattern %d picture %d: twin %.17g, cpu %.17g\n",
                   opts, w, h, bpc, pattern, k, got, want);
        CHECK_BITS(got, want);
    }
    free(scratch);
    free(plane);
    cls->close(s);
    free(o);
    free(s);
}

int main(void)
{
    static const char *const option_sets[] = {
        "",
        "cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:cambi_max_val=17",
        "max_log_contrast=5:tvi_threshold=0.1",
        "max_log_contrast=0:window_size=15",
        "enc_bitdepth=8",
        "topk=0.01:cambi_eotf=pq",
        "enc_width=240:enc_height=216",
        "full_ref=true:src_width=320:src_height=240",
        "cambi_topk=1.0:window_size=127"
    };
    const unsigned sizes[][2] = { { 320, 240 }, { 216, 216 }, { 357, 250 } };
    const unsigned depths[] = { 8, 10, 12, 16 };
    for (size_t o = 0; o < sizeof(option_sets) / sizeof(option_sets[0]); o++)
        for (unsigned z = 0; z < 3; z++)
            for (int p = 0; p < N_PATTERNS; p++)
                run_case(option_sets[o], sizes[z][0], sizes[z][1], depths[(o + z + p) % 4], p);
    /* the speed-up at its resolution, and every depth with the model's options */
    for (unsigned d = 0; d < 2; d++)
        run_case("cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06", 1920, 1080, depths[d],
                 d % 2 ? RAMP8_DITHER : RAMP8);
    /* v in far less memory: tiles in many passes (cap down to 2 num_diffs + 1 codes) */
    for (int vb = 0; vb <= 3000; vb += 1500) {
        tile_vbytes = vb;
        for (int p = 0; p < N_PATTERNS; p++)
            run_case(p % 2 ? "max_log_contrast=5" : "", 357, 250, depths[p % 4], p);
        if (vb == 1500)
            run_case("cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06", 1920, 1080, 10,
                     BLOCKS);
    }
    tile_vbytes = 40 * 1024;
    CHECK(tile_passes_seen > 0);
    CHECK(tile_mismatch == 0);
    /* 4-wide stripes of codes 4 apart: every value near 4 * p0 * p / (p0 + p), a top-k sum past
     * 2^53 units at 1080p: the reference's order, through the copy the twin makes */
    const unsigned before = fallbacks;
    run_case("", 1920, 1080, 10, STRIPES);
    CHECK(fallbacks > before);
    CHECK(refused <= 3 && cases >= 160);
    printf("cambi_twin: %u picture scores compared (%u scales took the reference's order, %u "
           "option sets refused, %u tiles in several passes), %u checks passed, %u failed\n",
           cases, fallbacks, refused, tile_passes_seen, check_passed, check_failed);
    return check_failed != 0;
}
