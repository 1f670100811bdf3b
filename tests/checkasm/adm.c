/* checkasm: the integer ADM row kernels (features/adm/adm_dsp.h) of every level against C. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm/checkasm.h"
#include "features/adm/adm_dsp.h"
#include "features/adm/adm_math.h"

enum { MAX_W = 4097, PAD = 64, CANARY = 0x5A };

/* A band row buffer with PAD elements of canary before and after. */
typedef struct Buf {
    int32_t mem[MAX_W + 2 * PAD];
} Buf;

static int16_t *row16(Buf *b)
{
    return (int16_t *)b->mem + PAD;
}

static int32_t *row32(Buf *b)
{
    return b->mem + PAD;
}

/* Fill n elements: int16 in [-lim, lim] or int32 full range, by pattern. */
static void fill_signed(void *p, const int n, const int is16, const int32_t lim, const int pattern)
{
    const int bits_of_row = check_rand() & 1 ? 0 : 10 + (int)(check_rand() % 17);
    for (int j = 0; j < n; j++) {
        int64_t v;
        switch (pattern) {
        case 1: v = 0; break;
        case 2: v = lim; break;
        case 3: v = (j & 1) ? lim : -lim; break;
        case 4: v = (int32_t)(check_rand() % 64) - 32; break; /* small */
        case 5: v = -lim; break;
        default:
            if (is16)
                v = (int64_t)(check_rand() % (2u * (uint32_t)lim + 1)) - lim;
            else /* full range, or the magnitudes of real bands (products below 2^53) */
                v = bits_of_row ? (int32_t)check_rand() >> (32 - bits_of_row)
                                : (int32_t)check_rand();
            break;
        }
        if (is16)
            ((int16_t *)p)[j] = (int16_t)v;
        else
            ((int32_t *)p)[j] = (int32_t)v;
    }
}

static void canary(Buf *b)
{
    memset(b, CANARY, sizeof(*b));
}

/* The whole buffers, margins included: a write outside the row counts as a difference. */
static int same(const Buf *a, const Buf *b)
{
    return !memcmp(a, b, sizeof(*a));
}

/* ---- DWT ---- */

static void check_dwt0(AdmDwt0Fn fn, AdmDwt0Fn ref, const char *name, const char *lvl,
                       const int u16, void *tmp)
{
    if (!check_func((const void *)fn, (const void *)ref, name, lvl))
        return;
    static uint16_t in[4][MAX_W + 64];
    static Buf out[2][4];
    for (int in_w = 5; in_w; in_w = check_next_width(in_w)) {
        for (int pattern = 0; pattern < CHECK_N_PATTERNS; pattern++) {
            const unsigned bpc = u16 ? 9 + check_rand() % 8 : 8;
            for (int k = 0; k < 4; k++)
                check_fill(in[k], (size_t)in_w, u16 ? 2 : 1, bpc, (pattern + k) % CHECK_N_PATTERNS);
            const void *rows[4] = { in[0], in[1], in[2], in[3] };
            const int with_hvd = check_rand() % 4 != 0;
            for (int s = 0; s < 2; s++) {
                for (int k = 0; k < 4; k++)
                    canary(&out[s][k]);
                const AdmRow16 hvd = { { row16(&out[s][1]), row16(&out[s][2]),
                                         row16(&out[s][3]) } };
                (s ? fn : ref)(row16(&out[s][0]), with_hvd ? &hvd : NULL, rows, in_w, bpc, tmp);
            }
            if (check_planted())
                row16(&out[1][0])[check_rand() % ((in_w + 1) / 2)] ^= 1;
            for (int k = 0; k < 4; k++)
                if (!same(&out[0][k], &out[1][k]) &&
                    check_fail("in_w %d bpc %u pattern %d hvd %d: band %d differs", in_w, bpc,
                               pattern, with_hvd, k))
                    return;
        }
    }
    if (check_benching()) {
        const int in_w = 1920, reps = 2000;
        for (int k = 0; k < 4; k++)
            check_fill(in[k], in_w, u16 ? 2 : 1, u16 ? 10 : 8, 0);
        const void *rows[4] = { in[0], in[1], in[2], in[3] };
        const AdmRow16 hvd = { { row16(&out[0][1]), row16(&out[0][2]), row16(&out[0][3]) } };
        double t[2];
        for (int s = 0; s < 2; s++) {
            const double t0 = check_now_ns();
            for (int i = 0; i < reps; i++)
                (s ? ref : fn)(row16(&out[0][0]), &hvd, rows, in_w, u16 ? 10 : 8, tmp);
            t[s] = (check_now_ns() - t0) / reps;
        }
        check_bench_report(u16 ? "dwt0_u16 (in_w 1920)" : "dwt0_u8 (in_w 1920)", t[0], t[1]);
    }
}

