/* vif and motion on samples above the declared depth (a 10-bit plane holding 1024..65535,
 * which the API passes on unchecked and libvmaf's C scores as they are): every CPU level gives
 * Netflix's bits. The SIMD kernels assume the depth's range: vif's 16-bit lanes (such a frame
 * is run by the C reference, vif.c) and motion's int32 vertical sums (a row whose bound fails
 * is redone in int64, motion_avx*.c). The in-range frame of each clip keeps the fast paths;
 * motion's frame 1 compares a clean frame with an earlier one that was not, and large samples
 * stacked three high make its int32 sums overflow. Netflix's values: libvmaf f85a8536 built
 * with -Denable_asm=false, fed the clips this test writes with `over_depth_test DIR`
 * (tests/compat/score_libvmaf.c, feature=vif and feature=motion). */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "base/cpu.h"
#include "exactvmaf/exactvmaf.h"

enum { W = 176, H = 100, FRAMES = 3 };

typedef struct Clip {
    unsigned bpc;
    EvPixelLayout layout;
    const char *name;
    /* Netflix's integer_vif_scale0..3 per frame (frame 1 has no sample above the depth) */
    uint64_t netflix[FRAMES][4];
    /* and its motion SAD score and integer_motion2 per frame */
    uint64_t netflix_motion[FRAMES][2];
} Clip;

static const Clip clips[] = {
    { 10,
      EV_PIX_420,
      "over_depth_10bit_420",
      { { 0x3fe66f4da0000000, 0x3fb89093a0000000, 0x3fcf60d2c0000000, 0x3fd9442e60000000 },
        { 0x3fe02f9ba0000000, 0x3fef323900000000, 0x3fefb247a0000000, 0x3fefdc4600000000 },
        { 0x3fe83f4660000000, 0x3fbc6a7960000000, 0x3fd4539420000000, 0x3fdf22a400000000 } },
      { { 0x0000000000000000, 0x0000000000000000 },
        { 0x405aab35a4c55a4c, 0x405969f6e500ee50 },
        { 0x405969f6e500ee50, 0x405969f6e500ee50 } } },
    { 12,
      EV_PIX_444,
      "over_depth_12bit_444",
      { { 0x3fd013fa60000000, 0x3f946fa000000000, 0x3fa6e0f8c0000000, 0x3fb30b5c40000000 },
        { 0x3fefff0ca0000000, 0x3fefff3e60000000, 0x3feff86c80000000, 0x3fefd104e0000000 },
        { 0x3fd1c78aa0000000, 0x3fa3f49fa0000000, 0x3fb340e8a0000000, 0x3fb9ccce00000000 } },
      { { 0x0000000000000000, 0x0000000000000000 },
        { 0x403b56b0f5c28f5c, 0x4038cdf4af02caf0 },
        { 0x4038cdf4af02caf0, 0x4038cdf4af02caf0 } } },
};

/* CPU levels to run: all (0), and each one removed from the top down to the C reference. */
static const unsigned masks[] = { 0, EV_CPU_AVX512ICL, EV_CPU_AVX512 | EV_CPU_AVX512ICL,
                                  EV_CPU_AVX2 | EV_CPU_AVX512 | EV_CPU_AVX512ICL };

static size_t plane_samples(const Clip *c, unsigned p)
{
    unsigned pw, ph;
    ev_plane_size(W, H, c->layout, p, &pw, &ph);
    return (size_t)pw * ph;
}

/* A moving ramp (ref) and a noisy copy (dis); frames 0 and 2 get samples above the depth in
 * both luma planes (about 1 in 97), frame 1 none. */
static void make_frame(const Clip *c, unsigned f, uint16_t *ref, uint16_t *dis)
{
    const uint32_t max = (1u << c->bpc) - 1;
    size_t off = 0;
    for (unsigned p = 0; p < 3; p++) {
        const size_t n = plane_samples(c, p);
        for (size_t i = 0; i < n; i++) {
            const uint32_t h = check_hash((uint32_t)(f * 7919u + p * 104729u + i));
            const uint32_t r = (uint32_t)((i % W) * 5 + (i / W) * 3 + f * 11) & max;
            int32_t d = (int32_t)r + (int32_t)(h % 41) - 20;
            d = d < 0 ? 0 : d > (int32_t)max ? (int32_t)max : d;
            ref[off + i] = (uint16_t)r;
            dis[off + i] = (uint16_t)d;
            if (p == 0 && f != 1 && (h >> 8) % 97 == 0)
                ((h >> 7) & 1 ? ref : dis)[off + i] =
                    (uint16_t)(max + 1 + (h >> 16) % (65535 - max));
        }
        off += n;
    }
    /* and in frames 0 and 2, vertical runs of three large samples in ref's luma: motion's
     * int32 vertical sum of their differences passes 2^31 */
    for (unsigned k = 0; f != 1 && k < 24; k++) {
        const uint32_t h = check_hash(f * 31u + k);
        const unsigned x = h % W, y = 1 + (h >> 8) % (H - 4);
        for (unsigned t = 0; t < 3; t++)
            ref[(y + t) * W + x] = (uint16_t)(60000 + (h >> 20) % 5000);
    }
}

