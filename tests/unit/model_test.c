/* The model layer alone: every built-in model fed Netflix's golden feature values must give
 * Netflix's scores, bootstrap statistics and pooled values bit for bit; hand-computed
 * transforms; bad model files and specs; and a model scored through a context (on psnr). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "unit/check_tmp.h"
#include "unit/check_log.h"
#include "model/pool.h"
#include "golden/golden_io.h"
#include "model/model.h"
#include "model/model_builtin.h"
#include "model/model_spec.h"

/* ---------------------------------------------------------------------------------------- */
/* Golden: predictions from Netflix's own feature values                                     */

typedef struct CaseRows {
    const GoldenRow **row; /* the case's rows, in file order */
    unsigned n;
    unsigned frame_start[1024], frame_len[1024], n_frames;
} CaseRows;

static void collect_rows(const GoldenTable *t, const char *case_id, CaseRows *cr)
{
    cr->n = cr->n_frames = 0;
    for (unsigned i = 0; i < t->n; i++) {
        const GoldenRow *r = &t->row[i];
        if (strcmp(r->case_id, case_id))
            continue;
        if (r->frame >= 0 && r->frame < 1024) {
            if ((unsigned)r->frame >= cr->n_frames) {
                cr->n_frames = (unsigned)r->frame + 1;
                cr->frame_start[r->frame] = cr->n;
                cr->frame_len[r->frame] = 0;
            }
            cr->frame_len[r->frame]++;
        }
        cr->row[cr->n++] = r;
    }
}

/* The golden bits of a feature at a frame (frame >= 0) or of a pooled row (frame < 0). */
static int golden_value(const CaseRows *cr, int frame, const char *feature, double *v)
{
    unsigned lo = 0, n = cr->n;
    if (frame >= 0) {
        if ((unsigned)frame >= cr->n_frames)
            return -ENOENT;
        lo = cr->frame_start[frame];
        n = cr->frame_len[frame];
    }
    for (unsigned i = lo; i < lo + n; i++)
        if (cr->row[i]->frame == frame && !strcmp(cr->row[i]->feature, feature)) {
            memcpy(v, &cr->row[i]->bits, sizeof(*v));
            return 0;
        }
    return -ENOENT;
}

/* The golden column of a model feature at a frame: the one printed under the extractor's
 * name, alone or followed by "_<option suffixes>" (the engine's own naming of the options is
 * checked by the golden tests; here the model layer is fed Netflix's values). Exactly one
 * column of the frame must match. */
static int model_input(const EvModel *m, const CaseRows *cr, unsigned frame, double *x)
{
    for (unsigned i = 0; i < m->n_features; i++) {
        const EvFeatureSource *src = ev_feature_source(m->feature[i].name);
        const size_t len = src ? strlen(src->printed) : 0;
        unsigned found = 0;
        for (unsigned k = 0; src && frame < cr->n_frames && k < cr->frame_len[frame]; k++) {
            const GoldenRow *r = cr->row[cr->frame_start[frame] + k];
            if (!strncmp(r->feature, src->printed, len) &&
                (r->feature[len] == '\0' || r->feature[len] == '_')) {
                memcpy(&x[i], &r->bits, sizeof(x[i]));
                found++;
            }
        }
        if (found != 1) {
            printf("%u golden columns for %s at frame %u\n", found, m->feature[i].name, frame);
            return -1;
        }
    }
    return 0;
}

static void check_value(const CaseRows *cr, int frame, const char *name, double got,
                        const char *where)
{
    double want;
    if (golden_value(cr, frame, name, &want)) {
        check_failed++;
        printf("%s: no golden %s at %d\n", where, name, frame);
        return;
    }
    if (check_bits(got) == check_bits(want)) {
        check_passed++;
        return;
    }
    check_failed++;
    printf("%s frame %d %s: got %.17g (0x%016" PRIx64 ") want %.17g (0x%016" PRIx64 ")\n", where,
           frame, name, got, check_bits(got), want, check_bits(want));
}

