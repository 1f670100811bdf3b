/* checkasm: the integer VIF row kernels (features/vif/vif_dsp.h) of every level against C. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm/checkasm.h"
#include "features/vif/vif_dsp.h"
#include "features/vif/vif_log2.h"

enum { MAX_W = 4097, CANARY = 0xA5 };

static uint16_t table[VIF_LOG2_TABLE_PADDED];

typedef struct Rows {
    void *ref[VIF_MAX_TAPS + 1], *dis[VIF_MAX_TAPS + 1];
} Rows;

/* n rows of w samples each (bytes per sample), filled with one pattern per row pair. */
static void fill_rows(Rows *r, const int n, const int w, const int bytes, const unsigned bits,
                      const int pattern)
{
    for (int k = 0; k < n; k++) {
        check_fill(r->ref[k], (size_t)w, bytes, bits, pattern);
        /* the distorted row: a perturbed copy half of the time, independent otherwise */
        if (pattern == 0 && (check_rand() & 1)) {
            memcpy(r->dis[k], r->ref[k], (size_t)w * bytes);
            for (int j = 0; j < w; j++) {
                const uint32_t max = (1u << bits) - 1, d = check_rand() % 9;
                uint32_t v = bytes == 1 ? ((uint8_t *)r->dis[k])[j] : ((uint16_t *)r->dis[k])[j];
                v = v + d > 4 + max ? max : (v + d < 4 ? 0 : v + d - 4);
                if (bytes == 1)
                    ((uint8_t *)r->dis[k])[j] = (uint8_t)v;
                else
                    ((uint16_t *)r->dis[k])[j] = (uint16_t)v;
            }
        } else {
            check_fill(r->dis[k], (size_t)w, bytes, bits,
                       pattern == 0 ? 0 : (pattern + k) % CHECK_N_PATTERNS);
        }
    }
}

static double random_egl(void)
{
    switch (check_rand() % 3) {
    case 0: return 100.0;
    case 1: return 1.0;
    default: return 1.0 + (check_rand() % 99000) / 1000.0;
    }
}

enum { BENCH_W = 1920 };

/* The statistic's bench case: scale 0 rows of a typical width (8 or 10 bits) and their
 * parameters; returns the shifts. */
static VifShifts bench_rows(Rows *rows, const int u8, VifStatParams *p)
{
    fill_rows(rows, vif_n_taps[0] + 1, BENCH_W, u8 ? 1 : 2, u8 ? 8 : 10, 0);
    *p = (VifStatParams){ table, 100.0 };
    return vif_shifts(0, u8 ? 8 : 10);
}

/* Report a mismatch of a kernel's sums (where: the case). Returns 1 the first time. */
static int fail_sums(const char *where, const VifSums *want, const VifSums *got)
{
    return check_fail("%s: num_log %lld/%lld den_log %lld/%lld num_non_log %lld/%lld "
                      "den_non_log %lld/%lld",
                      where, (long long)want->num_log, (long long)got->num_log,
                      (long long)want->den_log, (long long)got->den_log,
                      (long long)want->num_non_log, (long long)got->num_non_log,
                      (long long)want->den_non_log, (long long)got->den_non_log);
}

