/*
 * ssimulacra2 against libjxl 0.11's ssimulacra2 tool (scalar build), bit for bit: every case of
 * ssimulacra2_cases.h is derived from its corpus pair in memory, scored by exactvmaf's
 * ssimulacra2, and every frame's score compared by its bits with
 * tests/ssimulacra2/golden/<id>.txt (the reference's scores: "#" lines, then one line per frame,
 * "<frame> <%.17g> <%a>").
 *
 *   ssimulacra2_golden [--threads N] [--cpumask M] [--cuda] [ID...]
 *                                         check (all cases by default); exit 77 without shared/
 *                                         (or, with --cuda, without a CUDA device: the CUDA twin
 *                                         then scores, against the same goldens)
 *   ssimulacra2_golden --list             the case ids
 *   ssimulacra2_golden --write-input ID DIR
 *                                         write each frame's R'G'B' (the extractor's conversion)
 *                                         as DIR/ref_NNN.pfm and DIR/dis_NNN.pfm, the tool's
 *                                         inputs, and print the frame count
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exactvmaf/exactvmaf.h"
#include "features/ssimulacra2/ssimulacra2_frame.h"
#include "golden/golden_io.h"
#include "ssimulacra2/ssimulacra2_cases.h"

typedef struct Frames {
    unsigned w, h, depth, n;
    EvPixelLayout layout;
    unsigned pw[3], ph[3], n_planes;
    uint16_t *ref, *dis; /* n frames of planes Y, U, V, each pw x ph samples */
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
static int derive(const Ssimu2Case *c, const GoldenPair *pair, Frames *out)
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
    const unsigned tx = c->tx ? c->tx : 1, ty = c->ty ? c->ty : 1;
    *out = (Frames){ .w = c->cw ? c->cw : src.w * tx,
                     .h = c->ch ? c->ch : src.h * ty,
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

static const Ssimu2Case *find_case(const char *id)
{
    for (size_t i = 0; i < SSIMU2_N_CASES; i++)
        if (!strcmp(ssimu2_cases[i].id, id))
            return &ssimu2_cases[i];
    return NULL;
}

/* A frame's planes as 8- or 16-bit samples in buf (the picture's storage). */
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

/* The matrix the extractor takes for the case (its option's rule). */
static Ssimu2Matrix matrix_of(const Ssimu2Case *c, const Frames *f)
{
    static const Ssimu2Matrix bt709 = SSIMU2_BT709, bt601 = SSIMU2_BT601;
    if (c->matrix)
        return !strcmp(c->matrix, "bt709") ? bt709 : bt601;
    return f->w >= 1280 || f->h > 576 ? bt709 : bt601;
}

/* A frame's R'G'B' as a little-endian PFM (rows bottom to top, as the format has them). */
static int write_pfm(const char *path, const Frames *f, const uint16_t *frame,
                     const Ssimu2Matrix *m)
{
    void *buf = malloc(f->frame_samples * 2);
    float *rgb = malloc((size_t)f->w * 6 * sizeof(float));
    FILE *out = buf && rgb ? fopen(path, "wb") : NULL;
    int err = out ? 0 : -EIO;
    if (!err) {
        EvPicture pic;
        picture_of(f, frame, buf, &pic);
        EvPic p = { .bpc = f->depth, .layout = f->layout };
        for (unsigned k = 0; k < 3; k++) {
            p.w[k] = f->pw[k];
            p.h[k] = f->ph[k];
            p.stride[k] = pic.stride[k];
            p.data[k] = pic.data[k];
        }
        fprintf(out, "PF\n%u %u\n-1.0\n", f->w, f->h);
        for (unsigned y = f->h; y-- > 0 && !err;) {
            float *r = rgb + 3 * (size_t)f->w, *g = r + f->w, *b = g + f->w;
            ssimu2_rgb_row(&p, m, y, r, g, b);
            for (unsigned x = 0; x < f->w; x++) {
                rgb[3 * x] = r[x];
                rgb[3 * x + 1] = g[x];
                rgb[3 * x + 2] = b[x];
            }
            err = fwrite(rgb, sizeof(float), (size_t)f->w * 3, out) == (size_t)f->w * 3 ? 0 : -EIO;
        }
        err = fclose(out) && !err ? -EIO : err;
    }
    if (err)
        fprintf(stderr, "%s: cannot write\n", path);
    free(buf);
    free(rgb);
    return err;
}

static int write_input(const Ssimu2Case *c, const Frames *f, const char *dir)
{
    const Ssimu2Matrix m = matrix_of(c, f);
    int err = 0;
    for (unsigned i = 0; i < f->n && !err; i++)
        for (unsigned k = 0; k < 2 && !err; k++) {
            char path[1024];
            snprintf(path, sizeof(path), "%s/%s_%03u.pfm", dir, k ? "dis" : "ref", i);
            err = write_pfm(path, f, (k ? f->dis : f->ref) + i * f->frame_samples, &m);
        }
    if (!err)
        printf("%u\n", f->n);
    return err;
}

/* A golden file: one line per frame, "<frame> <%.17g> <%a>". */
typedef struct Golden {
    double frame[64];
    unsigned n_frames;
} Golden;

static int load_golden(const char *id, Golden *g)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/tests/ssimulacra2/golden/%s.txt", EV_SOURCE_DIR, id);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return -EIO;
    }
    memset(g, 0, sizeof(*g));
    char line[512];
    while (fgets(line, sizeof(line), f) && g->n_frames < 64) {
        if (line[0] == '#')
            continue;
        char *end;
        const unsigned long n = strtoul(line, &end, 10);
        strtod(end, &end); /* the decimal */
        const double v = strtod(end, NULL);
        if (n != g->n_frames)
            break;
        g->frame[g->n_frames++] = v;
    }
    fclose(f);
    return g->n_frames ? 0 : -EINVAL;
}

