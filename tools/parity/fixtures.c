/* Parity-gate fixtures: seeded, reproducible frames (and corpus pairs) for CPU-vs-twin runs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fixtures.h"

uint32_t fixture_hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    return x ^ (x >> 16);
}

static Fixture *push(FixtureList *l)
{
    if (l->n == l->cap) {
        const unsigned cap = l->cap ? 2 * l->cap : 32;
        Fixture *f = realloc(l->item, cap * sizeof(*f));
        if (!f)
            return NULL;
        l->item = f;
        l->cap = cap;
    }
    Fixture *f = &l->item[l->n++];
    memset(f, 0, sizeof(*f));
    return f;
}

static const char *layout_tag(EvPixelLayout l)
{
    return l == EV_PIX_420 ? "420" : l == EV_PIX_422 ? "422" : "444";
}

static int add(FixtureList *l, FixtureKind kind, const char *what, unsigned w, unsigned h,
               unsigned bpc, EvPixelLayout layout, unsigned frames, uint32_t seed)
{
    Fixture *f = push(l);
    if (!f)
        return -ENOMEM;
    *f = (Fixture){ .kind = kind,
                    .width = w,
                    .height = h,
                    .bitdepth = bpc,
                    .frames = frames,
                    .layout = layout,
                    .seed = seed };
    snprintf(f->name, sizeof(f->name), "%s_%ubit_%s_%ux%u", what, bpc, layout_tag(layout), w, h);
    return 0;
}

/* A FIX_BANDING fixture (cambi's rows only). */
static int add_banding(FixtureList *l, int variant, unsigned w, unsigned h, unsigned bpc,
                       EvPixelLayout layout, unsigned frames, uint32_t seed)
{
    static const char *const names[] = { "banding8", "dithered8", "noisy8",   "banding10",
                                         "stripes",  "blocks",    "overrange" };
    const int err = add(l, FIX_BANDING, names[variant], w, h, bpc, layout, frames, seed);
    if (!err) {
        l->item[l->n - 1].delta = variant;
        l->item[l->n - 1].only = "cambi";
    }
    return err;
}

int fixtures_standard(FixtureList *l, uint32_t seed, int quick)
{
    int err = fixtures_quick(l, seed);
    if (quick || err)
        return err;
    const unsigned first = l->n;
    err |= add(l, FIX_NOISE, "noise", 1920, 1080, 8, EV_PIX_420, 3, seed + 70);
    err |= add(l, FIX_IDENTICAL, "identical", 1920, 1080, 8, EV_PIX_420, 2, seed + 71);
    err |= add(l, FIX_BRIGHT, "bright", 1920, 1080, 16, EV_PIX_420, 2, seed + 72);
    err |= add(l, FIX_BRIGHT, "bright", 2560, 1440, 16, EV_PIX_420, 2, seed + 73);
    err |= add(l, FIX_NOISE, "noise", 3840, 2160, 16, EV_PIX_420, 2, seed + 74);
    err |= add(l, FIX_NOISE, "noise", 3840, 2160, 12, EV_PIX_422, 2, seed + 75);
    err |= add(l, FIX_NOISE, "noise", 7680, 4320, 8, EV_PIX_420, 1, seed + 76);
    err |= add(l, FIX_MOTION, "motion", 1920, 1080, 10, EV_PIX_420, 12, seed + 77);
    err |= add(l, FIX_EXTREME, "extreme", 1920, 1080, 16, EV_PIX_444, 2, seed + 78);
    err |= add_banding(l, BANDING_DITHERED, 1920, 1080, 8, EV_PIX_420, 3, seed + 200);
    err |= add_banding(l, BANDING_10BIT, 1920, 1080, 10, EV_PIX_420, 2, seed + 201);
    err |= add_banding(l, BANDING_STRIPES, 1920, 1080, 10, EV_PIX_420, 1, seed + 202);
    err |= add_banding(l, BANDING_NOISY, 2560, 1440, 10, EV_PIX_420, 1, seed + 203);
    err |= add_banding(l, BANDING_8BIT, 3840, 2160, 10, EV_PIX_420, 1, seed + 204);
    err |= add_banding(l, BANDING_BLOCKS, 3840, 2160, 8, EV_PIX_420, 1, seed + 205);
    for (unsigned i = first; i < l->n; i++)
        l->item[i].quick = 0;
    return err;
}