/* One frame of a bootstrap collection: members, then their statistics. */
static void check_collection(const EvModelSet *set, const CaseRows *cr, unsigned frame,
                             const char *where)
{
    double raw[64], x[EV_MODEL_MAX_FEATURES];
    const unsigned n = set->n_models - 1;
    for (unsigned k = 0; k < n; k++) {
        const EvModel *m = &set->model[k + 1];
        if (model_input(m, cr, frame, x)) {
            check_failed++;
            return;
        }
        char name[32];
        snprintf(name, sizeof(name), "vmaf_%04u", k + 1);
        raw[k] = ev_model_predict(m, x, 1);
        check_value(cr, (int)frame, name, ev_model_predict(m, x, 0), where);
    }
    EvBootstrapScores b;
    ev_bootstrap_scores(&set->model[1], raw, n, &b);
    check_value(cr, (int)frame, "vmaf_bagging", b.bagging, where);
    check_value(cr, (int)frame, "vmaf_stddev", b.stddev, where);
    check_value(cr, (int)frame, "vmaf_ci_p95_lo", b.ci_lo, where);
    check_value(cr, (int)frame, "vmaf_ci_p95_hi", b.ci_hi, where);
}

/* libvmaf's pooling of a model output, through the engine's own pooling code. */
static void check_pooled(const CaseRows *cr, const char *name, const char *where)
{
    double value[1024];
    uint8_t written[1024];
    for (unsigned i = 0; i < cr->n_frames; i++)
        written[i] = !golden_value(cr, (int)i, name, &value[i]);
    EvFeatureVec f = { (char *)name, 0, value, written, cr->n_frames };
    static const struct {
        EvPoolMethod m;
        int row;
    } pool[4] = {
        { EV_POOL_MEAN, GOLDEN_ROW_POOLED_MEAN },
        { EV_POOL_HARMONIC_MEAN, GOLDEN_ROW_POOLED_HMEAN },
        { EV_POOL_MIN, GOLDEN_ROW_POOLED_MIN },
        { EV_POOL_MAX, GOLDEN_ROW_POOLED_MAX },
    };
    for (unsigned i = 0; i < 4; i++) {
        double v = 0;
        CHECK(!ev_pool(&f, cr->n_frames, 1, pool[i].m, &v));
        check_value(cr, pool[i].row, name, v, where);
    }
}

static void check_case(const GoldenCase *gc, const GoldenPair *pair, const GoldenTable *t,
                       CaseRows *cr)
{
    EvModelSpec spec;
    if (ev_model_spec_parse(&spec, gc->spec + strlen("--model "), NULL) ||
        !ev_builtin_model_find(spec.version)) {
        check_failed++;
        printf("%s: not a built-in model\n", gc->spec);
        ev_model_spec_free(&spec);
        return;
    }
    EvModelSet set;
    CHECK(!ev_model_set_load_builtin(&set, spec.version, spec.flags, NULL));
    collect_rows(t, gc->id, cr);
    char where[256];
    snprintf(where, sizeof(where), "%s %s", pair->name, gc->id);
    CHECK(cr->n_frames == pair->frames);
    for (unsigned frame = 0; frame < cr->n_frames && set.n_models; frame++) {
        double x[EV_MODEL_MAX_FEATURES];
        if (model_input(&set.model[0], cr, frame, x)) {
            check_failed++;
            break;
        }
        check_value(cr, (int)frame, "vmaf", ev_model_predict(&set.model[0], x, 0), where);
        if (set.collection)
            check_collection(&set, cr, frame, where);
    }
    check_pooled(cr, "vmaf", where);
    if (set.collection) {
        static const char *const stat[] = { "vmaf_bagging",   "vmaf_stddev", "vmaf_ci_p95_lo",
                                            "vmaf_ci_p95_hi", "vmaf_0001",   "vmaf_0020" };
        for (unsigned i = 0; i < 6; i++)
            check_pooled(cr, stat[i], where);
    }
    ev_model_set_free(&set);
    ev_model_spec_free(&spec);
}

