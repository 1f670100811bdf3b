/*
 * xpsnr against ffmpeg 7.1's xpsnr filter, bit for bit: every case of xpsnr_cases.h is derived
 * from its corpus pair in memory, scored by exactvmaf's xpsnr, and every per-frame value and
 * average compared by its bits with tests/xpsnr/golden/<id>.txt (the reference's stats file).
 *
 *   xpsnr_golden [--threads N] [--cpumask M] [--cuda] [ID...]
 *                                                       check (all cases by default); exit 77
 *                                                       without shared/ (or, with --cuda, without
 *                                                       a CUDA device: the twin then scores)
 *   xpsnr_golden --list                                 the case ids
 *   xpsnr_golden --write-input ID DIR                   write the case's raw pair as DIR/ref.yuv
 *                                                       and DIR/dis.yuv, and print
 *                                                       "W H PIX_FMT FRAME_RATE" (for ffmpeg)
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exactvmaf/exactvmaf.h"
#include "golden/golden_io.h"
#include "xpsnr/xpsnr_cases.h"

typedef struct Frames {
    unsigned w, h, depth, n;
    EvPixelLayout layout;
    unsigned pw[3], ph[3], n_planes;
    uint16_t *ref, *dis; /* n frames of planes Y, U, V, each pw x ph samples (depth > 8 or not) */
    size_t frame_samples;
} Frames;

static EvPixelLayout layout_of(unsigned chroma)
{
    return chroma == 420 ? EV_PIX_420 : chroma == 422 ? EV_PIX_422 : EV_PIX_444;
}

static void set_planes(Frames *f)
{
    f->n_planes = f->layout == EV_PIX_400 ? 1 : 3;
    f->frame_samples = 0;
    for (unsigned p = 0; p < 3; p++) {
        ev_plane_size(f->w, f->h, f->layout, p, &f->pw[p], &f->ph[p]);
        f->frame_samples += (size_t)f->pw[p] * f->ph[p];
    }
}

/* Read a corpus file's frames into 16-bit samples. */
static int read_file(const char *name, const Frames *src, uint16_t *dst)
{
    FILE *f = golden_open("corpus", name, "rb");
    if (!f)
        return -EIO;
    const size_t n = src->frame_samples * src->n;
    int err = 0;
    if (src->depth > 8) {
        err = fread(dst, 2, n, f) == n ? 0 : -EIO; /* little-endian, as the host */
    } else {
        uint8_t *b = malloc(n);
        err = b && fread(b, 1, n, f) == n ? 0 : -EIO;
        for (size_t i = 0; !err && i < n; i++)
            dst[i] = b[i];
        free(b);
    }
    fclose(f);
    return err;
}

/* The case's frames: tiled, cropped, shifted, luma only, inverted, as its table entry says. */
static int derive(const XpsnrCase *c, const GoldenPair *pair, Frames *out)
{
    Frames src = { .w = pair->width,
                   .h = pair->height,
                   .depth = pair->bitdepth,
                   .n = pair->frames,
                   .layout = layout_of(pair->chroma) };
    set_planes(&src);
    src.ref = malloc(src.frame_samples * src.n * 2);
    src.dis = malloc(src.frame_samples * src.n * 2);
    int err = src.ref && src.dis ? 0 : -ENOMEM;
    if (!err)
        err = read_file(pair->ref, &src, src.ref);
    if (!err)
        err = read_file(pair->dis, &src, src.dis);
    *out = (Frames){ .w = c->cw ? c->cw : src.w * c->tx,
                     .h = c->ch ? c->ch : src.h * c->ty,
                     .depth = src.depth - c->shift,
                     .n = src.n,
                     .layout = c->gray ? EV_PIX_400 : src.layout };
    set_planes(out);
    out->ref = malloc(out->frame_samples * out->n * 2);
    out->dis = malloc(out->frame_samples * out->n * 2);
    if (!err && (!out->ref || !out->dis))
        err = -ENOMEM;
    const uint16_t peak = (uint16_t)((1u << out->depth) - 1);
    for (unsigned i = 0; !err && i < out->n; i++) {
        const uint16_t *sr = src.ref + i * src.frame_samples, *sd = src.dis + i * src.frame_samples;
        uint16_t *dr = out->ref + i * out->frame_samples, *dd = out->dis + i * out->frame_samples;
        for (unsigned p = 0; p < out->n_planes; p++) {
            for (unsigned y = 0; y < out->ph[p]; y++)
                for (unsigned x = 0; x < out->pw[p]; x++) {
                    const size_t at = (size_t)(y % src.ph[p]) * src.pw[p] + x % src.pw[p];
                    const uint16_t d = (uint16_t)(sd[at] >> c->shift);
                    *dr++ = (uint16_t)(sr[at] >> c->shift);
                    *dd++ = c->invert ? (uint16_t)(peak - d) : d;
                }
            sr += (size_t)src.pw[p] * src.ph[p];
            sd += (size_t)src.pw[p] * src.ph[p];
        }
    }
    free(src.ref);
    free(src.dis);
    return err;
}

