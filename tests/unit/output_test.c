/*
 * The output writers: Netflix vmaf CLI files reproduced byte for byte from the golden values,
 * and the number format, frame selection, JSON quirks, precision modes and errors.
 * Contexts are filled directly through the collector (internal headers), as a flush leaves them.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/context.h"
#include "core/engine_internal.h"
#include "golden/golden_io.h"
#include "output/output.h"
#include "unit/check.h"

/* ---- building a flushed context ---------------------------------------------------------- */

static EvContext *open_ctx(const unsigned subsample)
{
    EvSettings s;
    ev_default_settings(&s);
    s.n_threads = 1;
    s.n_subsample = subsample;
    EvContext *c = NULL;
    if (ev_open(&c, &s))
        abort();
    return c;
}

/* What ev_flush leaves behind: features sorted into output order, n_frames, flushed. */
static void finish_ctx(EvContext *const c, const unsigned n_frames, const unsigned w,
                       const unsigned h)
{
    ev_collector_finish(&c->engine->collector);
    c->engine->n_frames = n_frames;
    c->engine->info.width = w;
    c->engine->info.height = h;
    c->flushed = 1;
}

/* One frame's values, in output order; a NULL name skips a column (value not written). */
static void put_frame(EvContext *const c, const unsigned frame, const char *const *names,
                      const double *values, const unsigned n)
{
    EvCollectorSink sink = ev_sink(&c->engine->collector, frame, 0);
    for (unsigned j = 0; j < n; j++)
        if (names[j] && ev_sink_put(&sink.base, names[j], frame, values[j]))
            abort();
}

static void put_aggregate(EvContext *const c, const char *const name, const double v)
{
    EvCollectorSink sink = ev_sink(&c->engine->collector, EV_EPOCH_FLUSH, 0);
    if (ev_sink_put_aggregate(&sink.base, name, v))
        abort();
}

/* ---- rendering ---------------------------------------------------------------------------- */

/* Write c in a format to memory; returns the text (malloc'd) or NULL when the call fails. */
static char *render(const EvContext *const c, const EvOutputFormat fmt, const int precision,
                    const double fps)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        abort();
    EvOutputOptions o;
    ev_default_output_options(&o);
    o.format = fmt;
    o.precision = precision;
    o.fps = fps;
    const int err = ev_write_output(c, f, &o);
    fclose(f);
    if (err) {
        fprintf(stderr, "ev_write_output: %d\n", err);
        free(buf);
        return NULL;
    }
    return buf;
}

/* Compare texts; on a difference print the first differing line of each. */
static int same_text(const char *const what, const char *const want, const char *const got)
{
    if (got && !strcmp(want, got))
        return 1;
    check_failed++;
    if (!got) {
        fprintf(stderr, "%s: no output\n", what);
        return 0;
    }
    size_t i = 0, line = 1, start = 0;
    for (; want[i] && want[i] == got[i]; i++)
        if (want[i] == '\n') {
            line++;
            start = i + 1;
        }
    fprintf(stderr, "%s: differs at line %zu, byte %zu\n  want: %.*s\n  got:  %.*s\n", what, line,
            i, (int)strcspn(want + start, "\n"), want + start, (int)strcspn(got + start, "\n"),
            got + start);
    return 0;
}

static int expect(const char *const what, const EvContext *const c, const EvOutputFormat fmt,
                  const int precision, const double fps, const char *const want)
{
    char *got = render(c, fmt, precision, fps);
    const int ok = same_text(what, want, got);
    free(got);
    return ok;
}

/* text with the quoted value after key (Netflix's version string) replaced by value. */
static char *replace_quoted(const char *const text, const char *const key, const char *const value)
{
    const char *const at = strstr(text, key);
    if (!at)
        return strdup(text);
    const char *const from = at + strlen(key);
    const char *const to = strchr(from, '"');
    if (!to)
        return strdup(text);
    const size_t n = strlen(text) - (size_t)(to - from) + strlen(value) + 1;
    char *out = malloc(n);
    if (out)
        snprintf(out, n, "%.*s%s%s", (int)(from - text), text, value, to);
    return out;
}

