/* checkasm: the CAMBI row kernels (features/cambi/cambi_kernels.h) of every level vs C. */
#include <stdlib.h>
#include <string.h>

#include "checkasm/checkasm.h"
#include "features/cambi/cambi_dsp.h"
#include "features/cambi/cambi_internal.h"
#include "features/cambi/cambi_math.h"

enum { MAX_W = 4097, GUARD = 64, MAX_PAD = 32, MAX_CODES = 40 };

/* Each side's outputs, with guard bytes after the w columns (they must stay as filled). */
typedef struct Side {
    uint16_t out16[MAX_W + GUARD];
    uint8_t out8[MAX_W + GUARD];
    uint16_t hist[MAX_CODES * MAX_W];
} Side;

typedef struct Bufs {
    uint16_t a[MAX_W * 2 + GUARD], b[MAX_W + GUARD], c[MAX_W + GUARD];
    uint8_t f[3][MAX_W + GUARD];
    Side side[2]; /* C's, the level's */
} Bufs;

static Bufs *B;

/* a row of uint16 samples of few distinct values (flat runs, so that the equality tests of
 * the mask and the mode filter take both ways), or of check_fill's pattern */
static void fill16(uint16_t *p, const int n, const unsigned bits, const int pattern)
{
    if (check_rand() & 1) {
        check_fill(p, (size_t)n, 2, bits, pattern);
        return;
    }
    const unsigned span = 1 + check_rand() % 4, base = check_rand() % ((1u << bits) - 4);
    for (int j = 0; j < n; j++)
        p[j] = (uint16_t)(base + (check_rand() % 3 ? 0 : check_rand() % span));
}

static void reset_outputs(void)
{
    for (int s = 0; s < 2; s++) {
        memset(B->side[s].out16, 0xA5, sizeof(B->side[s].out16));
        memset(B->side[s].out8, 0x5A, sizeof(B->side[s].out8));
    }
}

/* Compare the two sides' n bytes at offset off of out16/out8 (guards included); plant first. */
static int differ16(const int w)
{
    if (check_planted())
        B->side[1].out16[0] ^= 1;
    return memcmp(B->side[0].out16, B->side[1].out16, (w + GUARD) * sizeof(uint16_t));
}

static int differ8(const int w)
{
    if (check_planted())
        B->side[1].out8[0] ^= 1;
    return memcmp(B->side[0].out8, B->side[1].out8, (size_t)w + GUARD);
}

#define SIDES(expr_c, expr_d)                                                                      \
    do {                                                                                           \
        const CambiDsp *k = c;                                                                     \
        Side *o = &B->side[0];                                                                     \
        expr_c;                                                                                    \
        k = d;                                                                                     \
        o = &B->side[1];                                                                           \
        expr_d;                                                                                    \
    } while (0)
#define BOTH(expr) SIDES(expr, expr)

