/*
 * Core unit tests: option parsing (Netflix's strtof/%g normalisation, ranges, errors), output
 * names under options, collector order whatever the write order, libvmaf pooling, and the
 * public API's refusals (bad pictures, mismatched geometry, calls out of order).
 */
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/collector.h"
#include "api/context.h"
#include "core/engine_internal.h"
#include "base/extractor.h"
#include "exactvmaf/exactvmaf.h"
#include "unit/check.h"
#include "unit/check_api.h"
#include "unit/check_log.h"

typedef struct DemoOpts {
    int flag;
    int count;
    double gain;
    double plain;
} DemoOpts;

static const EvOption demo_options[] = {
    { "flag", "f", "", EV_OPT_BOOL, offsetof(DemoOpts, flag), 0, 0, 1, EV_OPT_FEATURE_PARAM },
    { "count", NULL, "", EV_OPT_INT, offsetof(DemoOpts, count), 3, 1, 10, EV_OPT_FEATURE_PARAM },
    { "gain", "egl", "", EV_OPT_DOUBLE, offsetof(DemoOpts, gain), 100.0, 1.0, 1000.0,
      EV_OPT_FEATURE_PARAM },
    { "plain", NULL, "", EV_OPT_DOUBLE, offsetof(DemoOpts, plain), 0.5, 0.0, 1.0, 0 },
    { 0 },
};

static const EvExtractorClass demo = { .name = "demo",
                                       .options = demo_options,
                                       .opts_size = sizeof(DemoOpts) };

static const EvLog test_log = { check_keep_line, NULL, EV_LOG_DEBUG };

static void test_options(void)
{
    DemoOpts o;
    ev_options_defaults(&demo, &o);
    CHECK(o.flag == 0 && o.count == 3 && o.gain == 100.0 && o.plain == 0.5);
    CHECK(ev_options_parse(&demo, &o, "flag=true:count=7:gain=1.2", &test_log) == 0);
    CHECK(o.flag == 1 && o.count == 7);
    /* "1.2" reaches the extractor as atof("%g" of strtof("1.2")) = the double 1.2 */
    CHECK_BITS(o.gain, 1.2);
    /* more digits than %g keeps are dropped, as Netflix's CLI does */
    CHECK(ev_options_parse(&demo, &o, "plain=0.123456789", &test_log) == 0);
    CHECK_BITS(o.plain, 0.123457);

    CHECK(ev_options_parse(&demo, &o, "nosuch=1", &test_log) == -EINVAL);
    CHECK(strstr(check_last_line, "demo") && strstr(check_last_line, "nosuch"));
    CHECK(ev_options_parse(&demo, &o, "count=11", &test_log) == -EINVAL);
    CHECK(strstr(check_last_line, "out of range"));
    CHECK(ev_options_parse(&demo, &o, "count=2.5", &test_log) == -EINVAL);
    CHECK(ev_options_parse(&demo, &o, "flag=yes", &test_log) == -EINVAL);
    CHECK(ev_options_parse(&demo, &o, "gain=", &test_log) == -EINVAL);
    CHECK(ev_options_parse(&demo, &o, "gain", &test_log) == -EINVAL);
    CHECK(ev_options_parse(&demo, &o, "gain=abc", &test_log) == -EINVAL);
    /* a message quoting the user's text stays one line (found by tests/fuzz/fuzz_options) */
    CHECK(ev_options_parse(&demo, &o, "no\nsuch\r=1", &test_log) == -EINVAL);
    CHECK(strstr(check_last_line, "\"no?such?\"") && !strchr(check_last_line, '\n') &&
          !strchr(check_last_line, '\r'));
}

static void test_feature_names(void)
{
    DemoOpts o;
    char name[256];
    ev_options_defaults(&demo, &o);
    ev_options_feature_name(name, sizeof(name), "demo_score", &demo, &o);
    CHECK_STR(name, "demo_score");
    /* alphabetical by option name: count, flag, gain; aliases where given; plain is no
     * FEATURE_PARAM */
    o.flag = 1;
    o.count = 5;
    o.gain = 2.5;
    o.plain = 0.25;
    ev_options_feature_name(name, sizeof(name), "demo_score", &demo, &o);
    CHECK_STR(name, "demo_score_count_5_f_egl_2.5");
}

