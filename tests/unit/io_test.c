/* Unit tests of the video readers (src/io/): raw and y4m round trips, every error message,
 * standard input through a pipe, skipping, and the frame counts of shared/corpus. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exactvmaf/video.h"
#include "unit/check.h"
#include "unit/check_tmp.h"

static char tmp_dir[512];
static char created[128][600];
static unsigned n_created;

/* ---------------------------------------------------------------------------------------- */
/* Fixtures                                                                                  */

static const char *fixture_path(const char *name)
{
    static char path[4][600];
    static unsigned next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof(path[0]), "%s/%s", tmp_dir, name);
    return p;
}

static const char *write_fixture(const char *name, const void *data, size_t len)
{
    const char *path = fixture_path(name);
    FILE *f = fopen(path, "wb");
    if (!f || (len && fwrite(data, 1, len, f) != len) || fclose(f)) {
        fprintf(stderr, "cannot write fixture %s\n", path);
        exit(1);
    }
    for (unsigned i = 0; i < n_created; i++)
        if (!strcmp(created[i], path))
            return path;
    if (n_created < 128)
        snprintf(created[n_created++], sizeof(created[0]), "%s", path);
    return path;
}

/* Growable byte string to build a file in. */
typedef struct Bytes {
    unsigned char *p;
    size_t len, cap;
} Bytes;

static void put(Bytes *b, const void *data, size_t len)
{
    if (b->len + len > b->cap) {
        b->cap = (b->len + len) * 2 + 64;
        b->p = realloc(b->p, b->cap);
        if (!b->p)
            exit(1);
    }
    memcpy(b->p + b->len, data, len);
    b->len += len;
}

static void put_str(Bytes *b, const char *s)
{
    put(b, s, strlen(s));
}

/* write_fixture of b's bytes, which it frees (b is empty again). */
static const char *write_bytes(const char *name, Bytes *b)
{
    const char *path = write_fixture(name, b->p, b->len);
    free(b->p);
    *b = (Bytes){ 0 };
    return path;
}

/* The known sample of (frame, plane, x, y), below 2^bitdepth. */
static unsigned sample(unsigned frame, unsigned plane, unsigned x, unsigned y, unsigned depth)
{
    const unsigned v = frame * 7919u + plane * 1009u + y * 131u + x * 17u + (x * y) % 7u;
    return v & ((1u << depth) - 1u);
}

/* Chroma plane size as stored: floor for raw, rounded up for y4m. */
static void stored_size(const EvVideoFormat *f, unsigned p, int ceil, unsigned *w, unsigned *h)
{
    ev_plane_size(f->width, f->height, f->layout, p, w, h);
    if (ceil && p && f->layout != EV_PIX_400) { /* gray: no chroma planes at all */
        *w = f->layout == EV_PIX_444 ? f->width : (f->width + 1) / 2;
        *h = f->layout == EV_PIX_420 ? (f->height + 1) / 2 : f->height;
    }
}

static void put_frame(Bytes *b, const EvVideoFormat *f, unsigned frame, int ceil)
{
    for (unsigned p = 0; p < 3; p++) {
        unsigned w, h;
        stored_size(f, p, ceil, &w, &h);
        for (unsigned y = 0; y < h; y++) {
            for (unsigned x = 0; x < w; x++) {
                const unsigned s = sample(frame, p, x, y, f->bitdepth);
                const unsigned char le[2] = { (unsigned char)(s & 255), (unsigned char)(s >> 8) };
                put(b, le, f->bitdepth > 8 ? 2 : 1);
            }
        }
    }
}

static int picture_matches(const EvPicture *pic, const EvVideoFormat *f, unsigned frame)
{
    if (pic->width != f->width || pic->height != f->height || pic->bitdepth != f->bitdepth ||
        pic->layout != f->layout)
        return 0;
    for (unsigned p = 0; p < 3; p++) {
        unsigned w, h;
        ev_plane_size(f->width, f->height, f->layout, p, &w, &h);
        for (unsigned y = 0; y < h; y++) {
            const unsigned char *row = (const unsigned char *)pic->data[p] + y * pic->stride[p];
            for (unsigned x = 0; x < w; x++) {
                const unsigned got =
                    f->bitdepth > 8 ? row[2 * x] | (unsigned)row[2 * x + 1] << 8 : row[x];
                if (got != sample(frame, p, x, y, f->bitdepth))
                    return 0;
            }
        }
    }
    return 1;
}

/* Open path (raw: the format of a raw file) and read every frame; with want, check the format
 * and each frame (picture_matches). @return the number read, -1 on any problem. */
static int read_all(const char *path, const EvVideoFormat *raw, const EvVideoFormat *want)
{
    char err[1024];
    EvVideo *v = NULL;
    if (ev_video_open(&v, path, raw, err, sizeof(err))) {
        fprintf(stderr, "open failed: %s\n", err);
        return -1;
    }
    EvVideoFormat fmt;
    ev_video_format(v, &fmt);
    int n = 0, ret;
    EvPicture pic;
    while ((ret = ev_video_read(v, &pic)) == 1) {
        if (want && !picture_matches(&pic, want, (unsigned)n))
            n = -1000;
        n++;
    }
    if (ret < 0)
        fprintf(stderr, "read failed: %s\n", ev_video_error(v));
    if ((want && memcmp(&fmt, want, sizeof(fmt))) || ret < 0 || n < 0)
        n = -1;
    ev_video_close(&v);
    CHECK(v == NULL);
    return n;
}

/* ---------------------------------------------------------------------------------------- */
/* Round trips                                                                               */

/* A raw file of frames 0..frames-1 in f, odd chroma sizes rounded up (ceil 1, as ffmpeg
 * writes raw) or down (0). */
static const char *raw_fixture(const char *name, const EvVideoFormat *f, unsigned frames, int ceil)
{
    Bytes b = { 0 };
    for (unsigned i = 0; i < frames; i++)
        put_frame(&b, f, i, ceil);
    return write_bytes(name, &b);
}