static void test_golden(void)
{
    static GoldenCorpus corpus;
    static GoldenCases cases;
    if (!golden_available()) {
        printf("model: no %s/golden: the models are not fed Netflix's feature values\n",
               golden_shared_dir());
        return;
    }
    if (golden_load_corpus(&corpus) || golden_load_cases(&cases)) {
        check_failed++;
        return;
    }
    const unsigned before = check_passed;
    for (unsigned p = 0; p < corpus.n; p++) {
        GoldenTable t;
        if (golden_load_table(corpus.pair[p].name, &t)) {
            check_failed++;
            continue;
        }
        CaseRows cr = { .row = malloc(t.n * sizeof(*cr.row)) };
        for (unsigned c = 0; c < cases.n && cr.row; c++)
            if (!strcmp(cases.item[c].kind, "model"))
                check_case(&cases.item[c], &corpus.pair[p], &t, &cr);
        free(cr.row);
        golden_free_table(&t);
    }
    printf("golden: %u values of %u pairs equal\n", check_passed - before, corpus.n);
}

/* ---------------------------------------------------------------------------------------- */
/* Hand-computed arithmetic                                                                  */

static void test_knots(void)
{
    EvModel m;
    memset(&m, 0, sizeof(m));
    EvScoreTransform *t = &m.transform;
    t->enabled = t->has_knots = 1;
    t->n_knots = 4; /* slope 2 from (0,0), flat at 20, then slope 3: y = 3x - 40 */
    const double kx[4] = { 0, 10, 20, 30 }, ky[4] = { 0, 20, 20, 50 };
    memcpy(t->knot_x, kx, sizeof(kx));
    memcpy(t->knot_y, ky, sizeof(ky));
    CHECK_BITS(ev_model_transform(&m, -5), -10.0); /* the first segment, extended */
    CHECK_BITS(ev_model_transform(&m, 5), 10.0);
    CHECK_BITS(ev_model_transform(&m, 10), 20.0);
    CHECK_BITS(ev_model_transform(&m, 15), 20.0);
    CHECK_BITS(ev_model_transform(&m, 25), 35.0);
    CHECK_BITS(ev_model_transform(&m, 40), 80.0); /* the last segment, extended */
    CHECK_BITS(ev_model_transform(&m, NAN), 0.0); /* libvmaf: no segment holds NaN */
    t->n_knots = 2;                               /* (1,1)-(3,2): slope 0.5, offset 1 - 1 * 0.5 */
    t->knot_x[0] = 1, t->knot_y[0] = 1, t->knot_x[1] = 3, t->knot_y[1] = 2;
    CHECK_BITS(ev_model_transform(&m, 2), 1.5);
    t->n_knots = 1; /* fewer than two knots: identity */
    CHECK_BITS(ev_model_transform(&m, 7.25), 7.25);
}

static void test_polynomial_and_clip(void)
{
    EvModel m;
    memset(&m, 0, sizeof(m));
    EvScoreTransform *t = &m.transform;
    t->enabled = t->has_p0 = t->has_p1 = t->has_p2 = 1;
    t->p0 = 1, t->p1 = 2, t->p2 = 0.5;
    CHECK_BITS(ev_model_transform(&m, 2), 7.0); /* 1 + 2*2 + 0.5*2*2 */
    t->out_lte_in = 1;
    CHECK_BITS(ev_model_transform(&m, 2), 2.0);
    t->out_lte_in = 0, t->has_p0 = t->has_p2 = 0, t->out_gte_in = 1;
    CHECK_BITS(ev_model_transform(&m, -3), -3.0); /* 2 * -3 = -6 < -3: rectified */
    t->enabled = 0;
    CHECK_BITS(ev_model_transform(&m, 123.5), 123.5);
    m.clip = 1, m.clip_min = 0, m.clip_max = 100;
    CHECK_BITS(ev_model_clip(&m, -0.5), 0.0);
    CHECK_BITS(ev_model_clip(&m, 100.25), 100.0);
    CHECK_BITS(ev_model_clip(&m, 42.0), 42.0);
    CHECK(isnan(ev_model_clip(&m, NAN)));
}