static void check_stat(VifStatRowFn fn, VifStatRowFn ref_fn, const char *name, const char *lvl,
                       const int u8, Rows *rows, void *tmp)
{
    if (!check_func((const void *)fn, (const void *)ref_fn, name, lvl))
        return;
    for (int scale = u8 ? 0 : 0; scale < (u8 ? 1 : 4); scale++) {
        for (int w = 2; w; w = check_next_width(w)) {
            for (int pattern = 0; pattern < CHECK_N_PATTERNS; pattern++) {
                /* depth: 8 for u8; scale 0 of u16 any of 9..16; scales 1..3 carry 16 bits */
                const unsigned bpc = u8 ? 8 : scale ? 16 : 9 + check_rand() % 8;
                const VifShifts sh = vif_shifts(scale ? 1 : 0, bpc);
                const int n_out = 1 + (int)(check_rand() & 1);
                fill_rows(rows, vif_n_taps[scale] + n_out - 1, w, u8 ? 1 : 2, scale ? 16 : bpc,
                          pattern);
                const VifStatParams p = { table, random_egl() };
                VifSums want = { 0 }, got = { 0 };
                ref_fn(&want, (const void *const *)rows->ref, (const void *const *)rows->dis, n_out,
                       scale, w, sh, &p, tmp);
                fn(&got, (const void *const *)rows->ref, (const void *const *)rows->dis, n_out,
                   scale, w, sh, &p, tmp);
                if (check_planted())
                    got.num_log ^= 1;
                char where[96];
                snprintf(where, sizeof(where), "scale %d w %d rows %d bpc %u pattern %d egl %g",
                         scale, w, n_out, bpc, pattern, p.egl);
                if (memcmp(&want, &got, sizeof(want)) && fail_sums(where, &want, &got))
                    return;
            }
        }
    }
    if (check_benching()) {
        const int w = BENCH_W, scale = 0, reps = 200;
        VifStatParams p;
        const VifShifts sh = bench_rows(rows, u8, &p);
        double t[2];
        VifStatRowFn f[2] = { fn, ref_fn };
        for (int k = 0; k < 2; k++) {
            VifSums s = { 0 };
            const double t0 = check_now_ns();
            for (int i = 0; i < reps; i++)
                f[k](&s, (const void *const *)rows->ref, (const void *const *)rows->dis, 2, scale,
                     w, sh, &p, tmp);
            t[k] = (check_now_ns() - t0) / reps / 2;
        }
        check_bench_report(u8 ? "stat_row_u8 (scale 0, w 1920, per row)"
                              : "stat_row_u16 (10-bit, w 1920, per row)",
                           t[0], t[1]);
    }
}

static void check_down(VifDownRowFn fn, VifDownRowFn ref_fn, const char *name, const char *lvl,
                       const int u8, Rows *rows, void *tmp)
{
    if (!check_func((const void *)fn, (const void *)ref_fn, name, lvl))
        return;
    static uint16_t out[4][MAX_W / 2 + 64];
    for (int filter = 1; filter < 4; filter++) {
        const int n = vif_n_taps[filter];
        for (int w = 2; w; w = check_next_width(w)) {
            for (int pattern = 0; pattern < CHECK_N_PATTERNS; pattern++) {
                const unsigned bpc = u8 ? 8 : filter > 1 ? 16 : 9 + check_rand() % 8;
                const unsigned shift = vif_shifts(filter > 1 ? 1 : 0, bpc).mu_shift;
                fill_rows(rows, n, w, u8 ? 1 : 2, bpc, pattern);
                memset(out, CANARY, sizeof(out));
                ref_fn(out[0], out[1], (const void *const *)rows->ref,
                       (const void *const *)rows->dis, filter, w, shift, tmp);
                fn(out[2], out[3], (const void *const *)rows->ref, (const void *const *)rows->dis,
                   filter, w, shift, tmp);
                if (check_planted())
                    out[3][check_rand() % (w / 2 ? w / 2 : 1)] ^= 1;
                if ((memcmp(out[0], out[2], sizeof(out[0])) ||
                     memcmp(out[1], out[3], sizeof(out[1]))) &&
                    check_fail("filter %d w %d bpc %u pattern %d: outputs (or the margin after "
                               "w / 2) differ",
                               filter, w, bpc, pattern))
                    return;
            }
        }
    }
    if (check_benching()) {
        const int w = 1920, reps = 400;
        fill_rows(rows, vif_n_taps[1], w, u8 ? 1 : 2, u8 ? 8 : 16, 0);
        double t[2];
        VifDownRowFn f[2] = { fn, ref_fn };
        for (int k = 0; k < 2; k++) {
            const double t0 = check_now_ns();
            for (int i = 0; i < reps; i++)
                f[k](out[0], out[1], (const void *const *)rows->ref, (const void *const *)rows->dis,
                     1, w, u8 ? 8 : 16, tmp);
            t[k] = (check_now_ns() - t0) / reps;
        }
        check_bench_report(
            u8 ? "down_row_u8 (filter 1, w 1920)" : "down_row_u16 (filter 1, w 1920)", t[0], t[1]);
    }
}

