#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exactvmaf/exactvmaf.h"
#include "golden/golden_run.h"

static uint64_t bits_of(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof(u));
    return u;
}

static double double_of(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof(d));
    return d;
}

static void keep_last_line(void *user, EvLogLevel level, const char *line)
{
    (void)level;
    snprintf((char *)user, 1024, "%s", line);
}

/* Register every "--model spec" and "--feature name[=opts]" of the spec. */
static int use_spec(EvContext *ctx, const char *spec)
{
    char buf[512];
    snprintf(buf, sizeof(buf), "%s", spec);
    for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok;
         tok = strtok_r(NULL, " ", &save)) {
        const int model = !strcmp(tok, "--model");
        if (!model && strcmp(tok, "--feature"))
            return -ENOSYS;
        char *arg = strtok_r(NULL, " ", &save);
        if (!arg)
            return -EINVAL;
        if (model) {
            const int err = ev_use_model(ctx, arg);
            if (err)
                return err;
            continue;
        }
        char *eq = strchr(arg, '=');
        if (eq)
            *eq++ = '\0';
        const int err = ev_use_feature(ctx, arg, eq);
        if (err)
            return err;
    }
    return 0;
}

static int read_frame(FILE *f, uint8_t *buf, size_t bytes)
{
    return fread(buf, 1, bytes, f) == bytes ? 0 : -EIO;
}

static void describe(const GoldenPair *pair, uint8_t *buf, EvPicture *pic)
{
    const unsigned bytes = pair->bitdepth > 8 ? 2 : 1;
    pic->width = pair->width;
    pic->height = pair->height;
    pic->bitdepth = pair->bitdepth;
    pic->layout = pair->chroma == 420 ? EV_PIX_420 : pair->chroma == 422 ? EV_PIX_422 : EV_PIX_444;
    size_t offset = 0;
    for (unsigned p = 0; p < 3; p++) {
        unsigned w, h;
        ev_plane_size(pair->width, pair->height, pic->layout, p, &w, &h);
        pic->data[p] = buf ? buf + offset : NULL;
        pic->stride[p] = (ptrdiff_t)w * bytes;
        offset += (size_t)w * h * bytes;
    }
}

static size_t frame_bytes(const GoldenPair *pair)
{
    EvPicture pic;
    describe(pair, NULL, &pic);
    size_t total = 0;
    for (unsigned p = 0; p < 3; p++) {
        unsigned w, h;
        ev_plane_size(pair->width, pair->height, pic.layout, p, &w, &h);
        total += (size_t)w * h * (pair->bitdepth > 8 ? 2 : 1);
    }
    return total;
}

/* Score the whole pair; returns 0 or the first error (the context is left for reading). */
static int score_pair(EvContext *ctx, const GoldenPair *pair, const char *spec)
{
    int err = use_spec(ctx, spec);
    if (err)
        return err;
    const size_t bytes = frame_bytes(pair);
    FILE *fr = golden_open("corpus", pair->ref, "rb"), *fd = golden_open("corpus", pair->dis, "rb");
    uint8_t *br = malloc(bytes), *bd = malloc(bytes);
    if (!fr || !fd || !br || !bd)
        err = -EIO;
    for (unsigned i = 0; !err && i < pair->frames; i++) {
        if ((err = read_frame(fr, br, bytes)) || (err = read_frame(fd, bd, bytes)))
            break;
        EvPicture ref, dis;
        describe(pair, br, &ref);
        describe(pair, bd, &dis);
        err = ev_send_pictures(ctx, &ref, &dis);
    }
    if (!err)
        err = ev_flush(ctx);
    if (fr)
        fclose(fr);
    if (fd)
        fclose(fd);
    free(br);
    free(bd);
    return err;
}

static int lookup(const EvContext *ctx, const GoldenRow *r, double *v)
{
    switch (r->frame) {
    case GOLDEN_ROW_POOLED_MEAN: return ev_get_pooled(ctx, r->feature, EV_POOL_MEAN, v);
    case GOLDEN_ROW_POOLED_HMEAN: return ev_get_pooled(ctx, r->feature, EV_POOL_HARMONIC_MEAN, v);
    case GOLDEN_ROW_POOLED_MIN: return ev_get_pooled(ctx, r->feature, EV_POOL_MIN, v);
    case GOLDEN_ROW_POOLED_MAX: return ev_get_pooled(ctx, r->feature, EV_POOL_MAX, v);
    case GOLDEN_ROW_AGGREGATE:
        for (unsigned i = 0; i < ev_aggregate_count(ctx); i++) {
            const char *name;
            if (!ev_get_aggregate(ctx, i, &name, v) && !strcmp(name, r->feature))
                return 0;
        }
        return -ENOENT;
    default: return ev_get_score(ctx, r->feature, (unsigned)r->frame, v);
    }
}

