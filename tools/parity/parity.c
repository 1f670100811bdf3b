/*
 * exactvmaf-parity: the parity gate. Every CUDA twin against the CPU extractor of the same
 * build, on the corpus and on seeded generated fixtures, for every option set that changes
 * arithmetic; one row per (extractor, options, fixture): frames compared, frames identical,
 * largest |difference| and ULP distance. Exit 1 on any difference, 77 when no CUDA device.
 *
 * usage: exactvmaf-parity [--corpus DIR] [--seed N] [--quick] [--search N] [--threads N]
 *                         [--only NAME] [--part K/N] [--twin-backend cuda|cpu] [--plant-ulp]
 *                         [--verbose]
 *        exactvmaf-parity --noise-search N --only NAME [--options SPEC] [--size WxH]
 *                         [--seed N] [--threads N] [--twin-threads N]
 *        exactvmaf-parity --vmaf-search N [--features 'NAME[:OPTS];...'] [--min-size WxH]
 *                         [--max-size WxH] [--depths 8,10,...] [--seed N] [--threads N]
 *                         [--twin-threads N]
 *   --twin-backend cpu compares the CPU with itself (to test the gate without a GPU);
 *   --plant-ulp moves one twin value by one ULP: the gate must then fail;
 *   --part K/N runs rows K, K + N, K + 2N... of the table (N processes share one gate);
 *   --noise-search streams N random 8-bit frames (default 64x64) through one extractor;
 *   --vmaf-search streams N random frames (every size up to 1080p, depth and layout) through
 *   vif, adm and motion (vmaf_search.c), or through the extractors --features names.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exactvmaf/exactvmaf.h"
#include "compare.h"
#include "fixtures.h"
#include "noise_search.h"
#include "vmaf_search.h"

/* extractor "model" means a model (options: its ev_use_model spec). quick: run on the quick
 * fixtures and the corpus only (variants whose arithmetic the full set already reaches). */
typedef struct OptionSet {
    const char *extractor, *options;
    int quick;
} OptionSet;