static void check_dwt123(AdmDwt123Fn fn, AdmDwt123Fn ref, const char *name, const char *lvl,
                         void *tmp)
{
    if (!check_func((const void *)fn, (const void *)ref, name, lvl))
        return;
    static int32_t in[4][MAX_W + 64];
    static Buf out[2][4];
    for (int scale = 1; scale < 4; scale++)
        for (int in_w = 5; in_w; in_w = check_next_width(in_w))
            for (int pattern = 0; pattern < CHECK_N_PATTERNS; pattern++) {
                /* scale 1 reads scale 0's int16 band a, the others int32 */
                for (int k = 0; k < 4; k++)
                    fill_signed(in[k], in_w, scale == 1, scale == 1 ? 32767 : INT32_MAX,
                                (pattern + k) % CHECK_N_PATTERNS);
                const void *rows[4] = { in[0], in[1], in[2], in[3] };
                for (int s = 0; s < 2; s++) {
                    for (int k = 0; k < 4; k++)
                        canary(&out[s][k]);
                    const AdmRow32 hvd = { { row32(&out[s][1]), row32(&out[s][2]),
                                             row32(&out[s][3]) } };
                    (s ? fn : ref)(row32(&out[s][0]), &hvd, rows, in_w, scale, tmp);
                }
                if (check_planted())
                    row32(&out[1][2])[check_rand() % ((in_w + 1) / 2)] ^= 1;
                for (int k = 0; k < 4; k++)
                    if (!same(&out[0][k], &out[1][k]) &&
                        check_fail("scale %d in_w %d pattern %d: band %d differs", scale, in_w,
                                   pattern, k))
                        return;
            }
}

/* ---- decouple ---- */

static double random_egl(void)
{
    switch (check_rand() % 3) {
    case 0: return 100.0;
    case 1: return 1.0;
    default: return 1.0 + (check_rand() % 99000) / 1000.0;
    }
}

static void random_range(const int w, int *x0, int *x1)
{
    *x0 = (int)(check_rand() % 4);
    *x1 = w - (int)(check_rand() % 4);
    if (*x0 > w)
        *x0 = w;
    if (*x1 < *x0)
        *x1 = *x0;
}

