/* checkasm: the float VIF row kernels (features/vif/float_vif_scale.h) of every level vs C. */
#include <stdlib.h>
#include <string.h>

#include "checkasm/checkasm.h"
#include "features/vif/float_vif_dsp.h"
#include "features/vif/float_vif_scale.h"

enum { MAX_W = 4097, MAX_TAPS = 33 };

static const VifFloatParams params = { 100.0f, 2.0, (float)(4.0 / (255.0 * 255.0)) };

/* What the kernels read (a row per filter tap) and write, and each side's work rows. */
typedef struct Rows {
    float ref[MAX_TAPS][MAX_W], dis[MAX_TAPS][MAX_W], out[2][MAX_W / 2 + 16];
    const float *rr[MAX_TAPS], *dr[MAX_TAPS]; /* ref and dis */
    VifFloatRows work[2];                     /* C's, the level's */
} Rows;

/* One level's kernel tables against C's, on rows. */
typedef struct Sides {
    const VifFloatDsp *c, *d;
    Rows *rows;
} Sides;

/* a row of float samples as float_vif makes them: v / scaler - 128 for v of bits bits */
static void fill_floats(float *p, const int n, const unsigned bits, const int pattern)
{
    check_fill_floats(p, (size_t)n, bits, pattern, -128.0f);
}

/* One case of a kernel: filter f (of scale) over rows of w samples of pattern. Returns 1
 * when it reported a mismatch. */
typedef int CaseRun(const Sides *s, const VifFloatFilter *f, int scale, int w, int pattern);

static int stat_case(const Sides *s, const VifFloatFilter *f, const int scale, const int w,
                     const int pattern)
{
    Rows *r = s->rows;
    const unsigned bits = 8 + check_rand() % 9;
    for (int k = 0; k < f->n; k++) {
        fill_floats(r->ref[k], w, bits, pattern);
        fill_floats(r->dis[k], w, bits, (pattern + k) % CHECK_N_PATTERNS);
    }
    float n[2], dn[2];
    s->c->stat_row(&n[0], &dn[0], r->rr, r->dr, w, f, &params, &r->work[0]);
    s->d->stat_row(&n[1], &dn[1], r->rr, r->dr, w, f, &params, &r->work[1]);
    if (check_planted())
        n[1] = -n[1];
    return (memcmp(&n[0], &n[1], sizeof(float)) || memcmp(&dn[0], &dn[1], sizeof(float))) &&
           check_fail("scale %d w %d pattern %d: num %.9g/%.9g den %.9g/%.9g", scale, w, pattern,
                      n[0], n[1], dn[0], dn[1]);
}

static int down_case(const Sides *s, const VifFloatFilter *f, const int scale, const int w,
                     const int pattern)
{
    Rows *r = s->rows;
    for (int k = 0; k < f->n; k++)
        fill_floats(r->ref[k], w, 8 + check_rand() % 9, pattern);
    memset(r->out, 0x5A, sizeof(r->out));
    s->c->down_row(r->out[0], r->rr, w, f, r->work[0].line[0]);
    s->d->down_row(r->out[1], r->rr, w, f, r->work[1].line[0]);
    if (check_planted())
        r->out[1][0] = -r->out[1][0];
    return memcmp(r->out[0], r->out[1], sizeof(r->out[0])) &&
           check_fail("scale %d w %d pattern %d: outputs differ", scale, w, pattern);
}

/* Kernel `name` (fn, C's ref) on every filter scale from first_scale, every width it takes
 * and every pattern; after a mismatch the remaining patterns of that width are skipped. */
static void sweep(const Sides *s, const void *fn, const void *ref, const char *name,
                  const char *lvl, const int first_scale, CaseRun *run)
{
    if (!check_func(fn, ref, name, lvl))
        return;
    for (int scale = first_scale; scale < 4; scale++) {
        VifFloatFilter f;
        vif_float_filter_init(&f, scale, 1.0f);
        for (int w = f.n; w; w = check_next_width(w))
            for (int pattern = 0; pattern < CHECK_N_PATTERNS; pattern++)
                if (run(s, &f, scale, w, pattern))
                    break;
    }
}

static void check_level_kernels(const void *c, const void *d, const char *lvl, void *rows)
{
    const Sides s = { c, d, rows };
    sweep(&s, (const void *)s.d->stat_row, (const void *)s.c->stat_row, "float_vif_stat_row", lvl,
          0, stat_case);
    sweep(&s, (const void *)s.d->down_row, (const void *)s.c->down_row, "float_vif_down_row", lvl,
          1, down_case);
}

static void init_table(void *table, const unsigned cpu)
{
    vif_float_dsp_init(table, cpu);
}

void checkasm_float_vif(void)
{
    static Rows r;
    void *mem[2];
    for (int k = 0; k < MAX_TAPS; k++) {
        r.rr[k] = r.ref[k];
        r.dr[k] = r.dis[k];
    }
    for (int s = 0; s < 2; s++) {
        mem[s] = malloc(vif_float_rows_size(MAX_W, MAX_TAPS));
        vif_float_rows_init(&r.work[s], mem[s], MAX_W, MAX_TAPS);
    }
    check_each_level(sizeof(VifFloatDsp), init_table, check_level_kernels, &r);
    for (int s = 0; s < 2; s++)
        free(mem[s]);
}
