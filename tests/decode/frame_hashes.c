/* Every decoded frame's hash, to show that NVDEC's frames equal the software decoder's, and
 * that a stream decoded in segments by several decoders equals one decoder's:
 *   frame_hashes FILE cpu|nvdec|auto [SESSIONS [THREADS]]
 * (EvVideoOptions.decode_sessions and decoder_threads; default 0 and 0) prints one line per
 * frame, "N WxH B-bit LAYOUT HASH" (64-bit FNV-1a over the picture's
 * planes, row by row at their ev_plane_size() sizes), then "frames N". Exit 0, 1 an error (one
 * line), 77 when this build reads no encoded video. tests/decode/nvdec_test.sh diffs the two. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exactvmaf/video.h"

static uint64_t hash_picture(const EvPicture *p)
{
    uint64_t h = 1469598103934665603ull;
    const unsigned bytes = p->bitdepth > 8 ? 2 : 1;
    for (unsigned c = 0; c < 3; c++) {
        unsigned w, hh;
        ev_plane_size(p->width, p->height, p->layout, c, &w, &hh);
        for (unsigned y = 0; y < hh; y++) {
            const uint8_t *row = (const uint8_t *)p->data[c] + (ptrdiff_t)y * p->stride[c];
            for (unsigned x = 0; x < w * bytes; x++)
                h = (h ^ row[x]) * 1099511628211ull;
        }
    }
    return h;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 5 ||
        (strcmp(argv[2], "cpu") && strcmp(argv[2], "nvdec") && strcmp(argv[2], "auto"))) {
        fprintf(stderr, "usage: frame_hashes FILE cpu|nvdec|auto [SESSIONS [THREADS]]\n");
        return 2;
    }
    if (!ev_video_can_decode()) {
        printf("skip: this build reads no encoded video\n");
        return 77;
    }
    EvVideoOptions o;
    ev_video_default_options(&o);
    o.decode_on = !strcmp(argv[2], "nvdec")  ? EV_DECODE_NVDEC
                  : !strcmp(argv[2], "auto") ? EV_DECODE_AUTO
                                             : EV_DECODE_CPU;
    o.decode_sessions = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 0;
    o.decoder_threads = argc > 4 ? (unsigned)strtoul(argv[4], NULL, 10) : 0;
    EvVideo *v = NULL;
    char err[512];
    if (ev_video_open_with(&v, argv[1], &o, err, sizeof(err))) {
        printf("error: %s\n", err);
        return 1;
    }
    fprintf(stderr, "%s: %s\n", argv[1], ev_video_describe(v));
    unsigned n = 0;
    int ret;
    EvPicture pic;
    while ((ret = ev_video_read(v, &pic)) > 0)
        printf("%u %ux%u %u-bit %s %016llx\n", n++, pic.width, pic.height, pic.bitdepth,
               ev_layout_name(pic.layout), (unsigned long long)hash_picture(&pic));
    if (ret < 0)
        printf("error: %s\n", ev_video_error(v));
    fprintf(stderr, "%s: at the end: %s\n", argv[1], ev_video_describe(v));
    printf("frames %u\n", n);
    ev_video_close(&v);
    return ret < 0;
}
