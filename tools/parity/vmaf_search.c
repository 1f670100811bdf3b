/*
 * The gate's VMAF search: random frames through the v0.6.1 model (vif, adm and motion with
 * debug outputs: every per-scale total) on the CPU and on the twins, every value compared bit
 * for bit. Batches of one random geometry each: width 16..1920 and height 16..1080 (skewed to
 * small sizes, so that many frames are drawn), depth 8..16, layout 4:2:0, 4:2:2 or 4:4:4;
 * frames narrower or lower than ADM's 33 run vif and motion only. Every frame's pictures point
 * into three random pools made once per batch (noise; noise plus small noise; 0 or max), at a
 * random offset, so frames cost no generation; the offsets make the frame kinds: independent
 * pictures, a distorted picture equal to the reference or close to it, a reference equal to
 * the previous one (no motion), panned by one sample, or cut to new content.
 * --features replaces the v0.6.1 set by any extractors (and options), --min-size and
 * --max-size bound the geometry drawn: the same search for every twin. When the features
 * include cambi, two more pools (a banded random walk: runs of equal samples stepping by
 * 8-bit or 10-bit steps, so pictures have flat areas and bands; and the same with one sample
 * in four moved by a step) and two more frame kinds that use them are drawn as well; other
 * searches draw exactly as before.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "vmaf_search.h"

static uint64_t next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dull;
}

/* uniform in [0, 1) */
static double unit(uint64_t *s)
{
    return (double)(next(s) >> 11) / 9007199254740992.0;
}

typedef struct Batch {
    unsigned w, h, bpc, frames;
    EvPixelLayout layout;
    size_t frame_samples, pool_samples;
    void *pool[5]; /* noise, noise + small noise, 0/max; with cambi: banded,
                                   banded and dithered */
    int banding;   /* the features include cambi: pools 3 and 4, kinds 8 and 9 */
} Batch;

int search_use_features(EvContext *c, const char *features)
{
    char entry[512];
    for (const char *p = features; *p;) {
        const char *end = strchr(p, ';');
        const size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n >= sizeof(entry))
            return -EINVAL;
        memcpy(entry, p, n);
        entry[n] = 0;
        p += n + (end != NULL);
        if (!n)
            continue;
        char *opts = strchr(entry, ':');
        if (opts)
            *opts++ = 0;
        const int err = strcmp(entry, "model") ? ev_use_feature(c, entry, opts ? opts : "")
                                               : ev_use_model(c, opts ? opts : "");
        if (err) {
            fprintf(stderr, "exactvmaf-parity: --features: cannot use \"%s\" (%s)\n", entry,
                    strerror(-err));
            return err;
        }
    }
    return 0;
}

static EvContext *open_side(const VmafSearch *vs, const Batch *b, EvBackend backend,
                            unsigned threads)
{
    EvContext *c = parity_open(backend, threads, NULL);
    if (!c)
        return NULL;
    int err;
    if (vs->features) {
        err = search_use_features(c, vs->features);
    } else if (b->w >= 33 && b->h >= 33) {
        err = ev_use_model(c, "version=vmaf_v0.6.1");
        if (!err)
            err = ev_use_feature(c, "adm", "debug=true");
    } else {
        err = ev_use_feature(c, "motion", "debug=true");
    }
    if (!err && !vs->features) /* --features names the whole set */
        err = ev_use_feature(c, "vif", "debug=true");
    if (err)
        ev_close(&c);
    return c;
}

/* Pools 3 and 4: a random walk of levels held for runs of 1 .. 4 (w + 1) samples (rows of
 * a picture then repeat, mostly: flat areas with bands), stepping by 1 or 2 steps of 8-bit
 * (or, from 10 bits, 10-bit) size; pool 4 moves one sample in four by a step. */
static int make_banded_pools(Batch *b, uint64_t *s)
{
    const size_t bytes = b->bpc > 8 ? 2 : 1, n = b->pool_samples;
    const uint32_t max = (1u << b->bpc) - 1;
    const unsigned shift = b->bpc >= 10 && next(s) % 2 ? b->bpc - 10 : b->bpc - 8;
    const uint32_t step = 1u << shift;
    for (int k = 3; k < 5; k++)
        if (!(b->pool[k] = malloc(n * bytes)))
            return -ENOMEM;
    int64_t level = (int64_t)(next(s) % (max / step + 1));
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        if (!run) {
            run = 1 + next(s) % (4 * ((size_t)b->w + 1));
            level += (int64_t)(next(s) % 5) - 2;
            level = level < 0 ? 0 : level > (int64_t)(max / step) ? (int64_t)(max / step) : level;
        }
        run--;
        const uint64_t r = next(s);
        const uint32_t v = (uint32_t)level * step;
        int64_t d = (int64_t)v + ((r & 3) ? 0 : (r & 4) ? (int64_t)step : -(int64_t)step);
        const uint32_t dv = d < 0 ? 0 : d > (int64_t)max ? max : (uint32_t)d;
        if (bytes == 1) {
            ((uint8_t *)b->pool[3])[i] = (uint8_t)v;
            ((uint8_t *)b->pool[4])[i] = (uint8_t)dv;
        } else {
            ((uint16_t *)b->pool[3])[i] = (uint16_t)v;
            ((uint16_t *)b->pool[4])[i] = (uint16_t)dv;
        }
    }
    return 0;
}