static EvPicture picture(const Clip *c, const uint16_t *buf)
{
    EvPicture pic = { W, H, c->bpc, c->layout, { 0 }, { 0 } };
    size_t off = 0;
    for (unsigned p = 0; p < 3; p++) {
        unsigned pw, ph;
        ev_plane_size(W, H, c->layout, p, &pw, &ph);
        pic.data[p] = buf + off;
        pic.stride[p] = (ptrdiff_t)pw * 2;
        off += plane_samples(c, p);
    }
    return pic;
}

static size_t frame_samples(const Clip *c)
{
    return plane_samples(c, 0) + plane_samples(c, 1) + plane_samples(c, 2);
}

static void run_clip(const Clip *c)
{
    const size_t n = frame_samples(c);
    uint16_t *ref = malloc(n * 2), *dis = malloc(n * 2);
    CHECK(ref && dis);
    if (!ref || !dis)
        return;
    for (size_t m = 0; m < sizeof(masks) / sizeof(masks[0]); m++) {
        EvSettings s;
        ev_default_settings(&s);
        s.n_threads = 1;
        s.cpu_mask = masks[m];
        EvContext *ctx = NULL;
        CHECK(!ev_open(&ctx, &s) && !ev_use_feature(ctx, "vif", "") &&
              !ev_use_feature(ctx, "motion", ""));
        for (unsigned f = 0; f < FRAMES; f++) {
            make_frame(c, f, ref, dis);
            const EvPicture pr = picture(c, ref), pd = picture(c, dis);
            CHECK(!ev_send_pictures(ctx, &pr, &pd));
        }
        CHECK(!ev_flush(ctx));
        for (unsigned f = 0; f < FRAMES; f++)
            for (unsigned k = 0; k < 4; k++) {
                char name[32];
                snprintf(name, sizeof(name), "integer_vif_scale%u", k);
                double v = 0, want;
                const uint64_t bits = c->netflix[f][k];
                memcpy(&want, &bits, sizeof(want));
                CHECK(!ev_get_score(ctx, name, f, &v));
                CHECK_BITS(v, want);
            }
        static const char *const motion_names[2] = { "VMAF_integer_feature_motion_sad_score",
                                                     "integer_motion2" };
        for (unsigned f = 0; f < FRAMES; f++)
            for (unsigned k = 0; k < 2; k++) {
                double v = 0, want;
                memcpy(&want, &c->netflix_motion[f][k], sizeof(want));
                CHECK(!ev_get_score(ctx, motion_names[k], f, &v));
                CHECK_BITS(v, want);
            }
        ev_close(&ctx);
    }
    free(ref);
    free(dis);
}

/* The clips as raw planar files DIR/NAME_{ref,dis}.yuv, for scoring them with Netflix's. */
static int write_clips(const char *dir)
{
    for (size_t k = 0; k < sizeof(clips) / sizeof(clips[0]); k++) {
        const Clip *c = &clips[k];
        const size_t n = frame_samples(c);
        uint16_t *buf[2] = { malloc(n * 2), malloc(n * 2) };
        char path[2][512];
        FILE *out[2];
        for (int i = 0; i < 2; i++) {
            snprintf(path[i], sizeof(path[i]), "%s/%s_%s.yuv", dir, c->name, i ? "dis" : "ref");
            out[i] = fopen(path[i], "wb");
            if (!out[i] || !buf[i])
                return 1;
        }
        for (unsigned f = 0; f < FRAMES; f++) {
            make_frame(c, f, buf[0], buf[1]);
            for (int i = 0; i < 2; i++)
                fwrite(buf[i], 2, n, out[i]);
        }
        for (int i = 0; i < 2; i++) {
            fclose(out[i]);
            free(buf[i]);
        }
        printf("%s: %ux%u %u-bit %s\n", c->name, W, H, c->bpc,
               c->layout == EV_PIX_420 ? "420" : "444");
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        return write_clips(argv[1]);
    for (size_t k = 0; k < sizeof(clips) / sizeof(clips[0]); k++)
        run_clip(&clips[k]);
    printf("over_depth_test: %u passed, %u failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}
