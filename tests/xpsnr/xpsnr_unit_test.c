/* xpsnr: what it refuses (with one line naming xpsnr), its option, its listing, and the SSE2
 * row semantics of xpsnr_math.h on rows built to wrap (the goldens check them against ffmpeg's
 * kernel: hbd16_tile4x4_invert_r25). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exactvmaf/exactvmaf.h"
#include "features/xpsnr/xpsnr_frame.h"
#include "features/xpsnr/xpsnr_math.h"
#include "unit/check.h"

static void keep_last(void *user, EvLogLevel level, const char *line)
{
    (void)level;
    snprintf((char *)user, 512, "%s", line);
}

/* Score two frames of the geometry (mid-grey against a ramp) with the options; 0 or the error,
 * the last log line in last. */
static int run(unsigned w, unsigned h, EvPixelLayout layout, unsigned depth, const char *opts,
               char *last)
{
    EvSettings s;
    ev_default_settings(&s);
    s.n_threads = 1;
    s.log = keep_last;
    s.log_user = last;
    s.log_level = EV_LOG_ERROR;
    last[0] = '\0';
    EvContext *ctx = NULL;
    int err = ev_open(&ctx, &s);
    if (!err)
        err = ev_use_feature(ctx, "xpsnr", opts);
    const size_t n = (size_t)w * h;
    uint16_t *a = malloc(n * 2), *b = malloc(n * 2);
    if (!a || !b)
        err = -ENOMEM;
    for (size_t i = 0; !err && i < n; i++) {
        a[i] = (uint16_t)(1u << (depth - 1));
        b[i] = (uint16_t)(i % (1u << depth));
        if (depth == 8) {
            ((uint8_t *)a)[i] = (uint8_t)a[i];
            ((uint8_t *)b)[i] = (uint8_t)b[i];
        }
    }
    EvPicture ref = { w, h, depth, layout, { 0 }, { 0 } }, dis = ref;
    const unsigned bytes = depth > 8 ? 2 : 1;
    for (unsigned p = 0; p < 3; p++) {
        unsigned pw, ph;
        ev_plane_size(w, h, layout, p, &pw, &ph);
        ref.data[p] = pw ? a : NULL;
        dis.data[p] = pw ? b : NULL;
        ref.stride[p] = dis.stride[p] = (ptrdiff_t)pw * bytes;
    }
    for (unsigned f = 0; f < 2 && !err; f++)
        err = ev_send_pictures(ctx, &ref, &dis);
    if (!err)
        err = ev_flush(ctx);
    double v;
    if (!err && (ev_get_score(ctx, "xpsnr_y", 1, &v) || isnan(v)))
        err = -EDOM;
    ev_close(&ctx);
    free(a);
    free(b);
    return err;
}

static void check_refused(unsigned w, unsigned h, EvPixelLayout layout, unsigned depth,
                          const char *opts, const char *why)
{
    char last[512];
    const int err = run(w, h, layout, depth, opts, last);
    if (!check_count(err == -EINVAL && strstr(last, "xpsnr")))
        printf("%ux%u %s %u-bit %s: rc %d, log \"%s\"; want refused (%s)\n", w, h,
               ev_layout_name(layout), depth, opts ? opts : "", err, last, why);
}

static void check_accepted(unsigned w, unsigned h, EvPixelLayout layout, unsigned depth,
                           const char *opts)
{
    char last[512];
    const int err = run(w, h, layout, depth, opts, last);
    if (!check_count(err == 0))
        printf("%ux%u %s %u-bit %s: rc %d, log \"%s\"; want scored\n", w, h, ev_layout_name(layout),
               depth, opts ? opts : "", err, last);
}