static void check_decouple(const void *fn, const void *ref, const char *name, const char *lvl,
                           const int is16, const int32_t *div_lookup, const float cos_sq)
{
    if (!check_func(fn, ref, name, lvl))
        return;
    static Buf o[3], t[3], r[2][3], a[2][3];
    for (int w = 1; w; w = check_next_width(w))
        for (int pattern = 0; pattern < CHECK_N_PATTERNS; pattern++) {
            /* scale-0 bands never hold -32768 (the DWT's bound is 22931): the kernels' domain */
            const int32_t lim = is16 ? 32767 : INT32_MAX;
            for (int b = 0; b < 3; b++) {
                fill_signed(is16 ? (void *)row16(&o[b]) : row32(&o[b]), w, is16, lim, pattern);
                /* the distorted band: near the reference half of the time */
                if (pattern == 0 && (check_rand() & 1)) {
                    for (int j = 0; j < w; j++) {
                        const int d = (int)(check_rand() % 41) - 20;
                        if (is16) {
                            int v = row16(&o[b])[j] * ((int)(check_rand() % 1536) - 256) / 1024 + d;
                            row16(&t[b])[j] = (int16_t)(v > 32767    ? 32767
                                                        : v < -32767 ? -32767
                                                                     : v);
                        } else {
                            /* t = o times a fraction in [-1/4, 5/4): k takes every value */
                            const int64_t f = (int64_t)(check_rand() % 98304) - 16384;
                            int64_t v = (int64_t)row32(&o[b])[j] * f / 65536 + d;
                            /* symmetric, as the 16-bit case: with both of a column's h
                             * and v at INT32_MIN, th^2 + tv^2 = 2^63 overflows the reference's
                             * int64 (as libvmaf's): outside any band's range */
                            v = v > INT32_MAX ? INT32_MAX : v < -INT32_MAX ? -INT32_MAX : v;
                            row32(&t[b])[j] = (int32_t)v;
                        }
                    }
                } else {
                    fill_signed(is16 ? (void *)row16(&t[b]) : row32(&t[b]), w, is16, lim,
                                (pattern + b + 1) % CHECK_N_PATTERNS);
                }
            }
            int x0, x1;
            random_range(w, &x0, &x1);
            const AdmDecoupleParams p = { random_egl(), cos_sq, div_lookup };
            for (int s = 0; s < 2; s++) {
                for (int b = 0; b < 3; b++) {
                    canary(&r[s][b]);
                    canary(&a[s][b]);
                }
                if (is16) {
                    const AdmRow16 oo = { { row16(&o[0]), row16(&o[1]), row16(&o[2]) } };
                    const AdmRow16 tt = { { row16(&t[0]), row16(&t[1]), row16(&t[2]) } };
                    const AdmRow16 rr = { { row16(&r[s][0]), row16(&r[s][1]), row16(&r[s][2]) } };
                    const AdmRow16 aa = { { row16(&a[s][0]), row16(&a[s][1]), row16(&a[s][2]) } };
                    ((AdmDecouple0Fn)(s ? fn : ref))(&rr, &aa, &oo, &tt, x0, x1, &p);
                } else {
                    const AdmRow32 oo = { { row32(&o[0]), row32(&o[1]), row32(&o[2]) } };
                    const AdmRow32 tt = { { row32(&t[0]), row32(&t[1]), row32(&t[2]) } };
                    const AdmRow32 rr = { { row32(&r[s][0]), row32(&r[s][1]), row32(&r[s][2]) } };
                    const AdmRow32 aa = { { row32(&a[s][0]), row32(&a[s][1]), row32(&a[s][2]) } };
                    ((AdmDecouple123Fn)(s ? fn : ref))(&rr, &aa, &oo, &tt, x0, x1, &p);
                }
            }
            if (check_planted() && x1 > x0)
                row32(&a[1][1])[0] ^= 1;
            for (int b = 0; b < 3; b++)
                if ((!same(&r[0][b], &r[1][b]) || !same(&a[0][b], &a[1][b])) &&
                    check_fail("w %d [%d, %d) pattern %d egl %g: band %d differs", w, x0, x1,
                               pattern, p.egl, b))
                    return;
        }
}

/* ---- CSF ---- */

static void check_csf(const void *fn, const void *ref, const char *name, const char *lvl,
                      const int is16)
{
    if (!check_func(fn, ref, name, lvl))
        return;
    static Buf src[3], csf[2][3], flt[2][3];
    for (int w = 1; w; w = check_next_width(w))
        for (int pattern = 0; pattern < CHECK_N_PATTERNS; pattern++) {
            for (int b = 0; b < 3; b++)
                fill_signed(is16 ? (void *)row16(&src[b]) : row32(&src[b]), w, is16,
                            is16 ? 32767 : INT32_MAX, (pattern + b) % CHECK_N_PATTERNS);
            if (is16 && pattern == 5)
                for (int b = 0; b < 3; b++)
                    row16(&src[b])[0] = -32768;
            int x0, x1;
            random_range(w, &x0, &x1);
            uint16_t rf0[3];
            uint32_t rf[3];
            for (int b = 0; b < 3; b++) {
                rf0[b] =
                    (uint16_t)(b < 2 ? (check_rand() & 1 ? 36453 : check_rand()) : check_rand());
                rf[b] = check_rand() & 1 ? check_rand() : check_rand() >> 2;
            }
            for (int s = 0; s < 2; s++) {
                for (int b = 0; b < 3; b++) {
                    canary(&csf[s][b]);
                    canary(&flt[s][b]);
                }
                if (is16) {
                    const AdmRow16 in = { { row16(&src[0]), row16(&src[1]), row16(&src[2]) } };
                    const AdmRow16 c = { { row16(&csf[s][0]), row16(&csf[s][1]),
                                           row16(&csf[s][2]) } };
                    const AdmRow16 f = { { row16(&flt[s][0]), row16(&flt[s][1]),
                                           row16(&flt[s][2]) } };
                    ((AdmCsf0Fn)(s ? fn : ref))(&c, &f, &in, x0, x1, rf0);
                } else {
                    const AdmRow32 in = { { row32(&src[0]), row32(&src[1]), row32(&src[2]) } };
                    const AdmRow32 c = { { row32(&csf[s][0]), row32(&csf[s][1]),
                                           row32(&csf[s][2]) } };
                    const AdmRow32 f = { { row32(&flt[s][0]), row32(&flt[s][1]),
                                           row32(&flt[s][2]) } };
                    ((AdmCsf123Fn)(s ? fn : ref))(&c, &f, &in, x0, x1, rf);
                }
            }
            if (check_planted() && x1 > x0)
                row32(&flt[1][2])[0] ^= 1;
            for (int b = 0; b < 3; b++)
                if ((!same(&csf[0][b], &csf[1][b]) || !same(&flt[0][b], &flt[1][b])) &&
                    check_fail("w %d [%d, %d) pattern %d: band %d differs", w, x0, x1, pattern, b))
                    return;
        }
}