/* The text before the quoted version string of the layouts that name one (XML, JSON). */
static const char *version_key(const EvOutputFormat fmt)
{
    return fmt == EV_OUTPUT_XML    ? "<VMAF version=\""
           : fmt == EV_OUTPUT_JSON ? "\"version\": \""
                                   : NULL;
}

/* expect(), with the version string that want names (whatever it is: Netflix's in its CLI's
 * files, VERSION in the texts below) replaced by ours. */
static int expect_our_version(const char *const what, const EvContext *const c,
                              const EvOutputFormat fmt, const int precision, const double fps,
                              const char *const want)
{
    const char *const key = version_key(fmt);
    char *const ours = key ? replace_quoted(want, key, ev_version()) : strdup(want);
    const int ok = ours ? expect(what, c, fmt, precision, fps, ours) : check_count(0);
    free(ours);
    return ok;
}

/* ---- Netflix's CLI files (shared/golden/cli) -------------------------------------------- */

/* The CLI run: model vmaf_v0.6.1 + psnr (apsnr) + float_ssim on this 576x324 pair. The golden
 * table holds the same values under its cases; the aggregates come from a psnr case with apsnr. */
#define CLI_PAIR "nat576_8bit_x264_crf23"
static const char *const cli_value_case[] = { "model_vmaf_v0.6.1", "psnr", "float_ssim" };
#define CLI_AGGREGATE_CASE "psnr_mse_apsnr"

static char *read_cli_file(const char *const ext)
{
    char name[128];
    snprintf(name, sizeof(name), CLI_PAIR ".%s", ext);
    FILE *f = golden_open("golden/cli", name, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    const long size = ftell(f);
    rewind(f);
    char *text = size >= 0 ? malloc((size_t)size + 1) : NULL;
    if (text && fread(text, 1, (size_t)size, f) == (size_t)size) {
        text[size] = '\0';
    } else {
        free(text);
        text = NULL;
    }
    fclose(f);
    return text;
}

static int golden_value(const GoldenTable *const t, const char *const feature, const int frame,
                        double *const v)
{
    for (unsigned k = 0; k < sizeof(cli_value_case) / sizeof(cli_value_case[0]); k++)
        for (unsigned r = 0; r < t->n; r++) {
            const GoldenRow *const row = &t->row[r];
            if (row->frame == frame && !strcmp(row->feature, feature) &&
                !strcmp(row->case_id, cli_value_case[k])) {
                memcpy(v, &row->bits, sizeof(*v));
                return 0;
            }
        }
    fprintf(stderr, "golden: no %s at frame %d\n", feature, frame);
    return -1;
}

/* The value columns of the CLI's CSV header ("Frame,a,b,...,"), in output order, and the
 * number of frame rows. Names point into csv, which this splits in place. */
static unsigned cli_columns(char *const csv, char **const name, const unsigned max,
                            unsigned *const n_rows)
{
    *n_rows = 0;
    for (const char *p = strchr(csv, '\n'); p && p[1]; p = strchr(p + 1, '\n'))
        (*n_rows)++;
    csv[strcspn(csv, "\n")] = '\0';
    unsigned n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(csv, ",", &save); tok && n < max; tok = strtok_r(NULL, ",", &save))
        if (strcmp(tok, "Frame"))
            name[n++] = tok;
    return n;
}

/* A flushed context holding the golden bits of every CLI column, written frame by frame in
 * column order (so the collector's order is the CLI's), and the golden aggregates. */
static EvContext *cli_ctx(const GoldenTable *const t)
{
    char *csv = read_cli_file("csv");
    if (!csv)
        return NULL;
    char *name[64];
    unsigned n_rows;
    const unsigned n_cols = cli_columns(csv, name, 64, &n_rows);
    EvContext *c = open_ctx(0);
    int err = !n_cols || !n_rows;
    for (unsigned i = 0; i < n_rows && !err; i++) {
        double v[64];
        for (unsigned j = 0; j < n_cols && !err; j++)
            err = golden_value(t, name[j], (int)i, &v[j]);
        if (!err)
            put_frame(c, i, (const char *const *)name, v, n_cols);
    }
    for (unsigned r = 0; r < t->n; r++)
        if (t->row[r].frame == GOLDEN_ROW_AGGREGATE &&
            !strcmp(t->row[r].case_id, CLI_AGGREGATE_CASE)) {
            double v;
            memcpy(&v, &t->row[r].bits, sizeof(v));
            put_aggregate(c, t->row[r].feature, v);
        }
    finish_ctx(c, n_rows, 576, 324);
    free(csv);
    if (err)
        ev_close(&c);
    return c;
}