static void free_frames(Frames *f)
{
    free(f->ref);
    free(f->dis);
}

static const GoldenPair *find_pair(const GoldenCorpus *corpus, const char *name)
{
    for (unsigned i = 0; i < corpus->n; i++)
        if (!strcmp(corpus->pair[i].name, name))
            return &corpus->pair[i];
    return NULL;
}

static const XpsnrCase *find_case(const char *id)
{
    for (size_t i = 0; i < XPSNR_N_CASES; i++)
        if (!strcmp(xpsnr_cases[i].id, id))
            return &xpsnr_cases[i];
    return NULL;
}

/* One plane of a frame as 8- or 16-bit samples in buf (the picture's storage). */
static void picture_of(const Frames *f, const uint16_t *frame, void *buf, EvPicture *pic)
{
    const unsigned bytes = f->depth > 8 ? 2 : 1;
    *pic = (EvPicture){ .width = f->w, .height = f->h, .bitdepth = f->depth, .layout = f->layout };
    uint8_t *at = buf;
    for (unsigned p = 0; p < f->n_planes; p++) {
        const size_t n = (size_t)f->pw[p] * f->ph[p];
        if (bytes == 2)
            memcpy(at, frame, n * 2);
        else
            for (size_t i = 0; i < n; i++)
                at[i] = (uint8_t)frame[i];
        pic->data[p] = at;
        pic->stride[p] = (ptrdiff_t)f->pw[p] * bytes;
        at += n * bytes;
        frame += n;
    }
}

/* ffmpeg's pixel format of the frames. */
static void pix_fmt(const Frames *f, char *buf, size_t size)
{
    const char *base = f->layout == EV_PIX_400   ? "gray"
                       : f->layout == EV_PIX_420 ? "yuv420p"
                       : f->layout == EV_PIX_422 ? "yuv422p"
                                                 : "yuv444p";
    if (f->depth == 8)
        snprintf(buf, size, "%s", base);
    else
        snprintf(buf, size, "%s%ule", base, f->depth);
}

static int write_input(const XpsnrCase *c, const Frames *f, const char *dir)
{
    static const char *const name[2] = { "ref.yuv", "dis.yuv" };
    const unsigned bytes = f->depth > 8 ? 2 : 1;
    void *buf = malloc(f->frame_samples * 2);
    int err = buf ? 0 : -ENOMEM;
    for (unsigned k = 0; k < 2 && !err; k++) {
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", dir, name[k]);
        FILE *out = fopen(path, "wb");
        if (!out) {
            fprintf(stderr, "%s: %s\n", path, strerror(errno));
            err = -EIO;
            break;
        }
        for (unsigned i = 0; i < f->n && !err; i++) {
            EvPicture pic;
            picture_of(f, (k ? f->dis : f->ref) + i * f->frame_samples, buf, &pic);
            err = fwrite(buf, bytes, f->frame_samples, out) == f->frame_samples ? 0 : -EIO;
        }
        err = fclose(out) && !err ? -EIO : err;
    }
    free(buf);
    char fmt[32];
    pix_fmt(f, fmt, sizeof(fmt));
    if (!err)
        printf("%u %u %s %u\n", f->w, f->h, fmt, c->frame_rate);
    return err;
}

/* A golden file's values: per frame and plane, then the averages and the minimum. */
typedef struct Golden {
    double frame[64][3];
    unsigned n_frames, n_planes;
    double average[3], minimum;
    int has_average, has_minimum;
} Golden;

/* The hex (%a) after "LABEL: <%.17g> " in s, or NULL. */
static const char *value_after(const char *s, const char *label, double *v)
{
    const char *at = strstr(s, label);
    if (!at)
        return NULL;
    char *end;
    strtod(at + strlen(label), &end); /* the decimal */
    *v = strtod(end, &end);           /* the exact hex */
    return end;
}

