/* libFuzzer harness: the y4m reader (include/exactvmaf/video.h, src/io/y4m.c) on any bytes.
 * The input is the file. Contract checked: open fails with one message or gives a sane format;
 * every frame read describes planes of that format that can be read in full (ASan checks the
 * bytes); a frame count still known after a clean read is the number of frames read; read,
 * read_into and read_mapped (every fourth frame, mapped in place) agree; a failure leaves a
 * message. The file is also opened with a raw format given, which a "YUV4MPEG2" stream must
 * ignore. */
#include <stdlib.h>
#include <string.h>

#include "exactvmaf/video.h"
#include "fuzz_common.h"

static unsigned sample_bytes(unsigned depth)
{
    return depth > 8 ? 2 : 1;
}

/* Read every byte of the picture's planes as ev_plane_size() sizes them. */
static unsigned touch(const EvPicture *pic)
{
    unsigned sum = 0;
    for (unsigned p = 0; p < 3; p++) {
        unsigned w, h;
        ev_plane_size(pic->width, pic->height, pic->layout, p, &w, &h);
        FUZZ_CHECK(pic->stride[p] >= (ptrdiff_t)w * sample_bytes(pic->bitdepth), "stride");
        const uint8_t *row = pic->data[p];
        for (unsigned y = 0; y < h; y++, row += pic->stride[p])
            for (unsigned x = 0; x < w * sample_bytes(pic->bitdepth); x++)
                sum += row[x];
    }
    return sum;
}

/* A caller's picture for read_into: exact-size planes (overruns are caught), rows padded by
 * pad bytes (pad 0 takes the reader's direct path when the chroma sizes allow it). */
typedef struct Target {
    EvPicture pic;
    void *plane[3];
} Target;

static void target_alloc(Target *t, const EvVideoFormat *f, unsigned pad)
{
    memset(t, 0, sizeof(*t));
    t->pic = (EvPicture){
        .width = f->width, .height = f->height, .bitdepth = f->bitdepth, .layout = f->layout
    };
    for (unsigned p = 0; p < 3; p++) {
        unsigned w, h;
        ev_plane_size(f->width, f->height, f->layout, p, &w, &h);
        t->pic.stride[p] = (ptrdiff_t)w * sample_bytes(f->bitdepth) + pad;
        const size_t bytes = (size_t)t->pic.stride[p] * h;
        t->plane[p] = malloc(bytes ? bytes : 1); /* 4:0:0 chroma: 0 bytes */
        FUZZ_CHECK(t->plane[p], "out of memory");
        t->pic.data[p] = t->plane[p];
    }
}

static void target_free(Target *t)
{
    for (unsigned p = 0; p < 3; p++)
        free(t->plane[p]);
}

static size_t frame_bytes(const EvVideoFormat *f)
{
    size_t n = 0;
    for (unsigned p = 0; p < 3; p++) {
        unsigned w, h;
        ev_plane_size(f->width, f->height, f->layout, p, &w, &h);
        n += (size_t)w * h * sample_bytes(f->bitdepth);
    }
    return n;
}

static void read_all(EvVideo *v, const EvVideoFormat *f, size_t file_size)
{
    /* read_into needs the caller's planes: only for frames the file could hold */
    const int use_into = frame_bytes(f) <= file_size;
    Target t[2];
    if (use_into) {
        target_alloc(&t[0], f, 0);
        target_alloc(&t[1], f, 3);
    }
    unsigned n = 0;
    int ret;
    for (;; n++) {
        EvPicture pic;
        EvVideoFrameMap *map = NULL;
        if (n % 4 == 3) {
            ret = ev_video_read_mapped(v, &pic, &map);
            FUZZ_CHECK(ret > 0 || !map, "a map without a frame");
        } else if (use_into && n % 4) {
            ret = ev_video_read_into(v, &t[n % 4 - 1].pic);
            pic = t[n % 4 - 1].pic;
        } else {
            ret = ev_video_read(v, &pic);
        }
        if (ret <= 0)
            break;
        FUZZ_CHECK(pic.width == f->width && pic.height == f->height &&
                       pic.bitdepth == f->bitdepth && pic.layout == f->layout,
                   "frame %u's picture is not the video's format", n);
        touch(&pic);
        ev_video_unmap(map);
    }
    if (ret < 0) {
        FUZZ_CHECK(ev_video_error(v)[0], "read failed (%d) without a message", ret);
        FUZZ_CHECK(ev_video_read(v, &(EvPicture){ 0 }) == ret, "a failed stream reads again");
    } else {
        unsigned long long count = 0; /* a count still claimed after the end is right */
        if (!ev_video_frame_count(v, &count))
            FUZZ_CHECK(count == n, "frame count %llu but %u frames read", count, n);
    }
    if (use_into) {
        target_free(&t[0]);
        target_free(&t[1]);
    }
}

static void open_and_read(const char *path, const EvVideoFormat *raw, size_t file_size,
                          EvVideoFormat *got)
{
    char err[256];
    EvVideo *v = NULL;
    const int ret = ev_video_open(&v, path, raw, err, sizeof(err));
    if (ret) {
        FUZZ_CHECK(!v && err[0] && !strchr(err, '\n'), "open failed (%d): \"%s\"", ret, err);
        memset(got, 0, sizeof(*got));
        return;
    }
    ev_video_format(v, got);
    FUZZ_CHECK(got->width >= 1 && got->width <= 32768 && got->height >= 1 && got->height <= 32768 &&
                   got->bitdepth >= 8 && got->bitdepth <= 16 && got->layout >= EV_PIX_420 &&
                   got->layout <= EV_PIX_400,
               "format %ux%u %u-bit layout %d", got->width, got->height, got->bitdepth,
               (int)got->layout);
    read_all(v, got, file_size);
    ev_video_close(&v);
    FUZZ_CHECK(!v, "close leaves the pointer");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, size);
    EvVideoFormat as_y4m, as_raw;
    open_and_read(path, NULL, size, &as_y4m);
    const int is_y4m = size >= 9 && !memcmp(data, "YUV4MPEG2", 9);
    if (is_y4m) { /* the magic wins over a raw format */
        const EvVideoFormat raw = { 2, 2, 8, EV_PIX_420 };
        open_and_read(path, &raw, size, &as_raw);
        FUZZ_CHECK(!memcmp(&as_y4m, &as_raw, sizeof(as_y4m)), "raw format changed a y4m read");
    }
    fuzz_file_close();
    return 0;
}
