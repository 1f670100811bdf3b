/* The first frames of fresh CUDA contexts against the CPU, bit for bit, under adverse device
 * conditions: before each context opens, device memory is left dirty (freed after a 0xff fill)
 * and the legacy default stream is kept busy (cuda/stream_check.h). A worker's set-up must be
 * ordered on its own stream: a set-up step left on the legacy stream (as the clearing of the
 * sum counters once was) then lands after the first frames' kernels, and their sums are stale.
 * The twins are those of the order-free plane sums (psnr, float_psnr, float_moment), on small
 * clips of every layout, so that most frames are some worker's first.
 *   first_frames_test [iterations]   (default 120); exit 77 without a device
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/stream_check.h"
#include "exactvmaf/exactvmaf.h"

enum { MAX_FRAMES = 4 };

typedef struct Clip {
    unsigned w, h, bpc;
    EvPixelLayout layout;
} Clip;

static const Clip clips[] = {
    { 7, 5, 16, EV_PIX_422 },    { 64, 64, 8, EV_PIX_444 },    { 33, 35, 12, EV_PIX_444 },
    { 176, 144, 8, EV_PIX_420 }, { 640, 360, 10, EV_PIX_420 },
};

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

typedef struct Frames {
    EvPicture pic[MAX_FRAMES][2];
    void *buf;
} Frames;

static int make_frames(Frames *f, const Clip *c, unsigned n, uint64_t seed)
{
    const size_t bytes = c->bpc > 8 ? 2 : 1;
    size_t total = 0;
    for (unsigned p = 0; p < 3; p++) {
        unsigned pw, ph;
        ev_plane_size(c->w, c->h, c->layout, p, &pw, &ph);
        total += (size_t)pw * ph * bytes;
    }
    uint8_t *b = f->buf = malloc(total * 2 * n);
    if (!b)
        return -1;
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; k < 2; k++) {
            EvPicture *pic = &f->pic[i][k];
            *pic = (EvPicture){ c->w, c->h, c->bpc, c->layout, { 0 }, { 0 } };
            for (unsigned p = 0; p < 3; p++) {
                unsigned pw, ph;
                ev_plane_size(c->w, c->h, c->layout, p, &pw, &ph);
                pic->data[p] = b;
                pic->stride[p] = (ptrdiff_t)(pw * bytes);
                for (size_t s = 0; s < (size_t)pw * ph; s++) {
                    const unsigned v = (unsigned)(rng(&seed) >> 20) & ((1u << c->bpc) - 1);
                    if (bytes == 2)
                        ((uint16_t *)b)[s] = (uint16_t)v;
                    else
                        b[s] = (uint8_t)v;
                }
                b += (size_t)pw * ph * bytes;
            }
        }
    return 0;
}

static EvContext *run(EvBackend backend, unsigned threads, const Frames *f, unsigned n)
{
    EvSettings s;
    ev_default_settings(&s);
    s.backend = backend;
    s.n_threads = threads;
    EvContext *c = NULL;
    int err = ev_open(&c, &s);
    static const char *const features[] = { "psnr", "float_psnr", "float_moment" };
    for (unsigned k = 0; !err && k < 3; k++)
        err = ev_use_feature(c, features[k], "");
    for (unsigned i = 0; !err && i < n; i++)
        err = ev_send_pictures(c, &f->pic[i][0], &f->pic[i][1]);
    if (!err)
        err = ev_flush(c);
    if (err) {
        fprintf(stderr, "first_frames_test: the %s run failed (%d)\n",
                backend == EV_BACKEND_CPU ? "cpu" : "cuda", err);
        ev_close(&c);
    }
    return c;
}

static uint64_t bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof(u));
    return u;
}

int main(int argc, char **argv)
{
    const unsigned iterations = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 120;
    if (ev_gpu_count() <= 0) {
        printf("first_frames_test: no CUDA device: skipped\n");
        return 77;
    }
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    unsigned long frames = 0, values = 0, bad = 0;
    for (unsigned it = 0; it < iterations; it++) {
        const Clip *clip = &clips[it % (sizeof(clips) / sizeof(clips[0]))];
        const unsigned n = 1 + (unsigned)(rng(&seed) % MAX_FRAMES);
        Frames f;
        if (make_frames(&f, clip, n, rng(&seed))) {
            fprintf(stderr, "first_frames_test: out of memory\n");
            return 2;
        }
        EvContext *cpu = run(EV_BACKEND_CPU, 1, &f, n);
        if (!cpu || ev_cuda_test_adverse(64, 20)) {
            fprintf(stderr, "first_frames_test: cannot set up iteration %u\n", it);
            return 2;
        }
        EvContext *gpu = run(EV_BACKEND_CUDA, 4, &f, n);
        ev_cuda_test_settle();
        if (!gpu)
            return 2;
        for (unsigned i = 0; i < n; i++, frames++)
            for (unsigned k = 0; k < ev_feature_count(cpu); k++, values++) {
                const char *name = ev_feature_name(cpu, k);
                double a = 0, b = 0;
                const int ea = ev_get_score(cpu, name, i, &a), eb = ev_get_score(gpu, name, i, &b);
                if (ea || eb || bits(a) != bits(b)) {
                    if (bad++ < 20)
                        printf("iteration %u (%ux%u %u-bit), frame %u of %u, %s: cpu %.17g "
                               "(%016" PRIx64 ") cuda %.17g (%016" PRIx64 ")%s\n",
                               it, clip->w, clip->h, clip->bpc, i, n, name, a, bits(a), b, bits(b),
                               ea || eb ? " (missing)" : "");
                }
            }
        ev_close(&cpu);
        ev_close(&gpu);
        free(f.buf);
    }
    printf("first_frames_test: %u fresh contexts, %lu frames, %lu values, %lu differ\n", iterations,
           frames, values, bad);
    return bad ? 1 : 0;
}