static void test_bootstrap_stats(void)
{
    EvModel m;
    memset(&m, 0, sizeof(m)); /* no transform, no clip */
    double raw[4] = { 3, 1, 2, 4 };
    EvBootstrapScores b;
    ev_bootstrap_scores(&m, raw, 4, &b);
    CHECK_BITS(b.bagging, 2.5);
    CHECK_BITS(raw[0], 1.0); /* sorted in place */
    CHECK_BITS(raw[3], 4.0);
    /* ranks 0.075 and 2.925 */
    CHECK_BITS(b.ci_lo, 1.0 * (1 - 0.075) + 2.0 * (0.075 - 0));
    CHECK_BITS(b.ci_hi, 3.0 * (3 - 2.925) + 4.0 * (2.925 - 2));
    const double slope = ((2.5 + 0.01) - (2.5 - 0.01)) / (2.0 * 0.01);
    CHECK_BITS(b.stddev, sqrt(5.0 / 4) * slope);
}

/* A sparse support vector gives libsvm's sum: squares of the missing side, in index order. */
static void test_svm_sparse(void)
{
    static const char text[] = "svm_type nu_svr\nkernel_type rbf\ngamma 0.5\nnr_class 2\n"
                               "total_sv 2\nrho -0.75\nSV\n2 1:0.5 3:0.25 \n-1.5 2:0.125\n";
    EvSvm svm;
    char err[160] = "";
    CHECK(!ev_svm_parse(&svm, text, strlen(text), 3, err, sizeof(err)));
    CHECK(svm.dim == 3 && svm.n_sv == 2);
    const double x[3] = { 0.3, 0.7, 0.9 };
    double k0 = 0;
    k0 += (0.3 - 0.5) * (0.3 - 0.5);
    k0 += 0.7 * 0.7;
    k0 += (0.9 - 0.25) * (0.9 - 0.25);
    double k1 = 0;
    k1 += 0.3 * 0.3;
    k1 += (0.7 - 0.125) * (0.7 - 0.125);
    k1 += 0.9 * 0.9;
    double want = 0;
    want += 2 * exp(-0.5 * k0);
    want += -1.5 * exp(-0.5 * k1);
    want -= -0.75;
    CHECK_BITS(ev_svm_predict(&svm, x), want);
    ev_svm_free(&svm);
    static const char poly[] = "svm_type nu_svr\nkernel_type poly\nSV\n";
    CHECK(ev_svm_parse(&svm, poly, strlen(poly), 1, err, sizeof(err)) == -EINVAL);
    CHECK(strstr(err, "poly") != NULL);
    static const char unordered[] = "svm_type nu_svr\nkernel_type rbf\ngamma 1\nnr_class 2\n"
                                    "total_sv 1\nrho 0\nSV\n1 2:0.5 1:0.5\n";
    CHECK(ev_svm_parse(&svm, unordered, strlen(unordered), 2, err, sizeof(err)) == -EINVAL);
}

/* ---------------------------------------------------------------------------------------- */
/* Bad input: one clear message                                                              */

static const EvLog test_log = { check_keep_line, NULL, EV_LOG_ERROR };

#define CHECK_LOG_HAS(text)                                                                        \
    do {                                                                                           \
        if (!check_count(strstr(check_last_line, (text)) != NULL))                                 \
            printf("%s:%d: log: \"%s\" lacks \"%s\"\n", __FILE__, __LINE__, check_last_line,       \
                   (text));                                                                        \
    } while (0)

static char tmp_dir[128];

static const char *write_tmp(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof(path), "%s/%s", tmp_dir, name);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    return path;
}