/* Each layout equals Netflix's file byte for byte, with our version string in place of
 * Netflix's and the file's own fps (a timing) passed in. */
static void check_cli_file(const EvContext *const c, const EvOutputFormat fmt,
                           const char *const ext, const char *const fps_key)
{
    char *netflix = read_cli_file(ext);
    if (!netflix) {
        check_failed++;
        return;
    }
    const char *const fps_at = fps_key ? strstr(netflix, fps_key) : NULL;
    CHECK(!fps_key || fps_at);
    const double fps = fps_at ? strtod(fps_at + strlen(fps_key), NULL) : 0.0;
    char what[64];
    snprintf(what, sizeof(what), "Netflix CLI .%s", ext);
    expect_our_version(what, c, fmt, EV_PRECISION_NETFLIX, fps, netflix);
    free(netflix);
}

static void test_golden_cli(void)
{
    if (!golden_available()) {
        printf("output: no %s/golden: Netflix's CLI files not compared\n", golden_shared_dir());
        return;
    }
    GoldenTable t = { 0 };
    if (golden_load_table(CLI_PAIR, &t)) {
        check_failed++;
        return;
    }
    EvContext *c = cli_ctx(&t);
    golden_free_table(&t);
    if (!c) {
        check_failed++;
        return;
    }
    check_cli_file(c, EV_OUTPUT_XML, "xml", "<fyi fps=\"");
    check_cli_file(c, EV_OUTPUT_JSON, "json", "\"fps\": ");
    check_cli_file(c, EV_OUTPUT_CSV, "csv", NULL);
    check_cli_file(c, EV_OUTPUT_SUB, "sub", NULL);
    ev_close(&c);
}

/* ---- the number format -------------------------------------------------------------------- */

static void test_leading_zeros(void)
{
    static const struct {
        double x;
        int zeros;
    } t[] = {
        { 0.0000001, 7 },
        { 0.000001, 6 },
        { 0.00000099, 7 },
        { 0.0000011, 6 },
        { 1e-300, 301 },
        { 0x1p-1074, 324 },
        { 3.0000000001, 10 },
        { -3.0000000001, 10 },
        { 1e10, 0 },
        { INFINITY, 0 },
        { -INFINITY, 0 },
        { NAN, 0 },
        { -0.0, 0 },
        { 0.0, 0 },
        { 0.1, 1 },
        { 0.9999999, 1 },
        { 2147483647.0000002, 7 }, /* below 2^31: (int) works */
        { 2147483648.0000005, 0 },
        { -2147483648.0000005, 0 }, /* (int) gives INT_MIN */
    };
    for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        const int z = ev_output_leading_zeros(t[i].x);
        if (z != t[i].zeros) {
            fprintf(stderr, "leading zeros of %.17g: %d, want %d\n", t[i].x, z, t[i].zeros);
            check_failed++;
        }
    }
}

static const double number_cases[] = {
    0.0000001,          0.000001, 1e-300, 3.0000000001, 1e10,
    INFINITY,           NAN,      -0.0,   -INFINITY,    2147483648.0000005,
    2147483647.0000002, 0.1,      1.0 / 3
};
#define N_NUMBER_CASES (sizeof(number_cases) / sizeof(number_cases[0]))

/* One feature "x" holding number_cases, one frame each. */
static EvContext *numbers_ctx(void)
{
    EvContext *c = open_ctx(0);
    static const char *const name[] = { "x" };
    for (unsigned i = 0; i < N_NUMBER_CASES; i++)
        put_frame(c, i, name, &number_cases[i], 1);
    finish_ctx(c, N_NUMBER_CASES, 8, 8);
    return c;
}

