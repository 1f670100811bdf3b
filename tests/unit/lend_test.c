/* Lent pictures through the library (ev_lend_pictures): read in place, they give the bits of
 * ev_send_pictures() for every feature, frame and pooled value, at 1 and 4 threads, with padded
 * strides; each pair is released exactly once, never before its frame is scored (its planes are
 * overwritten at release: a read after it would change the values), and a pair whose strides
 * differ is copied and released before the call returns. A refused pair is released too; the
 * device entry (exactvmaf/cuda.h) without a usable device refuses and releases. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "check_scores.h"
#include "exactvmaf/cuda.h"
#include "exactvmaf/exactvmaf.h"

enum { W = 176, H = 144, FRAMES = 7, PAD = 40 };

/* One lent picture pair's planes (ref then dis), its release count, and a stride per picture. */
typedef struct Lent {
    uint8_t *buf[2];
    ptrdiff_t stride[2];
    int released;
} Lent;

static uint8_t sample(unsigned f, unsigned k, unsigned p, unsigned x, unsigned y)
{
    const unsigned base = (x * 3 + y * 2 + f * 7 + p * 50) & 0xff;
    if (!k)
        return (uint8_t)base;
    const int v = (int)base + (int)(check_hash(x * 131u + y * 7u + f * 7919u + p) % 13) - 6;
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* Picture k (0 ref, 1 dis) of frame f in buf at stride (luma; chroma at half of it). */
static EvPicture fill(uint8_t *buf, ptrdiff_t stride, unsigned f, unsigned k)
{
    EvPicture pic = { W, H, 8, EV_PIX_420, { 0 }, { stride, stride / 2, stride / 2 } };
    uint8_t *at = buf;
    for (unsigned p = 0; p < 3; p++) {
        const unsigned pw = p ? W / 2 : W, ph = p ? H / 2 : H;
        pic.data[p] = at;
        for (unsigned y = 0; y < ph; y++)
            for (unsigned x = 0; x < pw; x++)
                at[y * pic.stride[p] + x] = sample(f, k, p, x, y);
        at += (size_t)pic.stride[p] * ph;
    }
    return pic;
}

static EvContext *open_context(unsigned threads)
{
    EvSettings s;
    ev_default_settings(&s);
    s.n_threads = threads;
    EvContext *c = NULL;
    CHECK(ev_open(&c, &s) == 0);
    CHECK(ev_use_model(c, "version=vmaf_v0.6.1") == 0);
    CHECK(ev_use_feature(c, "psnr", NULL) == 0);
    CHECK(ev_use_feature(c, "float_ssim", NULL) == 0);
    CHECK(ev_use_feature(c, "ciede", NULL) == 0);
    return c;
}

/* Counts the release and spoils the planes: a read of them after it would change the values. */
static void release(void *user)
{
    Lent *l = user;
    l->released++;
    for (int k = 0; k < 2; k++)
        memset(l->buf[k], 0x55, (size_t)l->stride[k] * H * 3 / 2);
}

/* Every feature at every frame, and the mean of each, of got equal to want's bits. */
static void check_same(const EvContext *got, const EvContext *want)
{
    CHECK(ev_feature_count(want) > 8);
    check_same_scores(got, want);
}

/* The reference run: every pair sent (copied). */
static EvContext *sent_run(unsigned threads)
{
    EvContext *c = open_context(threads);
    uint8_t *buf[2] = { malloc(W * H * 2), malloc(W * H * 2) };
    for (unsigned f = 0; f < FRAMES; f++) {
        const EvPicture ref = fill(buf[0], W, f, 0), dis = fill(buf[1], W, f, 1);
        CHECK(ev_send_pictures(c, &ref, &dis) == 0);
    }
    CHECK(ev_flush(c) == 0);
    free(buf[0]);
    free(buf[1]);
    return c;
}

/* Lent pairs, each in buffers of its own; strides equal (in place) or not (copied). */
static void lent_run(unsigned threads, int equal_strides, const EvContext *want)
{
    EvContext *c = open_context(threads);
    Lent lent[FRAMES];
    memset(lent, 0, sizeof(lent));
    for (unsigned f = 0; f < FRAMES; f++) {
        Lent *l = &lent[f];
        l->stride[0] = W + PAD;
        l->stride[1] = equal_strides ? W + PAD : W + 2 * PAD;
        EvPicture pic[2];
        for (int k = 0; k < 2; k++) {
            l->buf[k] = malloc((size_t)l->stride[k] * H * 2);
            pic[k] = fill(l->buf[k], l->stride[k], f, (unsigned)k);
        }
        CHECK(ev_lend_pictures(c, &pic[0], &pic[1], release, l) == 0);
        if (!equal_strides)
            CHECK(l->released == 1); /* copied: given back at once */
    }
    CHECK(ev_flush(c) == 0);
    for (unsigned f = 0; f < FRAMES; f++) {
        CHECK(lent[f].released == 1);
        free(lent[f].buf[0]);
        free(lent[f].buf[1]);
    }
    check_same(c, want);
    ev_close(&c);
}

static void refusals(void)
{
    EvContext *c = open_context(2);
    uint8_t *buf[2] = { malloc(W * H * 2), malloc(W * H * 2) };
    Lent l = { { buf[0], buf[1] }, { W, W }, 0 };
    EvPicture ref = fill(buf[0], W, 0, 0), dis = fill(buf[1], W, 0, 1);
    dis.width = W - 2; /* sizes differ */
    CHECK(ev_lend_pictures(c, &ref, &dis, release, &l) == -EINVAL);
    CHECK(l.released == 1);
    CHECK(ev_lend_pictures(c, &ref, NULL, release, &l) == -EINVAL);
    CHECK(l.released == 2);
    CHECK(ev_lend_pictures(NULL, &ref, &ref, release, &l) == -EINVAL);
    CHECK(l.released == 3);
    CHECK(ev_lend_pictures(c, &ref, &ref, NULL, NULL) == -EINVAL); /* no callback */
    /* the device entry: this CPU context has no device to read device pictures from (a build
     * with CUDA on a machine without a GPU, or a build without CUDA) */
    if (ev_gpu_count() <= 0) {
        ref = fill(buf[0], W, 0, 0);
        dis = fill(buf[1], W, 0, 1);
        const int err = ev_lend_device_pictures(c, &ref, &dis, NULL, release, &l);
        CHECK(err == -ENOSYS || err == -ENODEV || err == -EIO || err == -EINVAL);
        CHECK(l.released == 4);
        void *p = (void *)1;
        CHECK(ev_device_alloc(c, 64, &p) < 0);
        CHECK(p == NULL);
    }
    CHECK(ev_frame_count(c) == 0);
    ev_close(&c);
    free(buf[0]);
    free(buf[1]);
}

int main(void)
{
    for (unsigned threads = 1; threads <= 4; threads += 3) {
        EvContext *want = sent_run(threads);
        lent_run(threads, 1, want);
        lent_run(threads, 0, want);
        ev_close(&want);
    }
    refusals();
    printf("lend: %u passed, %u failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}