/* The quick set: small and odd sizes, every depth and layout, the constructed sums. */
int fixtures_quick(FixtureList *l, uint32_t seed)
{
    const unsigned first = l->n;
    int err = 0;
    for (unsigned bpc = 8; bpc <= 16 && !err; bpc++)
        err = add(l, FIX_NOISE, "noise", 640, 360, bpc, EV_PIX_420, 3, seed + bpc);
    const EvPixelLayout layouts[3] = { EV_PIX_420, EV_PIX_422, EV_PIX_444 };
    for (unsigned i = 0; i < 3 && !err; i++) {
        err |= add(l, FIX_NOISE, "noise", 357, 353, 10, layouts[i], 3, seed + 20 + i);
        err |= add(l, FIX_NOISE, "noise", 64, 64, 8, layouts[i], 3, seed + 30 + i);
        err |= add(l, FIX_NOISE, "noise", 7, 5, 16, layouts[i], 2, seed + 40 + i);
    }
    err |= add(l, FIX_IDENTICAL, "identical", 357, 353, 16, EV_PIX_444, 2, seed + 50);
    err |= add(l, FIX_NOISE, "wide", 70000, 4, 8, EV_PIX_444, 2, seed + 51);
    for (int d = -1; d <= 1 && !err; d++) {
        err = add(l, FIX_UNITS_2P53, "units2p53", 2048, 1040, 16, EV_PIX_420, 1, seed + 60);
        l->item[l->n - 1].delta = d;
        snprintf(l->item[l->n - 1].name, sizeof(l->item[0].name), "units_2^53%+d_16bit", d);
    }
    for (unsigned bpc = 8; bpc <= 16 && !err; bpc += 4)
        err |= add(l, FIX_MOTION, "motion", 176, 144, bpc, EV_PIX_420, 12, seed + 80 + bpc);
    err |= add(l, FIX_MOTION, "motion", 33, 35, 12, EV_PIX_444, 7, seed + 97);
    err |= add(l, FIX_EXTREME, "extreme", 357, 353, 16, EV_PIX_420, 2, seed + 98);
    err |= add(l, FIX_EXTREME, "extreme", 640, 360, 8, EV_PIX_422, 2, seed + 99);
    for (int v = BANDING_8BIT; v <= BANDING_BLOCKS; v++)
        err |= add_banding(l, v, 640, 360, 8, EV_PIX_420, 3, seed + 100 + (unsigned)v);
    err |= add_banding(l, BANDING_10BIT, 640, 360, 10, EV_PIX_420, 3, seed + 110);
    err |= add_banding(l, BANDING_DITHERED, 640, 360, 10, EV_PIX_420, 3, seed + 111);
    err |= add_banding(l, BANDING_NOISY, 357, 353, 12, EV_PIX_422, 2, seed + 112);
    err |= add_banding(l, BANDING_8BIT, 400, 300, 16, EV_PIX_444, 2, seed + 113);
    err |= add_banding(l, BANDING_BLOCKS, 256, 216, 9, EV_PIX_420, 2, seed + 114);
    err |= add_banding(l, BANDING_DITHERED, 216, 216, 8, EV_PIX_444, 2, seed + 115);
    err |= add_banding(l, BANDING_10BIT, 1000, 216, 14, EV_PIX_420, 2, seed + 116);
    err |= add(l, FIX_OVERRANGE, "overrange", 640, 360, 10, EV_PIX_420, 4, seed + 120);
    err |= add(l, FIX_OVERRANGE, "overrange", 357, 353, 12, EV_PIX_444, 3, seed + 121);
    err |= add(l, FIX_OVERRANGE, "overrange", 64, 64, 9, EV_PIX_422, 3, seed + 122);
    err |= add(l, FIX_OVERRANGE, "overrange", 200, 120, 15, EV_PIX_420, 3, seed + 123);
    err |= add_banding(l, BANDING_OVERRANGE, 640, 360, 10, EV_PIX_420, 2, seed + 117);
    err |= add_banding(l, BANDING_OVERRANGE, 300, 240, 12, EV_PIX_444, 2, seed + 118);
    for (unsigned i = first; i < l->n; i++)
        l->item[i].quick = 1;
    return err;
}

int fixtures_random(FixtureList *l, uint32_t seed, unsigned n)
{
    int err = 0;
    for (unsigned i = 0; i < n && !err; i++) {
        const uint32_t h = fixture_hash(seed + i * 7919u);
        const unsigned w = 1 + h % 300, ht = 1 + (h >> 9) % 200, bpc = 8 + (h >> 17) % 9;
        const EvPixelLayout lay = (EvPixelLayout)(1 + (h >> 21) % 3);
        const FixtureKind kind =
            (h >> 24) % 5 ? FIX_NOISE : ((h >> 27) & 1 ? FIX_BRIGHT : FIX_IDENTICAL);
        err = add(l, kind, "random", w, ht, bpc, lay, 2, h);
    }
    return err;
}

static void copy_field(char *dst, size_t size, const char *src)
{
    const size_t len = strnlen(src, size - 1);
    memcpy(dst, src, len);
    dst[len] = '\0';
}

/* corpus.tsv: name ref dis width height chroma bitdepth frames ... */
int fixtures_corpus(FixtureList *l, const char *dir)
{
    char path[1024], line[4096];
    snprintf(path, sizeof(path), "%s/corpus.tsv", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return -ENOENT;
    if (!fgets(line, sizeof(line), f)) {
        fclose(f);
        return -EINVAL;
    }
    while (fgets(line, sizeof(line), f)) {
        char *field[8] = { 0 }, *save = NULL;
        unsigned n = 0;
        for (char *t = strtok_r(line, "\t", &save); t && n < 8; t = strtok_r(NULL, "\t", &save))
            field[n++] = t;
        if (n < 8)
            continue;
        Fixture *fx = push(l);
        if (!fx)
            break;
        fx->kind = FIX_CORPUS;
        copy_field(fx->name, sizeof(fx->name), field[0]);
        snprintf(fx->ref_path, sizeof(fx->ref_path), "%s/%s", dir, field[1]);
        snprintf(fx->dis_path, sizeof(fx->dis_path), "%s/%s", dir, field[2]);
        fx->width = (unsigned)atoi(field[3]);
        fx->height = (unsigned)atoi(field[4]);
        const int chroma = atoi(field[5]);
        fx->layout = chroma == 444 ? EV_PIX_444 : chroma == 422 ? EV_PIX_422 : EV_PIX_420;
        fx->bitdepth = (unsigned)atoi(field[6]);
        fx->frames = (unsigned)atoi(field[7]);
    }
    fclose(f);
    return 0;
}

void fixtures_free(FixtureList *l)
{
    free(l->item);
    memset(l, 0, sizeof(*l));
}