static void check_rows(const CambiDsp *c, const CambiDsp *d, const char *lvl)
{
    static const char *const names[] = { "cambi_to_10b_row", "cambi_anti_dither_row",
                                         "cambi_flat_row",   "cambi_count_row",
                                         "cambi_mask_row",   "cambi_mode_row",
                                         "cambi_mode_col",   "cambi_decimate16",
                                         "cambi_decimate8",  "cambi_band_row" };
    const void *fd[] = { (const void *)d->to_10b_row, (const void *)d->anti_dither_row,
                         (const void *)d->flat_row,   (const void *)d->count_row,
                         (const void *)d->mask_row,   (const void *)d->mode_row,
                         (const void *)d->mode_col,   (const void *)d->decimate16,
                         (const void *)d->decimate8,  (const void *)d->band_row };
    const void *fc[] = { (const void *)c->to_10b_row, (const void *)c->anti_dither_row,
                         (const void *)c->flat_row,   (const void *)c->count_row,
                         (const void *)c->mask_row,   (const void *)c->mode_row,
                         (const void *)c->mode_col,   (const void *)c->decimate16,
                         (const void *)c->decimate8,  (const void *)c->band_row };
    for (int f = 0; f < (int)(sizeof(names) / sizeof(names[0])); f++) {
        if (!check_func(fd[f], fc[f], names[f], lvl))
            continue;
        for (int w = f == 5 ? 2 : 1; w; w = check_next_width(w))
            for (int pattern = 0; pattern < CHECK_N_PATTERNS; pattern++) {
                const unsigned bpc = 8 + check_rand() % 9, bits10 = 10;
                reset_outputs();
                int bad = 0;
                switch (f) {
                case 0:
                    if (bpc == 8)
                        check_fill(B->f[0], (size_t)w, 1, 8, pattern);
                    else
                        check_fill(B->a, (size_t)w, 2, bpc, pattern);
                    BOTH(k->to_10b_row(o->out16,
                                       bpc == 8 ? (const void *)B->f[0] : (const void *)B->a,
                                       (unsigned)w, bpc));
                    bad = differ16(w);
                    break;
                case 1:
                    fill16(B->a, w, bits10, pattern);
                    fill16(B->b, w, bits10, (pattern + 1) % CHECK_N_PATTERNS);
                    BOTH(memcpy(o->out16, B->a, w * sizeof(uint16_t));
                         k->anti_dither_row(o->out16, B->b, (unsigned)w));
                    bad = differ16(w);
                    break;
                case 2:
                    fill16(B->a, w, bits10, pattern);
                    if (check_rand() & 1)
                        memcpy(B->b, B->a, w * sizeof(uint16_t));
                    else
                        fill16(B->b, w, bits10, pattern);
                    BOTH(k->flat_row(o->out8, B->a, B->b, (unsigned)w));
                    bad = differ8(w);
                    break;
                case 3:
                    for (int j = 0; j < w; j++) {
                        B->f[0][j] = (uint8_t)(check_rand() % 7);
                        B->f[1][j] = (uint8_t)(check_rand() & 1);
                        B->f[2][j] = (uint8_t)(B->f[0][j] ? check_rand() & 1 : 0);
                    }
                    BOTH(memcpy(o->out8, B->f[0], (size_t)w);
                         k->count_row(o->out8, B->f[1], B->f[2], (unsigned)w));
                    bad = differ8(w);
                    break;
                case 4: {
                    memset(B->f[0], 0, (size_t)w + 6);
                    for (int j = 0; j < w; j++)
                        B->f[0][3 + j] = (uint8_t)(pattern == 2 ? 7 : check_rand() % 8);
                    const unsigned threshold = check_rand() % 50;
                    BOTH(k->mask_row(o->out8, B->f[0], (unsigned)w, threshold));
                    bad = differ8(w);
                    break;
                }
                case 5:
                    fill16(B->a, w, bits10, pattern);
                    BOTH(k->mode_row(o->out16, B->a, (unsigned)w));
                    bad = differ16(w);
                    break;
                case 6:
                    fill16(B->a, w, bits10, pattern);
                    fill16(B->b, w, bits10, pattern);
                    fill16(B->c, w, bits10, (pattern + 2) % CHECK_N_PATTERNS);
                    BOTH(k->mode_col(o->out16, B->a, B->b, B->c, (unsigned)w));
                    bad = differ16(w);
                    break;
                case 7:
                    check_fill(B->a, (size_t)(2 * w - 1), 2, bits10, pattern);
                    BOTH(k->decimate16(o->out16, B->a, (unsigned)w));
                    bad = differ16(w);
                    break;
                case 8:
                    check_fill(B->f[0], (size_t)(2 * w - 1), 1, 8, pattern);
                    BOTH(k->decimate8(o->out8, B->f[0], (unsigned)w));
                    bad = differ8(w);
                    break;
                case 9: {
                    fill16(B->a, w, bits10, pattern);
                    for (int j = 0; j < w; j++)
                        B->f[0][j] = (uint8_t)(check_rand() & 1);
                    const unsigned lo = check_rand() % 1024, n = 1 + check_rand() % 1056;
                    BOTH(k->band_row(o->out16, B->a, B->f[0], (unsigned)w, lo, n));
                    bad = differ16(w);
                    break;
                }
                }
                if (bad && check_fail("w %d pattern %d bpc %u: outputs differ", w, pattern, bpc))
                    break;
            }
    }
}

/* slide_row: a window of random codes (some not counted) moved down over rows. */
static void check_slide(const CambiDsp *c, const CambiDsp *d, const char *lvl)
{
    if (!check_func((const void *)d->slide_row, (const void *)c->slide_row, "cambi_slide_row", lvl))
        return;
    for (int w = 1; w; w = check_next_width(w))
        for (int pattern = 0; pattern < CHECK_N_PATTERNS; pattern++) {
            const unsigned pad = check_rand() % (MAX_PAD + 1);
            const unsigned codes = 1 + check_rand() % (MAX_CODES - 1);
            const size_t n = (size_t)codes * (size_t)w;
            for (int s = 0; s < 2; s++)
                memset(B->side[s].hist, 0, n * sizeof(uint16_t));
            /* each row: runs of one code (flat content), a change now and then */
            for (int step = 0; step < 6; step++) {
                uint16_t *rows[2] = { B->b, B->c };
                for (int r = 0; r < 2; r++) {
                    uint16_t code = (uint16_t)(check_rand() % codes);
                    for (int j = 0; j < w; j++) {
                        /* runs of 1 .. 7 columns on average, and long ones (pattern 5) */
                        if (check_rand() % (pattern == 5 ? 64 : pattern + 2) == 0)
                            code = check_rand() % 4 == 0 ? (uint16_t)CAMBI_NOT_COUNTED
                                                         : (uint16_t)(check_rand() % codes);
                        rows[r][j] = code;
                    }
                }
                if (step == 0)
                    for (int j = 0; j < w; j++)
                        B->b[j] = (uint16_t)CAMBI_NOT_COUNTED;
                BOTH(k->slide_row(o->hist, (unsigned)w, pad, B->b, B->c));
            }
            if (check_planted())
                B->side[1].hist[0] ^= 1;
            if (memcmp(B->side[0].hist, B->side[1].hist, n * sizeof(uint16_t)) &&
                check_fail("w %d pad %u codes %u pattern %d: counts differ", w, pad, codes,
                           pattern))
                break;
        }
}

