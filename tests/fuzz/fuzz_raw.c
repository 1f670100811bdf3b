/* libFuzzer harness: the raw .yuv geometry (src/io/video.c): a caller's width, height, depth
 * and layout against the file's size. The input is a 16-byte description then the file's first
 * bytes:
 *   u16 width, u16 height, u8 bitdepth, u8 layout, u8 frames, i8 delta, u8 mode, 7 bytes unused
 * and the file is `frames` whole frames (of the size computed here, ffmpeg's layout: chroma
 * ceil(w/2) x ceil(h/2) in 4:2:0) plus delta bytes, or with mode & 1 a size of its own (u32 in
 * the unused bytes). Contract checked: a format outside 8..16 bits, the four layouts or
 * 1..32768 is refused; a size that is not a whole, non-zero number of frames is refused with
 * a message naming the expected frame size; otherwise the frame count is size / frame and
 * exactly that many frames are read (the first few read, the rest skipped). */
#include <stdio.h>
#include <string.h>

#include "exactvmaf/video.h"
#include "fuzz_common.h"

enum { DESC_BYTES = 16, MAX_FILE = 4u << 20, FRAMES_READ = 3 };

static unsigned get_u16(const uint8_t *p)
{
    return (unsigned)p[0] | (unsigned)p[1] << 8;
}

/* Bytes of one frame in the file, computed apart from the reader; 0 for a bad format. */
static unsigned long long expected_frame(const EvVideoFormat *f)
{
    if (f->width < 1 || f->width > 32768 || f->height < 1 || f->height > 32768 || f->bitdepth < 8 ||
        f->bitdepth > 16)
        return 0;
    unsigned long long cw, ch;
    switch (f->layout) {
    case EV_PIX_420:
        cw = (f->width + 1) / 2;
        ch = (f->height + 1) / 2;
        break;
    case EV_PIX_422:
        cw = (f->width + 1) / 2;
        ch = f->height;
        break;
    case EV_PIX_444:
        cw = f->width;
        ch = f->height;
        break;
    case EV_PIX_400:
        cw = 0;
        ch = 0;
        break;
    default: return 0;
    }
    const unsigned long long samples = (unsigned long long)f->width * f->height + 2 * cw * ch;
    return samples * (f->bitdepth > 8 ? 2 : 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < DESC_BYTES)
        return 0;
    const EvVideoFormat fmt = { get_u16(data), get_u16(data + 2), data[4], (EvPixelLayout)data[5] };
    const unsigned long long frame = expected_frame(&fmt);
    long long file_size;
    if (data[8] & 1)
        file_size = (long long)(get_u16(data + 9) | (unsigned long long)get_u16(data + 11) << 16);
    else
        file_size = (long long)(frame ? frame : 1000) * data[6] + (int8_t)data[7];
    if (file_size < 0 || file_size > (long long)MAX_FILE)
        return 0;
    const size_t body =
        size - DESC_BYTES < (size_t)file_size ? size - DESC_BYTES : (size_t)file_size;
    const char *path = fuzz_file(data + DESC_BYTES, body, (unsigned long long)file_size);

    char err[512];
    EvVideo *v = NULL;
    const int ret = ev_video_open(&v, path, &fmt, err, sizeof(err));
    const int y4m = body >= 9 && !memcmp(data + DESC_BYTES, "YUV4MPEG2", 9);
    const int whole = frame && file_size > 0 && file_size % (long long)frame == 0;
    if (y4m) { /* read as y4m whatever the raw format: fuzz_y4m checks that */
        ev_video_close(&v);
        fuzz_file_close();
        return 0;
    }
    if (!whole) {
        FUZZ_CHECK(ret && !v && err[0] && !strchr(err, '\n'),
                   "%ux%u %u-bit layout %d, %lld bytes: open gave %d \"%s\"", fmt.width, fmt.height,
                   fmt.bitdepth, (int)fmt.layout, file_size, ret, err);
        if (frame && file_size > 0) { /* the message names the frame size the user needs */
            char want[32];
            snprintf(want, sizeof(want), "%llu-byte frames", frame);
            FUZZ_CHECK(strstr(err, want), "\"%s\" does not say %s", err, want);
        }
        fuzz_file_close();
        return 0;
    }
    FUZZ_CHECK(!ret && v, "%ux%u %u-bit layout %d, %lld bytes (%lld frames): refused: %s",
               fmt.width, fmt.height, fmt.bitdepth, (int)fmt.layout, file_size,
               file_size / (long long)frame, err);
    unsigned long long count = 0;
    FUZZ_CHECK(!ev_video_frame_count(v, &count) && count == (unsigned long long)file_size / frame,
               "frame count %llu for %lld bytes of %llu-byte frames", count, file_size, frame);
    EvPicture pic;
    unsigned n = 0;
    for (; n < FRAMES_READ && n < count; n++) { /* every other frame mapped in place */
        EvVideoFrameMap *map = NULL;
        FUZZ_CHECK((n & 1 ? ev_video_read_mapped(v, &pic, &map) : ev_video_read(v, &pic)) == 1,
                   "frame %u: %s", n, ev_video_error(v));
        FUZZ_CHECK(!(n & 1) || map, "frame %u of a regular file not mapped", n);
        ev_video_unmap(map);
    }
    if (count > n)
        FUZZ_CHECK(!ev_video_skip(v, (unsigned)(count - n)), "skip: %s", ev_video_error(v));
    FUZZ_CHECK(ev_video_read(v, &pic) == 0, "a frame after the last: %s", ev_video_error(v));
    ev_video_close(&v);
    fuzz_file_close();
    return 0;
}