/* A small model on psnr_y and psnr_cb; "%s" takes extra model_dict fields. */
#define PSNR_MODEL_FMT                                                                             \
    "{\"model_dict\": {\"model_type\": \"%s\", \"norm_type\": \"linear_rescale\",\n"               \
    " \"feature_names\": [\"psnr_y\", \"psnr_cb\"],\n"                                             \
    " \"slopes\": [0.1, 0.02, 0.03], \"intercepts\": [-0.5, 0.1, -0.2],\n"                         \
    " \"score_clip\": [0.0, 100.0],%s\n"                                                           \
    " \"model\": \"svm_type nu_svr\\nkernel_type rbf\\ngamma 0.05\\nnr_class 2\\n"                 \
    "total_sv 3\\nrho %s\\nSV\\n4 1:0.5 2:0.25 \\n-2.5 2:0.75 \\n1.5 1:0.125 \\n\"}}"

static const char *psnr_model(const char *name, const char *type, const char *extra,
                              const char *rho)
{
    char text[2048];
    snprintf(text, sizeof(text), PSNR_MODEL_FMT, type, extra, rho);
    return write_tmp(name, text);
}

/* The plain PSNR model (LIBSVMNUSVR, rho -1.25) with its first `from` replaced by `to`. */
static const char *psnr_model_edited(const char *name, const char *from, const char *to)
{
    char text[2048], edited[2048];
    snprintf(text, sizeof(text), PSNR_MODEL_FMT, "LIBSVMNUSVR", "", "-1.25");
    const char *at = strstr(text, from);
    CHECK(at != NULL);
    if (!at)
        return write_tmp(name, text);
    snprintf(edited, sizeof(edited), "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return write_tmp(name, edited);
}

/* The model file at path is refused as invalid, and the log's last line has words. */
#define CHECK_REFUSED(path, words)                                                                 \
    do {                                                                                           \
        EvModelSet refused_;                                                                       \
        CHECK(ev_model_set_load_file(&refused_, (path), 0, &test_log) == -EINVAL);                 \
        CHECK_LOG_HAS(words);                                                                      \
    } while (0)

static void test_bad_files(void)
{
    EvModelSet set;
    CHECK(ev_model_set_load_file(&set, "/nonexistent/m.json", 0, &test_log) == -ENOENT);
    CHECK_LOG_HAS("/nonexistent/m.json");
    CHECK_REFUSED(write_tmp("broken.json", "{\n  \"model_dict\": {\n    \"a\": [1,\n}\n"),
                  "broken.json: not valid JSON at line 4, column");
    CHECK_REFUSED(psnr_model_edited("noslopes.json", "\"slopes\"", "\"Slopes\""),
                  "noslopes.json: model_dict lacks the field \"slopes\"");
    /* chroma correction: 0 gives no score in libvmaf; it needs one speed_chroma feature */
    CHECK_REFUSED(
        psnr_model("cc0.json", "LIBSVMNUSVR", " \"chroma_correction_parameter\": 0,", "-1.25"),
        "cc0.json: model_dict.chroma_correction_parameter: must be a non-zero number");
    CHECK_REFUSED(
        psnr_model("cc.json", "LIBSVMNUSVR", " \"chroma_correction_parameter\": 120.0,", "-1"),
        "cc.json: model_dict.chroma_correction_parameter: needs exactly one feature named with "
        "\"speed_chroma\" (the model has 0)");
    /* an empty feature name (found by fuzz_model_json in a bootstrap member) */
    CHECK_REFUSED(psnr_model_edited("emptyname.json", "\"psnr_cb\"", "\"\""),
                  "emptyname.json: model_dict.feature_names: item 1 is an empty name");
    CHECK_REFUSED(psnr_model("badtype.json", "SVC", "", "-1.25"),
                  "badtype.json: model_dict.model_type: must be");
    CHECK_REFUSED(psnr_model("badsvm.json", "LIBSVMNUSVR", "", "oops"),
                  "badsvm.json: model_dict.model: rho needs a number");
    CHECK_REFUSED(write_tmp("lonely.json", "{\"0\": {\"model_dict\": {}}}"),
                  "lonely.json: a model collection needs \"1\"");
    CHECK_REFUSED(write_tmp("empty.json", "{\"param_dict\": {}}"),
                  "empty.json: lacks the field \"model_dict\"");
    CHECK(ev_model_set_load_builtin(&set, "vmaf_v9", 0, &test_log) == -ENOENT);
    CHECK_LOG_HAS("no built-in model \"vmaf_v9\" (built-in: vmaf_v0.6.1, vmaf_v0.6.1neg,");
    CHECK_LOG_HAS("vmaf_float_b_v0.6.3)");
}

static EvContext *open_ctx(unsigned subsample)
{
    EvSettings s;
    ev_default_settings(&s);
    s.n_threads = 1;
    s.n_subsample = subsample;
    s.log = check_keep_line;
    s.log_level = EV_LOG_ERROR;
    EvContext *c = NULL;
    CHECK(!ev_open(&c, &s));
    return c;
}

static void check_use_fails(const char *spec, int code, const char *text)
{
    EvContext *c = open_ctx(0);
    check_last_line[0] = '\0';
    const int err = ev_use_model(c, spec);
    CHECK(err == code);
    if (err != code)
        printf("    ev_use_model(\"%s\") = %d, want %d\n", spec, err, code);
    CHECK_LOG_HAS(text);
    ev_close(&c);
}

static void test_bad_specs(void)
{
    char spec[512];
    const char *p = psnr_model("psnr.json", "LIBSVMNUSVR", "", "-1.25");
    snprintf(spec, sizeof(spec), "path=%s:psnr.foo=1", p);
    check_use_fails(spec, -EINVAL, "feature psnr_y: psnr: unknown option \"foo\"");
    snprintf(spec, sizeof(spec), "path=%s:adm.adm_enhn_gain_limit=1", p);
    check_use_fails(spec, -EINVAL, "the model reads no feature of extractor \"adm\"");
    p = psnr_model("psnr_opts.json", "LIBSVMNUSVR", " \"feature_opts_dicts\": [{\"bogus\": 2}],",
                   "-1.25");
    snprintf(spec, sizeof(spec), "path=%s", p);
    check_use_fails(spec, -EINVAL, "unknown option \"bogus\"");
    check_use_fails("version=nope", -ENOENT, "no built-in model \"nope\"");
    check_use_fails("name=x", -EINVAL, "give version=<built-in> or path=<file>");
    check_use_fails("version=vmaf_v0.6.1:path=x", -EINVAL, "not both");
    check_use_fails("version=vmaf_v0.6.1:disable_clip=maybe", -EINVAL, "true or false");
    check_use_fails("version=vmaf_v0.6.1:speed", -EINVAL, "unknown parameter \"speed\"");
    EvContext *c = open_ctx(0);
    snprintf(spec, sizeof(spec), "path=%s", psnr_model("psnr.json", "LIBSVMNUSVR", "", "-1.25"));
    CHECK(!ev_use_model(c, spec));
    CHECK(ev_use_model(c, spec) == -EINVAL);
    CHECK_LOG_HAS("another model is named \"vmaf\"");
    ev_close(&c);
}

/* ---------------------------------------------------------------------------------------- */
/* Through a context: extractors registered, scores after flush, names, order, subsampling   */

/* The psnr model of psnr_model(), computed the long way (sparse kernel sums). */
static double psnr_model_raw(double psnr_y, double psnr_cb, double rho)
{
    const double x0 = 0.02 * psnr_y + 0.1, x1 = 0.03 * psnr_cb + -0.2;
    double d0 = 0, d1 = 0, d2 = 0, sum = 0;
    d0 += (x0 - 0.5) * (x0 - 0.5);
    d0 += (x1 - 0.25) * (x1 - 0.25);
    d1 += x0 * x0;
    d1 += (x1 - 0.75) * (x1 - 0.75);
    d2 += (x0 - 0.125) * (x0 - 0.125);
    d2 += x1 * x1;
    sum += 4 * exp(-0.05 * d0);
    sum += -2.5 * exp(-0.05 * d1);
    sum += 1.5 * exp(-0.05 * d2);
    sum -= rho;
    return (sum - -0.5) / 0.1;
}

static double clip100(double y)
{
    return y < 0 ? 0 : y > 100 ? 100 : y;
}

enum { W = 64, H = 48, FRAMES = 3 };

static void send_frames(EvContext *c)
{
    static uint8_t ref[W * H * 3 / 2], dis[W * H * 3 / 2];
    unsigned seed = 12345;
    for (unsigned f = 0; f < FRAMES; f++) {
        for (unsigned i = 0; i < sizeof(ref); i++) {
            seed = seed * 1103515245u + 12345u;
            ref[i] = (uint8_t)(seed >> 16);
            dis[i] = (uint8_t)(ref[i] + (int)((seed >> 8) % (3 + 2 * f)) - (int)(1 + f));
        }
        EvPicture r = {
            W, H, 8, EV_PIX_420, { ref, ref + W * H, ref + W * H * 5 / 4 }, { W, W / 2, W / 2 }
        };
        EvPicture d = r;
        d.data[0] = dis, d.data[1] = dis + W * H, d.data[2] = dis + W * H * 5 / 4;
        CHECK(!ev_send_pictures(c, &r, &d));
    }
    CHECK(!ev_flush(c));
}

static double score(const EvContext *c, const char *name, unsigned frame)
{
    double v = NAN;
    CHECK(!ev_get_score(c, name, frame, &v));
    return v;
}

static void test_context_plain(void)
{
    char spec[512];
    const char *p = psnr_model("psnr_t.json", "LIBSVMNUSVR",
                               " \"score_transform\": {\"p0\": 1.5, \"p1\": 0.9, \"p2\": -0.001,"
                               " \"out_gte_in\": \"true\"},",
                               "-1.25");
    snprintf(spec, sizeof(spec), "path=%s", p);
    EvContext *c = open_ctx(0);
    CHECK(!ev_use_model(c, spec));
    snprintf(spec, sizeof(spec), "path=%s:name=t:enable_transform:disable_clip", p);
    CHECK(!ev_use_model(c, spec));
    send_frames(c);
    const unsigned n = ev_feature_count(c);
    CHECK(n == 5); /* psnr_y, psnr_cb, psnr_cr, vmaf, t */
    CHECK_STR(ev_feature_name(c, n - 2), "vmaf");
    CHECK_STR(ev_feature_name(c, n - 1), "t");
    for (unsigned f = 0; f < FRAMES; f++) {
        const double y = psnr_model_raw(score(c, "psnr_y", f), score(c, "psnr_cb", f), -1.25);
        CHECK_BITS(score(c, "vmaf", f), clip100(y)); /* transform present but not enabled */
        double t = 0.0;
        t += 1.5;
        t += 0.9 * y;
        t += -0.001 * y * y;
        CHECK_BITS(score(c, "t", f), t < y ? y : t);
    }
    ev_close(&c);
}

static void test_context_subsample(void)
{
    char spec[512];
    snprintf(spec, sizeof(spec), "path=%s", psnr_model("psnr.json", "LIBSVMNUSVR", "", "-1.25"));
    EvContext *c = open_ctx(2);
    CHECK(!ev_use_model(c, spec));
    send_frames(c);
    double v;
    CHECK(!ev_get_score(c, "vmaf", 0, &v));
    CHECK(ev_get_score(c, "vmaf", 1, &v) == -ENODATA); /* skipped by subsampling */
    CHECK(!ev_get_score(c, "vmaf", 2, &v));
    CHECK(!ev_get_pooled(c, "vmaf", EV_POOL_MEAN, &v));
    CHECK_BITS(v, (score(c, "vmaf", 0) + score(c, "vmaf", 2)) / 2);
    ev_close(&c);
}

/* A bootstrap collection ("b", three models) and a plain model ("p"): libvmaf's CLI writes the
 * main scores first, then each collection's members and statistics. */
static void test_context_collection(void)
{
    char m[3][2048], text[8192], spec[512];
    static const char *const rho[3] = { "-1.25", "-1.5", "-0.75" };
    for (unsigned i = 0; i < 3; i++)
        snprintf(m[i], sizeof(m[i]), PSNR_MODEL_FMT, "BOOTSTRAP_LIBSVMNUSVR", "", rho[i]);
    snprintf(text, sizeof(text), "{\"0\": %s,\n\"1\": %s,\n\"2\": %s}", m[0], m[1], m[2]);
    EvContext *c = open_ctx(0);
    snprintf(spec, sizeof(spec), "path=%s:name=b", write_tmp("coll.json", text));
    CHECK(!ev_use_model(c, spec));
    snprintf(spec, sizeof(spec), "name=p:path=%s",
             psnr_model("psnr.json", "LIBSVMNUSVR", "", "-1.25"));
    CHECK(!ev_use_model(c, spec));
    send_frames(c);
    static const char *const order[] = { "b",         "p",        "b_0001",      "b_0002",
                                         "b_bagging", "b_stddev", "b_ci_p95_lo", "b_ci_p95_hi" };
    CHECK(ev_feature_count(c) == 3 + 8);
    for (unsigned i = 0; i < 8; i++)
        CHECK_STR(ev_feature_name(c, 3 + i), order[i]);
    for (unsigned f = 0; f < FRAMES; f++) {
        const double py = score(c, "psnr_y", f), pcb = score(c, "psnr_cb", f);
        const double r1 = psnr_model_raw(py, pcb, -1.5), r2 = psnr_model_raw(py, pcb, -0.75);
        CHECK_BITS(score(c, "b", f), clip100(psnr_model_raw(py, pcb, -1.25)));
        CHECK_BITS(score(c, "b_0002", f), clip100(r2));
        double sum = 0;
        sum += r1;
        sum += r2;
        const double mean = sum / 2, lo = r1 < r2 ? r1 : r2, hi = r1 < r2 ? r2 : r1;
        const double ssd = (r1 - mean) * (r1 - mean) + (r2 - mean) * (r2 - mean);
        const double slope = (clip100(mean + 0.01) - clip100(mean - 0.01)) / (2.0 * 0.01);
        CHECK_BITS(score(c, "b_bagging", f), clip100(mean));
        CHECK_BITS(score(c, "b_stddev", f), sqrt(ssd / 2) * slope);
        CHECK_BITS(score(c, "b_ci_p95_lo", f), clip100(lo * (1 - 0.025) + hi * (0.025 - 0)));
        CHECK_BITS(score(c, "b_ci_p95_hi", f), clip100(lo * (1 - 0.975) + hi * (0.975 - 0)));
    }
    ev_close(&c);
}

static void test_versions(void)
{
    const char *const *v = ev_model_versions();
    unsigned n = 0;
    while (v[n])
        n++;
    CHECK(n == 17);
    CHECK_STR(v[0], "vmaf_v0.6.1");
    for (unsigned i = 0; i < n; i++) {
        EvModelSet set;
        CHECK(!ev_model_set_load_builtin(&set, v[i], 0, &test_log));
        CHECK(set.n_models == (strstr(v[i], "_b_") ? 21u : 1u));
        ev_model_set_free(&set);
    }
}

static void run_all(void)
{
    test_knots();
    test_polynomial_and_clip();
    test_bootstrap_stats();
    test_svm_sparse();
    test_versions();
    test_bad_files();
    test_bad_specs();
    test_context_plain();
    test_context_subsample();
    test_context_collection();
    test_golden();
}

int main(void)
{
    if (check_in_tmp_dir(tmp_dir, sizeof(tmp_dir), "ev_model_test", run_all))
        return 1;
    return check_report("model");
}