static void test_collector_order(void)
{
    EvCollector c;
    CHECK(ev_collector_init(&c, &test_log) == 0);
    /* writes arrive out of order (as from worker threads): frame 2 first, then frame 0 of a
     * later extractor, then frame 0 of the first; flush values last */
    EvCollectorSink s2 = ev_sink(&c, 2, 0);
    CHECK(ev_sink_put(&s2.base, "a", 2, 1.0) == 0);
    CHECK(ev_sink_put(&s2.base, "b", 2, 2.0) == 0);
    EvCollectorSink f = ev_sink(&c, EV_EPOCH_FLUSH, 0);
    CHECK(ev_sink_put(&f.base, "late", 0, 3.0) == 0);
    EvCollectorSink s0b = ev_sink(&c, 0, 1);
    CHECK(ev_sink_put(&s0b.base, "c", 0, 4.0) == 0);
    EvCollectorSink s0a = ev_sink(&c, 0, 0);
    CHECK(ev_sink_put(&s0a.base, "b", 0, 5.0) == 0);
    CHECK(ev_sink_put(&s0a.base, "a", 0, 6.0) == 0);
    EvCollectorSink dup = ev_sink(&c, 0, 0);
    CHECK(ev_sink_put(&dup.base, "a", 0, 7.0) == -EINVAL); /* written twice */
    ev_collector_finish(&c);
    /* frame 0's order (b, a from extractor 0; c from extractor 1), then flush */
    CHECK(c.n_feat == 4);
    CHECK_STR(c.feat[0].name, "b");
    CHECK_STR(c.feat[1].name, "a");
    CHECK_STR(c.feat[2].name, "c");
    CHECK_STR(c.feat[3].name, "late");
    ev_collector_free(&c);
}

static void test_pooling(void)
{
    EvContext *ctx;
    CHECK(check_open(&ctx, 1, NULL) == 0);
    const double v[4] = { 0.0, 3.0, 1.5, 100.25 };
    EvCollectorSink sink = ev_sink(&ctx->engine->collector, 0, 0);
    for (unsigned i = 0; i < 4; i++)
        CHECK(ev_sink_put(&sink.base, "x", i, v[i]) == 0);
    CHECK(ev_sink_put(&sink.base, "partial", 0, 1.0) == 0);
    ctx->engine->n_frames = 4;
    ctx->flushed = 1;
    ev_collector_finish(&ctx->engine->collector);
    double got, sum = 0, inv = 0;
    for (unsigned i = 0; i < 4; i++) {
        sum += v[i];
        inv += 1.0 / (v[i] + 1.0);
    }
    CHECK(ev_get_pooled(ctx, "x", EV_POOL_MEAN, &got) == 0);
    CHECK_BITS(got, sum / 4);
    CHECK(ev_get_pooled(ctx, "x", EV_POOL_HARMONIC_MEAN, &got) == 0);
    CHECK_BITS(got, 4 / inv - 1.0);
    CHECK(ev_get_pooled(ctx, "x", EV_POOL_MIN, &got) == 0);
    CHECK_BITS(got, 0.0);
    CHECK(ev_get_pooled(ctx, "x", EV_POOL_MAX, &got) == 0);
    CHECK_BITS(got, 100.25);
    CHECK(ev_get_pooled(ctx, "partial", EV_POOL_MEAN, &got) == -ENODATA);
    CHECK(ev_get_pooled(ctx, "nosuch", EV_POOL_MEAN, &got) == -ENOENT);
    CHECK(ev_get_score(ctx, "x", 9, &got) == -ENODATA);
    /* every other frame with subsample 2: frames 0 and 2 */
    ctx->engine->settings.n_subsample = 2;
    CHECK(ev_get_pooled(ctx, "x", EV_POOL_MEAN, &got) == 0);
    CHECK_BITS(got, (0.0 + 1.5) / 2);
    ev_close(&ctx);
    CHECK(ctx == NULL);
}