static const char *row_frame(const GoldenRow *r, char *buf)
{
    static const char *const kind[] = { "",           "pooled_mean", "pooled_harmonic_mean",
                                        "pooled_min", "pooled_max",  "aggregate",
                                        "refused" };
    if (r->frame < 0)
        return kind[-r->frame];
    sprintf(buf, "frame %d", r->frame);
    return buf;
}

/* Every golden value of the case, by bits; then the counts, so nothing extra is produced. */
static void compare_values(const EvContext *ctx, const GoldenPair *pair, const GoldenCase *gc,
                           const GoldenTable *table, GoldenTally *t)
{
    unsigned n_frame_rows = 0, n_agg_rows = 0;
    for (unsigned i = 0; i < table->n; i++) {
        const GoldenRow *r = &table->row[i];
        if (strcmp(r->case_id, gc->id))
            continue;
        n_frame_rows += r->frame >= 0;
        n_agg_rows += r->frame == GOLDEN_ROW_AGGREGATE;
        double v = 0;
        const int err = lookup(ctx, r, &v);
        t->compared++;
        char fb[32];
        if (err) {
            t->different++;
            printf("MISSING %s %s %s %s: %s (want %.17g 0x%016" PRIx64 ")\n", pair->name, gc->id,
                   row_frame(r, fb), r->feature, strerror(-err), double_of(r->bits), r->bits);
        } else if (bits_of(v) != r->bits) {
            t->different++;
            printf("DIFF %s %s %s %s: got %.17g 0x%016" PRIx64 " want %.17g 0x%016" PRIx64 "\n",
                   pair->name, gc->id, row_frame(r, fb), r->feature, v, bits_of(v),
                   double_of(r->bits), r->bits);
        }
    }
    unsigned ours = 0;
    for (unsigned f = 0; f < ev_feature_count(ctx); f++)
        for (unsigned i = 0; i < ev_frame_count(ctx); i++) {
            double v;
            ours += !ev_get_score(ctx, ev_feature_name(ctx, f), i, &v);
        }
    if (ours != n_frame_rows || ev_aggregate_count(ctx) != n_agg_rows) {
        t->different++;
        printf("COUNT %s %s: %u per-frame values and %u aggregates, golden has %u and %u\n",
               pair->name, gc->id, ours, ev_aggregate_count(ctx), n_frame_rows, n_agg_rows);
    }
}

/* Output order must be libvmaf's collector order: the order of first appearance in the
 * golden per-frame rows. */
static void compare_order(const EvContext *ctx, const GoldenPair *pair, const GoldenCase *gc,
                          const GoldenTable *table, GoldenTally *t)
{
    unsigned next = 0;
    for (unsigned i = 0; i < table->n; i++) {
        const GoldenRow *r = &table->row[i];
        if (strcmp(r->case_id, gc->id) || r->frame < 0)
            continue;
        int seen = 0;
        for (unsigned f = 0; f < next && !seen; f++)
            seen = !strcmp(ev_feature_name(ctx, f), r->feature);
        if (seen)
            continue;
        const char *ours = ev_feature_name(ctx, next);
        if (!ours || strcmp(ours, r->feature)) {
            t->different++;
            printf("ORDER %s %s: feature %u is %s, golden has %s\n", pair->name, gc->id, next,
                   ours ? ours : "(none)", r->feature);
            return;
        }
        next++;
    }
}

static int expects_refusal(const GoldenTable *table, const GoldenCase *gc)
{
    for (unsigned i = 0; i < table->n; i++)
        if (!strcmp(table->row[i].case_id, gc->id) && table->row[i].frame == GOLDEN_ROW_REFUSED)
            return 1;
    return 0;
}

int golden_run_case(const GoldenPair *pair, const GoldenCase *gc, const GoldenTable *table,
                    unsigned threads, unsigned cpu_mask, GoldenTally *t)
{
    char last_log[1024] = "";
    EvSettings s;
    ev_default_settings(&s);
    s.n_threads = threads;
    s.cpu_mask = cpu_mask;
    s.log = keep_last_line;
    s.log_user = last_log;
    s.log_level = EV_LOG_ERROR;
    EvContext *ctx = NULL;
    if (ev_open(&ctx, &s))
        return -1;
    const int err = score_pair(ctx, pair, gc->spec);
    const int refuse = expects_refusal(table, gc);
    if (err == -ENOSYS || err == -EIO) {
        fprintf(stderr, "%s %s: cannot run (%s)\n", pair->name, gc->id, strerror(-err));
        ev_close(&ctx);
        return -1;
    }
    if (refuse) {
        if (err) {
            t->refused++;
        } else {
            t->different++;
            printf("NOT REFUSED %s %s: libvmaf refuses this case\n", pair->name, gc->id);
        }
    } else if (err) {
        t->different++;
        printf("FAILED %s %s: %s (%s)\n", pair->name, gc->id, strerror(-err), last_log);
    } else {
        compare_values(ctx, pair, gc, table, t);
        compare_order(ctx, pair, gc, table, t);
    }
    ev_close(&ctx);
    return 0;
}
