/*
 * The gate's noise search: many small random 8-bit frames through one extractor on the CPU and
 * on its twin, every value compared bit for bit. Frames are drawn from a seeded generator; ref
 * and dis luma are independent noise on even frames (uncorrelated content: the SSIM means sit
 * near zero, where rounding boundaries are closest) and ref plus small noise on odd frames.
 * Chroma is flat. Frames go through in batches, a fresh pair of contexts each, so memory stays
 * bounded however many frames are asked for.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "features/ssim/ssim.h"
#include "compare.h"
#include "noise_search.h"

#define BATCH 65536u

static uint64_t next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dull;
}

static void fill_pair(uint8_t *ref, uint8_t *dis, size_t n, int correlated, uint64_t *s)
{
    for (size_t i = 0; i < n; i += 8) {
        const uint64_t a = next(s), b = next(s);
        for (size_t k = 0; k < 8 && i + k < n; k++) {
            const int r = (int)(a >> (8 * k) & 255);
            int d = (int)(b >> (8 * k) & 255);
            if (correlated) {
                d = r + (d & 15) - 8;
                d = d < 0 ? 0 : d > 255 ? 255 : d;
            }
            ref[i + k] = (uint8_t)r;
            dis[i + k] = (uint8_t)d;
        }
    }
}

static EvContext *open_side(const NoiseSearch *ns, EvBackend backend, unsigned threads)
{
    EvContext *c = parity_open(backend, threads, NULL);
    if (c && ev_use_feature(c, ns->extractor, ns->options))
        ev_close(&c);
    return c;
}

int noise_search(const NoiseSearch *ns)
{
    const unsigned w = ns->width, h = ns->height, cw = (w + 1) / 2, ch = (h + 1) / 2;
    const size_t luma = (size_t)w * h, chroma = (size_t)cw * ch;
    uint8_t *buf = malloc(2 * (luma + 2 * chroma));
    if (!buf)
        return -ENOMEM;
    uint8_t *rp = buf, *dp = buf + luma + 2 * chroma;
    memset(buf, 128, 2 * (luma + 2 * chroma));
    const EvPicture ref = {
        w, h, 8, EV_PIX_420, { rp, rp + luma, rp + luma + chroma }, { w, cw, cw }
    };
    const EvPicture dis = {
        w, h, 8, EV_PIX_420, { dp, dp + luma, dp + luma + chroma }, { w, cw, cw }
    };
    uint64_t state = 0x9e3779b97f4a7c15ull ^ ns->seed;
    unsigned long done = 0, bad = 0, values = 0;
    int err = 0;
    while (done < ns->frames && !err) {
        const unsigned n = ns->frames - done < BATCH ? (unsigned)(ns->frames - done) : BATCH;
        EvContext *cpu = open_side(ns, EV_BACKEND_CPU, ns->threads);
        EvContext *twin = open_side(ns, (EvBackend)ns->twin_backend, ns->twin_threads);
        err = cpu && twin ? 0 : -EINVAL;
        for (unsigned i = 0; i < n && !err; i++) {
            fill_pair(rp, dp, luma, (int)((done + i) & 1), &state);
            err = ev_send_pictures(cpu, &ref, &dis);
            if (!err)
                err = ev_send_pictures(twin, &ref, &dis);
        }
        if (!err)
            err = ev_flush(cpu);
        if (!err)
            err = ev_flush(twin);
        if (!err)
            bad += parity_compare_batch(cpu, twin, n, done, NULL, &values);
        ev_close(&cpu);
        ev_close(&twin);
        done += n;
    }
    free(buf);
    unsigned long long certified, in_order;
    ev_ssim_cuda_mean_counts(&certified, &in_order);
    printf("noise search %s%s%s %ux%u seed %" PRIu32 ": %lu frames, %lu values compared, "
           "%lu frames differ; SSIM twin means: %llu certified, %llu summed in order\n",
           ns->extractor, ns->options[0] ? "=" : "", ns->options, w, h, ns->seed, done, values, bad,
           certified, in_order);
    if (err)
        fprintf(stderr, "exactvmaf-parity: noise search stopped: %s\n", strerror(-err));
    return err ? err : bad ? 1 : 0;
}
