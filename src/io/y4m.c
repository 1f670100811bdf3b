/* y4m (YUV4MPEG2) stream syntax: the header line and the FRAME line before each frame.
 * Behaviour learnt from Netflix libvmaf's tools/y4m_input.c and ffmpeg's y4m writer. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "io/decode.h"
#include "io/video_io.h"

#define Y4M_MAGIC "YUV4MPEG2"
#define Y4M_MAGIC_LEN 9
#define Y4M_MAX_LINE 1024 /* header or FRAME line; Netflix allows 255 and 79 */

/* Read the rest of a line into buf (NUL-terminated, '\n' dropped).
 * @return 1 a whole line, 0 end of stream first, -E2BIG longer than cap - 1, -EIO. */

/* A stream that is not y4m (and, in a build that decodes, no container either). */
static int not_y4m(EvVideo *v)
{
    return ev_video_fail(v, -EINVAL,
                         "%snot a y4m file (no YUV4MPEG2 header); raw .yuv needs "
                         "--width --height --pixel_format --bitdepth",
                         ev_decode_available() ? "not a video ffmpeg's libraries recognise, "
                                                 "and "
                                               : "");
}

static int read_line(FILE *f, char *buf, size_t cap, size_t *len)
{
    size_t n = 0;
    for (;;) {
        const int c = getc(f);
        if (c == EOF)
            return ferror(f) ? -EIO : 0;
        if (c == '\n')
            break;
        if (n == cap - 1)
            return -E2BIG;
        buf[n++] = (char)c;
    }
    buf[n] = '\0';
    *len = n;
    return 1;
}

/* A W or H value: decimal digits only, 1..EV_VIDEO_MAX_DIM. */
static int parse_dim(const char *s, size_t n, unsigned *out)
{
    unsigned long val = 0;
    if (n == 0 || n > 6)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        val = val * 10 + (unsigned long)(s[i] - '0');
    }
    if (val < 1 || val > EV_VIDEO_MAX_DIM)
        return -1;
    *out = (unsigned)val;
    return 0;
}

/* The C tag's value: 8-bit 420 (four chroma sitings, same layout), 422, 444, mono (gray,
 * 4:0:0), and <420|422|444>p<9..16> and mono<9..16>, the names ffmpeg writes (mono9, mono10,
 * mono12, mono16; mjpegtools' mono16 too). 411 and alpha are not read. */
static int parse_colour_space(const char *s, size_t n, EvVideoFormat *fmt)
{
    static const struct {
        const char *name;
        EvPixelLayout layout;
    } eight[] = {
        { "420", EV_PIX_420 },      { "420jpeg", EV_PIX_420 }, { "420mpeg2", EV_PIX_420 },
        { "420paldv", EV_PIX_420 }, { "422", EV_PIX_422 },     { "444", EV_PIX_444 },
        { "mono", EV_PIX_400 },
    };
    for (size_t i = 0; i < sizeof(eight) / sizeof(eight[0]); i++) {
        if (strlen(eight[i].name) == n && !memcmp(s, eight[i].name, n)) {
            fmt->layout = eight[i].layout;
            fmt->bitdepth = 8;
            return 0;
        }
    }
    static const struct {
        const char *base;
        EvPixelLayout layout;
    } deep[] = {
        { "420p", EV_PIX_420 },
        { "422p", EV_PIX_422 },
        { "444p", EV_PIX_444 },
        { "mono", EV_PIX_400 },
    };
    for (size_t i = 0; i < sizeof(deep) / sizeof(deep[0]); i++) {
        for (unsigned depth = 9; depth <= 16; depth++) {
            char name[16];
            const int len = snprintf(name, sizeof(name), "%s%u", deep[i].base, depth);
            if ((size_t)len == n && !memcmp(s, name, n)) {
                fmt->layout = deep[i].layout;
                fmt->bitdepth = depth;
                return 0;
            }
        }
    }
    return -1;
}

/* One header tag (its first byte is the tag letter). Only W, H and C change how the frames are
 * read. F and I are kept (ev_video_tags) but change nothing; A, X and unknown letters are
 * ignored, as Netflix ignores unknown ones; interlaced (I t/b/m) frames are read as the
 * progressive planes they are stored as. */
static int parse_tag(EvVideo *v, const char *tag, size_t n, int *got_w, int *got_h)
{
    const int shown = n > 40 ? 40 : (int)n;
    switch (tag[0]) {
    case 'W':
        if (parse_dim(tag + 1, n - 1, &v->fmt.width))
            return ev_video_fail(v, -EINVAL, "bad y4m header: width '%.*s' is not 1..%u", shown,
                                 tag, EV_VIDEO_MAX_DIM);
        *got_w = 1;
        return 0;
    case 'H':
        if (parse_dim(tag + 1, n - 1, &v->fmt.height))
            return ev_video_fail(v, -EINVAL, "bad y4m header: height '%.*s' is not 1..%u", shown,
                                 tag, EV_VIDEO_MAX_DIM);
        *got_h = 1;
        return 0;
    case 'C':
        if (parse_colour_space(tag + 1, n - 1, &v->fmt))
            return ev_video_fail(v, -EINVAL, "unsupported y4m colour space %.*s", shown, tag);
        return 0;
    case 'F': /* kept for the caller's comparisons; a malformed rate is left unknown */
        if (sscanf(tag + 1, "%u:%u", &v->tags.fps_num, &v->tags.fps_den) != 2 || !v->tags.fps_den ||
            !v->tags.fps_num)
            v->tags.fps_num = v->tags.fps_den = 0;
        return 0;
    case 'I': v->tags.interlace = n == 2 && strchr("ptbm?", tag[1]) ? tag[1] : '?'; return 0;
    default: return 0;
    }
}