static const EvPixelLayout layouts[4] = { EV_PIX_420, EV_PIX_422, EV_PIX_444, EV_PIX_400 };

static void test_raw_roundtrip(void)
{
    static const unsigned depths[] = { 8, 9, 10, 12, 16 };
    static const unsigned sizes[][2] = { { 6, 4 }, { 5, 3 }, { 1, 1 } };
    for (unsigned d = 0; d < 5; d++)
        for (unsigned l = 0; l < 4; l++)
            for (unsigned s = 0; s < 3; s++) {
                const EvVideoFormat f = { sizes[s][0], sizes[s][1], depths[d], layouts[l] };
                const int n = read_all(raw_fixture("rt.yuv", &f, 3, 1), &f, &f);
                if (n != 3)
                    fprintf(stderr, "raw %ux%u %u-bit layout %d: %d frames\n", f.width, f.height,
                            f.bitdepth, (int)f.layout, n);
                CHECK(n == 3);
            }
}

typedef struct Y4mTag {
    const char *tag; /* NULL: no C tag */
    unsigned depth;
    EvPixelLayout layout;
} Y4mTag;

static const char *y4m_fixture(const char *name, const char *header, const EvVideoFormat *f,
                               unsigned frames)
{
    Bytes b = { 0 };
    put_str(&b, header);
    for (unsigned i = 0; i < frames; i++) {
        put_str(&b, i % 2 ? "FRAME Ixyz XFOO=1\n" : "FRAME\n");
        put_frame(&b, f, i, 1);
    }
    return write_bytes(name, &b);
}

static void check_y4m_tag(const Y4mTag *t, unsigned w, unsigned h)
{
    const EvVideoFormat f = { w, h, t->depth, t->layout };
    char header[256], ctag[32] = "";
    if (t->tag)
        snprintf(ctag, sizeof(ctag), " C%s", t->tag);
    /* tags in two orders, with the ones that are ignored */
    snprintf(header, sizeof(header), "YUV4MPEG2 W%u H%u F25:1 Ip A1:1%s XYSCSS=X\n", w, h, ctag);
    int n = read_all(y4m_fixture("t.y4m", header, &f, 3), NULL, &f);
    snprintf(header, sizeof(header), "YUV4MPEG2 F30000:1001%s  XCOLORRANGE=LIMITED H%u It W%u\n",
             ctag, h, w);
    const int n2 = read_all(y4m_fixture("u.y4m", header, &f, 2), NULL, &f);
    if (n != 3 || n2 != 2)
        fprintf(stderr, "y4m C%s %ux%u: %d, %d frames\n", t->tag ? t->tag : "(none)", w, h, n, n2);
    CHECK(n == 3 && n2 == 2);
}

static void test_y4m_tags(void)
{
    static const Y4mTag eight[] = {
        { NULL, 8, EV_PIX_420 },       { "420", 8, EV_PIX_420 },      { "420jpeg", 8, EV_PIX_420 },
        { "420mpeg2", 8, EV_PIX_420 }, { "420paldv", 8, EV_PIX_420 }, { "422", 8, EV_PIX_422 },
        { "444", 8, EV_PIX_444 },      { "mono", 8, EV_PIX_400 },
    };
    for (unsigned i = 0; i < sizeof(eight) / sizeof(eight[0]); i++) {
        check_y4m_tag(&eight[i], 6, 4);
        check_y4m_tag(&eight[i], 5, 3); /* odd: chroma stored rounded up */
    }
    /* ffmpeg's names: yuv420p10 -> 420p10, gray10 -> mono10 (mono9, mono12, mono16 too) */
    static const char *const bases[4] = { "420p", "422p", "444p", "mono" };
    for (unsigned l = 0; l < 4; l++)
        for (unsigned depth = 9; depth <= 16; depth++) {
            char tag[16];
            snprintf(tag, sizeof(tag), "%s%u", bases[l], depth);
            const Y4mTag t = { tag, depth, layouts[l] };
            check_y4m_tag(&t, 6, 4);
            check_y4m_tag(&t, 7, 5);
        }
}

/* raw != NULL is ignored for a .y4m name; raw == NULL reads any name as y4m. */
static void test_y4m_by_name(void)
{
    const EvVideoFormat f = { 4, 2, 10, EV_PIX_422 };
    const EvVideoFormat wrong = { 8, 8, 8, EV_PIX_444 };
    const char *path = y4m_fixture("named.Y4M", "YUV4MPEG2 W4 H2 C422p10\n", &f, 2);
    CHECK(read_all(path, &wrong, &f) == 2);
    path = y4m_fixture("y4m_inside.yuv", "YUV4MPEG2 W4 H2 C422p10\n", &f, 2);
    CHECK(read_all(path, NULL, &f) == 2);
    path = y4m_fixture("noframes.y4m", "YUV4MPEG2 W4 H2 C422p10\n", &f, 0);
    CHECK(read_all(path, NULL, &f) == 0);
}

static void expect_open_error(const char *path, const EvVideoFormat *raw, int code,
                              const char *words);

/* The stream's magic decides, not its name; raw odd sizes are ffmpeg's (ceil) layout; frame
 * counts of regular files; the F and I tags. */