static int load_golden(const char *id, Golden *g)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/tests/xpsnr/golden/%s.txt", EV_SOURCE_DIR, id);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return -EIO;
    }
    static const char *const comp = "yuv";
    memset(g, 0, sizeof(*g));
    char line[4096];
    while (fgets(line, sizeof(line), f)) {
        char label[32];
        if (!strncmp(line, "n:", 2) && g->n_frames < 64) {
            unsigned p = 0;
            const char *at = line;
            for (; p < 3; p++) {
                snprintf(label, sizeof(label), "XPSNR %c:", comp[p]);
                if (!(at = value_after(line, label, &g->frame[g->n_frames][p])))
                    break;
            }
            g->n_planes = p;
            g->n_frames++;
        } else if (!strncmp(line, "XPSNR average", 13)) {
            g->has_average = 1;
            for (unsigned p = 0; p < g->n_planes; p++) {
                snprintf(label, sizeof(label), " %c:", comp[p]);
                if (!value_after(line, label, &g->average[p]))
                    g->has_average = 0;
            }
            g->has_minimum = value_after(line, "(minimum:", &g->minimum) != NULL;
        }
    }
    fclose(f);
    return g->n_frames && g->n_planes ? 0 : -EINVAL;
}

static uint64_t bits_of(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof(u));
    return u;
}

static unsigned compare(const char *id, const char *what, double got, double want)
{
    if (bits_of(got) == bits_of(want))
        return 0;
    printf("DIFF %s %s: got %.17g 0x%016" PRIx64 " want %.17g 0x%016" PRIx64 "\n", id, what, got,
           bits_of(got), want, bits_of(want));
    return 1;
}

static int aggregate(const EvContext *ctx, const char *name, double *v)
{
    for (unsigned i = 0; i < ev_aggregate_count(ctx); i++) {
        const char *n;
        if (!ev_get_aggregate(ctx, i, &n, v) && !strcmp(n, name))
            return 0;
    }
    return -ENOENT;
}

/* Score the case and compare; returns the values that differ (or -1 on a setup error). */
static int check_case(const XpsnrCase *c, const Frames *f, const Golden *g, unsigned threads,
                      unsigned cpu_mask, int cuda)
{
    static const char *const comp = "yuv";
    EvSettings s;
    ev_default_settings(&s);
    s.n_threads = threads;
    s.cpu_mask = cpu_mask;
    s.backend = cuda ? EV_BACKEND_CUDA : EV_BACKEND_CPU;
    EvContext *ctx = NULL;
    char opts[64];
    snprintf(opts, sizeof(opts), "frame_rate=%u", c->frame_rate);
    void *br = malloc(f->frame_samples * 2), *bd = malloc(f->frame_samples * 2);
    int err = br && bd ? ev_open(&ctx, &s) : -ENOMEM;
    if (!err)
        err = ev_use_feature(ctx, "xpsnr", opts);
    for (unsigned i = 0; !err && i < f->n; i++) {
        EvPicture ref, dis;
        picture_of(f, f->ref + i * f->frame_samples, br, &ref);
        picture_of(f, f->dis + i * f->frame_samples, bd, &dis);
        err = ev_send_pictures(ctx, &ref, &dis);
    }
    if (!err)
        err = ev_flush(ctx);
    free(br);
    free(bd);
    if (err) {
        printf("FAILED %s: %s\n", c->id, strerror(-err));
        ev_close(&ctx);
        return 1;
    }
    unsigned diff = 0;
    if (g->n_frames != f->n || g->n_planes != f->n_planes || !g->has_average ||
        g->has_minimum != (f->n_planes > 1)) {
        printf("GOLDEN %s: %u frames of %u planes, the case has %u of %u\n", c->id, g->n_frames,
               g->n_planes, f->n, f->n_planes);
        diff++;
    }
    char what[64], name[32];
    for (unsigned i = 0; i < g->n_frames; i++)
        for (unsigned p = 0; p < g->n_planes; p++) {
            snprintf(name, sizeof(name), "xpsnr_%c", comp[p]);
            snprintf(what, sizeof(what), "frame %u %s", i, name);
            double v;
            if (ev_get_score(ctx, name, i, &v)) {
                printf("MISSING %s %s\n", c->id, what);
                diff++;
                continue;
            }
            diff += compare(c->id, what, v, g->frame[i][p]);
        }
    for (unsigned p = 0; p < g->n_planes; p++) {
        snprintf(name, sizeof(name), "xpsnr_average_%c", comp[p]);
        double v;
        if (aggregate(ctx, name, &v)) {
            printf("MISSING %s %s\n", c->id, name);
            diff++;
        } else {
            diff += compare(c->id, name, v, g->average[p]);
        }
    }
    double v;
    if (g->has_minimum && aggregate(ctx, "xpsnr_minimum", &v)) {
        printf("MISSING %s xpsnr_minimum\n", c->id);
        diff++;
    } else if (g->has_minimum) {
        diff += compare(c->id, "xpsnr_minimum", v, g->minimum);
    }
    const unsigned want_agg = g->n_planes + (g->n_planes > 1);
    if (ev_feature_count(ctx) != g->n_planes || ev_aggregate_count(ctx) != want_agg) {
        printf("COUNT %s: %u features and %u aggregates, want %u and %u\n", c->id,
               ev_feature_count(ctx), ev_aggregate_count(ctx), g->n_planes, want_agg);
        diff++;
    }
    ev_close(&ctx);
    return (int)diff;
}

