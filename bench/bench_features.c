/*
 * bench_features: frames per second of any set of extractors on synthetic frames, through the
 * public API (copy-in, scheduler, extractors, flush), so the figure is what a user gets.
 *
 * usage: bench_features --feature SPEC [--feature SPEC...] [--model SPEC] [--size WxH] [--bitdepth N]
 *                       [--layout 420|422|444] [--threads N] [--frames N] [--cpumask N]
 * SPEC is "name[=k=v:...]" as on the CLI. One untimed frame first (set-up), then --frames timed.
 * Frames: a smooth seeded pattern plus noise (ref) and
 * a perturbed copy (dis); 4 distinct pairs are cycled. Prints one line per run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exactvmaf/exactvmaf.h"

typedef struct BenchArgs {
    const char *feature[16];
    unsigned n_features;
    const char *model[4];
    unsigned n_models;
    unsigned width, height, bitdepth, threads, frames, cpumask;
    EvPixelLayout layout;
} BenchArgs;

static uint32_t hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

/* A textured frame: low-frequency pattern + noise; dis adds small seeded errors. */
static void fill_plane(uint8_t *buf, unsigned w, unsigned h, unsigned bpc, unsigned seed,
                       int distort)
{
    const uint32_t max = (1u << bpc) - 1;
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            const uint32_t base = ((x * 7 + y * 3 + seed * 11) % 256) << (bpc - 8);
            uint32_t v = base + (hash32(seed * 0x9e3779b9u + y * w + x) & ((8u << (bpc - 8)) - 1));
            if (distort)
                v += hash32(v * 31u + x + y * 977u + seed) % (5u << (bpc - 8));
            if (v > max)
                v = max;
            if (bpc > 8)
                ((uint16_t *)buf)[(size_t)y * w + x] = (uint16_t)v;
            else
                buf[(size_t)y * w + x] = (uint8_t)v;
        }
}

static uint8_t *make_picture(const BenchArgs *a, unsigned seed, int distort, EvPicture *pic)
{
    const unsigned bytes = a->bitdepth > 8 ? 2 : 1;
    size_t total = 0, offset[3];
    unsigned w[3], h[3];
    for (unsigned p = 0; p < 3; p++) {
        ev_plane_size(a->width, a->height, a->layout, p, &w[p], &h[p]);
        offset[p] = total;
        total += (size_t)w[p] * h[p] * bytes;
    }
    uint8_t *buf = malloc(total);
    if (!buf)
        return NULL;
    *pic = (EvPicture){ a->width, a->height, a->bitdepth, a->layout, { 0 }, { 0 } };
    for (unsigned p = 0; p < 3; p++) {
        fill_plane(buf + offset[p], w[p], h[p], a->bitdepth, seed * 3 + p, distort);
        pic->data[p] = buf + offset[p];
        pic->stride[p] = (ptrdiff_t)w[p] * bytes;
    }
    return buf;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void print_log(void *user, EvLogLevel level, const char *line)
{
    (void)user;
    (void)level;
    fprintf(stderr, "bench_features: %s\n", line);
}

static int parse_args(int argc, char **argv, BenchArgs *a)
{
    *a = (BenchArgs){ .width = 1920,
                      .height = 1080,
                      .bitdepth = 8,
                      .threads = 1,
                      .frames = 20,
                      .layout = EV_PIX_420 };
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *k = argv[i], *v = argv[i + 1];
        if (!strcmp(k, "--feature") && a->n_features < 16)
            a->feature[a->n_features++] = v;
        else if (!strcmp(k, "--model") && a->n_models < 4)
            a->model[a->n_models++] = v;
        else if (!strcmp(k, "--size") && sscanf(v, "%ux%u", &a->width, &a->height) == 2)
            ;
        else if (!strcmp(k, "--bitdepth"))
            a->bitdepth = (unsigned)atoi(v);
        else if (!strcmp(k, "--layout"))
            a->layout = !strcmp(v, "444")   ? EV_PIX_444
                        : !strcmp(v, "422") ? EV_PIX_422
                                            : EV_PIX_420;
        else if (!strcmp(k, "--threads"))
            a->threads = (unsigned)atoi(v);
        else if (!strcmp(k, "--frames"))
            a->frames = (unsigned)atoi(v);
        else if (!strcmp(k, "--cpumask"))
            a->cpumask = (unsigned)strtoul(v, NULL, 0);
        else
            return -1;
    }
    return (a->n_features || a->n_models) && a->frames && a->bitdepth >= 8 && a->bitdepth <= 16
               ? 0
               : -1;
}