static void test_detection(void)
{
    const EvVideoFormat f = { 5, 3, 8, EV_PIX_420 };
    /* a raw file named .y4m, with the raw format given: raw */
    const char *path = raw_fixture("raw_named.y4m", &f, 3, 1);
    CHECK(read_all(path, &f, &f) == 3);
    char err[1024];
    EvVideo *v = NULL;
    unsigned long long n = 0;
    CHECK(ev_video_open(&v, path, &f, err, sizeof(err)) == 0);
    CHECK(ev_video_frame_count(v, &n) == 0 && n == 3);
    EvVideoTags t = { 1, 1, 'x' };
    ev_video_tags(v, &t);
    CHECK(t.fps_num == 0 && t.fps_den == 0 && t.interlace == 0);
    ev_video_close(&v);
    /* the floor layout of 5x3 (15 + 2 * 2 bytes) is refused, naming the ceil frame size */
    expect_open_error(raw_fixture("floor.yuv", &f, 3, 0), &f, -EINVAL,
                      "not a whole number of 27-byte frames (5x3 8-bit 4:2:0, chroma planes 3x2");
    /* y4m named .yuv with a raw format: y4m, and its tags and count */
    const EvVideoFormat g = { 4, 2, 10, EV_PIX_422 };
    path = y4m_fixture("tagged.yuv", "YUV4MPEG2 W4 H2 F30000:1001 It C422p10\n", &g, 2);
    CHECK(read_all(path, &f, &g) == 2);
    CHECK(ev_video_open(&v, path, &f, err, sizeof(err)) == 0);
    ev_video_tags(v, &t);
    CHECK(t.fps_num == 30000 && t.fps_den == 1001 && t.interlace == 't');
    /* the fixture's odd frames carry FRAME parameters: the count is unknown */
    CHECK(ev_video_frame_count(v, &n) == -ENODATA);
    ev_video_close(&v);
    path = y4m_fixture("one.y4m", "YUV4MPEG2 W4 H2 F25:1 C422p10\n", &g, 1);
    CHECK(ev_video_open(&v, path, NULL, err, sizeof(err)) == 0);
    CHECK(ev_video_frame_count(v, &n) == 0 && n == 1);
    ev_video_close(&v);
}

/* ---------------------------------------------------------------------------------------- */
/* Errors                                                                                    */

/* Every word must appear in msg, and so must the file's name. */
static int has_words(const char *msg, const char *name, const char *words)
{
    if (!strstr(msg, name) || !strstr(msg, words)) {
        fprintf(stderr, "message \"%s\" lacks \"%s\" or \"%s\"\n", msg, name, words);
        return 0;
    }
    return 1;
}

static void expect_open_error(const char *path, const EvVideoFormat *raw, int code,
                              const char *words)
{
    char err[1024] = "junk";
    EvVideo *v = (EvVideo *)&err; /* must come back NULL */
    const int ret = ev_video_open(&v, path, raw, err, sizeof(err));
    if (ret != code)
        fprintf(stderr, "%s: open returned %d, want %d (%s)\n", path, ret, code, err);
    CHECK(ret == code);
    CHECK(v == NULL);
    CHECK(!strchr(err, '\n'));
    const char *slash = strrchr(path, '/');
    CHECK(has_words(err, slash ? slash + 1 : path, words));
}

static void expect_y4m_header_error(const char *name, const char *content, const char *words)
{
    expect_open_error(write_fixture(name, content, strlen(content)), NULL, -EINVAL, words);
}

static void test_open_errors(void)
{
    const EvVideoFormat f = { 576, 324, 8, EV_PIX_420 };
    char err[1024];
    EvVideo *v = NULL;
    const char *missing = fixture_path("ref.yuv");
    CHECK(ev_video_open(&v, missing, &f, err, sizeof(err)) == -ENOENT);
    char want[1200];
    snprintf(want, sizeof(want), "%s: cannot open: No such file or directory", missing);
    CHECK(!strcmp(err, want));
    expect_open_error(tmp_dir, &f, -ENOENT, "cannot open: Is a directory");

    unsigned char *big = calloc(1, 1000001);
    CHECK(big != NULL);
    const char *path = write_fixture("ref.yuv", big, 1000001);
    free(big);
    CHECK(ev_video_open(&v, path, &f, err, sizeof(err)) == -EINVAL);
    snprintf(want, sizeof(want),
             "%s: size 1000001 bytes is not a whole number of 279936-byte "
             "frames (576x324 8-bit 4:2:0, chroma planes 288x162 as ffmpeg "
             "writes them): 160193 bytes left over",
             path);
    CHECK(!strcmp(err, want));
    expect_open_error(write_fixture("empty.yuv", "", 0), &f, -EINVAL, "no frames (empty file)");

    static const EvVideoFormat bad[] = {
        { 576, 324, 7, EV_PIX_420 }, { 576, 324, 17, EV_PIX_420 }, { 576, 324, 8, 0 },
        { 576, 324, 8, 5 },          { 0, 324, 8, EV_PIX_420 },    { 576, 0, 8, EV_PIX_420 },
        { 32769, 2, 8, EV_PIX_420 },
    };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        expect_open_error(path, &bad[i], -EINVAL, "bad raw format");
}

