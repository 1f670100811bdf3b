/* The pair entry of include/exactvmaf/video.h against the ffmpeg-pipe route, frame by frame:
 *   pair_frames REF DIS PIPED.y4m [SCALER]
 * opens REF and DIS with ev_video_open_pair() (DIS converted to REF's format with SCALER) and
 * PIPED.y4m (what `ffmpeg -i DIS -vf scale=W:H:flags=SCALER,format=F -f yuv4mpegpipe -` wrote),
 * and checks that every frame of DIS equals PIPED's sample for sample, read both ways: into
 * the reader's own buffer (ev_video_read) and into a caller's padded picture
 * (ev_video_read_into), and that both end together. Then, where DIS decodes to REF's layout
 * and depth at another size and SCALER is one the scaler's C reference models
 * (src/io/scale_ref.h: bicubic, bilinear, lanczos, with accurate_rnd or bitexact), each
 * frame of DIS as decoded, scaled by that reference, must equal PIPED's too: the reference a
 * GPU twin is checked against is the conversion users get. Exit 0 equal, 1 a difference (the
 * first one printed), 77 when this build reads no encoded video. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exactvmaf/video.h"
#include "io/scale_ref.h"

static unsigned bytes_of(const EvPicture *p)
{
    return p->bitdepth > 8 ? 2 : 1;
}

/* 0 equal; else prints the first differing sample */
static int compare(const EvPicture *a, const EvPicture *b, unsigned frame)
{
    if (a->width != b->width || a->height != b->height || a->bitdepth != b->bitdepth ||
        a->layout != b->layout) {
        printf("FAIL: frame %u: %ux%u %u-bit %s against %ux%u %u-bit %s\n", frame, a->width,
               a->height, a->bitdepth, ev_layout_name(a->layout), b->width, b->height, b->bitdepth,
               ev_layout_name(b->layout));
        return 1;
    }
    for (unsigned p = 0; p < 3; p++) {
        unsigned w, h;
        ev_plane_size(a->width, a->height, a->layout, p, &w, &h);
        for (unsigned y = 0; y < h; y++) {
            const uint8_t *ra = (const uint8_t *)a->data[p] + (ptrdiff_t)y * a->stride[p];
            const uint8_t *rb = (const uint8_t *)b->data[p] + (ptrdiff_t)y * b->stride[p];
            for (unsigned x = 0; x < w * bytes_of(a); x++)
                if (ra[x] != rb[x]) {
                    printf("FAIL: frame %u plane %u row %u byte %u: %u, piped %u\n", frame, p, y, x,
                           ra[x], rb[x]);
                    return 1;
                }
        }
    }
    return 0;
}

static int open_pair(EvVideo **ref, EvVideo **dis, char **argv, const char *scaler)
{
    EvVideoOptions o;
    ev_video_default_options(&o);
    o.scaler = scaler;
    char err[512];
    if (ev_video_open_pair(ref, dis, argv[1], argv[2], &o, err, sizeof(err))) {
        printf("FAIL: open_pair: %s\n", err);
        return 1;
    }
    return 0;
}

static int open_piped(EvVideo **v, const char *path)
{
    char err[512];
    if (ev_video_open(v, path, NULL, err, sizeof(err))) {
        printf("FAIL: %s\n", err);
        return 1;
    }
    return 0;
}

/* One pass over DIS and PIPED: read_into a padded picture when into, else read. */
static int pass(char **argv, const char *scaler, int into, unsigned *frames)
{
    EvVideo *ref = NULL, *dis = NULL, *piped = NULL;
    int bad = open_pair(&ref, &dis, argv, scaler) || open_piped(&piped, argv[3]);
    EvVideoFormat f;
    EvPicture target = { 0 };
    void *planes[3] = { NULL, NULL, NULL };
    if (!bad) {
        ev_video_format(dis, &f);
        target = (EvPicture){
            .width = f.width, .height = f.height, .bitdepth = f.bitdepth, .layout = f.layout
        };
        for (unsigned p = 0; p < 3; p++) {
            unsigned w, h;
            ev_plane_size(f.width, f.height, f.layout, p, &w, &h);
            target.stride[p] = (ptrdiff_t)w * (f.bitdepth > 8 ? 2 : 1) + 64;
            planes[p] = calloc(1, (size_t)target.stride[p] * h + 1);
            target.data[p] = planes[p];
        }
    }
    unsigned n = 0;
    while (!bad) {
        EvPicture a, b;
        const int ra = into ? ev_video_read_into(dis, &target) : ev_video_read(dis, &a);
        const int rb = ev_video_read(piped, &b);
        if (ra < 0 || rb < 0) {
            printf("FAIL: frame %u: %s\n", n, ev_video_error(ra < 0 ? dis : piped));
            bad = 1;
        } else if (ra != rb) {
            printf("FAIL: after %u frames only %s ended\n", n, ra ? "the piped video" : argv[2]);
            bad = 1;
        } else if (!ra) {
            break;
        } else {
            bad = compare(into ? &target : &a, &b, n);
            n++;
        }
    }
    for (unsigned p = 0; p < 3; p++)
        free(planes[p]);
    ev_video_close(&ref);
    ev_video_close(&dis);
    ev_video_close(&piped);
    *frames = n;
    return bad;
}

/* The reference's spec of SCALER (libswscale flags joined by '+'), and whether libswscale takes
 * its x86 default 8-bit path with it. @return 0, or -1 for flags the reference does not model. */