/* Every option set that changes the arithmetic of the twins built so far. */
static const OptionSet option_sets[] = {
    { "float_moment", "", 0 },
    { "psnr", "", 0 },
    { "psnr", "enable_mse=true:enable_apsnr=true", 0 },
    { "psnr", "reduced_hbd_peak=true:min_sse=0.5", 0 },
    { "psnr", "enable_chroma=false:enable_apsnr=true", 0 },
    { "float_psnr", "", 0 },
    { "float_ssim", "", 0 },
    { "float_ssim", "enable_lcs=true", 0 },
    { "float_ssim", "enable_db=true", 0 },
    { "float_ssim", "enable_db=true:clip_db=true", 0 },
    { "float_ssim", "scale=1:enable_lcs=true", 0 },
    { "float_ssim", "scale=2", 0 },
    { "float_ssim", "scale=3:enable_lcs=true", 0 },
    { "float_ssim", "scale=4", 0 },
    { "float_ssim", "scale=5", 0 },
    { "float_ssim", "scale=6", 0 },
    { "float_ssim", "scale=7", 0 },
    { "float_ssim", "scale=8:enable_lcs=true", 0 },
    { "float_ssim", "scale=9", 0 },
    { "float_ssim", "scale=10", 0 },
    { "float_ms_ssim", "", 0 },
    { "float_ms_ssim", "enable_lcs=true", 0 },
    { "float_ms_ssim", "enable_db=true", 0 },
    { "float_ms_ssim", "enable_db=true:clip_db=true", 0 },
    { "vif", "", 0 },
    { "vif", "debug=true", 1 },
    { "vif", "vif_enhn_gain_limit=1.0", 1 },
    { "vif", "vif_enhn_gain_limit=1.5:debug=true", 1 },
    { "vif", "vif_skip_scale0=true:debug=true", 1 },
    { "adm", "", 0 },
    { "adm", "debug=true", 1 },
    { "adm", "adm_enhn_gain_limit=1.0", 1 },
    { "adm", "adm_skip_aim=true:debug=true", 1 },
    { "adm", "adm_skip_scale0=true:debug=true", 1 },
    { "adm", "adm_csf_mode=1", 1 },
    { "adm", "adm_csf_mode=2", 1 },
    { "adm", "adm_csf_mode=3:adm_norm_view_dist=4.5", 1 },
    { "adm", "adm_norm_view_dist=4.5:adm_ref_display_height=2160", 1 },
    { "adm", "adm_csf_mode=1:adm_csf_scale=2.0:adm_csf_diag_scale=0.5", 1 },
    { "adm", "adm_noise_weight=0.2:adm_dlm_weight=0.7:adm_min_val=0.1", 1 },
    { "motion", "debug=true", 0 },
    { "motion", "motion_force_zero=true", 1 },
    { "motion", "motion_five_frame_window=true:debug=true", 1 },
    { "motion", "motion_moving_average=true", 1 },
    { "motion", "motion_five_frame_window=true:motion_moving_average=true", 1 },
    { "motion", "motion_blend_factor=0.5:motion_blend_offset=10.0", 1 },
    { "motion", "motion_fps_weight=2.5:motion_max_val=5.0", 1 },
    { "speed_chroma", "", 0 },
    { "speed_chroma",
      "speed_kernelscale=1.0:speed_nn_floor=0.1:speed_sigma_nn=0.19:"
      "speed_weight_var_mode=5:speed_max_val=45.0",
      0 },
    { "speed_chroma",
      "speed_nn_floor=0.1:speed_sigma_nn=0.19:speed_weight_var_mode=5:"
      "speed_prescale=0.5:speed_prescale_method=bilinear:speed_max_val=45.0",
      0 },
    { "speed_chroma",
      "speed_weight_var_mode=5:speed_prescale=0.6:"
      "speed_prescale_method=bilinear",
      1 },
    { "speed_chroma", "speed_weight_var_mode=1", 1 },
    { "speed_chroma", "speed_weight_var_mode=2", 1 },
    { "speed_chroma", "speed_weight_var_mode=3", 1 },
    { "speed_chroma", "speed_weight_var_mode=4", 1 },
    { "speed_chroma", "speed_weight_var_mode=6", 1 },
    { "speed_chroma", "speed_kernelscale=0.5", 1 },
    { "speed_chroma", "speed_kernelscale=2.0:speed_max_val=1.0", 1 },
    { "speed_chroma", "speed_prescale=0.5", 1 },
    { "speed_chroma", "speed_prescale=0.7:speed_prescale_method=bicubic", 1 },
    { "speed_chroma", "speed_prescale=0.8:speed_prescale_method=lanczos4", 1 },
    { "speed_chroma", "speed_prescale=1.5:speed_prescale_method=bilinear", 1 },
    { "speed_temporal", "", 0 },
    { "speed_temporal", "speed_use_ref_diff=true", 1 },
    { "speed_temporal", "speed_prescale=0.5:speed_prescale_method=bilinear", 1 },
    { "speed_temporal",
      "speed_prescale=0.75:speed_prescale_method=lanczos4:"
      "speed_kernelscale=1.5",
      1 },
    { "speed_temporal",
      "speed_prescale=0.9:speed_prescale_method=bicubic:"
      "speed_sigma_nn=0.5:speed_nn_floor=0.2",
      1 },
    { "float_vif", "", 0 },
    { "float_vif", "debug=true", 1 },
    { "float_vif", "vif_enhn_gain_limit=1.0", 1 },
    { "float_vif", "vif_skip_scale0=true:vif_sigma_nsq=1.0:debug=true", 1 },
    { "float_vif", "vif_kernelscale=0.5:vif_enhn_gain_limit=1.5", 1 },
    { "float_vif", "vif_kernelscale=3.0:debug=true", 1 },
    { "float_vif", "vif_prescale=0.5:vif_kernelscale=1.5", 1 },
    { "float_vif", "vif_prescale=1.5:vif_kernelscale=2.0", 1 },
    { "float_vif", "vif_scale1_min_val=0.9:vif_scale2_min_val=0.9:vif_scale3_min_val=0.9", 1 },
    { "float_adm", "", 0 },
    { "float_adm", "debug=true", 1 },
    { "float_adm", "rcp_estimate=1:debug=true", 1 },
    { "float_adm", "adm_enhn_gain_limit=1.0", 1 },
    { "float_adm", "adm_enhn_gain_limit=1.2:rcp_estimate=1", 1 },
    { "float_motion", "", 0 },
    { "float_motion", "debug=false", 1 },
    { "float_motion", "motion_force_zero=true", 1 },
    { "float_motion", "motion_filter_size=3", 1 },
    { "float_motion", "motion_filter_size=1", 1 },
    { "float_motion", "motion_add_scale1=true", 1 },
    { "float_motion", "motion_add_uv=true", 1 },
    { "float_motion", "motion_add_uv=true:motion_add_scale1=true:debug=false", 1 },
    { "float_motion", "motion_blend_factor=0.5:motion_blend_offset=10.0", 1 },
    { "float_motion", "motion_fps_weight=2.5:motion_max_val=5.0", 1 },
    { "float_ansnr", "", 0 },
    { "cambi", "", 0 },
    { "cambi", "cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:cambi_max_val=17", 0 },
    { "cambi", "max_log_contrast=0:window_size=15", 1 },
    { "cambi", "max_log_contrast=1:tvi_threshold=0.1:topk=0.01", 1 },
    { "cambi", "max_log_contrast=4:eotf=pq:cambi_vis_lum_threshold=1.0", 1 },
    { "cambi", "max_log_contrast=5", 0 },
    { "cambi", "enc_bitdepth=8:cambi_eotf=pq", 1 },
    { "cambi", "enc_bitdepth=10:window_size=127:cambi_topk=1.0", 1 },
    { "cambi", "enc_width=320:enc_height=216", 1 },
    { "cambi", "full_ref=true", 0 },
    { "cambi", "full_ref=true:enc_width=320:enc_height=216:enc_bitdepth=8", 1 },
    { "cambi", "cambi_high_res_speedup=1440", 0 },
    { "cambi", "cambi_high_res_speedup=2160:max_log_contrast=3", 0 },
    { "ciede", "", 0 },
    { "model", "version=vmaf_v0.6.1", 0 },
    { "model", "version=vmaf_v0.6.1neg", 1 },
    { "model", "version=vmaf_4k_v0.6.1", 1 },
    { "model", "version=vmaf_4k_v0.6.1neg", 1 },
    { "model", "version=vmaf_b_v0.6.3", 1 },
    { "model", "version=vmaf_v1.0.16_3d0h", 0 },
    { "model", "version=vmaf_v1.0.16_3d0h_2160", 1 },
    { "model", "version=vmaf_v1.0.16_5d0h", 1 },
    { "model", "version=vmaf_v1.0.16_1d5h_2160", 1 },
    { "model", "version=vmaf_v1.0.16_hfr_3d0h", 1 },
    { "model", "version=vmaf_v1.0.16_hfr_3d0h_2160", 1 },
    { "model", "version=vmaf_v1.0.16_hfr_5d0h", 1 },
    { "model", "version=vmaf_v1.0.16_hfr_1d5h_2160", 1 },
    { "psnr_hvs", "", 0 }, /* no options; depths above 12 are refused by both */
    /* xpsnr: the first-order temporal term (below 32 fps), the second-order one */
    { "xpsnr", "", 0 },
    { "xpsnr", "frame_rate=60", 0 },
    /* ssimulacra2: auto is BT.601 below 1280x577 (most fixtures), BT.709 above */
    { "ssimulacra2", "", 0 },
    { "ssimulacra2", "matrix=bt709", 1 },
    { "ssimulacra2", "matrix=bt601", 1 },
    { "model", "version=vmaf_float_v0.6.1", 0 },
    { "model", "version=vmaf_float_v0.6.1neg", 1 },
    { "model", "version=vmaf_float_4k_v0.6.1", 1 },
    { "model", "version=vmaf_float_b_v0.6.3", 1 },
};

