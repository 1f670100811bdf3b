/* A program written against Netflix libvmaf's public API only (built with
 * `pkg-config --cflags --libs libvmaf`): it scores a pair of videos with a model or a feature
 * and prints the values of the named features as "frame<TAB>feature<TAB>bits" (frames, then
 * pooled_mean, pooled_harmonic_mean, pooled_min, pooled_max), and writes vmaf_write_output's
 * JSON, XML, CSV and SUB to OUT.json/.xml/.csv/.sub.
 * usage: score_libvmaf REF DIS W H CHROMA BPC CASE OUT NAME...
 *   REF, DIS: raw planar YUV, or y4m when W is 0 (8-bit 4:2:0 "C420jpeg"/"C420" only)
 *   CASE: model=VERSION (scores named "vmaf") or feature=NAME */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvmaf/libvmaf.h>

static int die(const char *what, int err)
{
    fprintf(stderr, "score_libvmaf: %s failed (%d)\n", what, err);
    exit(1);
}

/* y4m: the header's geometry; each frame is "FRAME...\n" then the planes. */
static void y4m_header(FILE *f, unsigned *w, unsigned *h)
{
    char line[512];
    if (!fgets(line, sizeof(line), f) || strncmp(line, "YUV4MPEG2 ", 10))
        die("y4m header", -1);
    for (char *t = strtok(line, " \n"); t; t = strtok(NULL, " \n")) {
        if (t[0] == 'W')
            *w = (unsigned)atoi(t + 1);
        if (t[0] == 'H')
            *h = (unsigned)atoi(t + 1);
        if (t[0] == 'C' && strncmp(t, "C420", 4) && strcmp(t, "Cmono"))
            die("y4m chroma (4:2:0 or 8-bit mono only)", -1);
    }
}

static int read_picture(FILE *f, int y4m, VmafPicture *pic)
{
    if (y4m) {
        char line[128];
        if (!fgets(line, sizeof(line), f))
            return 0;
    }
    const size_t bytes = pic->bpc > 8 ? 2 : 1;
    for (unsigned p = 0; p < 3; p++)
        for (unsigned y = 0; y < pic->h[p]; y++)
            if (fread((char *)pic->data[p] + y * pic->stride[p], bytes, pic->w[p], f) != pic->w[p])
                return 0;
    return 1;
}

static void print_bits(const char *frame, const char *name, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof(u));
    printf("%s\t%s\t0x%016" PRIx64 "\n", frame, name, u);
}

int main(int argc, char **argv)
{
    if (argc < 10) {
        fprintf(stderr, "usage: score_libvmaf REF DIS W H CHROMA BPC CASE OUT NAME...\n");
        return 2;
    }
    FILE *fr = fopen(argv[1], "rb"), *fd = fopen(argv[2], "rb");
    if (!fr || !fd)
        die("opening the inputs", -1);
    unsigned w = (unsigned)atoi(argv[3]), h = (unsigned)atoi(argv[4]);
    const int y4m = w == 0;
    unsigned wd = 0, hd = 0;
    if (y4m) {
        y4m_header(fr, &w, &h);
        y4m_header(fd, &wd, &hd);
    }
    const int chroma = atoi(argv[5]);
    const enum VmafPixelFormat fmt = chroma == 444   ? VMAF_PIX_FMT_YUV444P
                                     : chroma == 422 ? VMAF_PIX_FMT_YUV422P
                                     : chroma == 400 ? VMAF_PIX_FMT_YUV400P
                                                     : VMAF_PIX_FMT_YUV420P;
    const unsigned bpc = (unsigned)atoi(argv[6]);

    VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_WARNING, .n_threads = 2 };
    VmafContext *vmaf;
    int err = vmaf_init(&vmaf, cfg);
    if (err)
        die("vmaf_init", err);
    VmafModel *model = NULL;
    if (!strncmp(argv[7], "model=", 6)) {
        VmafModelConfig mc = { .name = "vmaf", .flags = VMAF_MODEL_FLAGS_DEFAULT };
        if ((err = vmaf_model_load(&model, &mc, argv[7] + 6)))
            die("vmaf_model_load", err);
        if ((err = vmaf_use_features_from_model(vmaf, model)))
            die("vmaf_use_features_from_model", err);
    } else if (!strncmp(argv[7], "feature=", 8)) {
        if ((err = vmaf_use_feature(vmaf, argv[7] + 8, NULL)))
            die("vmaf_use_feature", err);
    } else {
        die("CASE", -1);
    }

    unsigned n = 0;
    for (;; n++) {
        VmafPicture ref, dis;
        if ((err = vmaf_picture_alloc(&ref, fmt, bpc, w, h)))
            die("vmaf_picture_alloc", err);
        if ((err = vmaf_picture_alloc(&dis, fmt, bpc, w, h)))
            die("vmaf_picture_alloc", err);
        if (!read_picture(fr, y4m, &ref) || !read_picture(fd, y4m, &dis)) {
            vmaf_picture_unref(&ref);
            vmaf_picture_unref(&dis);
            break;
        }
        if ((err = vmaf_read_pictures(vmaf, &ref, &dis, n)))
            die("vmaf_read_pictures", err);
    }
    if ((err = vmaf_read_pictures(vmaf, NULL, NULL, 0)))
        die("vmaf_read_pictures (flush)", err);

    static const struct {
        enum VmafPoolingMethod m;
        const char *label;
    } pool[] = {
        { VMAF_POOL_METHOD_MEAN, "pooled_mean" },
        { VMAF_POOL_METHOD_HARMONIC_MEAN, "pooled_harmonic_mean" },
        { VMAF_POOL_METHOD_MIN, "pooled_min" },
        { VMAF_POOL_METHOD_MAX, "pooled_max" },
    };
    char frame[32];
    for (int a = 9; a < argc; a++) {
        const char *name = argv[a];
        const int is_model = model && !strcmp(name, "vmaf");
        for (unsigned i = 0; i < n; i++) {
            double v;
            err = is_model ? vmaf_score_at_index(vmaf, model, &v, i)
                           : vmaf_feature_score_at_index(vmaf, name, &v, i);
            if (err)
                die(name, err);
            snprintf(frame, sizeof(frame), "%u", i);
            print_bits(frame, name, v);
        }
        for (unsigned k = 0; k < 4; k++) {
            double v;
            err = is_model ? vmaf_score_pooled(vmaf, model, pool[k].m, &v, 0, n - 1)
                           : vmaf_feature_score_pooled(vmaf, name, pool[k].m, &v, 0, n - 1);
            if (err)
                die(name, err);
            print_bits(pool[k].label, name, v);
        }
    }
    /* every writer, XML to SUB in the enum's order */
    static const char *const ext[] = { [VMAF_OUTPUT_FORMAT_XML] = "xml",
                                       [VMAF_OUTPUT_FORMAT_JSON] = "json",
                                       [VMAF_OUTPUT_FORMAT_CSV] = "csv",
                                       [VMAF_OUTPUT_FORMAT_SUB] = "sub" };
    for (int f = VMAF_OUTPUT_FORMAT_XML; f <= VMAF_OUTPUT_FORMAT_SUB; f++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s.%s", argv[8], ext[f]);
        if ((err = vmaf_write_output(vmaf, path, (enum VmafOutputFormat)f)))
            die("vmaf_write_output", err);
    }
    fprintf(stderr, "score_libvmaf: %u frames, version %s\n", n, vmaf_version());
    vmaf_model_destroy(model);
    vmaf_close(vmaf);
    fclose(fr);
    fclose(fd);
    return 0;
}