static void test_y4m_header_errors(void)
{
    expect_y4m_header_error("e.y4m", "", "empty (0 bytes): no video in it");
    expect_y4m_header_error("r.yuv", "\x10\x80\x80 raw samples\n",
                            "not a y4m file (no YUV4MPEG2 header); raw .yuv needs --width "
                            "--height --pixel_format --bitdepth");
    expect_y4m_header_error("m1.y4m", "YUV4MPEG W4 H4\n", "not a y4m file");
    expect_y4m_header_error("m2.y4m", "YUV4MPEG2W4 H4\n", "not a y4m file");
    /* no end of line: cut in the magic, after it, in the tags */
    static const char *const truncated[] = { "YUV4M", "YUV4MPEG2", "YUV4MPEG2 W4 H4 C420" };
    for (unsigned i = 0; i < sizeof(truncated) / sizeof(truncated[0]); i++)
        expect_y4m_header_error("t.y4m", truncated[i], "truncated y4m header");
    expect_y4m_header_error("nw.y4m", "YUV4MPEG2 H4 C420\n", "no W (width) tag");
    expect_y4m_header_error("nh.y4m", "YUV4MPEG2 W4 C420\n", "no H (height) tag");
    expect_y4m_header_error("nt.y4m", "YUV4MPEG2\n", "no W (width) tag");
    /* a W or H tag that is not a number in 1..32768, named as written */
    static const char *const bad_sizes[] = { "W0", "W4x", "W32769", "W", "H-4" };
    for (unsigned i = 0; i < sizeof(bad_sizes) / sizeof(bad_sizes[0]); i++) {
        const char *tag = bad_sizes[i];
        const int width = tag[0] == 'W';
        char header[64], words[64];
        snprintf(header, sizeof(header), width ? "YUV4MPEG2 %s H4\n" : "YUV4MPEG2 W4 %s\n", tag);
        snprintf(words, sizeof(words), "%s '%s' is not 1..32768", width ? "width" : "height", tag);
        expect_y4m_header_error("size.y4m", header, words);
    }
    static const char *const unsupported[] = { "411",   "mono8",  "mono17",  "monop10", "444alpha",
                                               "420p8", "420p17", "420p010", "",        "420P10" };
    for (unsigned i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++) {
        char header[64], words[64];
        snprintf(header, sizeof(header), "YUV4MPEG2 W4 H4 C%s F25:1\n", unsupported[i]);
        snprintf(words, sizeof(words), "unsupported y4m colour space C%s", unsupported[i]);
        expect_y4m_header_error("cs.y4m", header, words);
    }
    char nul[] = "YUV4MPEG2 W4 H4 C4\00020\n";
    expect_open_error(write_fixture("nul.y4m", nul, sizeof(nul) - 1), NULL, -EINVAL,
                      "bad y4m header: control byte 0x00 at byte 18");
    expect_y4m_header_error("crlf.y4m", "YUV4MPEG2 W4 H4\r\n", "control byte 0x0d at byte 15");
    char long_header[3000];
    memset(long_header, 'X', sizeof(long_header));
    memcpy(long_header, "YUV4MPEG2 W4 H4 ", 16);
    long_header[sizeof(long_header) - 2] = '\n';
    long_header[sizeof(long_header) - 1] = '\0';
    expect_y4m_header_error("long.y4m", long_header, "no end of line in the first 1033 bytes");
}

/* A y4m whose frame `bad` is followed by tail (in place of its FRAME line and data). */
static void expect_read_error(const char *tail, size_t tail_len, unsigned bad, const char *words)
{
    const EvVideoFormat f = { 4, 2, 8, EV_PIX_420 };
    Bytes b = { 0 };
    put_str(&b, "YUV4MPEG2 W4 H2 F25:1 C420jpeg\n");
    for (unsigned i = 0; i < bad; i++) {
        put_str(&b, "FRAME\n");
        put_frame(&b, &f, i, 1);
    }
    put(&b, tail, tail_len);
    const char *path = write_bytes("bad.y4m", &b);
    char err[1024];
    EvVideo *v = NULL;
    CHECK(ev_video_open(&v, path, NULL, err, sizeof(err)) == 0);
    if (!v)
        return;
    EvPicture pic;
    for (unsigned i = 0; i < bad; i++)
        CHECK(ev_video_read(v, &pic) == 1 && picture_matches(&pic, &f, i));
    CHECK(ev_video_read(v, &pic) == -EINVAL);
    CHECK(has_words(ev_video_error(v), "bad.y4m", words));
    CHECK(ev_video_read(v, &pic) == -EINVAL); /* stays failed */
    ev_video_close(&v);
}

static void test_y4m_read_errors(void)
{
    expect_read_error("FRAMX\n12345678901234", 20, 3, "bad.y4m: frame 3: expected FRAME marker");
    expect_read_error("frame\n", 6, 0, "bad.y4m: frame 0: expected FRAME marker");
    expect_read_error("FRAMEX", 6, 1, "frame 1: expected FRAME marker");
    expect_read_error("X", 1, 2, "frame 2: expected FRAME marker");
    expect_read_error("FRA", 3, 2, "frame 2: truncated FRAME marker");
    expect_read_error("FRAME", 5, 2, "frame 2: truncated FRAME marker");
    expect_read_error("FRAME Ip", 8, 1, "frame 1: truncated FRAME line (no end of line)");
    expect_read_error("FRAME\n", 6, 2, "frame 2 is truncated: got 0 of 12 bytes");
    expect_read_error("FRAME\n1234567", 13, 1, "frame 1 is truncated: got 7 of 12 bytes");
    expect_read_error("FRAME\n12345678901", 17, 1, "frame 1 is truncated: got 11 of 12 bytes");
    char long_line[2000];
    memset(long_line, 'x', sizeof(long_line));
    memcpy(long_line, "FRAME ", 6);
    expect_read_error(long_line, sizeof(long_line), 1, "frame 1: FRAME line longer than");
}

/* ---------------------------------------------------------------------------------------- */
/* Standard input, skipping, arguments                                                       */

/* Run `body` with fd 0 reading `data` through a pipe (it fits in the pipe's buffer). */
static void with_stdin_pipe(const void *data, size_t len, void (*body)(void))
{
    int fds[2];
    const int saved = dup(STDIN_FILENO);
    CHECK(saved >= 0 && pipe(fds) == 0);
    CHECK(write(fds[1], data, len) == (ssize_t)len);
    close(fds[1]);
    CHECK(dup2(fds[0], STDIN_FILENO) == STDIN_FILENO);
    close(fds[0]);
    body();
    CHECK(dup2(saved, STDIN_FILENO) == STDIN_FILENO);
    close(saved);
}

static const EvVideoFormat stdin_fmt = { 6, 4, 10, EV_PIX_422 };

static void stdin_truncated_raw(void)
{
    char err[1024];
    EvVideo *v = NULL;
    CHECK(ev_video_open(&v, "-", &stdin_fmt, err, sizeof(err)) == 0);
    if (!v)
        return;
    EvPicture pic;
    CHECK(ev_video_read(v, &pic) == 1 && picture_matches(&pic, &stdin_fmt, 0));
    CHECK(ev_video_read(v, &pic) == -EINVAL);
    CHECK(!strcmp(ev_video_error(v), "stdin: frame 1 is truncated: got 50 of 96 bytes"));
    ev_video_close(&v);
}

static void stdin_y4m(void)
{
    CHECK(read_all("-", NULL, &stdin_fmt) == 2);
}