static int parse_tags(EvVideo *v, const char *line, size_t len)
{
    int got_w = 0, got_h = 0;
    v->fmt.layout = EV_PIX_420; /* no C tag: 420jpeg */
    v->fmt.bitdepth = 8;
    for (size_t i = 0; i < len;) {
        if (line[i] == ' ') {
            i++;
            continue;
        }
        size_t n = 1;
        while (i + n < len && line[i + n] != ' ')
            n++;
        const int ret = parse_tag(v, line + i, n, &got_w, &got_h);
        if (ret)
            return ret;
        i += n;
    }
    if (!got_w)
        return ev_video_fail(v, -EINVAL, "bad y4m header: no W (width) tag");
    if (!got_h)
        return ev_video_fail(v, -EINVAL, "bad y4m header: no H (height) tag");
    return 0;
}

int ev_y4m_read_header(EvVideo *v)
{
    /* the magic's bytes were read at open (v->head), then the byte after them */
    char magic[Y4M_MAGIC_LEN + 1];
    memcpy(magic, v->head, v->head_len);
    size_t got = v->head_len;
    v->head_pos = v->head_len;
    if (got == Y4M_MAGIC_LEN)
        got += fread(magic + got, 1, 1, v->f);
    if (ferror(v->f))
        return ev_video_fail(v, -EIO, "read error: %s", strerror(errno));
    if (got == 0)
        return ev_video_fail(v, -EINVAL, "empty (0 bytes): no video in it");
    if (memcmp(magic, Y4M_MAGIC, got < Y4M_MAGIC_LEN ? got : Y4M_MAGIC_LEN))
        return not_y4m(v);
    if (got < sizeof(magic))
        return ev_video_fail(v, -EINVAL, "truncated y4m header (no end of line)");
    if (magic[Y4M_MAGIC_LEN] == '\n')
        return parse_tags(v, "", 0);
    if (magic[Y4M_MAGIC_LEN] != ' ')
        return not_y4m(v);
    char line[Y4M_MAX_LINE];
    size_t len = 0;
    const int ret = read_line(v->f, line, sizeof(line), &len);
    if (ret == -EIO)
        return ev_video_fail(v, -EIO, "read error: %s", strerror(errno));
    if (ret == -E2BIG)
        return ev_video_fail(v, -EINVAL, "bad y4m header: no end of line in the first %d bytes",
                             Y4M_MAX_LINE + Y4M_MAGIC_LEN);
    if (ret == 0)
        return ev_video_fail(v, -EINVAL, "truncated y4m header (no end of line)");
    for (size_t i = 0; i < len; i++) /* also keeps the messages, which quote tags, one line */
        if ((unsigned char)line[i] < 0x20 || line[i] == 0x7f)
            return ev_video_fail(v, -EINVAL, "bad y4m header: control byte 0x%02x at byte %zu",
                                 (unsigned)(unsigned char)line[i], i + Y4M_MAGIC_LEN + 1);
    return parse_tags(v, line, len);
}

int ev_y4m_read_marker(EvVideo *v)
{
    const unsigned idx = v->next_frame;
    char mark[6];
    const size_t got = fread(mark, 1, sizeof(mark), v->f);
    if (ferror(v->f))
        return ev_video_fail(v, -EIO, "frame %u: read error: %s", idx, strerror(errno));
    if (got == 0)
        return 0;
    if (memcmp(mark, "FRAME", got < 5 ? got : 5) || (got == 6 && mark[5] != '\n' && mark[5] != ' '))
        return ev_video_fail(v, -EINVAL, "frame %u: expected FRAME marker", idx);
    if (got < 6)
        return ev_video_fail(v, -EINVAL, "frame %u: truncated FRAME marker", idx);
    if (mark[5] == '\n')
        return 1;
    v->n_frames_known = 0;     /* the count assumed bare FRAME lines (count_y4m_frames) */
    char params[Y4M_MAX_LINE]; /* frame parameters: read past, not used */
    size_t len = 0;
    const int ret = read_line(v->f, params, sizeof(params), &len);
    if (ret == -EIO)
        return ev_video_fail(v, -EIO, "frame %u: read error: %s", idx, strerror(errno));
    if (ret == -E2BIG)
        return ev_video_fail(v, -EINVAL, "frame %u: FRAME line longer than %d bytes", idx,
                             Y4M_MAX_LINE + 5);
    if (ret == 0)
        return ev_video_fail(v, -EINVAL, "frame %u: truncated FRAME line (no end of line)", idx);
    return 1;
}