static int add_feature(EvContext *ctx, const char *spec)
{
    char name[64];
    const char *eq = strchr(spec, '=');
    const size_t len = eq ? (size_t)(eq - spec) : strlen(spec);
    snprintf(name, sizeof(name), "%.*s", (int)len, spec);
    return ev_use_feature(ctx, name, eq ? eq + 1 : NULL);
}

int main(int argc, char **argv)
{
    BenchArgs a;
    if (parse_args(argc, argv, &a)) {
        fprintf(
            stderr,
            "usage: %s --feature SPEC [--feature SPEC] [--model SPEC] [--size WxH] [--bitdepth N] "
            "[--layout 420|422|444] [--threads N] [--frames N] [--cpumask N]\n",
            argv[0]);
        return 2;
    }
    enum { N_PAIRS = 4 };
    EvPicture ref[N_PAIRS], dis[N_PAIRS];
    uint8_t *bufs[2 * N_PAIRS];
    for (unsigned i = 0; i < N_PAIRS; i++) {
        bufs[2 * i] = make_picture(&a, i + 1, 0, &ref[i]);
        bufs[2 * i + 1] = make_picture(&a, i + 1, 1, &dis[i]);
        if (!bufs[2 * i] || !bufs[2 * i + 1])
            return 2;
    }
    EvSettings s;
    ev_default_settings(&s);
    s.n_threads = a.threads;
    s.cpu_mask = a.cpumask;
    s.log = print_log;
    if (getenv("BENCH_DEBUG")) /* the library's debug lines too (the engine's schedule) */
        s.log_level = EV_LOG_DEBUG;
    EvContext *ctx;
    if (ev_open(&ctx, &s))
        return 2;
    for (unsigned i = 0; i < a.n_models; i++)
        if (ev_use_model(ctx, a.model[i]))
            return 2;
    for (unsigned i = 0; i < a.n_features; i++)
        if (add_feature(ctx, a.feature[i]))
            return 2;
    /* the first frame sets everything up (tables, buffers): the clock starts after it */
    double t0 = now_seconds();
    for (unsigned f = 0; f < a.frames + 1; f++) {
        if (ev_send_pictures(ctx, &ref[f % N_PAIRS], &dis[f % N_PAIRS]))
            return 2;
        if (!f)
            t0 = now_seconds();
    }
    if (ev_flush(ctx))
        return 2;
    const double dt = now_seconds() - t0;
    char label[256] = "";
    for (unsigned i = 0; i < a.n_models; i++)
        snprintf(label + strlen(label), sizeof(label) - strlen(label), "%s%s", i ? "+" : "",
                 a.model[i]);
    for (unsigned i = 0; i < a.n_features; i++)
        snprintf(label + strlen(label), sizeof(label) - strlen(label), "%s%s",
                 i || a.n_models ? "+" : "", a.feature[i]);
    printf("%-40s %5ux%-5u %2u-bit threads %u frames %4u: %9.2f fps %10.3f ms/frame\n", label,
           a.width, a.height, a.bitdepth, a.threads, a.frames, a.frames / dt, 1e3 * dt / a.frames);
    ev_close(&ctx);
    for (unsigned i = 0; i < 2 * N_PAIRS; i++)
        free(bufs[i]);
    return 0;
}