typedef struct GateArgs {
    const char *corpus, *only, *options, *features;
    unsigned min_w, min_h, max_w, max_h, depth_mask;
    uint32_t seed;
    unsigned search, threads, twin_threads, width, height;
    unsigned part, parts; /* --part K/N: only the rows whose number is K modulo N */
    unsigned long noise_frames, vmaf_frames;
    int quick, plant, twin_backend;
} GateArgs;

typedef struct Row {
    unsigned frames, identical, values;
    double max_abs;
    uint64_t max_ulp;
} Row;

static int verbose;

/* Errors only with --verbose: most are the expected refusals of fixtures too small for an
 * extractor, which the table reports as "refused by both". */
static void quiet_log(void *user, EvLogLevel level, const char *line)
{
    if (verbose && level == EV_LOG_ERROR)
        fprintf(stderr, "exactvmaf-parity: %s\n", line);
}

static EvContext *open_run(const OptionSet *o, EvBackend backend, unsigned threads)
{
    EvContext *c = parity_open(backend, threads, quiet_log);
    if (!c)
        return NULL;
    const int err = strcmp(o->extractor, "model") ? ev_use_feature(c, o->extractor, o->options)
                                                  : ev_use_model(c, o->options);
    if (err) {
        ev_close(&c);
        return NULL;
    }
    return c;
}