static void test_number_formats(void)
{
    EvContext *c = numbers_ctx();
    expect("netflix numbers", c, EV_OUTPUT_CSV, EV_PRECISION_NETFLIX, 0.0,
           "Frame,x,\n0,0.0000001000000000,\n1,0.000001,\n2,0.0000000000000000,\n"
           "3,3.0000000001000000,\n4,10000000000.000000,\n5,inf,\n6,nan,\n7,-0.000000,\n"
           "8,-inf,\n9,2147483648.000000,\n10,2147483647.0000002384185791,\n11,0.100000,\n"
           "12,0.333333,\n");
    expect("precision max", c, EV_OUTPUT_CSV, EV_PRECISION_MAX, 0.0,
           "Frame,x,\n0,9.9999999999999995e-08,\n1,9.9999999999999995e-07,\n2,1e-300,\n"
           "3,3.0000000001,\n4,10000000000,\n5,inf,\n6,nan,\n7,-0,\n8,-inf,\n"
           "9,2147483648.0000005,\n10,2147483647.0000002,\n11,0.10000000000000001,\n"
           "12,0.33333333333333331,\n");
    expect("precision 3", c, EV_OUTPUT_SUB, 3, 0.0,
           "{0}{1}frame: 0|x: 0.000|\n{1}{2}frame: 1|x: 0.000|\n{2}{3}frame: 2|x: 0.000|\n"
           "{3}{4}frame: 3|x: 3.000|\n{4}{5}frame: 4|x: 10000000000.000|\n"
           "{5}{6}frame: 5|x: inf|\n{6}{7}frame: 6|x: nan|\n{7}{8}frame: 7|x: -0.000|\n"
           "{8}{9}frame: 8|x: -inf|\n{9}{10}frame: 9|x: 2147483648.000|\n"
           "{10}{11}frame: 10|x: 2147483647.000|\n{11}{12}frame: 11|x: 0.100|\n"
           "{12}{13}frame: 12|x: 0.333|\n");
    expect("precision 0", c, EV_OUTPUT_CSV, 0, 0.0,
           "Frame,x,\n0,0,\n1,0,\n2,0,\n3,3,\n4,10000000000,\n5,inf,\n6,nan,\n7,-0,\n8,-inf,\n"
           "9,2147483648,\n10,2147483647,\n11,0,\n12,0,\n");
    ev_close(&c);
}

/* %.17g round-trips: random finite bit patterns come back with the same bits. */
static void test_precision_max_round_trip(void)
{
    enum { N = 2000 };
    EvContext *c = open_ctx(0);
    static const char *const name[] = { "x" };
    static double v[N];
    uint64_t s = 0x9e3779b97f4a7c15u;
    for (unsigned i = 0; i < N; i++) {
        do {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            memcpy(&v[i], &s, sizeof(v[i]));
        } while (!isfinite(v[i]));
        put_frame(c, i, name, &v[i], 1);
    }
    finish_ctx(c, N, 8, 8);
    char *csv = render(c, EV_OUTPUT_CSV, EV_PRECISION_MAX, 0.0);
    CHECK(csv != NULL);
    const char *p = csv ? strchr(csv, '\n') : NULL;
    for (unsigned i = 0; p && i < N; i++) {
        char *end;
        CHECK(strtoul(p + 1, &end, 10) == i && *end == ',');
        const double back = strtod(end + 1, &end);
        CHECK(*end == ',' && !memcmp(&back, &v[i], sizeof(back)));
        p = strchr(end, '\n');
    }
    free(csv);
    ev_close(&c);
}

/* ---- frame selection and layout quirks ---------------------------------------------------- */

/* Subsample 2 over 5 frames: m every frame, s at 0, 2, 4 (0, inf, 1), p at frame 0 only; in
 * XML, CSV and JSON. */