/* next_diff: two rows equal but for a few columns (none, one, many), from every start. */
static void check_next_diff(const CambiDsp *c, const CambiDsp *d, const char *lvl)
{
    if (!check_func((const void *)d->next_diff, (const void *)c->next_diff, "cambi_next_diff", lvl))
        return;
    for (int w = 1; w; w = check_next_width(w))
        for (int pattern = 0; pattern < CHECK_N_PATTERNS; pattern++) {
            check_fill(B->b, (size_t)w, 2, 16, pattern);
            memcpy(B->c, B->b, (size_t)w * sizeof(uint16_t));
            const int diffs = pattern == 1 ? 0 : 1 + (int)(check_rand() % 4);
            for (int k = 0; k < diffs; k++)
                B->c[check_rand() % (unsigned)w] ^= (uint16_t)(1u << (check_rand() % 16));
            int bad = 0;
            for (unsigned j = 0; j <= (unsigned)w && !bad; j++) {
                const unsigned want = c->next_diff(B->b, B->c, j, (unsigned)w);
                unsigned got = d->next_diff(B->b, B->c, j, (unsigned)w);
                if (check_planted())
                    got ^= 1;
                bad = want != got;
            }
            if (bad && check_fail("w %d pattern %d: next_diff differs", w, pattern))
                break;
        }
}

/* c_values_row: random tables (every contrast count, thresholds that cut some steps), window
 * counts with p0 + p inside the reciprocal table, codes with runs not counted. */
static void check_c_values(const CambiDsp *c, const CambiDsp *d, const char *lvl)
{
    if (!check_func((const void *)d->c_values_row, (const void *)c->c_values_row,
                    "cambi_c_values_row", lvl))
        return;
    static CambiTables t;
    static float out[2][MAX_W + GUARD];
    cambi_recip_table(t.recip);
    enum { ROWS = 8 };
    static uint16_t hist[(ROWS + CAMBI_MAX_DIFFS + 1) * 1024 + CAMBI_HIST_SLACK];
    for (int w = 1; w && w <= 1024; w = check_next_width(w))
        for (int pattern = 0; pattern < CHECK_N_PATTERNS; pattern++) {
            t.num_diffs = 1 << (check_rand() % 6);
            for (int k = 0; k < t.num_diffs; k++) {
                t.weight[k] = cambi_contrast_weight(k);
                t.tvi[k] = (int)(check_rand() % 1100);
            }
            t.vlt = pattern == 1 ? 0 : (int)(check_rand() % 400);
            t.band_lo = check_rand() % 600;
            t.band_n = ROWS;
            const size_t n = (size_t)(ROWS + CAMBI_MAX_DIFFS + 1) * (size_t)w;
            for (size_t k = 0; k < n; k++)
                hist[k] = (uint16_t)(pattern == 2 ? 2112 : check_rand() % 2113);
            for (int j = 0; j < w; j++)
                B->b[j] = check_rand() % 3 == 0 ? (uint16_t)CAMBI_NOT_COUNTED
                                                : (uint16_t)(check_rand() % ROWS);
            for (int k = 0; k < 2; k++)
                memset(out[k], 0x5A, sizeof(out[k]));
            c->c_values_row(out[0], B->b, hist, (unsigned)w, &t);
            d->c_values_row(out[1], B->b, hist, (unsigned)w, &t);
            if (check_planted())
                out[1][0] = out[1][0] + 1.0f;
            if (memcmp(out[0], out[1], sizeof(out[0])) &&
                check_fail("w %d pattern %d diffs %d: values differ", w, pattern, t.num_diffs))
                break;
        }
}

static void run_level(const void *cv, const void *dv, const char *lvl, void *arg)
{
    (void)arg;
    check_c_values(cv, dv, lvl);
    check_rows(cv, dv, lvl);
    check_slide(cv, dv, lvl);
    check_next_diff(cv, dv, lvl);
}

static void init_table(void *table, const unsigned cpu)
{
    cambi_dsp_init(table, cpu);
}

void checkasm_cambi(void)
{
    B = calloc(1, sizeof(*B));
    if (!B)
        return;
    check_each_level(sizeof(CambiDsp), init_table, run_level, NULL);
    free(B);
}