/* ---- denominators ---- */

static void check_den(const void *fn, const void *ref, const char *name, const char *lvl,
                      const int is16)
{
    if (!check_func(fn, ref, name, lvl))
        return;
    static Buf o[3];
    for (int w = 1; w; w = check_next_width(w))
        for (int pattern = 0; pattern < CHECK_N_PATTERNS; pattern++) {
            for (int b = 0; b < 3; b++)
                fill_signed(is16 ? (void *)row16(&o[b]) : row32(&o[b]), w, is16,
                            is16 ? 32767 : INT32_MAX, (pattern + b) % CHECK_N_PATTERNS);
            if (pattern == 5) {
                if (is16)
                    row16(&o[0])[w - 1] = -32768;
                else
                    row32(&o[0])[w - 1] = INT32_MIN;
            }
            int x0, x1;
            random_range(w, &x0, &x1);
            const unsigned q = 30 + check_rand() % 2, cub = check_rand() % 13;
            const uint64_t cub_add = cub ? UINT64_C(1) << (cub - 1) : 0;
            uint64_t sums[2][3];
            for (int s = 0; s < 2; s++) {
                if (is16) {
                    const AdmRow16 oo = { { row16(&o[0]), row16(&o[1]), row16(&o[2]) } };
                    ((AdmDen0Fn)(s ? fn : ref))(sums[s], &oo, x0, x1);
                } else {
                    const AdmRow32 oo = { { row32(&o[0]), row32(&o[1]), row32(&o[2]) } };
                    ((AdmDen123Fn)(s ? fn : ref))(sums[s], &oo, x0, x1, q, cub_add, cub);
                }
            }
            if (check_planted())
                sums[1][1] ^= 1;
            if (memcmp(sums[0], sums[1], sizeof(sums[0])) &&
                check_fail("w %d [%d, %d) pattern %d q %u cub %u: sums differ", w, x0, x1, pattern,
                           q, cub))
                return;
        }
}

/* ---- contrast masking ---- */

/* A column span as adm_span gives for a CM rectangle [lo, w - lo) (lo as (int)(w 0.1 - 0.5) is,
 * at most w / 2): the only spans the pipeline passes. */
static void random_cols(AdmCmCols *c, const int w)
{
    c->w = w;
    const int lo = (int)(check_rand() % (w / 2 < 4 ? w / 2 + 1 : 4)), hi = w - lo;
    c->first = lo <= 0 ? 0 : -1;
    c->start = lo > 1 ? lo : 1;
    c->end = hi < w - 1 ? hi : w - 1;
    c->last = hi > w - 1 ? w - 1 : -1;
    if (c->end < c->start)
        c->end = c->start;
}