/* The many-encodes parts: the reference's part once into a cache (and its denominator sums),
 * then two distorted's parts from it, each adding up with those to the C kernel's sums of that
 * pair (the cache is read, never written, by a distorted's part). */
static void check_parts(const VifDsp *d, const VifDsp *c, const char *lvl, const int u8, Rows *rows,
                        Rows *rows2, void *tmp, void *cache)
{
    const VifStatRefFn ref_part = u8 ? d->stat_ref_u8 : d->stat_ref_u16;
    const VifStatDisFn dis_part = u8 ? d->stat_dis_u8 : d->stat_dis_u16;
    const VifStatRowFn want_fn = u8 ? c->stat_row_u8 : c->stat_row_u16;
    if (!ref_part || !check_func((const void *)dis_part, (const void *)want_fn,
                                 u8 ? "vif_stat_parts_u8" : "vif_stat_parts_u16", lvl))
        return;
    for (int scale = 0; scale < (u8 ? 1 : 4); scale++) {
        for (int w = 2; w; w = check_next_width(w)) {
            for (int pattern = 0; pattern < CHECK_N_PATTERNS; pattern++) {
                const unsigned bpc = u8 ? 8 : scale ? 16 : 9 + check_rand() % 8;
                const VifShifts sh = vif_shifts(scale ? 1 : 0, bpc);
                const int n_out = 1 + (int)(check_rand() & 1), n = vif_n_taps[scale] + n_out - 1;
                fill_rows(rows, n, w, u8 ? 1 : 2, scale ? 16 : bpc, pattern);
                fill_rows(rows2, n, w, u8 ? 1 : 2, scale ? 16 : bpc,
                          (pattern + 1) % CHECK_N_PATTERNS);
                const VifStatParams p = { table, random_egl() };
                const void *const *ref = (const void *const *)rows->ref;
                const void *const *dis[2] = { (const void *const *)rows->dis,
                                              (const void *const *)rows2->dis };
                VifSums den = { 0 };
                ref_part(&den, cache, ref, n_out, scale, w, sh, &p, tmp);
                for (int k = 0; k < 2; k++) {
                    VifSums want = { 0 }, got = den;
                    want_fn(&want, ref, dis[k], n_out, scale, w, sh, &p, tmp);
                    dis_part(&got, cache, ref, dis[k], n_out, scale, w, sh, &p, tmp);
                    if (check_planted())
                        got.den_log ^= 1;
                    char where[112];
                    snprintf(where, sizeof(where),
                             "distorted %d scale %d w %d rows %d bpc %u pattern %d egl %g", k,
                             scale, w, n_out, bpc, pattern, p.egl);
                    if (memcmp(&want, &got, sizeof(want)) && fail_sums(where, &want, &got))
                        return;
                }
            }
        }
    }
    if (check_benching()) {
        const int w = BENCH_W, scale = 0, reps = 200;
        VifStatParams p;
        const VifShifts sh = bench_rows(rows, u8, &p);
        const void *const *ref = (const void *const *)rows->ref;
        const void *const *dis = (const void *const *)rows->dis;
        VifSums s = { 0 };
        double t0 = check_now_ns();
        for (int i = 0; i < reps; i++)
            ref_part(&s, cache, ref, 2, scale, w, sh, &p, tmp);
        const double t_ref = (check_now_ns() - t0) / reps / 2;
        t0 = check_now_ns();
        for (int i = 0; i < reps; i++)
            dis_part(&s, cache, ref, dis, 2, scale, w, sh, &p, tmp);
        const double t_dis = (check_now_ns() - t0) / reps / 2;
        check_bench_report(u8 ? "stat_ref_u8 (scale 0, w 1920, per row; C: stat_dis)"
                              : "stat_ref_u16 (10-bit, w 1920, per row; C: stat_dis)",
                           t_ref, t_dis);
    }
}