static int make_pools(Batch *b, uint64_t *s)
{
    const size_t bytes = b->bpc > 8 ? 2 : 1, n = b->pool_samples;
    const uint32_t max = (1u << b->bpc) - 1;
    for (int k = 0; k < 3; k++)
        if (!(b->pool[k] = malloc(n * bytes)))
            return -ENOMEM;
    for (size_t i = 0; i < n; i++) {
        const uint64_t r = next(s);
        const uint32_t v = (uint32_t)r & max;
        const int32_t e = (int32_t)((r >> 32) & 31) - 16;
        const int64_t c = (int64_t)v + e;
        const uint32_t near = c < 0 ? 0 : c > (int64_t)max ? max : (uint32_t)c;
        const uint32_t x = (r >> 40) & 1 ? max : 0;
        if (bytes == 1) {
            ((uint8_t *)b->pool[0])[i] = (uint8_t)v;
            ((uint8_t *)b->pool[1])[i] = (uint8_t)near;
            ((uint8_t *)b->pool[2])[i] = (uint8_t)x;
        } else {
            ((uint16_t *)b->pool[0])[i] = (uint16_t)v;
            ((uint16_t *)b->pool[1])[i] = (uint16_t)near;
            ((uint16_t *)b->pool[2])[i] = (uint16_t)x;
        }
    }
    return b->banding ? make_banded_pools(b, s) : 0;
}

/* A picture whose planes lie one after another in pool from sample offset off. */
static EvPicture picture_at(const Batch *b, const void *pool, size_t off)
{
    const size_t bytes = b->bpc > 8 ? 2 : 1;
    EvPicture p = { b->w, b->h, b->bpc, b->layout, { 0 }, { 0 } };
    const char *at = (const char *)pool + off * bytes;
    for (unsigned k = 0; k < 3; k++) {
        unsigned pw, ph;
        ev_plane_size(b->w, b->h, b->layout, k, &pw, &ph);
        p.data[k] = at;
        p.stride[k] = (ptrdiff_t)(pw * bytes);
        at += (size_t)pw * ph * bytes;
    }
    return p;
}

/* The batch's frames that differ; all of them when the two sides hold different counts. */
static unsigned long compare(EvContext *cpu, EvContext *twin, const Batch *b, unsigned long first,
                             unsigned long *values)
{
    if (ev_frame_count(cpu) != ev_frame_count(twin))
        return b->frames;
    char where[96];
    snprintf(where, sizeof(where), "%ux%u %u-bit layout %d", b->w, b->h, b->bpc, (int)b->layout);
    return parity_compare_batch(cpu, twin, b->frames, first, where, values);
}