static int score(EvContext *c, const Fixture *fx)
{
    FrameSource src;
    int err = source_open(&src, fx) ? -EIO : 0;
    for (unsigned i = 0; !err && i < fx->frames; i++) {
        err = source_frame(&src, i) ? -EIO : 0;
        if (!err)
            err = ev_send_pictures(c, &src.pic[0], &src.pic[1]);
    }
    source_close(&src);
    return err ? err : ev_flush(c);
}

static uint64_t bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof(u));
    return u;
}

/* Distance in representable doubles (same sign: difference of the bit patterns). */
static uint64_t ulp_distance(double a, double b)
{
    const int64_t ia = (int64_t)bits(a), ib = (int64_t)bits(b);
    const int64_t la = ia < 0 ? INT64_MIN - ia : ia, lb = ib < 0 ? INT64_MIN - ib : ib;
    return la > lb ? (uint64_t)la - (uint64_t)lb : (uint64_t)lb - (uint64_t)la;
}

static void account(Row *row, double want, double got, int *frame_ok)
{
    row->values++;
    if (bits(want) == bits(got))
        return;
    *frame_ok = 0;
    const double d = fabs(want - got);
    if (!(d <= row->max_abs))
        row->max_abs = d;
    const uint64_t u = ulp_distance(want, got);
    if (u > row->max_ulp)
        row->max_ulp = u;
}

/* Compare every per-frame value and aggregate; planting moves the first twin value 1 ULP. */
static void compare(const EvContext *cpu, const EvContext *twin, int plant, Row *row)
{
    const unsigned nf = ev_feature_count(cpu), frames = ev_frame_count(cpu);
    if (nf != ev_feature_count(twin) || frames != ev_frame_count(twin)) {
        row->frames = frames;
        row->max_ulp = UINT64_MAX;
        return;
    }
    for (unsigned i = 0; i < frames; i++) {
        int ok = 1;
        for (unsigned f = 0; f < nf; f++) {
            const char *name = ev_feature_name(cpu, f);
            double a = 0, b = 0;
            const int ea = ev_get_score(cpu, name, i, &a), eb = ev_get_score(twin, name, i, &b);
            if (ea != eb) {
                ok = 0;
                row->max_ulp = UINT64_MAX;
                continue;
            }
            if (ea)
                continue;
            if (plant && !row->values)
                b = nextafter(b, INFINITY);
            account(row, a, b, &ok);
        }
        row->frames++;
        row->identical += ok;
    }
    for (unsigned k = 0; k < ev_aggregate_count(cpu); k++) {
        const char *na, *nb;
        double a, b;
        int ok = 1;
        if (ev_get_aggregate(cpu, k, &na, &a) || ev_get_aggregate(twin, k, &nb, &b) ||
            strcmp(na, nb))
            row->max_ulp = UINT64_MAX;
        else
            account(row, a, b, &ok);
        if (!ok && row->identical == row->frames)
            row->identical--; /* a differing aggregate fails the row */
    }
}