static void stdin_empty(void)
{
    char err[1024];
    EvVideo *v = NULL;
    CHECK(ev_video_open(&v, "-", NULL, err, sizeof(err)) == -EINVAL);
    CHECK(!strcmp(err, "stdin: empty (0 bytes): no video in it"));
    /* the size of a stream is unknown at open: an empty raw stream simply has no frame */
    CHECK(ev_video_open(&v, "-", &stdin_fmt, err, sizeof(err)) == 0);
    EvPicture pic;
    CHECK(v && ev_video_read(v, &pic) == 0);
    ev_video_close(&v);
}

static void test_stdin(void)
{
    Bytes b = { 0 };
    put_frame(&b, &stdin_fmt, 0, 0);
    put_frame(&b, &stdin_fmt, 1, 0);
    with_stdin_pipe(b.p, b.len - 46, stdin_truncated_raw);
    free(b.p);
    b = (Bytes){ 0 };
    put_str(&b, "YUV4MPEG2 W6 H4 C422p10\nFRAME\n");
    put_frame(&b, &stdin_fmt, 0, 1);
    put_str(&b, "FRAME\n");
    put_frame(&b, &stdin_fmt, 1, 1);
    with_stdin_pipe(b.p, b.len, stdin_y4m);
    free(b.p);
    with_stdin_pipe("", 0, stdin_empty);
}

static void test_skip(void)
{
    const EvVideoFormat f = { 8, 6, 12, EV_PIX_420 };
    const char *path = raw_fixture("skip.yuv", &f, 4, 0);
    char err[1024];
    EvVideo *v = NULL;
    CHECK(ev_video_open(&v, path, &f, err, sizeof(err)) == 0);
    if (!v)
        return;
    EvPicture pic;
    CHECK(ev_video_skip(v, 0) == 0);
    CHECK(ev_video_skip(v, 2) == 0);
    CHECK(ev_video_read(v, &pic) == 1 && picture_matches(&pic, &f, 2));
    CHECK(ev_video_skip(v, 5) == -ENODATA);
    CHECK(has_words(ev_video_error(v), "skip.yuv",
                    "cannot skip 5 frames: the stream ends after 4 frames"));
    CHECK(ev_video_read(v, &pic) == 0);
    ev_video_close(&v);
}

static void test_arguments(void)
{
    char err[256];
    EvVideo *v = NULL;
    const EvVideoFormat f = { 4, 4, 8, EV_PIX_420 };
    CHECK(ev_video_open(NULL, "x.yuv", &f, err, sizeof(err)) == -EINVAL);
    CHECK(ev_video_open(&v, NULL, &f, err, sizeof(err)) == -EINVAL && v == NULL);
    CHECK(ev_video_open(&v, fixture_path("none.yuv"), &f, NULL, 0) == -ENOENT && v == NULL);
    CHECK(ev_video_open(&v, fixture_path("none.yuv"), &f, err, 8) == -ENOENT);
    CHECK(strlen(err) == 7);
    EvPicture pic;
    CHECK(ev_video_read(NULL, &pic) == -EINVAL);
    CHECK(ev_video_skip(NULL, 1) == -EINVAL);
    CHECK(!strcmp(ev_video_error(NULL), ""));
    ev_video_format(NULL, NULL);
    ev_video_close(NULL);
    ev_video_close(&v);
}

/* ---------------------------------------------------------------------------------------- */
/* shared/corpus                                                                             */

/* Every file of corpus.tsv holds its listed number of frames. */
static void test_corpus(void)
{
    const char *dir = EV_SHARED_DIR "/corpus";
    char path[1024];
    snprintf(path, sizeof(path), "%s/corpus.tsv", dir);
    FILE *tsv = fopen(path, "r");
    if (!tsv) {
        fprintf(stderr, "note: %s absent, corpus checks skipped\n", path);
        return;
    }
    char line[4096], ref[256], dis[256];
    unsigned w, h, chroma, depth, frames, rows = 0;
    CHECK(fgets(line, sizeof(line), tsv) != NULL); /* column names */
    while (fgets(line, sizeof(line), tsv)) {
        if (sscanf(line, "%*[^\t]\t%255[^\t]\t%255[^\t]\t%u\t%u\t%u\t%u\t%u", ref, dis, &w, &h,
                   &chroma, &depth, &frames) != 7)
            continue;
        const EvVideoFormat f = { w, h, depth,
                                  chroma == 444   ? EV_PIX_444
                                  : chroma == 422 ? EV_PIX_422
                                                  : EV_PIX_420 };
        for (int i = 0; i < 2; i++) {
            snprintf(path, sizeof(path), "%s/%s", dir, i ? dis : ref);
            const int n = read_all(path, &f, NULL);
            if (n != (int)frames)
                fprintf(stderr, "%s: %d frames, corpus.tsv says %u\n", path, n, frames);
            CHECK(n == (int)frames);
        }
        rows++;
    }
    fclose(tsv);
    CHECK(rows >= 11);

    snprintf(path, sizeof(path), "%s/sunset_576x324_yuv420p10le_ref.yuv", dir);
    const EvVideoFormat ten = { 576, 324, 10, EV_PIX_420 };
    CHECK(read_all(path, &ten, NULL) == 3);
    const EvVideoFormat wrong = { 576, 324, 8, EV_PIX_422 };
    expect_open_error(path, &wrong, -EINVAL,
                      "size 1679616 bytes is not a whole number of 373248-byte frames (576x324 "
                      "8-bit 4:2:2, chroma planes 288x324 as ffmpeg writes them): 186624 bytes "
                      "left over");
}

/* Compare frame by frame: ev_video_read of one reader against ev_video_read_into of another,
 * into packed planes (the direct path) and into rows padded by 8 bytes (the copying path). */