static void test_api_refusals(void)
{
    EvContext *ctx;
    CHECK(check_open(&ctx, 2, check_keep_line) == 0);
    CHECK(ev_use_feature(ctx, "nosuch", NULL) == -ENOENT);
    CHECK(strstr(check_last_line, "nosuch") && strstr(check_last_line, "psnr"));
    CHECK(ev_use_feature(ctx, "psnr", "enable_mse=true") == 0);
    static uint8_t y[64 * 64], u[32 * 32], v[32 * 32];
    EvPicture a = { 64, 64, 8, EV_PIX_420, { y, u, v }, { 64, 32, 32 } };
    EvPicture b = a;
    b.width = 32;
    CHECK(ev_send_pictures(ctx, &a, &b) == -EINVAL);
    CHECK(strstr(check_last_line, "differ"));
    b = a;
    b.stride[0] = 10;
    CHECK(ev_send_pictures(ctx, &a, &b) == -EINVAL);
    b = a;
    b.bitdepth = 17;
    CHECK(ev_send_pictures(ctx, &a, &b) == -EINVAL);
    CHECK(ev_send_pictures(ctx, &a, NULL) == -EINVAL);
    CHECK(ev_send_pictures(ctx, &a, &a) == 0);
    CHECK(ev_use_feature(ctx, "float_psnr", NULL) == -EINVAL); /* after the first picture */
    EvPicture small = a;
    small.width = 32;
    small.stride[0] = 32;
    small.stride[1] = small.stride[2] = 16;
    CHECK(ev_send_pictures(ctx, &small, &small) == -EINVAL); /* not the first frame's size */
    CHECK(strstr(check_last_line, "first frame"));
    CHECK(ev_flush(ctx) == 0);
    CHECK(ev_send_pictures(ctx, &a, &a) == -EINVAL);
    double mse;
    CHECK(ev_get_score(ctx, "mse_y", 0, &mse) == 0);
    CHECK_BITS(mse, 0.0);
    CHECK(ev_frame_count(ctx) == 1);
    ev_close(&ctx);
    ev_close(&ctx); /* NULL-safe */
}

/* A second use of an extractor that writes the same names is dropped, options and all, as
 * libvmaf f85a8536 drops it (its CLI given `--feature psnr --feature psnr=enable_mse=true`
 * prints no mse_y); a use with other name-forming options is a registration of its own. */
static void test_duplicate(void)
{
    EvContext *ctx;
    CHECK(check_open(&ctx, 1, check_keep_line) == 0);
    CHECK(ev_use_feature(ctx, "psnr", NULL) == 0);
    CHECK(ev_use_feature(ctx, "psnr", "enable_mse=true") == 0);
    CHECK(ev_use_feature(ctx, "psnr", "min_sse=2") == 0);
    CHECK(ctx->engine->n_reg == 1);
    CHECK(ev_use_feature(ctx, "vif", "debug=true") == 0);
    CHECK(ev_use_feature(ctx, "vif", NULL) == 0);
    CHECK(ev_use_feature(ctx, "vif", "vif_enhn_gain_limit=1.5") == 0);
    CHECK(ctx->engine->n_reg == 3);
    static uint8_t y[64 * 64], u[32 * 32], v[32 * 32];
    EvPicture a = { 64, 64, 8, EV_PIX_420, { y, u, v }, { 64, 32, 32 } };
    CHECK(ev_send_pictures(ctx, &a, &a) == 0);
    CHECK(ev_flush(ctx) == 0);
    double value;
    CHECK(ev_get_score(ctx, "psnr_y", 0, &value) == 0);
    CHECK(ev_get_score(ctx, "mse_y", 0, &value) != 0);
    CHECK(ev_get_score(ctx, "integer_vif_num", 0, &value) == 0); /* the first's debug */
    CHECK(ev_get_score(ctx, "integer_vif_scale0_egl_1.5", 0, &value) == 0);
    ev_close(&ctx);
}

int main(void)
{
    test_duplicate();
    test_options();
    test_feature_names();
    test_collector_order();
    test_pooling();
    test_api_refusals();
    return check_report("core");
}