static int run_row(const GateArgs *a, const OptionSet *o, const Fixture *fx, unsigned *bad,
                   unsigned long *frames)
{
    EvContext *cpu = open_run(o, EV_BACKEND_CPU, a->threads);
    EvContext *twin = open_run(o, (EvBackend)a->twin_backend, a->threads);
    int err = cpu && twin ? 0 : -EINVAL;
    const int ec = err ? err : score(cpu, fx);
    const int et = err ? err : score(twin, fx);
    Row row = { 0 };
    if (ec == -ENODEV || et == -ENODEV) {
        err = -ENODEV;
    } else if (ec || et) {
        /* both refusing the fixture (e.g. a depth an extractor rejects) is parity too */
        printf("| %-12s | %-38s | %-32s | %s |\n", o->extractor,
               o->options[0] ? o->options : "(defaults)", fx->name,
               ec && et ? "refused by both" : "REFUSED BY ONE");
        *bad += !(ec && et);
    } else {
        compare(cpu, twin, a->plant, &row);
        const int same = row.identical == row.frames && row.max_ulp == 0;
        *bad += !same;
        *frames += row.frames;
        if (!a->search || !same) /* a search prints only what differs */
            printf("| %-12s | %-38s | %-32s | %6u | %6u | %9.3g | %6" PRIu64 " |%s\n", o->extractor,
                   o->options[0] ? o->options : "(defaults)", fx->name, row.frames, row.identical,
                   row.max_abs, row.max_ulp, same ? "" : " DIFFERENT");
    }
    ev_close(&cpu);
    ev_close(&twin);
    return err;
}

/* "8,10,16" to a mask with bits 8, 10 and 16 set; only depths 8..16. */
static int parse_depths(const char *v, unsigned *mask)
{
    *mask = 0;
    for (const char *p = v; *p;) {
        char *end;
        const unsigned long d = strtoul(p, &end, 10);
        if (end == p || d < 8 || d > 16 || (*end && *end != ','))
            return -1;
        *mask |= 1u << d;
        p = *end ? end + 1 : end;
    }
    return *mask ? 0 : -1;
}