static void check_read_into(const char *path, const EvVideoFormat *raw, unsigned frames)
{
    char err[512];
    EvVideo *a = NULL, *b = NULL, *c = NULL;
    CHECK(!ev_video_open(&a, path, raw, err, sizeof(err)));
    CHECK(!ev_video_open(&b, path, raw, err, sizeof(err)));
    CHECK(!ev_video_open(&c, path, raw, err, sizeof(err)));
    if (!a || !b || !c)
        return;
    EvVideoFormat fmt;
    ev_video_format(a, &fmt);
    const unsigned bytes = fmt.bitdepth > 8 ? 2 : 1;
    EvPicture packed = { fmt.width, fmt.height, fmt.bitdepth, fmt.layout, { 0 }, { 0 } };
    EvPicture padded = packed;
    uint8_t *buf[6];
    for (unsigned p = 0; p < 3; p++) {
        unsigned w, h;
        ev_plane_size(fmt.width, fmt.height, fmt.layout, p, &w, &h);
        buf[p] = calloc((size_t)w * h * bytes + 1, 1);
        buf[3 + p] = calloc(((size_t)w * bytes + 8) * h + 1, 1);
        packed.data[p] = buf[p];
        packed.stride[p] = (ptrdiff_t)w * bytes;
        padded.data[p] = buf[3 + p];
        padded.stride[p] = (ptrdiff_t)w * bytes + 8;
    }
    for (unsigned i = 0; i <= frames; i++) {
        EvPicture want;
        const int ra = ev_video_read(a, &want);
        CHECK(ev_video_read_into(b, &packed) == ra);
        CHECK(ev_video_read_into(c, &padded) == ra);
        for (unsigned p = 0; ra > 0 && p < 3; p++) {
            unsigned w, h;
            ev_plane_size(fmt.width, fmt.height, fmt.layout, p, &w, &h);
            for (unsigned y = 0; y < h; y++) {
                const uint8_t *row = (const uint8_t *)want.data[p] + y * want.stride[p];
                CHECK(!memcmp(row, buf[p] + y * packed.stride[p], (size_t)w * bytes));
                CHECK(!memcmp(row, buf[3 + p] + y * padded.stride[p], (size_t)w * bytes));
            }
        }
    }
    EvPicture wrong = packed;
    wrong.width++;
    CHECK(ev_video_read_into(b, &wrong) == -EINVAL);
    for (unsigned k = 0; k < 6; k++)
        free(buf[k]);
    ev_video_close(&a);
    ev_video_close(&b);
    ev_video_close(&c);
}

static void test_read_into(void)
{
    check_read_into(EV_SOURCE_DIR "/testdata/sample_ref.y4m", NULL, 3);
    char corpus[600];
    snprintf(corpus, sizeof(corpus), "%s/corpus/sunset_576x324_yuv420p10le_ref.yuv", EV_SHARED_DIR);
    const EvVideoFormat raw10 = { 576, 324, 10, EV_PIX_420 };
    if (!access(corpus, R_OK))
        check_read_into(corpus, &raw10, 3);
    /* odd size: y4m stores chroma rounded up, so the copying path must take the floor part */
    static const char head[] = "YUV4MPEG2 W5 H3 F25:1 C420jpeg\nFRAME\n";
    uint8_t file[sizeof(head) - 1 + 27];
    memcpy(file, head, sizeof(head) - 1);
    for (unsigned i = 0; i < 27; i++)
        file[sizeof(head) - 1 + i] = (uint8_t)(i * 7 + 3);
    check_read_into(write_fixture("odd.y4m", file, sizeof(file)), NULL, 1);
}

/* ev_video_read_mapped against ev_video_read on the same file: the same results and planes,
 * frame after frame; `mixed` reads every third frame with ev_video_read instead. The maps are
 * kept until after the reader is closed, and the first frame's planes are checked again then.
 * Returns how many frames were mapped. */
static unsigned check_mapped(const char *path, const EvVideoFormat *raw, const unsigned frames,
                             const int mixed)
{
    char err[512];
    EvVideo *a = NULL, *m = NULL;
    CHECK(!ev_video_open(&a, path, raw, err, sizeof(err)));
    CHECK(!ev_video_open(&m, path, raw, err, sizeof(err)));
    if (!a || !m)
        return 0;
    CHECK(ev_video_mappable(m));
    EvVideoFormat fmt;
    ev_video_format(a, &fmt);
    const unsigned bytes = fmt.bitdepth > 8 ? 2 : 1;
    EvVideoFrameMap *maps[16] = { 0 };
    EvPicture first;
    uint8_t *first_copy[3] = { 0 };
    unsigned n_mapped = 0;
    for (unsigned i = 0; i <= frames && i < 16; i++) {
        EvPicture want, got;
        const int ra = ev_video_read(a, &want);
        int rm;
        if (mixed && i % 3 == 1) {
            rm = ev_video_read(m, &got);
        } else {
            rm = ev_video_read_mapped(m, &got, &maps[i]);
            CHECK(rm > 0 || !maps[i]);
        }
        CHECK(rm == ra);
        n_mapped += maps[i] != NULL;
        for (unsigned p = 0; ra > 0 && rm > 0 && p < 3; p++) {
            unsigned w, h;
            ev_plane_size(fmt.width, fmt.height, fmt.layout, p, &w, &h);
            if (i == 0 && maps[0] && w) {
                first_copy[p] = malloc((size_t)w * h * bytes);
                for (unsigned y = 0; first_copy[p] && y < h; y++)
                    memcpy(first_copy[p] + (size_t)y * w * bytes,
                           (const uint8_t *)want.data[p] + y * want.stride[p], (size_t)w * bytes);
            }
            for (unsigned y = 0; y < h; y++)
                CHECK(!memcmp((const uint8_t *)want.data[p] + y * want.stride[p],
                              (const uint8_t *)got.data[p] + y * got.stride[p], (size_t)w * bytes));
        }
        if (i == 0)
            first = got;
        if (ra < 0)
            CHECK(!strcmp(ev_video_error(a), ev_video_error(m)));
        if (ra <= 0)
            break;
    }
    ev_video_close(&m);
    for (unsigned p = 0; maps[0] && p < 3; p++) {
        unsigned w, h;
        ev_plane_size(fmt.width, fmt.height, fmt.layout, p, &w, &h);
        for (unsigned y = 0; first_copy[p] && y < h; y++)
            CHECK(!memcmp((const uint8_t *)first.data[p] + y * first.stride[p],
                          first_copy[p] + (size_t)y * w * bytes, (size_t)w * bytes));
    }
    for (unsigned i = 0; i < 16; i++)
        ev_video_unmap(maps[i]);
    for (unsigned p = 0; p < 3; p++)
        free(first_copy[p]);
    ev_video_close(&a);
    return n_mapped;
}