static int load_case(const char *id, const XpsnrCase **c, Frames *f)
{
    static GoldenCorpus corpus;
    if (!corpus.n && golden_load_corpus(&corpus))
        return -EIO;
    if (!(*c = find_case(id))) {
        fprintf(stderr, "unknown case %s\n", id);
        return -EINVAL;
    }
    const GoldenPair *pair = find_pair(&corpus, (*c)->pair);
    if (!pair) {
        fprintf(stderr, "%s: no pair %s in corpus.tsv\n", id, (*c)->pair);
        return -EINVAL;
    }
    return derive(*c, pair, f);
}

int main(int argc, char **argv)
{
    unsigned threads = 1, cpu_mask = 0;
    int first = 1, cuda = 0;
    if (argc > 1 && !strcmp(argv[1], "--list")) {
        for (size_t i = 0; i < XPSNR_N_CASES; i++)
            printf("%s\n", xpsnr_cases[i].id);
        return 0;
    }
    if (argc > 1 && !strcmp(argv[1], "--write-input")) {
        if (argc != 4) {
            fprintf(stderr, "usage: %s --write-input ID DIR\n", argv[0]);
            return 2;
        }
        const XpsnrCase *c;
        Frames f = { 0 };
        int err = load_case(argv[2], &c, &f);
        if (!err)
            err = write_input(c, &f, argv[3]);
        free_frames(&f);
        return err ? 1 : 0;
    }
    while (first < argc && argv[first][0] == '-') {
        const int value = first + 1 < argc;
        if (!strcmp(argv[first], "--cuda")) {
            cuda = 1;
            first++;
        } else if (value && !strcmp(argv[first], "--threads")) {
            threads = (unsigned)strtoul(argv[first + 1], NULL, 10);
            first += 2;
        } else if (value && !strcmp(argv[first], "--cpumask")) {
            cpu_mask = (unsigned)strtoul(argv[first + 1], NULL, 10);
            first += 2;
        } else {
            fprintf(stderr, "%s: unknown option %s\n", argv[0], argv[first]);
            return 2;
        }
    }
    char corpus_tsv[1024];
    snprintf(corpus_tsv, sizeof(corpus_tsv), "%s/corpus/corpus.tsv", golden_shared_dir());
    FILE *probe = fopen(corpus_tsv, "r");
    if (!probe) {
        printf("xpsnr_golden: no %s: skipped\n", corpus_tsv);
        return 77;
    }
    fclose(probe);
    if (cuda && ev_gpu_count() <= 0) {
        printf("xpsnr_golden: no CUDA device (or a build without CUDA): skipped\n");
        return 77;
    }
    unsigned n_cases = 0, n_diff = 0, n_values = 0;
    const size_t n_ids = first < argc ? (size_t)(argc - first) : XPSNR_N_CASES;
    for (size_t i = 0; i < n_ids; i++) {
        const char *id = first < argc ? argv[first + i] : xpsnr_cases[i].id;
        const XpsnrCase *c;
        Frames f = { 0 };
        Golden g;
        int err = load_case(id, &c, &f);
        if (!err)
            err = load_golden(id, &g);
        const int d = err ? -1 : check_case(c, &f, &g, threads, cpu_mask, cuda);
        free_frames(&f);
        if (d < 0) {
            printf("SETUP %s: %s\n", id, strerror(-err));
            n_diff++;
            continue;
        }
        n_cases++;
        n_diff += (unsigned)d;
        n_values += g.n_frames * g.n_planes + g.n_planes + (unsigned)g.has_minimum;
    }
    printf("xpsnr_golden: %u cases, %u values, %u differ (threads %u, cpumask %u, %s)\n", n_cases,
           n_values, n_diff, threads, cpu_mask, cuda ? "CUDA twin" : "CPU");
    return n_diff ? 1 : 0;
}