/* A one-picture decimation row against the C pair kernel's output of that picture. */
static void check_down_one(VifDownOneFn fn, VifDownRowFn pair_fn, const char *name, const char *lvl,
                           const int u8, Rows *rows, void *tmp)
{
    if (!check_func((const void *)fn, (const void *)pair_fn, name, lvl))
        return;
    static uint16_t out[4][MAX_W / 2 + 64];
    for (int filter = 1; filter < 4; filter++) {
        for (int w = 2; w; w = check_next_width(w)) {
            for (int pattern = 0; pattern < CHECK_N_PATTERNS; pattern++) {
                const unsigned bpc = u8 ? 8 : filter > 1 ? 16 : 9 + check_rand() % 8;
                const unsigned shift = vif_shifts(filter > 1 ? 1 : 0, bpc).mu_shift;
                fill_rows(rows, vif_n_taps[filter], w, u8 ? 1 : 2, bpc, pattern);
                memset(out, CANARY, sizeof(out));
                pair_fn(out[0], out[1], (const void *const *)rows->ref,
                        (const void *const *)rows->dis, filter, w, shift, tmp);
                fn(out[2], (const void *const *)rows->ref, filter, w, shift, tmp);
                fn(out[3], (const void *const *)rows->dis, filter, w, shift, tmp);
                if (check_planted())
                    out[2][check_rand() % (w / 2 ? w / 2 : 1)] ^= 1;
                if ((memcmp(out[0], out[2], sizeof(out[0])) ||
                     memcmp(out[1], out[3], sizeof(out[1]))) &&
                    check_fail("filter %d w %d bpc %u pattern %d: outputs (or the margin after "
                               "w / 2) differ",
                               filter, w, bpc, pattern))
                    return;
            }
        }
    }
}

void checkasm_vif(void)
{
    vif_log2_table_build(table);
    Rows rows, rows2;
    for (int k = 0; k <= VIF_MAX_TAPS; k++) {
        rows.ref[k] = malloc(MAX_W * 2);
        rows.dis[k] = malloc(MAX_W * 2);
        rows2.ref[k] = malloc(MAX_W * 2);
        rows2.dis[k] = malloc(MAX_W * 2);
    }
    void *tmp = aligned_alloc(64, (vif_dsp_tmp_size(MAX_W) + 63) & ~(size_t)63);
    VifDsp c;
    vif_dsp_init(&c, 0);
    size_t cache_size = 64;
    for (int i = 0; i < check_n_levels(); i++) {
        VifDsp d;
        vif_dsp_init(&d, check_level(i)->cpu);
        if (d.ref_cache_size && d.ref_cache_size(MAX_W) > cache_size)
            cache_size = d.ref_cache_size(MAX_W);
    }
    void *cache = aligned_alloc(64, (cache_size + 63) & ~(size_t)63);
    check_down_one(c.down_one_u8, c.down_row_u8, "vif_down_one_u8", "c", 1, &rows, tmp);
    check_down_one(c.down_one_u16, c.down_row_u16, "vif_down_one_u16", "c", 0, &rows, tmp);
    for (int i = 0; i < check_n_levels(); i++) {
        const CheckLevel *l = check_level(i);
        VifDsp d;
        vif_dsp_init(&d, l->cpu);
        check_stat(d.stat_row_u8, c.stat_row_u8, "vif_stat_row_u8", l->name, 1, &rows, tmp);
        check_stat(d.stat_row_u16, c.stat_row_u16, "vif_stat_row_u16", l->name, 0, &rows, tmp);
        check_down(d.down_row_u8, c.down_row_u8, "vif_down_row_u8", l->name, 1, &rows, tmp);
        check_down(d.down_row_u16, c.down_row_u16, "vif_down_row_u16", l->name, 0, &rows, tmp);
        check_down_one(d.down_one_u8, c.down_row_u8, "vif_down_one_u8", l->name, 1, &rows, tmp);
        check_down_one(d.down_one_u16, c.down_row_u16, "vif_down_one_u16", l->name, 0, &rows, tmp);
        check_parts(&d, &c, l->name, 1, &rows, &rows2, tmp, cache);
        check_parts(&d, &c, l->name, 0, &rows, &rows2, tmp, cache);
    }
    free(cache);
    free(tmp);
    for (int k = 0; k <= VIF_MAX_TAPS; k++) {
        free(rows.ref[k]);
        free(rows.dis[k]);
        free(rows2.ref[k]);
        free(rows2.dis[k]);
    }
}