static void test_read_mapped(void)
{
    CHECK(check_mapped(EV_SOURCE_DIR "/testdata/sample_ref.y4m", NULL, 3, 0) == 3);
    CHECK(check_mapped(EV_SOURCE_DIR "/testdata/sample_ref.y4m", NULL, 3, 1) == 2);
    /* raw, 3 frames of 4x2 4:2:0 (12 bytes): the first frame's bytes were read at open */
    uint8_t raw[36];
    for (unsigned i = 0; i < sizeof(raw); i++)
        raw[i] = (uint8_t)(i * 13 + 1);
    const EvVideoFormat raw8 = { 4, 2, 8, EV_PIX_420 };
    CHECK(check_mapped(write_fixture("map.yuv", raw, sizeof(raw)), &raw8, 3, 0) == 3);
    /* FRAME lines with parameters are read through the stream, bare ones mapped */
    static const char head[] = "YUV4MPEG2 W4 H2 F25:1 C420jpeg\n";
    Bytes y = { 0 };
    put(&y, head, sizeof(head) - 1);
    for (unsigned f = 0; f < 3; f++) {
        put_str(&y, f == 1 ? "FRAME Ixyz\n" : "FRAME\n");
        put(&y, raw + 12 * f, 12);
    }
    CHECK(check_mapped(write_fixture("map_params.y4m", y.p, y.len), NULL, 3, 0) == 2);
    /* a truncated last frame: the same refusal ("frame 2 is truncated") */
    CHECK(check_mapped(write_fixture("map_cut.y4m", y.p, y.len - 5), NULL, 3, 0) == 1);
    free(y.p);
    /* 10-bit samples at an odd file offset are not mapped (read through the stream) */
    static const char head10[] = "YUV4MPEG2 W4 H2 C420p10 F250:1\n";
    Bytes z = { 0 };
    put(&z, head10, sizeof(head10) - 1);
    for (unsigned f = 0; f < 2; f++) {
        put_str(&z, "FRAME\n");
        put(&z, raw, 24);
    }
    CHECK((sizeof(head10) - 1 + 6) % 2 == 1);
    CHECK(check_mapped(write_fixture("map_odd10.y4m", z.p, z.len), NULL, 2, 0) == 0);
    free(z.p);
    /* pipes are not mappable: ev_video_read_mapped reads as ev_video_read */
    EvVideo *v = NULL;
    char err[256];
    int fds[2];
    if (!pipe(fds)) {
        const pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            const ssize_t wr = write(fds[1], raw, sizeof(raw));
            _exit(wr != (ssize_t)sizeof(raw));
        }
        close(fds[1]);
        const int saved = dup(0);
        dup2(fds[0], 0);
        close(fds[0]);
        CHECK(!ev_video_open(&v, "-", &raw8, err, sizeof(err)));
        dup2(saved, 0);
        close(saved);
        CHECK(v && !ev_video_mappable(v));
        EvPicture pic;
        EvVideoFrameMap *map = (EvVideoFrameMap *)&pic;
        CHECK(v && ev_video_read_mapped(v, &pic, &map) == 1 && !map && pic.width == 4);
        ev_video_close(&v);
        waitpid(pid, NULL, 0);
    }
}

/* ---------------------------------------------------------------------------------------- */
/* Found by fuzzing (tests/fuzz)                                                              */

#if defined(__SANITIZE_ADDRESS__)
#define IO_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IO_TEST_ASAN 1
#endif
#endif

/* A header promising 6 GiB frames in a 60-byte file: the first read says the frame is
 * truncated, without allocating the frame. Shown in a child whose address space is 1 GiB
 * (not under ASan, whose shadow memory needs more): before the fix, open failed there for
 * "out of memory for a 6442450944-byte frame". */
static int huge_header_child(const char *path)
{
#ifndef IO_TEST_ASAN
    const struct rlimit lim = { 1ul << 30, 1ul << 30 };
    if (setrlimit(RLIMIT_AS, &lim))
        return 2;
#endif
    char err[256];
    EvVideo *v = NULL;
    if (ev_video_open(&v, path, NULL, err, sizeof(err))) {
        printf("huge header: open: %s\n", err);
        return 1;
    }
    EvPicture pic;
    const int ret = ev_video_read(v, &pic);
    const int ok = ret == -EINVAL &&
                   strstr(ev_video_error(v), "frame 0 is truncated: got 10 of 6442450944 bytes");
    if (!ok)
        printf("huge header: read %d: %s\n", ret, ev_video_error(v));
    ev_video_close(&v);
    return !ok;
}

static void test_huge_header(void)
{
    static const char file[] = "YUV4MPEG2 W32768 H32768 C444p16\nFRAME\n0123456789";
    const char *path = write_fixture("huge.y4m", file, sizeof(file) - 1);
    fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0)
        _exit(huge_header_child(path));
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
          WEXITSTATUS(status) == 0);
}

/* The size of a regular y4m file counts its frames only when the FRAME lines are bare: here a
 * size that two parameterised FRAME lines happen to give is also three bare frames' (before
 * the fix, 3 was claimed and 2 read). W5 H2 4:2:2: frames of 22 bytes, 28 with "FRAME\n". */