/* One batch: frames through both sides, then compared. */
static int run_batch(const VmafSearch *vs, Batch *b, uint64_t *s, unsigned long first,
                     unsigned long *bad, unsigned long *values)
{
    int err = make_pools(b, s);
    EvContext *cpu = err ? NULL : open_side(vs, b, EV_BACKEND_CPU, vs->threads);
    EvContext *twin = err ? NULL : open_side(vs, b, (EvBackend)vs->twin_backend, vs->twin_threads);
    if (!err && (!cpu || !twin))
        err = -EINVAL;
    const size_t span = b->pool_samples - b->frame_samples;
    size_t prev = 0;
    int refused = 0; /* a geometry both sides refuse (e.g. ciede's odd 4:2:0 heights) */
    for (unsigned i = 0; i < b->frames && !err && !refused; i++) {
        const unsigned kind = (unsigned)(next(s) % (b->banding ? 10 : 8));
        size_t off = (size_t)(next(s) % (span + 1));
        if (i && kind == 5)
            off = prev; /* the reference does not move */
        else if (i && kind == 6 && prev < span)
            off = prev + 1; /* a pan by one sample */
        prev = off;
        const EvPicture ref = picture_at(b, b->pool[kind == 7 ? 2 : kind >= 8 ? 3 : 0], off);
        EvPicture dis;
        switch (kind) {
        case 8: dis = picture_at(b, b->pool[3], (size_t)(next(s) % (span + 1))); break;
        case 9: dis = picture_at(b, b->pool[4], off); break; /* dithered */
        case 0: dis = ref; break;                            /* identical */
        case 1:
        case 5:
        case 6: dis = picture_at(b, b->pool[1], off); break; /* close */
        case 7: dis = picture_at(b, b->pool[2], (off + 7) % (span + 1)); break;
        default: dis = picture_at(b, b->pool[0], (size_t)(next(s) % (span + 1))); break;
        }
        err = ev_send_pictures(cpu, &ref, &dis);
        if (!err)
            err = ev_send_pictures(twin, &ref, &dis);
        else if (i == 0 && err == -EINVAL && ev_send_pictures(twin, &ref, &dis) == -EINVAL)
            refused = 1, err = 0;
    }
    if (!err && !refused)
        err = ev_flush(cpu);
    if (!err && !refused)
        err = ev_flush(twin);
    if (!err && !refused)
        *bad += compare(cpu, twin, b, first, values);
    if (refused)
        printf("batch %ux%u %u-bit layout %d: refused by both sides\n", b->w, b->h, b->bpc,
               (int)b->layout);
    ev_close(&cpu);
    ev_close(&twin);
    for (int k = 0; k < 5; k++)
        free(b->pool[k]);
    if (err)
        fprintf(stderr, "exactvmaf-parity: vmaf search batch %ux%u %u-bit layout %d: %s\n", b->w,
                b->h, b->bpc, (int)b->layout, strerror(-err));
    return err;
}

int vmaf_search(const VmafSearch *vs)
{
    uint64_t s = 0x2545f4914f6cdd1dull ^ ((uint64_t)vs->seed << 17) ^ vs->seed;
    unsigned long done = 0, bad = 0, values = 0, batches = 0;
    const unsigned min_w = vs->min_w ? vs->min_w : 16, min_h = vs->min_h ? vs->min_h : 16;
    const unsigned max_w = vs->max_w >= min_w ? vs->max_w : (min_w > 1920 ? min_w : 1920);
    const unsigned max_h = vs->max_h >= min_h ? vs->max_h : (min_h > 1080 ? min_h : 1080);
    int err = 0;
    while (done < vs->frames && !err) {
        Batch b;
        memset(&b, 0, sizeof(b));
        const double u = unit(&s), v = unit(&s);
        b.w = min_w + (unsigned)(u * u * u * u * (double)(max_w - min_w + 1));
        b.h = min_h + (unsigned)(v * v * v * v * (double)(max_h - min_h + 1));
        b.w = b.w > max_w ? max_w : b.w;
        b.h = b.h > max_h ? max_h : b.h;
        unsigned depths[9], n_depths = 0;
        for (unsigned d = 8; d <= 16; d++)
            if (!vs->depth_mask || (vs->depth_mask >> d & 1))
                depths[n_depths++] = d;
        b.bpc = depths[next(&s) % n_depths];
        b.layout = (EvPixelLayout)(1 + next(&s) % 3);
        b.banding = vs->features && strstr(vs->features, "cambi") != NULL;
        for (unsigned k = 0; k < 3; k++) {
            unsigned pw, ph;
            ev_plane_size(b.w, b.h, b.layout, k, &pw, &ph);
            b.frame_samples += (size_t)pw * ph;
        }
        b.pool_samples = 2 * b.frame_samples + 4096;
        unsigned long n = 200000000ul / ((unsigned long)b.w * b.h);
        n = n < 16 ? 16 : n > 8192 ? 8192 : n;
        if (n > vs->frames - done)
            n = vs->frames - done;
        b.frames = (unsigned)n;
        err = run_batch(vs, &b, &s, done, &bad, &values);
        done += n;
        batches++;
        if (vs->progress) /* a run cut short by a time limit still says how far it got */
            printf("batch %lu: %ux%u %u-bit layout %d, %lu frames so far, %lu differ\n", batches,
                   b.w, b.h, b.bpc, (int)b.layout, done, bad);
    }
    printf("%s search seed %" PRIu32 ": %lu frames in %lu batches, %lu values compared, "
           "%lu frames differ\n",
           vs->features ? vs->features : "vmaf", vs->seed, done, batches, values, bad);
    if (!err && !values) {
        fprintf(stderr, "exactvmaf-parity: the search compared no values\n");
        return -EINVAL;
    }
    return err ? err : bad ? 1 : 0;
}