static void test_subsample(void)
{
    EvContext *c = open_ctx(2);
    static const char *const name[] = { "m", "s", "p" };
    static const char *const m_only[] = { "m", NULL, NULL };
    const double f0[] = { 1, 0, 7 }, f2[] = { 3, INFINITY, 0 }, f4[] = { 5, 1, 0 };
    const double odd[] = { 2, 0, 0 };
    put_frame(c, 0, name, f0, 3);
    put_frame(c, 1, m_only, odd, 3);
    put_frame(c, 2, name, f2, 2);
    put_frame(c, 3, m_only, odd, 3);
    put_frame(c, 4, name, f4, 2);
    put_aggregate(c, "agg", 0.25);
    finish_ctx(c, 5, 176, 144);
    expect_our_version("subsample xml", c, EV_OUTPUT_XML, EV_PRECISION_NETFLIX, 23.976,
                       "<VMAF version=\"VERSION\">\n"
                       "  <params qualityWidth=\"176\" qualityHeight=\"144\" />\n"
                       "  <fyi fps=\"23.98\" />\n"
                       "  <frames>\n"
                       "    <frame frameNum=\"0\" m=\"1.000000\" s=\"0.000000\" p=\"7.000000\" />\n"
                       "    <frame frameNum=\"2\" m=\"3.000000\" s=\"inf\" />\n"
                       "    <frame frameNum=\"4\" m=\"5.000000\" s=\"1.000000\" />\n"
                       "  </frames>\n"
                       "  <pooled_metrics>\n"
                       "    <metric name=\"m\" min=\"1.000000\" max=\"5.000000\" mean=\"3.000000\" "
                       "harmonic_mean=\"2.272727\" />\n"
                       "    <metric name=\"s\" min=\"0.000000\" max=\"inf\" mean=\"inf\" "
                       "harmonic_mean=\"1.000000\" />\n"
                       "    <metric name=\"p\" />\n"
                       "  </pooled_metrics>\n"
                       "  <aggregate_metrics agg=\"0.250000\" />\n"
                       "</VMAF>\n");
    expect("subsample csv", c, EV_OUTPUT_CSV, EV_PRECISION_NETFLIX, 0.0,
           "Frame,m,s,p,\n0,1.000000,0.000000,7.000000,\n2,3.000000,inf,\n4,5.000000,1.000000,\n");
    expect_our_version(
        "subsample json", c, EV_OUTPUT_JSON, EV_PRECISION_NETFLIX, 0.0,
        "{\n  \"version\": \"VERSION\",\n  \"fps\": 0.00,\n  \"frames\": [\n"
        "    {\n      \"frameNum\": 0,\n      \"metrics\": {\n"
        "        \"m\": 1.000000,\n        \"s\": 0.000000,\n        \"p\": 7.000000\n"
        "      }\n    },\n"
        "    {\n      \"frameNum\": 2,\n      \"metrics\": {\n"
        "        \"m\": 3.000000,\n        \"s\": null      }\n    },\n"
        "    {\n      \"frameNum\": 4,\n      \"metrics\": {\n"
        "        \"m\": 5.000000,\n        \"s\": 1.000000\n      }\n    }\n  ],\n"
        "  \"pooled_metrics\": {\n"
        "    \"m\": {\n      \"min\": 1.000000,\n      \"max\": 5.000000,\n"
        "      \"mean\": 3.000000,\n      \"harmonic_mean\": 2.272727\n    },\n"
        "    \"s\": {\n      \"min\": 0.000000,\n      \"max\": null,\n"
        "      \"mean\": null,\n      \"harmonic_mean\": 1.000000\n    },\n"
        "    \"p\": {\n    }\n  },\n"
        "  \"aggregate_metrics\": {\n    \"agg\": 0.250000\n  }\n}\n");
    ev_close(&c);
}

/* Frame 0 has no value: frame 1 still gets the ",\n" before it. Null metric lines have no
 * newline; fps inf is null; pooling fails for every feature (frame 0 lacks them all). */