static void check_geometry(void)
{
    check_refused(44, 46, EV_PIX_444, 8, NULL, "2024 pixels: block size 0");
    check_accepted(45, 45, EV_PIX_444, 8, NULL); /* 2025: block size 4 */
    check_refused(577, 324, EV_PIX_420, 8, NULL, "odd 4:2:0 width");
    check_refused(576, 323, EV_PIX_420, 10, NULL, "odd 4:2:0 height");
    check_refused(577, 324, EV_PIX_422, 8, NULL, "odd 4:2:2 width");
    check_accepted(576, 323, EV_PIX_422, 10, NULL);
    check_accepted(577, 323, EV_PIX_444, 12, NULL);
    check_accepted(577, 323, EV_PIX_400, 16, NULL);
    check_refused(2049, 1152, EV_PIX_444, 8, NULL, "odd width over 2048x1152");
    check_accepted(2050, 1152, EV_PIX_400, 8, NULL);
    check_refused(2048, 1153, EV_PIX_400, 8, NULL, "odd height over 2048x1152");
    static const unsigned bad_depth[] = { 11, 13, 15 };
    for (unsigned i = 0; i < 3; i++)
        check_refused(64, 64, EV_PIX_420, bad_depth[i], NULL, "a depth ffmpeg has no format of");
    static const unsigned good_depth[] = { 8, 9, 10, 12, 14, 16 };
    for (unsigned i = 0; i < 6; i++)
        check_accepted(64, 64, EV_PIX_420, good_depth[i], NULL);
}

static void check_options(void)
{
    check_accepted(64, 64, EV_PIX_420, 8, "frame_rate=60");
    check_accepted(64, 64, EV_PIX_420, 8, "frame_rate=29.97");
    check_refused(64, 64, EV_PIX_420, 8, "frame_rate=-1", "negative rate");
    check_refused(64, 64, EV_PIX_420, 8, "frame_rate=fast", "not a number");
    check_refused(64, 64, EV_PIX_420, 8, "stats_file=x.log", "the library writes no files");
    int listed = 0;
    for (const char *const *n = ev_extractor_names(); *n; n++)
        listed += !strcmp(*n, "xpsnr");
    CHECK(listed == 1);
    EvOptionInfo o;
    CHECK(ev_extractor_option("xpsnr", 0, &o) == 0);
    CHECK_STR(o.name, "frame_rate");
    CHECK_BITS(o.def, 25.0);
    CHECK(ev_extractor_option("xpsnr", 1, &o) == -ERANGE);
}

/* The kernel's lanes: a chunk of 32 differences of 65535 wraps each to -1 (squares 1); 32768
 * wraps to -32768, whose 8 squares of 2^30 per lane add to 2^33 = 0 modulo 2^32. The tail after
 * the chunks takes exact squares. */
static void check_row_sse16(void)
{
    uint16_t a[40], b[40];
    for (unsigned i = 0; i < 40; i++) {
        a[i] = 65535;
        b[i] = 0;
    }
    CHECK(xpsnr_row_sse16(a, b, 32) == 32);
    CHECK(xpsnr_row_sse16(a, b, 31) == 31 * UINT64_C(65535) * 65535);
    CHECK(xpsnr_row_sse16(a, b, 40) == 32 + 8 * UINT64_C(65535) * 65535);
    for (unsigned i = 0; i < 40; i++)
        a[i] = 32768;
    CHECK(xpsnr_row_sse16(a, b, 32) == 0);
    CHECK(xpsnr_row_sse16(a, b, 33) == UINT64_C(32768) * 32768);
    /* up to 14 bits: the exact sum, whatever the split into chunks */
    uint16_t x[100], y[100];
    for (unsigned seed = 1; seed <= 200; seed++) {
        uint64_t exact = 0;
        for (unsigned i = 0; i < 100; i++) {
            x[i] = (uint16_t)(check_hash(seed * 1000 + i) & 0x3fff);
            y[i] = (uint16_t)(check_hash(seed * 1000 + i + 500) & 0x3fff);
            const int64_t d = (int64_t)x[i] - y[i];
            exact += (uint64_t)(d * d);
        }
        CHECK(xpsnr_row_sse16(x, y, 100) == exact);
    }
}

static void check_value(void)
{
    const uint64_t peak = UINT64_C(576) * 324 * 255 * 255;
    CHECK(isinf(ev_xpsnr_value(0, peak)) && ev_xpsnr_value(0, peak) > 0);
    CHECK_BITS(ev_xpsnr_value(1, peak), 10.0 * log10((double)peak));
    CHECK_BITS(ev_xpsnr_value(4, peak), 10.0 * log10((double)peak / 4.0));
}

int main(void)
{
    check_geometry();
    check_options();
    check_row_sse16();
    check_value();
    return check_report("xpsnr_unit");
}