static int parse(int argc, char **argv, GateArgs *a)
{
    *a = (GateArgs){ .seed = 20261130u,
                     .threads = 4,
                     .twin_backend = EV_BACKEND_CUDA,
                     .options = "",
                     .width = 64,
                     .height = 64,
                     .parts = 1 };
    for (int i = 1; i < argc; i++) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(k, "--quick"))
            a->quick = 1;
        else if (!strcmp(k, "--verbose"))
            verbose = 1;
        else if (!strcmp(k, "--plant-ulp"))
            a->plant = 1;
        else if (v && !strcmp(k, "--corpus") && ++i)
            a->corpus = v;
        else if (v && !strcmp(k, "--only") && ++i)
            a->only = v;
        else if (v && !strcmp(k, "--part") && ++i) {
            if (sscanf(v, "%u/%u", &a->part, &a->parts) != 2 || !a->parts || a->part >= a->parts)
                return -1;
        } else if (v && !strcmp(k, "--seed") && ++i)
            a->seed = (uint32_t)strtoul(v, NULL, 0);
        else if (v && !strcmp(k, "--search") && ++i)
            a->search = (unsigned)strtoul(v, NULL, 0);
        else if (v && !strcmp(k, "--noise-search") && ++i)
            a->noise_frames = strtoul(v, NULL, 0);
        else if (v && !strcmp(k, "--vmaf-search") && ++i)
            a->vmaf_frames = strtoul(v, NULL, 0);
        else if (v && !strcmp(k, "--features") && ++i)
            a->features = v;
        else if (v && !strcmp(k, "--min-size") && ++i) {
            if (sscanf(v, "%ux%u", &a->min_w, &a->min_h) != 2)
                return -1;
        } else if (v && !strcmp(k, "--max-size") && ++i) {
            if (sscanf(v, "%ux%u", &a->max_w, &a->max_h) != 2)
                return -1;
        } else if (v && !strcmp(k, "--depths") && ++i) {
            if (parse_depths(v, &a->depth_mask))
                return -1;
        } else if (v && !strcmp(k, "--options") && ++i)
            a->options = v;
        else if (v && !strcmp(k, "--size") && ++i) {
            if (sscanf(v, "%ux%u", &a->width, &a->height) != 2)
                return -1;
        } else if (v && !strcmp(k, "--twin-threads") && ++i)
            a->twin_threads = (unsigned)strtoul(v, NULL, 0);
        else if (v && !strcmp(k, "--threads") && ++i)
            a->threads = (unsigned)strtoul(v, NULL, 0);
        else if (v && !strcmp(k, "--twin-backend") && ++i)
            a->twin_backend = !strcmp(v, "cpu") ? EV_BACKEND_CPU : EV_BACKEND_CUDA;
        else
            return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* a run cut short by a time limit keeps its rows */
    GateArgs a;
    if (parse(argc, argv, &a)) {
        fprintf(stderr,
                "usage: %s [--corpus DIR] [--seed N] [--quick] [--search N] "
                "[--threads N] [--only EXTRACTOR] [--part K/N] "
                "[--twin-backend cuda|cpu] [--plant-ulp]\n"
                "       %s --noise-search N --only EXTRACTOR [--options SPEC] "
                "[--size WxH] [--seed N] [--threads N] [--twin-threads N]\n"
                "       %s --vmaf-search N [--features 'NAME[:OPTS];...'] "
                "[--min-size WxH] [--max-size WxH] [--depths 8,10,...] [--seed N] "
                "[--threads N] [--twin-threads N]\n",
                argv[0], argv[0], argv[0]);
        return 2;
    }
    if (a.twin_backend == EV_BACKEND_CUDA && ev_gpu_count() <= 0) {
        printf("exactvmaf-parity: no CUDA device (%s): skipped\n",
               ev_gpu_count() < 0 ? "built without CUDA" : "none found");
        return 77;
    }
    if (a.vmaf_frames) {
        const VmafSearch vs = { a.threads,      a.twin_threads ? a.twin_threads : a.threads,
                                a.twin_backend, a.vmaf_frames,
                                a.seed,         verbose,
                                a.features,     a.min_w,
                                a.min_h,        a.max_w,
                                a.max_h,        a.depth_mask };
        const int rc = vmaf_search(&vs);
        return rc < 0 ? 2 : rc;
    }
    if (a.noise_frames) {
        if (!a.only) {
            fprintf(stderr, "exactvmaf-parity: --noise-search needs --only EXTRACTOR\n");
            return 2;
        }
        const NoiseSearch ns = { a.only,         a.options,
                                 a.width,        a.height,
                                 a.threads,      a.twin_threads ? a.twin_threads : a.threads,
                                 a.twin_backend, a.noise_frames,
                                 a.seed };
        const int rc = noise_search(&ns);
        return rc < 0 ? 2 : rc;
    }
    if (a.corpus && access(a.corpus, R_OK)) { /* the shared corpus is not beside the clone */
        printf("skip: no corpus at %s\n", a.corpus);
        return 77;
    }
    FixtureList fx = { 0 };
    int err =
        a.search ? fixtures_random(&fx, a.seed, a.search) : fixtures_standard(&fx, a.seed, a.quick);
    if (!err && a.corpus)
        err = fixtures_corpus(&fx, a.corpus);
    if (err) {
        fprintf(stderr, "exactvmaf-parity: cannot set up fixtures (%s)\n", strerror(-err));
        return 2;
    }
    printf("seed %" PRIu32 ", twin backend %s%s\n\n", a.seed,
           a.twin_backend == EV_BACKEND_CUDA ? "cuda" : "cpu", a.plant ? ", one ULP planted" : "");
    printf("| extractor    | options                                | fixture                      "
           "    | frames | ident. | max |d|   | ULP    |\n");
    printf("|---|---|---|---|---|---|---|\n");
    unsigned bad = 0, rows = 0, numbered = 0;
    unsigned long frames = 0;
    for (size_t o = 0; o < sizeof(option_sets) / sizeof(option_sets[0]); o++) {
        if (a.only && strcmp(a.only, option_sets[o].extractor))
            continue;
        for (unsigned i = 0; i < fx.n && !err; i++) {
            if (option_sets[o].quick && !a.search && !fx.item[i].quick &&
                fx.item[i].kind != FIX_CORPUS)
                continue;
            if (fx.item[i].only && strcmp(fx.item[i].only, option_sets[o].extractor) &&
                strcmp(option_sets[o].extractor, "model"))
                continue; /* a fixture for one extractor (cambi's banding) */
            if (numbered++ % a.parts != a.part)
                continue; /* another process's share of the rows (--part) */
            err = run_row(&a, &option_sets[o], &fx.item[i], &bad, &frames);
            rows++;
        }
    }
    fixtures_free(&fx);
    if (err == -ENODEV)
        return 77;
    printf("\n%u rows, %lu frames compared, %u rows with differences\n", rows, frames, bad);
    return bad || err ? 1 : 0;
}