static uint64_t bits_of(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof(u));
    return u;
}

/* Score the case and compare; returns the values that differ. */
static int check_case(const Ssimu2Case *c, const Frames *f, const Golden *g, unsigned threads,
                      unsigned cpu_mask, int cuda)
{
    EvSettings s;
    ev_default_settings(&s);
    s.n_threads = threads;
    s.cpu_mask = cpu_mask;
    s.backend = cuda ? EV_BACKEND_CUDA : EV_BACKEND_CPU;
    EvContext *ctx = NULL;
    char opts[64] = "";
    if (c->matrix)
        snprintf(opts, sizeof(opts), "matrix=%s", c->matrix);
    void *br = malloc(f->frame_samples * 2), *bd = malloc(f->frame_samples * 2);
    int err = br && bd ? ev_open(&ctx, &s) : -ENOMEM;
    if (!err)
        err = ev_use_feature(ctx, "ssimulacra2", c->matrix ? opts : NULL);
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
    if (g->n_frames != f->n || ev_feature_count(ctx) != 1) {
        printf("GOLDEN %s: %u frames, the case has %u; %u features\n", c->id, g->n_frames, f->n,
               ev_feature_count(ctx));
        diff++;
    }
    const char *name = ev_feature_count(ctx) ? ev_feature_name(ctx, 0) : "ssimulacra2";
    for (unsigned i = 0; i < g->n_frames; i++) {
        double v;
        if (ev_get_score(ctx, name, i, &v)) {
            printf("MISSING %s frame %u %s\n", c->id, i, name);
            diff++;
        } else if (bits_of(v) != bits_of(g->frame[i])) {
            printf("DIFF %s frame %u %s: got %.17g 0x%016" PRIx64 " want %.17g 0x%016" PRIx64 "\n",
                   c->id, i, name, v, bits_of(v), g->frame[i], bits_of(g->frame[i]));
            diff++;
        }
    }
    ev_close(&ctx);
    return (int)diff;
}

static int load_case(const char *id, const Ssimu2Case **c, Frames *f)
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
        for (size_t i = 0; i < SSIMU2_N_CASES; i++)
            printf("%s\n", ssimu2_cases[i].id);
        return 0;
    }
    if (!golden_available()) {
        printf("SKIP: no shared corpus at %s\n", golden_shared_dir());
        return 77;
    }
    if (argc > 1 && !strcmp(argv[1], "--write-input")) {
        if (argc != 4) {
            fprintf(stderr, "usage: %s --write-input ID DIR\n", argv[0]);
            return 2;
        }
        const Ssimu2Case *c;
        Frames f = { 0 };
        int err = load_case(argv[2], &c, &f);
        if (!err)
            err = write_input(c, &f, argv[3]);
        free_frames(&f);
        return err ? 1 : 0;
    }
    while (first < argc && !strncmp(argv[first], "--", 2)) {
        if (!strcmp(argv[first], "--cuda")) {
            cuda = 1;
            first++;
            continue;
        }
        if (first + 1 >= argc) {
            fprintf(stderr, "%s needs a value\n", argv[first]);
            return 2;
        }
        if (!strcmp(argv[first], "--threads"))
            threads = (unsigned)strtoul(argv[first + 1], NULL, 10);
        else if (!strcmp(argv[first], "--cpumask"))
            cpu_mask = (unsigned)strtoul(argv[first + 1], NULL, 0);
        else {
            fprintf(stderr, "unknown option %s\n", argv[first]);
            return 2;
        }
        first += 2;
    }
    if (cuda && ev_gpu_count() <= 0) {
        printf("ssimulacra2_golden: no CUDA device (or a build without CUDA): skipped\n");
        return 77;
    }
    unsigned failed = 0, n = 0, values = 0;
    for (size_t i = 0; i < SSIMU2_N_CASES; i++) {
        const Ssimu2Case *c = &ssimu2_cases[i];
        int wanted = first >= argc;
        for (int a = first; a < argc && !wanted; a++)
            wanted = !strcmp(argv[a], c->id);
        if (!wanted)
            continue;
        Frames f = { 0 };
        Golden g;
        const Ssimu2Case *cc;
        int err = load_case(c->id, &cc, &f);
        if (!err)
            err = load_golden(c->id, &g);
        const int diff = err ? 1 : check_case(c, &f, &g, threads, cpu_mask, cuda);
        if (err)
            printf("FAILED %s: cannot load (%s)\n", c->id, strerror(-err));
        free_frames(&f);
        failed += diff != 0;
        values += err ? 0 : g.n_frames;
        n++;
    }
    printf("ssimulacra2_golden: %u cases, %u values, %u failed (threads %u, cpumask %u, %s)\n", n,
           values, failed, threads, cpu_mask, cuda ? "CUDA twin" : "CPU");
    return failed ? 1 : 0;
}
