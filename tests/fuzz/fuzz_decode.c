/* libFuzzer harness: encoded input (include/exactvmaf/video.h, src/io/decode.c) on any bytes.
 * The input is the file. It is opened as decoded and again converted to a small target format
 * chosen by its first byte (size, depth, layout), as ev_video_open_pair() opens a distorted,
 * and then decoded in segments by three decoders (io/segments.h, closed after 24 frames while
 * its threads may still decode).
 * Contract checked: open fails with one message or gives a sane format; every frame read, into
 * the reader's buffer or into a caller's exact-size planes, is that format and can be read in
 * full (ASan checks the bytes); a failure leaves a message and sticks. At most 24 frames are
 * read per open. Without libav* in the build every open must fail with a message. */
#include <stdlib.h>
#include <string.h>

#include "exactvmaf/video.h"
#include "fuzz_common.h"

#define MAX_FRAMES 24

static unsigned sample_bytes(unsigned depth)
{
    return depth > 8 ? 2 : 1;
}

static unsigned touch(const EvPicture *pic)
{
    unsigned sum = 0;
    for (unsigned p = 0; p < 3; p++) {
        unsigned w, h;
        ev_plane_size(pic->width, pic->height, pic->layout, p, &w, &h);
        const uint8_t *row = pic->data[p];
        for (unsigned y = 0; y < h; y++, row += pic->stride[p])
            for (unsigned x = 0; x < w * sample_bytes(pic->bitdepth); x++)
                sum += row[x];
    }
    return sum;
}

static void read_some(EvVideo *v, const EvVideoFormat *f)
{
    EvPicture target = {
        .width = f->width, .height = f->height, .bitdepth = f->bitdepth, .layout = f->layout
    };
    void *plane[3] = { NULL, NULL, NULL };
    /* exact-size planes: an overrun is caught (only for frames of a bounded size) */
    const int use_into = (unsigned long long)f->width * f->height <= 4096u * 4096u;
    for (unsigned p = 0; p < 3 && use_into; p++) {
        unsigned w, h;
        ev_plane_size(f->width, f->height, f->layout, p, &w, &h);
        target.stride[p] = (ptrdiff_t)w * sample_bytes(f->bitdepth);
        const size_t bytes = (size_t)target.stride[p] * h;
        plane[p] = malloc(bytes ? bytes : 1);
        FUZZ_CHECK(plane[p], "out of memory");
        target.data[p] = plane[p];
    }
    int ret = 0;
    for (unsigned n = 0; n < MAX_FRAMES; n++) {
        EvPicture pic;
        if (use_into && n % 2) {
            ret = ev_video_read_into(v, &target);
            pic = target;
        } else {
            ret = ev_video_read(v, &pic);
        }
        if (ret <= 0)
            break;
        FUZZ_CHECK(pic.width == f->width && pic.height == f->height &&
                       pic.bitdepth == f->bitdepth && pic.layout == f->layout,
                   "frame %u's picture is not the video's format", n);
        touch(&pic);
    }
    if (ret < 0) {
        FUZZ_CHECK(ev_video_error(v)[0], "read failed (%d) without a message", ret);
        FUZZ_CHECK(ev_video_read(v, &(EvPicture){ 0 }) == ret, "a failed stream reads again");
    }
    for (unsigned p = 0; p < 3; p++)
        free(plane[p]);
}

static void open_and_read(const char *path, const EvVideoFormat *target, const unsigned sessions)
{
    EvVideoOptions o;
    ev_video_default_options(&o);
    o.convert_to = target;
    o.decoder_threads = 1;
    o.decode_sessions = sessions;
    char err[512];
    EvVideo *v = NULL;
    const int ret = ev_video_open_with(&v, path, &o, err, sizeof(err));
    if (ret) {
        FUZZ_CHECK(!v && err[0] && !strchr(err, '\n'), "open failed (%d): \"%s\"", ret, err);
        return;
    }
    EvVideoFormat f;
    ev_video_format(v, &f);
    FUZZ_CHECK(f.width >= 1 && f.width <= 32768 && f.height >= 1 && f.height <= 32768 &&
                   f.bitdepth >= 8 && f.bitdepth <= 16 && f.layout >= EV_PIX_420 &&
                   f.layout <= EV_PIX_400,
               "format %ux%u %u-bit layout %d", f.width, f.height, f.bitdepth, (int)f.layout);
    if (target)
        FUZZ_CHECK(!memcmp(&f, target, sizeof(f)) || !strcmp(ev_video_describe(v), "y4m") ||
                       !strcmp(ev_video_describe(v), "raw"),
                   "a converted video is not the target format");
    read_some(v, &f);
    ev_video_close(&v);
    FUZZ_CHECK(!v, "close leaves the pointer");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, size);
    open_and_read(path, NULL, 1);
    static const unsigned depths[4] = { 8, 10, 12, 16 };
    const unsigned k = size ? data[0] : 0;
    const EvVideoFormat target = { 16 + (k & 7) * 5, 8 + (k >> 3 & 3) * 7, depths[k >> 5 & 3],
                                   (EvPixelLayout)(EV_PIX_420 + (k >> 7 & 1) * 2) };
    open_and_read(path, &target, 3);
    fuzz_file_close();
    return 0;
}