static void check_cm(const void *fn, const void *ref, const char *name, const char *lvl,
                     const int is16, void *tmp)
{
    if (!check_func(fn, ref, name, lvl))
        return;
    static Buf src[3], csf[3], flt[3][3];
    for (int w = 3; w; w = check_next_width(w))
        for (int pattern = 0; pattern < CHECK_N_PATTERNS; pattern++) {
            const int32_t lim = is16 ? 32767 : INT32_MAX;
            for (int b = 0; b < 3; b++) {
                fill_signed(is16 ? (void *)row16(&src[b]) : row32(&src[b]), w, is16, lim, pattern);
                fill_signed(is16 ? (void *)row16(&csf[b]) : row32(&csf[b]), w, is16, lim,
                            (pattern + 1) % CHECK_N_PATTERNS);
                for (int k = 0; k < 3; k++)
                    fill_signed(is16 ? (void *)row16(&flt[k][b]) : row32(&flt[k][b]), w, is16,
                                is16 ? 32767 : (check_rand() & 1 ? INT32_MAX : 40000),
                                (pattern + k + b) % CHECK_N_PATTERNS);
            }
            AdmCmCols cols;
            random_cols(&cols, w);
            const int scale = 1 + (int)(check_rand() % 3);
            AdmCmParams p;
            const unsigned sub[3] = { 10, 10, 12 }, sq[3] = { 29, 29, 30 };
            uint16_t irf0[3];
            uint32_t irf[12];
            for (int b = 0; b < 3; b++) {
                p.sub[b] = sub[b];
                p.sq[b] = sq[b];
                p.cub[b] = check_rand() % 12;
                p.cub_add[b] = p.cub[b] ? INT64_C(1) << (p.cub[b] - 1) : 0;
                irf0[b] = (uint16_t)check_rand();
            }
            for (int k = 0; k < 12; k++)
                irf[k] = check_rand();
            p.irf0 = irf0;
            p.irf = irf;
            int64_t sums[2][3];
            for (int s = 0; s < 2; s++) {
                if (is16) {
                    const AdmRow16 sr = { { row16(&src[0]), row16(&src[1]), row16(&src[2]) } };
                    const AdmRow16 cr = { { row16(&csf[0]), row16(&csf[1]), row16(&csf[2]) } };
                    AdmRow16 f[3];
                    for (int k = 0; k < 3; k++)
                        f[k] = (AdmRow16){ { row16(&flt[k][0]), row16(&flt[k][1]),
                                             row16(&flt[k][2]) } };
                    const AdmRow16 *fp[3] = { &f[0], &f[1], &f[2] };
                    ((AdmCm0Fn)(s ? fn : ref))(sums[s], &sr, &cr, fp, &cols, &p, tmp);
                } else {
                    const AdmRow32 sr = { { row32(&src[0]), row32(&src[1]), row32(&src[2]) } };
                    const AdmRow32 cr = { { row32(&csf[0]), row32(&csf[1]), row32(&csf[2]) } };
                    AdmRow32 f[3];
                    for (int k = 0; k < 3; k++)
                        f[k] = (AdmRow32){ { row32(&flt[k][0]), row32(&flt[k][1]),
                                             row32(&flt[k][2]) } };
                    const AdmRow32 *fp[3] = { &f[0], &f[1], &f[2] };
                    ((AdmCm123Fn)(s ? fn : ref))(sums[s], &sr, &cr, fp, &cols, scale, &p, tmp);
                }
            }
            if (check_planted())
                sums[1][2] ^= 1;
            if (memcmp(sums[0], sums[1], sizeof(sums[0])) &&
                check_fail("w %d cols %d/%d..%d/%d pattern %d: sums differ", w, cols.first,
                           cols.start, cols.end, cols.last, pattern))
                return;
        }
}

void checkasm_adm(void)
{
    static int32_t div_lookup[65537];
    div_lookup[32768] = 0;
    for (int i = 1; i <= 32768; i++) {
        div_lookup[32768 + i] = adm_div_entry(i);
        div_lookup[32768 - i] = adm_div_entry(-i);
    }
    const float cos_sq = 0.99969542f;
    void *tmp = aligned_alloc(64, (adm_dsp_tmp_size(MAX_W) + 63) & ~(size_t)63);
    AdmDsp c;
    adm_dsp_init(&c, 0);
    for (int i = 0; i < check_n_levels(); i++) {
        const CheckLevel *l = check_level(i);
        AdmDsp d;
        adm_dsp_init(&d, l->cpu);
        check_dwt0(d.dwt0_u8, c.dwt0_u8, "adm_dwt0_u8", l->name, 0, tmp);
        check_dwt0(d.dwt0_u16, c.dwt0_u16, "adm_dwt0_u16", l->name, 1, tmp);
        check_dwt123(d.dwt123, c.dwt123, "adm_dwt123", l->name, tmp);
        check_decouple((const void *)d.decouple0, (const void *)c.decouple0, "adm_decouple0",
                       l->name, 1, div_lookup, cos_sq);
        check_decouple((const void *)d.decouple123, (const void *)c.decouple123, "adm_decouple123",
                       l->name, 0, div_lookup, cos_sq);
        check_csf((const void *)d.csf0, (const void *)c.csf0, "adm_csf0", l->name, 1);
        check_csf((const void *)d.csf123, (const void *)c.csf123, "adm_csf123", l->name, 0);
        check_den((const void *)d.den0, (const void *)c.den0, "adm_den0", l->name, 1);
        check_den((const void *)d.den123, (const void *)c.den123, "adm_den123", l->name, 0);
        check_cm((const void *)d.cm0, (const void *)c.cm0, "adm_cm0", l->name, 1, tmp);
        check_cm((const void *)d.cm123, (const void *)c.cm123, "adm_cm123", l->name, 0, tmp);
    }
    free(tmp);
}
