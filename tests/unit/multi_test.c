/* Many distorted against one reference through the library: ev_send_pictures_multi() and the
 * borrow/submit form give each context the bits of a context fed on its own with
 * ev_send_pictures(), for every feature, frame and pooled value, with a distorted that ends
 * early (also the first one, whose slot holds the reference the others copy); the contexts of
 * one call form a group (core/group.h): they share motion's reference-only scores and score vif
 * and adm in group jobs, and a context that is sent a pair of its own leaves its group. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "api/context.h"
#include "core/engine_internal.h"
#include "base/cpu.h"
#include "core/group.h"
#include "exactvmaf/exactvmaf.h"

enum { W = 192, H = 108, FRAMES = 5, N_DIS = 3 };
#define FRAME_BYTES (W * H + 2 * (W / 2) * (H / 2))

/* Frames each distorted lasts: the first ends early, the last is as long as the reference. */
static const unsigned dis_frames[N_DIS] = { 3, 4, FRAMES };

static uint8_t frames_ref[FRAMES][FRAME_BYTES], frames_dis[N_DIS][FRAMES][FRAME_BYTES];

/* A smooth moving pattern (the reference) and noisier copies of it (the distorted). */
static void make_frames(void)
{
    for (unsigned f = 0; f < FRAMES; f++)
        for (unsigned i = 0; i < FRAME_BYTES; i++) {
            const unsigned x = i % W, y = i / W;
            frames_ref[f][i] = (uint8_t)((x * 3 + y * 2 + f * 7) & 0xff);
            for (unsigned d = 0; d < N_DIS; d++) {
                const int noise =
                    (int)(check_hash(i * 131u + f * 7919u + d * 104729u) % (9 + 8 * d));
                const int v = frames_ref[f][i] + noise - (int)(4 + 4 * d);
                frames_dis[d][f][i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
        }
}

static EvPicture picture(const uint8_t *buf)
{
    EvPicture p = { W,
                    H,
                    8,
                    EV_PIX_420,
                    { buf, buf + W * H, buf + W * H + (W / 2) * (H / 2) },
                    { W, W / 2, W / 2 } };
    return p;
}

static EvContext *open_context(unsigned threads, unsigned cpu_mask)
{
    EvSettings s;
    ev_default_settings(&s);
    s.n_threads = threads;
    s.cpu_mask = cpu_mask;
    EvContext *c = NULL;
    CHECK(ev_open(&c, &s) == 0);
    CHECK(ev_use_model(c, "version=vmaf_v0.6.1") == 0);
    CHECK(ev_use_feature(c, "psnr", NULL) == 0);
    CHECK(ev_use_feature(c, "float_ssim", NULL) == 0);
    /* a second motion with other options: its own shared scores (frames 2.. here) */
    CHECK(ev_use_feature(c, "motion", "motion_five_frame_window=true:motion_fps_weight=1.5") == 0);
    /* vif and adm with other options: jobs of their own, with scale 0 skipped */
    CHECK(ev_use_feature(c, "vif", "vif_skip_scale0=true:debug=true") == 0);
    CHECK(ev_use_feature(c, "adm", "adm_skip_scale0=true:adm_skip_aim=true:debug=true") == 0);
    return c;
}

/* Every feature at every frame, and every pool, of got equal to want's bits. */
static void check_same(const EvContext *got, const EvContext *want)
{
    CHECK(ev_frame_count(got) == ev_frame_count(want));
    CHECK(ev_feature_count(got) == ev_feature_count(want));
    CHECK(ev_feature_count(want) > 10);
    for (unsigned i = 0; i < ev_feature_count(want); i++) {
        const char *name = ev_feature_name(want, i);
        CHECK(!strcmp(ev_feature_name(got, i), name));
        for (unsigned f = 0; f < ev_frame_count(want); f++) {
            double a = 0, b = 0;
            CHECK(ev_get_score(got, name, f, &a) == 0 && ev_get_score(want, name, f, &b) == 0);
            CHECK_BITS(a, b);
        }
        double a = 0, b = 0;
        CHECK(ev_get_pooled(got, name, EV_POOL_HARMONIC_MEAN, &a) == 0);
        CHECK(ev_get_pooled(want, name, EV_POOL_HARMONIC_MEAN, &b) == 0);
        CHECK_BITS(a, b);
    }
}

/* The groups' contexts with the kernels cpu_mask leaves (vif's reference-part kernels at the
 * AVX2 and AVX-512 levels; at C a distorted at a time), those fed alone with the best. */
static void group_job_counts(EvGroup *g, unsigned long *jobs, unsigned long *scored,
                             unsigned long *allocs)
{
    EvGroupCounts n;
    ev_group_counts(g, &n);
    *jobs = n.jobs;
    *scored = n.scored;
    *allocs = n.allocs;
}

static void test_multi(unsigned threads, unsigned cpu_mask)
{
    EvContext *alone[N_DIS], *sent[N_DIS], *lent[N_DIS];
    for (unsigned d = 0; d < N_DIS; d++) {
        alone[d] = open_context(threads, 0);
        sent[d] = open_context(threads, cpu_mask);
        lent[d] = open_context(threads, cpu_mask);
        for (unsigned f = 0; f < dis_frames[d]; f++) {
            const EvPicture r = picture(frames_ref[f]), p = picture(frames_dis[d][f]);
            CHECK(ev_send_pictures(alone[d], &r, &p) == 0);
        }
    }
    for (unsigned f = 0; f < FRAMES; f++) {
        EvContext *to[N_DIS];
        EvPicture pics[N_DIS];
        const EvPicture *dis[N_DIS];
        const EvPicture r = picture(frames_ref[f]);
        for (unsigned d = 0; d < N_DIS; d++) {
            pics[d] = picture(frames_dis[d][f]);
            to[d] = f < dis_frames[d] ? sent[d] : NULL;
            dis[d] = &pics[d];
        }
        CHECK(ev_send_pictures_multi(to, N_DIS, &r, dis) == 0);

        /* borrow from every context still going, then learn (as a reader would) that a
         * distorted has ended: its pair is given back after the submit */
        EvContext *borrow[N_DIS], *submit[N_DIS];
        EvPicture ref_slot, dis_slot[N_DIS];
        for (unsigned d = 0; d < N_DIS; d++) /* at f == dis_frames[d] it finds out */
            borrow[d] = f <= dis_frames[d] ? lent[d] : NULL;
        CHECK(ev_borrow_pictures_multi(borrow, N_DIS, W, H, 8, EV_PIX_420, &ref_slot, dis_slot) ==
              0);
        memcpy((void *)ref_slot.data[0], frames_ref[f], FRAME_BYTES); /* planes packed */
        for (unsigned d = 0; d < N_DIS; d++) {
            submit[d] = f < dis_frames[d] ? lent[d] : NULL;
            if (submit[d])
                memcpy((void *)dis_slot[d].data[0], frames_dis[d][f], FRAME_BYTES);
        }
        CHECK(ev_submit_pictures_multi(submit, N_DIS, &ref_slot) == 0);
        for (unsigned d = 0; d < N_DIS; d++)
            if (borrow[d] && !submit[d])
                ev_return_pictures(borrow[d]);
    }
    /* every frame scored: the jobs and the ordered passes (motion's) are all done */
    for (unsigned d = 0; d < N_DIS; d++) {
        CHECK(ev_flush(sent[d]) == 0);
        CHECK(ev_flush(lent[d]) == 0);
    }
    /* motion's scores (by_reference; registered with and without the five-frame window) are
     * computed once per group: by one context, taken by the others while they last */
    unsigned long want_taken = 0, want_published = 0;
    for (unsigned window = 0; window < 2; window++)
        for (unsigned f = 0; f < FRAMES; f++) {
            want_published++;
            for (unsigned d = 0; d < N_DIS; d++)
                want_taken += f < dis_frames[d];
            want_taken--;
        }
    for (unsigned k = 0; k < 2; k++) {
        EvContext *const *group = k ? lent : sent;
        CHECK(group[0]->engine->group && group[1]->engine->group == group[0]->engine->group &&
              group[2]->engine->group == group[0]->engine->group);
        EvGroupCounts n = { 0 };
        if (group[0]->engine->group)
            ev_group_counts(group[0]->engine->group, &n);
        const unsigned long published = n.published, taken = n.taken;
        if (published != want_published || taken != want_taken)
            fprintf(stderr, "motion shared: %lu published, %lu taken (want %lu, %lu)\n", published,
                    taken, want_published, want_taken);
        CHECK(published == want_published && taken == want_taken);
    }
    for (unsigned k = 0; k < 2; k++) {
        EvContext *const *group = k ? lent : sent;
        /* the group jobs of vif and adm, each registered twice: four per frame that two or
         * more distorted last, each scoring all of them (a pair borrowed but not submitted is
         * no member) */
        unsigned long jobs = 0, scored = 0, allocs = 0, want_jobs = 0, want_scored = 0;
        for (unsigned f = 0; f < FRAMES; f++) {
            unsigned members = 0;
            for (unsigned d = 0; d < N_DIS; d++)
                members += f < dis_frames[d];
            want_jobs += members > 1 ? 4 : 0;
            want_scored += members > 1 ? 4 * members : 0;
        }
        if (group[0]->engine->group)
            group_job_counts(group[0]->engine->group, &jobs, &scored, &allocs);
        if (jobs != want_jobs || scored != want_scored)
            fprintf(stderr, "group jobs (%s, %u threads): %lu, scoring %lu (want %lu, %lu)\n",
                    k ? "borrowed" : "sent", threads, jobs, scored, want_jobs, want_scored);
        CHECK(jobs == want_jobs && scored == want_scored);
        /* the jobs' scratch is reused: at most one buffer per job running at once (one at a
         * time with one thread; a thread of each context, the four extractors, with more) */
        const unsigned long most = threads == 1 ? 4 : 4ul * threads * N_DIS;
        if (allocs > most)
            fprintf(stderr, "group jobs: %lu scratch buffers for %lu jobs\n", allocs, jobs);
        CHECK(allocs >= 1 && allocs <= most);
    }
    for (unsigned d = 0; d < N_DIS; d++) {
        CHECK(ev_flush(alone[d]) == 0);
        CHECK(ev_frame_count(alone[d]) == dis_frames[d]);
        check_same(sent[d], alone[d]);
        check_same(lent[d], alone[d]);
        ev_close(&alone[d]);
        ev_close(&sent[d]);
        ev_close(&lent[d]);
    }
}

/* A context sent a pair of its own (another reference) leaves its group for good, and the next
 * call with it leaves the others too: every value stays that of a context fed alone. */
static void test_leaving(void)
{
    EvContext *alone[2], *multi[2];
    for (unsigned d = 0; d < 2; d++) {
        alone[d] = open_context(1, 0);
        multi[d] = open_context(1, 0);
    }
    for (unsigned f = 0; f < FRAMES; f++) {
        const EvPicture r = picture(frames_ref[f]), other = picture(frames_ref[FRAMES - 1 - f]);
        EvPicture pics[2] = { picture(frames_dis[0][f]), picture(frames_dis[1][f]) };
        const EvPicture *dis[2] = { &pics[0], &pics[1] };
        CHECK(ev_send_pictures(alone[0], &r, &pics[0]) == 0);
        CHECK(ev_send_pictures(alone[1], &r, &pics[1]) == 0);
        if (f == 2) { /* a pair of multi[0]'s own: its frame 3 is not multi[1]'s */
            CHECK(ev_send_pictures(alone[0], &other, &pics[0]) == 0);
            CHECK(ev_send_pictures(multi[0], &other, &pics[0]) == 0);
            CHECK(multi[0]->engine->group == NULL && multi[1]->engine->group != NULL);
        }
        CHECK(ev_send_pictures_multi(multi, 2, &r, dis) == 0);
    }
    CHECK(multi[0]->engine->group == NULL && multi[1]->engine->group == NULL);
    for (unsigned d = 0; d < 2; d++) {
        CHECK(ev_flush(alone[d]) == 0);
        CHECK(ev_flush(multi[d]) == 0);
        check_same(multi[d], alone[d]);
        ev_close(&alone[d]);
        ev_close(&multi[d]);
    }
}

static void test_refusals(void)
{
    EvContext *none[2] = { NULL, NULL };
    EvPicture r, d[2];
    CHECK(ev_borrow_pictures_multi(none, 2, W, H, 8, EV_PIX_420, &r, d) == -EINVAL);
    EvContext *c[1] = { open_context(1, 0) };
    const EvPicture ref = picture(frames_ref[0]);
    CHECK(ev_submit_pictures_multi(c, 1, &ref) == -EINVAL); /* nothing borrowed */
    CHECK(ev_borrow_pictures_multi(c, 1, W, H, 8, EV_PIX_420, &r, d) == 0);
    const EvPicture small = {
        W / 2, H, 8, EV_PIX_420, { frames_ref[0], frames_ref[0], frames_ref[0] }, { W, W, W }
    };
    CHECK(ev_submit_pictures_multi(c, 1, &small) == -EINVAL); /* not the borrowed size */
    CHECK(ev_frame_count(c[0]) == 0);
    CHECK(ev_borrow_pictures_multi(c, 1, W, H, 8, EV_PIX_420, &r, d) == 0); /* given back */
    ev_return_pictures_multi(c, 1);
    /* one context twice: refused (its pairs are slotted before any is dispatched, so a
     * context with one free slot would wait for itself) */
    EvContext *twice[2] = { c[0], c[0] };
    const EvPicture p = picture(frames_dis[0][0]);
    const EvPicture *two[2] = { &p, &p };
    CHECK(ev_send_pictures_multi(twice, 2, &ref, two) == -EINVAL);
    CHECK(ev_frame_count(c[0]) == 0);
    CHECK(ev_flush(c[0]) == 0);
    ev_close(&c[0]);
}

/* 10-bit frames with luma samples above the depth in a group: frame 0 in one distorted (that
 * member is scored by the C reference, the others together), frame 1 in the reference (every
 * member by the C reference), frame 2 none; each value that of a context fed alone. */
enum { OW = 96, OH = 64, O_FRAMES = 3, O_DIS = 3 };
#define O_SAMPLES (OW * OH + 2 * (OW / 2) * (OH / 2))

static uint16_t over_ref[O_FRAMES][O_SAMPLES], over_dis[O_DIS][O_FRAMES][O_SAMPLES];

static void make_over_depth(void)
{
    for (unsigned f = 0; f < O_FRAMES; f++)
        for (unsigned i = 0; i < O_SAMPLES; i++) {
            const uint32_t h = check_hash(i * 7u + f * 7919u);
            const unsigned r = ((i % OW) * 9 + (i / OW) * 5 + f * 13) & 1023;
            over_ref[f][i] = (uint16_t)r;
            for (unsigned d = 0; d < O_DIS; d++) {
                const int v = (int)r + (int)(check_hash(h + d) % (11 + 6 * d)) - (int)(5 + 3 * d);
                over_dis[d][f][i] = (uint16_t)(v < 0 ? 0 : v > 1023 ? 1023 : v);
            }
            if (i < OW * OH && h % 89 == 0) { /* luma only */
                if (f == 0)
                    over_dis[1][f][i] = (uint16_t)(1024 + h % 30000);
                else if (f == 1)
                    over_ref[f][i] = (uint16_t)(1024 + h % 30000);
            }
        }
}

static EvPicture picture16(const uint16_t *buf)
{
    EvPicture p = { OW,
                    OH,
                    10,
                    EV_PIX_420,
                    { buf, buf + OW * OH, buf + OW * OH + (OW / 2) * (OH / 2) },
                    { OW * 2, OW, OW } };
    return p;
}

static EvContext *open_over(unsigned threads)
{
    EvSettings s;
    ev_default_settings(&s);
    s.n_threads = threads;
    EvContext *c = NULL;
    CHECK(ev_open(&c, &s) == 0);
    CHECK(ev_use_feature(c, "vif", "debug=true") == 0);
    CHECK(ev_use_feature(c, "adm", "debug=true") == 0);
    CHECK(ev_use_feature(c, "motion", NULL) == 0);
    return c;
}

static void test_over_depth(unsigned threads)
{
    make_over_depth();
    EvContext *alone[O_DIS], *group[O_DIS];
    for (unsigned d = 0; d < O_DIS; d++) {
        alone[d] = open_over(threads);
        group[d] = open_over(threads);
    }
    for (unsigned f = 0; f < O_FRAMES; f++) {
        const EvPicture r = picture16(over_ref[f]);
        EvPicture pics[O_DIS];
        const EvPicture *dis[O_DIS];
        for (unsigned d = 0; d < O_DIS; d++) {
            pics[d] = picture16(over_dis[d][f]);
            dis[d] = &pics[d];
            CHECK(ev_send_pictures(alone[d], &r, &pics[d]) == 0);
        }
        CHECK(ev_send_pictures_multi(group, O_DIS, &r, dis) == 0);
    }
    for (unsigned d = 0; d < O_DIS; d++) {
        CHECK(ev_flush(alone[d]) == 0);
        CHECK(ev_flush(group[d]) == 0);
    }
    unsigned long jobs = 0, scored = 0, allocs = 0;
    if (group[0]->engine->group)
        group_job_counts(group[0]->engine->group, &jobs, &scored, &allocs);
    CHECK(jobs == 2 * O_FRAMES && scored == 2 * O_FRAMES * O_DIS);
    for (unsigned d = 0; d < O_DIS; d++) {
        check_same(group[d], alone[d]);
        ev_close(&alone[d]);
        ev_close(&group[d]);
    }
}

int main(void)
{
    make_frames();
    test_multi(1, 0);
    test_multi(3, 0);
    test_multi(1, EV_CPU_AVX512 | EV_CPU_AVX512ICL); /* AVX2 */
    test_multi(2, EV_CPU_ALL);                       /* C */
    test_over_depth(1);
    test_over_depth(2);
    test_leaving();
    test_refusals();
    printf("unit_multi: %u checks passed, %u failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}