static int reference_spec(const char *scaler, EvScaleKernelSpec *k, int *x86_default)
{
    char buf[128];
    snprintf(buf, sizeof(buf), "%s", scaler && *scaler ? scaler : "bicubic");
    *k = (EvScaleKernelSpec){ EV_SCALE_BICUBIC, { NAN, NAN }, 0 };
    int kernels = 0, accurate = 0;
    for (char *save = NULL, *t = strtok_r(buf, "+", &save); t; t = strtok_r(NULL, "+", &save)) {
        if (!strcmp(t, "bicubic") || !strcmp(t, "bilinear") || !strcmp(t, "lanczos")) {
            k->kernel = t[1] == 'i' && t[2] == 'c' ? EV_SCALE_BICUBIC
                        : t[0] == 'b'              ? EV_SCALE_BILINEAR
                                                   : EV_SCALE_LANCZOS;
            kernels++;
        } else if (!strcmp(t, "accurate_rnd")) {
            accurate = 1;
        } else if (!strcmp(t, "bitexact")) {
            k->bitexact = 1;
        } else {
            return -1;
        }
    }
#if defined(__x86_64__) || defined(__i386__)
    *x86_default = !accurate && !k->bitexact;
#else
    *x86_default = 0;
#endif
    return kernels == 1 ? 0 : -1;
}

/* DIS as decoded, scaled by the reference, against PIPED. *checked: frames compared (0 when
 * the case is not one the reference models). */
static int reference_pass(char **argv, const char *scaler, unsigned *checked)
{
    *checked = 0;
    EvScaleKernelSpec k;
    int x86_default;
    if (reference_spec(scaler, &k, &x86_default))
        return 0;
    EvVideo *dis = NULL, *piped = NULL;
    if (open_piped(&dis, argv[2]) || open_piped(&piped, argv[3])) {
        ev_video_close(&dis);
        return 1;
    }
    EvVideoFormat in, out;
    ev_video_format(dis, &in);
    ev_video_format(piped, &out);
    int bad = 0;
    if (in.layout == out.layout && in.bitdepth == out.bitdepth && in.bitdepth <= 14 &&
        (in.width != out.width || in.height != out.height)) {
        unsigned cw, ch;
        ev_plane_size(in.width, in.height, in.layout, 1, &cw, &ch);
        const int planes = cw ? 3 : 1;
        const int ss_x = planes == 3 && cw < in.width, ss_y = planes == 3 && ch < in.height;
        EvScalePlan plan;
        if (ev_scale_plan_make(&plan, &k, (int)in.width, (int)in.height, (int)out.width,
                               (int)out.height, ss_x, ss_y, planes, (int)in.bitdepth, 4, 2)) {
            printf("FAIL: the reference refused %ux%u -> %ux%u\n", in.width, in.height, out.width,
                   out.height);
            bad = 1;
        }
        plan.x86_default = x86_default && in.bitdepth == 8;
        EvPicture scaled = {
            .width = out.width, .height = out.height, .bitdepth = out.bitdepth, .layout = out.layout
        };
        void *planes_mem[3] = { NULL, NULL, NULL };
        for (int p = 0; p < planes && !bad; p++) { /* libswscale's sizes: odd chroma rounded up */
            const int c = p ? 1 : 0;
            scaled.stride[p] = (ptrdiff_t)plan.dst_w[c] * (out.bitdepth > 8 ? 2 : 1);
            planes_mem[p] = calloc(1, (size_t)scaled.stride[p] * plan.dst_h[c] + 1);
            scaled.data[p] = planes_mem[p];
        }
        while (!bad) {
            EvPicture a, b;
            const int ra = ev_video_read(dis, &a), rb = ev_video_read(piped, &b);
            if (ra <= 0 || rb <= 0) {
                bad = ra < 0 || rb < 0 || ra != rb;
                if (bad)
                    printf("FAIL: reference pass: reading ended apart\n");
                break;
            }
            for (int p = 0; p < planes && !bad; p++)
                bad = ev_scale_plane_ref(&plan, p, a.data[p], a.stride[p], planes_mem[p],
                                         scaled.stride[p]) != 0;
            bad = bad || compare(&scaled, &b, *checked);
            ++*checked;
        }
        for (int p = 0; p < 3; p++)
            free(planes_mem[p]);
        ev_scale_plan_free(&plan);
    }
    ev_video_close(&dis);
    ev_video_close(&piped);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: pair_frames REF DIS PIPED.y4m [SCALER]\n");
        return 2;
    }
    if (!ev_video_can_decode()) {
        printf("skip: this build reads no encoded video\n");
        return 77;
    }
    const char *scaler = argc > 4 ? argv[4] : NULL;
    unsigned n_read = 0, n_into = 0;
    if (pass(argv, scaler, 0, &n_read) || pass(argv, scaler, 1, &n_into))
        return 1;
    if (!n_read) {
        printf("FAIL: no frames\n");
        return 1;
    }
    unsigned n_ref = 0;
    if (reference_pass(argv, scaler, &n_ref))
        return 1;
    printf("ok: %s: %u frames equal the piped ones (read and read_into)", argv[2], n_read);
    if (n_ref)
        printf("; so do its %u decoded frames scaled by the C reference", n_ref);
    printf("\n");
    return 0;
}
