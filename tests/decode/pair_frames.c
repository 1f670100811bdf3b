/* The pair entry of include/exactvmaf/video.h against the ffmpeg-pipe route, frame by frame:
 *   pair_frames REF DIS PIPED.y4m [SCALER]
 * opens REF and DIS with ev_video_open_pair() (DIS converted to REF's format with SCALER) and
 * PIPED.y4m (what `ffmpeg -i DIS -vf scale=W:H:flags=SCALER,format=F -f yuv4mpegpipe -` wrote),
 * and checks that every frame of DIS equals PIPED's sample for sample, read both ways: into
 * the reader's own buffer (ev_video_read) and into a caller's padded picture
 * (ev_video_read_into), and that both end together. Exit 0 equal, 1 a difference (the first
 * one printed), 77 when this build reads no encoded video. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exactvmaf/video.h"

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
    printf("ok: %s: %u frames equal the piped ones (read and read_into)\n", argv[2], n_read);
    return 0;
}