static void test_frame_count_params(void)
{
    static const char head[] = "YUV4MPEG2 W5 H2 C422\n";
    static const char long_mark[] = "FRAME Ixxxxxxxxxxxxxxxxxxxxxxxxxx\n"; /* 34 = 6 + 28 */
    const char *const orders[2][2] = { { long_mark, "FRAME\n" }, { "FRAME\n", long_mark } };
    for (unsigned k = 0; k < 2; k++) {
        Bytes b = { 0 };
        put_str(&b, head);
        for (unsigned f = 0; f < 2; f++) {
            put_str(&b, orders[k][f]);
            put(&b, "0123456789012345678901", 22);
        }
        CHECK(b.len == strlen(head) + 3 * 28);
        const char *path = write_bytes("params.y4m", &b);
        EvVideo *v = NULL;
        unsigned long long n = 0;
        CHECK(ev_video_open(&v, path, NULL, NULL, 0) == 0);
        /* a first FRAME line with parameters: unknown; a bare one: 3, until the second line */
        const int known = ev_video_frame_count(v, &n) == 0;
        CHECK(k == 0 ? !known : known && n == 3);
        EvPicture pic;
        CHECK(ev_video_read(v, &pic) == 1 && ev_video_read(v, &pic) == 1);
        CHECK(ev_video_read(v, &pic) == 0);
        CHECK(ev_video_frame_count(v, &n) == -ENODATA);
        ev_video_close(&v);
    }
}

/* The entries of encoded input on y4m (every build): the pair, the options, the estimate. */
static void test_open_pair(void)
{
    const char *ref = EV_SOURCE_DIR "/testdata/sample_ref.y4m";
    const char *dis = EV_SOURCE_DIR "/testdata/sample_dis.y4m";
    char err[512];
    EvVideo *a = NULL, *b = NULL;
    CHECK(ev_video_open_pair(NULL, &b, ref, dis, NULL, err, sizeof(err)) == -EINVAL);
    CHECK(strstr(err, "ev_video_open_pair") != NULL);
    CHECK(ev_video_open_pair(&a, &b, ref, dis, NULL, err, sizeof(err)) == 0 && a && b);
    CHECK(!strcmp(ev_video_describe(a), "y4m") && !strcmp(ev_video_describe(b), "y4m"));
    unsigned long long n = 0, m = 0;
    CHECK(ev_video_frame_count(a, &n) == 0 && ev_video_frame_estimate(a, &m) == 0 && n == m);
    ev_video_close(&a);
    ev_video_close(&b);
    /* a missing distorted: both closed, the message names it */
    CHECK(ev_video_open_pair(&a, &b, ref, "nope.mp4", NULL, err, sizeof(err)) == -ENOENT);
    CHECK(!a && !b && strstr(err, "nope.mp4") != NULL);
    /* defaults: zeros (no raw format, no conversion, the CPU decoder) */
    EvVideoOptions o;
    memset(&o, 0xab, sizeof(o));
    ev_video_default_options(&o);
    CHECK(!o.raw && !o.convert_to && !o.scaler && o.decode_on == EV_DECODE_CPU);
    CHECK(!o.keep_on_device);
    CHECK(ev_video_can_decode() == (ev_video_decoder_libraries()[0] != 0));
}

/* Device frames (ev_video_read_device) are NVDEC's only: a y4m input, even opened with
 * keep_on_device, is not on the device, and reading it so is refused with its name. */
static void test_device_frames_refused(void)
{
    const char *ref = EV_SOURCE_DIR "/testdata/sample_ref.y4m";
    EvVideoOptions o;
    ev_video_default_options(&o);
    o.keep_on_device = 1;
    o.decode_on = EV_DECODE_NVDEC;
    EvVideo *v = NULL;
    char err[512];
    CHECK(ev_video_open_with(&v, ref, &o, err, sizeof(err)) == 0 && v);
    CHECK(!ev_video_on_device(v) && !ev_video_on_device(NULL));
    EvPicture pic;
    EvVideoDeviceFrame *f = (EvVideoDeviceFrame *)&pic; /* set to NULL by the call */
    CHECK(ev_video_read_device(v, &pic, &f) == -ENOTSUP && f == NULL);
    CHECK(strstr(ev_video_error(v), "sample_ref.y4m") != NULL &&
          strstr(ev_video_error(v), "not read into device memory") != NULL);
    CHECK(ev_video_read_device(NULL, &pic, &f) == -EINVAL);
    ev_video_release_device(NULL); /* NULL-safe */
    /* the host read still works after the refusal */
    CHECK(ev_video_read(v, &pic) == 1);
    ev_video_close(&v);
    /* EV_KEEP_ALL_FRAMES uploads encoded input only: y4m stays on the host */
    o.keep_on_device = EV_KEEP_ALL_FRAMES;
    o.decode_on = EV_DECODE_CPU;
    CHECK(ev_video_open_with(&v, ref, &o, err, sizeof(err)) == 0 && v);
    CHECK(ev_video_on_device(v) == 0 && ev_video_read(v, &pic) == 1);
    ev_video_close(&v);
    /* a value that is not an EvKeepOnDevice is refused, by name */
    o.keep_on_device = EV_KEEP_ALL_FRAMES + 1;
    CHECK(ev_video_open_with(&v, ref, &o, err, sizeof(err)) == -EINVAL && !v);
    CHECK(strstr(err, "keep_on_device 3") != NULL);
}

static void run_all(void)
{
    test_open_pair();
    test_device_frames_refused();
    test_raw_roundtrip();
    test_y4m_tags();
    test_y4m_by_name();
    test_open_errors();
    test_detection();
    test_y4m_header_errors();
    test_y4m_read_errors();
    test_stdin();
    test_skip();
    test_arguments();
    test_corpus();
    test_read_into();
    test_read_mapped();
    test_huge_header();
    test_frame_count_params();
    for (unsigned i = 0; i < n_created; i++)
        unlink(created[i]);
}

int main(void)
{
    if (check_in_tmp_dir(tmp_dir, sizeof(tmp_dir), "ev_io", run_all))
        return 1;
    return check_report("io");
}