static void test_json_quirks(void)
{
    EvContext *c = open_ctx(0);
    static const char *const name[] = { "a", "b", "c" };
    const double f1[] = { 1, INFINITY, 2 }, f2[] = { NAN, 0.5, -INFINITY };
    put_frame(c, 1, name, f1, 3);
    put_frame(c, 2, name, f2, 3);
    put_aggregate(c, "agg", INFINITY);
    put_aggregate(c, "agg2", 0.25);
    finish_ctx(c, 3, 8, 8);
    expect_our_version(
        "json quirks", c, EV_OUTPUT_JSON, EV_PRECISION_NETFLIX, INFINITY,
        "{\n  \"version\": \"VERSION\",\n  \"fps\": null,\n  \"frames\": [,\n"
        "    {\n      \"frameNum\": 1,\n      \"metrics\": {\n"
        "        \"a\": 1.000000,\n        \"b\": null,        \"c\": 2.000000\n"
        "      }\n    },\n"
        "    {\n      \"frameNum\": 2,\n      \"metrics\": {\n"
        "        \"a\": null,        \"b\": 0.500000,\n        \"c\": null      }\n"
        "    }\n  ],\n"
        "  \"pooled_metrics\": {\n    \"a\": {\n    },\n    \"b\": {\n    },\n"
        "    \"c\": {\n    }\n  },\n"
        "  \"aggregate_metrics\": {\n    \"agg\": null,\n    \"agg2\": 0.250000\n  }\n}\n");
    expect_our_version(
        "xml max precision", c, EV_OUTPUT_XML, EV_PRECISION_MAX, NAN,
        "<VMAF version=\"VERSION\">\n  <params qualityWidth=\"8\" qualityHeight=\"8\" />\n"
        "  <fyi fps=\"nan\" />\n  <frames>\n"
        "    <frame frameNum=\"1\" a=\"1\" b=\"inf\" c=\"2\" />\n"
        "    <frame frameNum=\"2\" a=\"nan\" b=\"0.5\" c=\"-inf\" />\n  </frames>\n"
        "  <pooled_metrics>\n    <metric name=\"a\" />\n    <metric name=\"b\" />\n"
        "    <metric name=\"c\" />\n  </pooled_metrics>\n"
        "  <aggregate_metrics agg=\"inf\" agg2=\"0.25\" />\n</VMAF>\n");
    ev_close(&c);
}

/* ---- arguments and errors ----------------------------------------------------------------- */

static void test_errors(void)
{
    EvOutputOptions o;
    ev_default_output_options(&o);
    CHECK(o.format == EV_OUTPUT_XML && o.precision == EV_PRECISION_NETFLIX && o.fps == 0.0);
    for (unsigned i = 0; i < sizeof(o.reserved); i++)
        CHECK(o.reserved[i] == 0);

    EvContext *c = open_ctx(0);
    FILE *f = tmpfile();
    CHECK(f != NULL);
    CHECK(ev_write_output(c, f, &o) == -EINVAL); /* not flushed */
    static const char *const name[] = { "x" };
    const double one = 1.0;
    put_frame(c, 0, name, &one, 1);
    finish_ctx(c, 1, 8, 8);
    CHECK(ev_write_output(NULL, f, &o) == -EINVAL);
    CHECK(ev_write_output(c, NULL, &o) == -EINVAL);
    CHECK(ev_write_output(c, f, NULL) == -EINVAL);
    const int bad_precision[] = { -3, 18, 1000 };
    for (unsigned i = 0; i < 3; i++) {
        o.precision = bad_precision[i];
        CHECK(ev_write_output(c, f, &o) == -EINVAL);
    }
    o.precision = 17;
    const int bad_format[] = { 0, 5, -1 };
    for (unsigned i = 0; i < 3; i++) {
        o.format = (EvOutputFormat)bad_format[i];
        CHECK(ev_write_output(c, f, &o) == -EINVAL);
    }
    o.format = EV_OUTPUT_JSON;
    CHECK(ev_write_output(c, f, &o) == 0);
    CHECK(ftell(f) > 0);
    fclose(f);

    /* A stream that cannot be written: -EIO. */
    FILE *ro = fopen("/dev/null", "r");
    if (ro) {
        CHECK(ev_write_output(c, ro, &o) == -EIO);
        fclose(ro);
    }
    FILE *full = fopen("/dev/full", "w");
    if (full) {
        CHECK(ev_write_output(c, full, &o) == -EIO);
        fclose(full);
    }

    /* A context whose scoring failed writes nothing. */
    c->error = -ENOMEM;
    FILE *g = tmpfile();
    CHECK(g != NULL);
    if (g) {
        CHECK(ev_write_output(c, g, &o) == -ENOMEM);
        CHECK(ftell(g) == 0);
        fclose(g);
    }
    ev_close(&c);
}

int main(void)
{
    test_leading_zeros();
    test_number_formats();
    test_precision_max_round_trip();
    test_subsample();
    test_json_quirks();
    test_errors();
    test_golden_cli();
    return check_report("output");
}
