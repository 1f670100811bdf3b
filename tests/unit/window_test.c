/* The windowed temporal scores (extractor.h's EvWindowScoring: motion's SAD in the parallel
 * pass, against the earlier references the engine holds) give the bits of the run without
 * workers, where motion scores from its kept lumas in frame order: every feature, frame and
 * pooled value, for each motion option set and 1..12 frames at 2, 3 and 8 threads. Lent pairs
 * (released only once no later frame reads them: the release spoils the planes) give the same
 * bits, and a context closed without a flush still gives every lent pair back, once. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "check_scores.h"
#include "exactvmaf/exactvmaf.h"

enum { W = 96, H = 64, MAX_FRAMES = 12 };

static const char *const motion_opts[] = {
    "",
    "motion_five_frame_window=true",
    "motion_force_zero=true",
    "motion_five_frame_window=true:motion_moving_average=true",
    "motion_max_val=18",
};

/* Picture k (0 ref, 1 dis) of frame f, 4:2:0, in buf: moving content, so the SADs differ. */
static EvPicture fill(uint8_t *buf, unsigned f, unsigned k)
{
    EvPicture pic = { W, H, 8, EV_PIX_420, { 0 }, { W, W / 2, W / 2 } };
    uint8_t *at = buf;
    for (unsigned p = 0; p < 3; p++) {
        const unsigned pw = p ? W / 2 : W, ph = p ? H / 2 : H;
        pic.data[p] = at;
        for (unsigned y = 0; y < ph; y++)
            for (unsigned x = 0; x < pw; x++) {
                unsigned v = (x * 5 + y * 3 + f * f * 9 + p * 40) & 0xff;
                v ^= check_hash(x + 131u * y + 7919u * f + p) % (k ? 23 : 11);
                at[y * pw + x] = (uint8_t)v;
            }
        at += (size_t)pw * ph;
    }
    return pic;
}

static EvContext *open_context(unsigned threads, const char *opts)
{
    EvSettings s;
    ev_default_settings(&s);
    s.n_threads = threads;
    EvContext *c = NULL;
    CHECK(ev_open(&c, &s) == 0);
    CHECK(ev_use_feature(c, "motion", opts) == 0);
    CHECK(ev_use_feature(c, "psnr", NULL) == 0);
    return c;
}

static EvContext *sent_run(unsigned threads, const char *opts, unsigned frames)
{
    EvContext *c = open_context(threads, opts);
    uint8_t *buf[2] = { malloc(W * H * 2), malloc(W * H * 2) };
    for (unsigned f = 0; f < frames; f++) {
        const EvPicture ref = fill(buf[0], f, 0), dis = fill(buf[1], f, 1);
        CHECK(ev_send_pictures(c, &ref, &dis) == 0);
    }
    CHECK(ev_flush(c) == 0);
    free(buf[0]);
    free(buf[1]);
    return c;
}

/* frame's SAD score (its name carries the options' suffix) */
static double sad_at(const EvContext *c, unsigned frame)
{
    static const char base[] = "VMAF_integer_feature_motion_sad_score";
    double v = -1;
    for (unsigned i = 0; i < ev_feature_count(c); i++)
        if (!strncmp(ev_feature_name(c, i), base, sizeof(base) - 1))
            CHECK(ev_get_score(c, ev_feature_name(c, i), frame, &v) == 0);
    return v;
}

typedef struct Lent {
    uint8_t *buf[2];
    int released;
} Lent;

static void release(void *user)
{
    Lent *l = user;
    l->released++;
    memset(l->buf[0], 0x55, W * H * 3 / 2);
    memset(l->buf[1], 0xaa, W * H * 3 / 2);
}

/* frames lent pairs at threads; flushed and compared with want, or closed without a flush */
static void lent_run(unsigned threads, const char *opts, unsigned frames, const EvContext *want)
{
    EvContext *c = open_context(threads, opts);
    Lent lent[MAX_FRAMES];
    memset(lent, 0, sizeof(lent));
    for (unsigned f = 0; f < frames; f++) {
        Lent *l = &lent[f];
        l->buf[0] = malloc(W * H * 2);
        l->buf[1] = malloc(W * H * 2);
        const EvPicture ref = fill(l->buf[0], f, 0), dis = fill(l->buf[1], f, 1);
        CHECK(ev_lend_pictures(c, &ref, &dis, release, l) == 0);
    }
    if (want) {
        CHECK(ev_flush(c) == 0);
        check_same_scores(c, want);
    }
    ev_close(&c);
    for (unsigned f = 0; f < frames; f++) {
        CHECK(lent[f].released == 1);
        free(lent[f].buf[0]);
        free(lent[f].buf[1]);
    }
}

int main(void)
{
    static const unsigned counts[] = { 1, 2, 3, 5, 12 };
    static const unsigned threads[] = { 2, 3, 8 };
    for (size_t o = 0; o < sizeof(motion_opts) / sizeof(*motion_opts); o++)
        for (size_t n = 0; n < sizeof(counts) / sizeof(*counts); n++) {
            EvContext *want = sent_run(1, motion_opts[o], counts[n]);
            if (counts[n] > 2 && o != 2) /* the content moves: a window's SAD is not 0 */
                CHECK(sad_at(want, 2) > 0);
            for (size_t t = 0; t < sizeof(threads) / sizeof(*threads); t++) {
                EvContext *got = sent_run(threads[t], motion_opts[o], counts[n]);
                check_same_scores(got, want);
                ev_close(&got);
                lent_run(threads[t], motion_opts[o], counts[n], want);
                lent_run(threads[t], motion_opts[o], counts[n], NULL);
            }
            ev_close(&want);
        }
    printf("window: %u passed, %u failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}
