/* Video input (io/video_io.h; the public calls in api/video.c): open a raw .yuv or y4m file or
 * standard input, check its size or header, and read frames into one buffer owned by the
 * reader, into the caller's picture, or (a regular file) in place, mapped. */
#define _DEFAULT_SOURCE 1 /* MAP_POPULATE (Linux) */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/picture.h"
#include "io/decode.h"
#include "io/device_ring.h"
#include "io/video_io.h"

#define IO_BUFFER_BYTES (1u << 20) /* stdio buffer: FRAME lines and small planes */
#define PLANE_ALIGN 64u

static unsigned bytes_per_sample(const EvVideo *v)
{
    return v->fmt.bitdepth > 8 ? 2 : 1;
}

/* Our own FILE, also for "-": a dup of fd 0, so that closing the reader leaves stdin open and
 * our setvbuf buffer never outlives the stream that uses it. */
static int open_stream(EvVideo *v, const char *path, struct stat *st)
{
    const int is_stdin = !strcmp(path, "-");
    v->name = strdup(is_stdin ? "stdin" : path);
    if (!v->name)
        return -ENOMEM;
    if (is_stdin) {
        const int fd = dup(STDIN_FILENO);
        v->f = fd < 0 ? NULL : fdopen(fd, "rb");
        if (!v->f && fd >= 0)
            close(fd);
    } else {
        v->f = fopen(path, "rb");
    }
    if (!v->f)
        return ev_video_fail(v, -ENOENT, "cannot open: %s", strerror(errno));
    if (fstat(fileno(v->f), st))
        return ev_video_fail(v, -ENOENT, "cannot open: %s", strerror(errno));
    if (S_ISDIR(st->st_mode))
        return ev_video_fail(v, -ENOENT, "cannot open: %s", strerror(EISDIR));
    v->iobuf = malloc(IO_BUFFER_BYTES);
    if (v->iobuf)
        setvbuf(v->f, v->iobuf, _IOFBF, IO_BUFFER_BYTES);
    return 0;
}

static int check_raw_format(EvVideo *v, const EvVideoFormat *raw)
{
    if (raw->bitdepth < 8 || raw->bitdepth > 16)
        return ev_video_fail(v, -EINVAL, "bad raw format: bitdepth %u is not 8..16", raw->bitdepth);
    if (raw->layout != EV_PIX_420 && raw->layout != EV_PIX_422 && raw->layout != EV_PIX_444 &&
        raw->layout != EV_PIX_400)
        return ev_video_fail(v, -EINVAL,
                             "bad raw format: pixel layout %d is not 420, 422, 444 or 400",
                             (int)raw->layout);
    if (raw->width < 1 || raw->width > EV_VIDEO_MAX_DIM || raw->height < 1 ||
        raw->height > EV_VIDEO_MAX_DIM)
        return ev_video_fail(v, -EINVAL, "bad raw format: size %ux%u is not 1..%u x 1..%u",
                             raw->width, raw->height, EV_VIDEO_MAX_DIM, EV_VIDEO_MAX_DIM);
    v->fmt = *raw;
    return 0;
}

/* Plane sizes as stored and their offsets in the frame buffer (allocated at the first read:
 * alloc_frame). */
static void set_geometry(EvVideo *v)
{
    const EvVideoFormat *fmt = &v->fmt;
    size_t offset = 0;
    v->frame_bytes = 0;
    for (unsigned p = 0; p < 3; p++) {
        ev_pic_plane_size(fmt->width, fmt->height, fmt->layout, p, &v->file_w[p], &v->file_h[p]);
        if (p && fmt->layout != EV_PIX_400) { /* y4m and raw files (ffmpeg's layout) store
                                                 odd chroma sizes rounded up; gray has none */
            v->file_w[p] = fmt->layout == EV_PIX_444 ? fmt->width : (fmt->width + 1) >> 1;
            v->file_h[p] = fmt->layout == EV_PIX_420 ? (fmt->height + 1) >> 1 : fmt->height;
        }
        /* < 2^31 each: both sides are at most EV_VIDEO_MAX_DIM = 2^15, times 2 bytes */
        const size_t bytes = (size_t)v->file_w[p] * v->file_h[p] * bytes_per_sample(v);
        v->plane_offset[p] = offset;
        offset += (bytes + PLANE_ALIGN - 1) / PLANE_ALIGN * PLANE_ALIGN;
        v->frame_bytes += bytes;
    }
    v->frame_alloc = offset;
}

/* The reader's frame buffer, at the first read that needs it: never for a header that promises
 * frames a regular file cannot hold (a 100-byte file saying 32768x32768 16-bit 4:4:4). */
static int alloc_frame(EvVideo *v)
{
    if (v->frame)
        return 0;
    v->frame = aligned_alloc(PLANE_ALIGN, v->frame_alloc);
    if (!v->frame)
        return ev_video_fail(v, -ENOMEM, "out of memory for a %zu-byte frame", v->frame_bytes);
    return 0;
}

/* A regular raw file must hold a whole number of frames, at least one. */
static int check_raw_size(EvVideo *v, const struct stat *st)
{
    const EvVideoFormat *fmt = &v->fmt;
    const unsigned long long size = (unsigned long long)st->st_size;
    if (size == 0)
        return ev_video_fail(v, -EINVAL, "no frames (empty file)");
    const unsigned long long left = size % v->frame_bytes;
    if (left)
        return ev_video_fail(v, -EINVAL,
                             "size %llu bytes is not a whole number of %zu-byte frames (%ux%u "
                             "%u-bit %s, chroma planes %ux%u as ffmpeg writes them): %llu bytes "
                             "left over",
                             size, v->frame_bytes, fmt->width, fmt->height, fmt->bitdepth,
                             ev_pic_layout_name(fmt->layout), v->file_w[1], v->file_h[1], left);
    v->n_frames = size / v->frame_bytes;
    v->n_frames_known = 1;
    return 0;
}

/* y4m or raw, by the stream's first bytes: "YUV4MPEG2" is y4m whatever the name or the raw
 * format given. The bytes read stay in v->head for the parser or the first raw frame. */
static int detect_y4m(EvVideo *v, const char *path, const EvVideoFormat *raw)
{
    v->head_len = fread(v->head, 1, Y4M_HEAD_BYTES, v->f);
    if (ferror(v->f))
        return ev_video_fail(v, -EIO, "read error: %s", strerror(errno));
    if (v->head_len == Y4M_HEAD_BYTES && !memcmp(v->head, "YUV4MPEG2", Y4M_HEAD_BYTES))
        return 1;
    if (!raw) /* the y4m parser says what is wrong with the header */
        return 1;
    (void)path;
    return 0;
}

/* A regular y4m file whose FRAME lines are all bare ("FRAME\n", as ffmpeg writes them) holds
 * (size - header) / (frame + 6) frames; any other size, or a first FRAME line with parameters,
 * leaves the count unknown (and a later one withdraws it: ev_y4m_read_marker). */
static int count_y4m_frames(EvVideo *v, const struct stat *st)
{
    const long header = ftell(v->f);
    if (header < 0 || (unsigned long long)st->st_size < (unsigned long long)header)
        return 0;
    char mark[6];
    const size_t got = fread(mark, 1, sizeof(mark), v->f);
    if (fseek(v->f, header, SEEK_SET))
        return ev_video_fail(v, -EIO, "seek error: %s", strerror(errno));
    if (got == sizeof(mark) && memcmp(mark, "FRAME\n", sizeof(mark)))
        return 0;
    const unsigned long long body = (unsigned long long)st->st_size - (unsigned long long)header;
    const unsigned long long per = v->frame_bytes + 6;
    if (body % per == 0) {
        v->n_frames = body / per;
        v->n_frames_known = 1;
    }
    return 0;
}

/* path ends in ".yuv" (any case). */
static int named_yuv(const char *path)
{
    const size_t n = strlen(path);
    if (n < 4)
        return 0;
    const char *e = path + n - 4;
    return e[0] == '.' && (e[1] | 0x20) == 'y' && (e[2] | 0x20) == 'u' && (e[3] | 0x20) == 'v';
}

/* Not y4m: a ".yuv" file with a raw format given is raw, not probed (probing needs libav*,
 * whose loading and a megabyte's probe cost more than scoring a short clip); else an encoded
 * file (recognised by its content, whatever raw says), an encoded stream on standard input when
 * no raw format is given, else raw. @return 1 encoded, 0 not. */
static int is_encoded(const EvVideo *v, const char *path, const EvVideoFormat *raw,
                      const struct stat *st)
{
    if (raw && named_yuv(path))
        return 0;
    if (!ev_decode_available())
        return 0;
    if (!strcmp(path, "-")) /* an empty stream: the y4m parser says so */
        return !raw && v->head_len > 0;
    return S_ISREG(st->st_mode) && ev_decode_probe_file(path);
}

static int setup(EvVideo *v, const char *path, const EvVideoOptions *o)
{
    const EvVideoFormat *raw = o->raw;
    struct stat st;
    int ret = open_stream(v, path, &st);
    if (ret)
        return ret;
    ret = detect_y4m(v, path, raw);
    if (ret < 0)
        return ret;
    v->is_y4m = ret;
    if (!(v->is_y4m && v->head_len == Y4M_HEAD_BYTES &&
          !memcmp(v->head, "YUV4MPEG2", Y4M_HEAD_BYTES)) &&
        is_encoded(v, path, raw, &st)) {
        v->is_y4m = 0;
        const int is_stdin = !strcmp(path, "-");
        ret = ev_decode_open(v, path, is_stdin ? (void *)v->f : NULL, v->head, v->head_len, o);
        if (!ret)
            ev_decode_setup_device(v); /* NVDEC's frames kept on the device, when asked */
        if (!ret && !is_stdin && o->decode_on == EV_DECODE_AUTO && o->keep_on_device &&
            ev_decode_by_nvdec(v) && ev_decode_on_device(v) != 1) {
            /* automatic, for the GPU: NVDEC only where its frames stay on the device (copied
             * to the host they come slower than libavcodec's threads give them) */
            ev_decode_close_device(v);
            ev_decode_close(&v->dec);
            v->err[0] = 0;
            EvVideoOptions cpu = *o;
            cpu.decode_on = EV_DECODE_CPU;
            ret = ev_decode_open(v, path, NULL, v->head, v->head_len, &cpu);
            if (!ret)
                ev_decode_setup_device(v); /* EV_KEEP_ALL_FRAMES: uploaded */
        }
        if (!ret || !raw)
            return ret;
        /* a raw file whose bytes happen to look like a container (a text format, no video
         * stream): read as the raw format given, as before encoded input existed */
        ev_decode_close(&v->dec);
        v->err[0] = 0;
        memset(&v->tags, 0, sizeof(v->tags));
    }
    ret = v->is_y4m ? ev_y4m_read_header(v) : check_raw_format(v, raw);
    if (ret)
        return ret;
    set_geometry(v);
    v->regular = S_ISREG(st.st_mode);
    if (!v->is_y4m && strcmp(path, "-") && S_ISREG(st.st_mode))
        return check_raw_size(v, &st);
    if (v->is_y4m && S_ISREG(st.st_mode))
        return count_y4m_frames(v, &st);
    return 0;
}

/* An open failure's line, for the caller's buffer (which may be NULL or small). */
static void open_error(char *err, size_t err_size, const char *fmt, ...) EV_PRINTF(3, 4);
static void open_error(char *const err, const size_t err_size, const char *const fmt, ...)
{
    if (!err || !err_size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_size, fmt, ap);
    va_end(ap);
}

void ev_io_video_default_options(EvVideoOptions *const o)
{
    if (o)
        memset(o, 0, sizeof(*o));
}

int ev_io_video_can_decode(void)
{
    return ev_decode_available();
}

const char *ev_io_video_decoder_libraries(void)
{
    return ev_decode_libraries();
}

int ev_io_video_open(EvVideo **const out, const char *const path, const EvVideoFormat *const raw,
                     char *const err, const size_t err_size)
{
    EvVideoOptions o;
    ev_io_video_default_options(&o);
    o.raw = raw;
    return ev_io_video_open_with(out, path, &o, err, err_size);
}

int ev_io_video_open_with(EvVideo **const out, const char *const path,
                          const EvVideoOptions *const opt, char *const err, const size_t err_size)
{
    EvVideoOptions defaults;
    ev_io_video_default_options(&defaults);
    const EvVideoOptions *const o = opt ? opt : &defaults;
    open_error(err, err_size, "%s", "");
    if (!out || !path) {
        open_error(err, err_size, "ev_video_open: no %s given", out ? "path" : "output pointer");
        return -EINVAL;
    }
    *out = NULL;
    if (o->keep_on_device > EV_KEEP_ALL_FRAMES) {
        open_error(err, err_size, "ev_video_open: keep_on_device %u is not an EvKeepOnDevice",
                   o->keep_on_device);
        return -EINVAL;
    }
    EvVideo *v = calloc(1, sizeof(*v));
    if (!v) {
        open_error(err, err_size, "%s: out of memory", path);
        return -ENOMEM;
    }
    const int ret = setup(v, path, o);
    if (ret) {
        if (v->err[0])
            open_error(err, err_size, "%s", v->err);
        else
            open_error(err, err_size, "%s: out of memory", path);
        ev_io_video_close(&v);
        return ret;
    }
    *out = v;
    return 0;
}

void ev_io_video_format(const EvVideo *const v, EvVideoFormat *const fmt)
{
    if (v && fmt)
        *fmt = v->fmt;
}

/* A regular file too short for the next frame: 1 it holds the frame (or is not regular), else
 * what read_planes_to would say after reading the rest, without reading it (or allocating it):
 * 0 a raw stream's clean end, or the truncation. The size is asked again (a growing file). */
static int check_remaining(EvVideo *v)
{
    if (!v->regular)
        return 1;
    struct stat st;
    const long pos = ftell(v->f);
    if (pos < 0 || fstat(fileno(v->f), &st))
        return 1;
    const unsigned long long at = (unsigned long long)pos - (v->head_len - v->head_pos);
    const unsigned long long size = (unsigned long long)st.st_size;
    const unsigned long long left = size > at ? size - at : 0;
    if (left >= v->frame_bytes)
        return 1;
    if (left == 0 && !v->is_y4m)
        return 0;
    return ev_video_fail(v, -EINVAL, "frame %u is truncated: got %llu of %zu bytes", v->next_frame,
                         left, v->frame_bytes);
}

/* Read one frame's planes, plane p into dst[p] with rows of the file's size (contiguous).
 * @return 1, 0 (raw: end of stream before the frame's first byte), or a negative code. y4m
 * calls this after a FRAME line, so there no byte at all is a truncation. */
static size_t read_bytes(EvVideo *v, uint8_t *dst, const size_t want)
{
    size_t got = 0;
    if (v->head_pos < v->head_len) { /* a raw stream's first bytes, read to detect y4m */
        got = v->head_len - v->head_pos < want ? v->head_len - v->head_pos : want;
        memcpy(dst, v->head + v->head_pos, got);
        v->head_pos += got;
    }
    return got + (got < want ? fread(dst + got, 1, want - got, v->f) : 0);
}

static int read_planes_to(EvVideo *v, uint8_t *const dst[3])
{
    const int room = check_remaining(v);
    if (room <= 0)
        return room;
    size_t total = 0;
    for (unsigned p = 0; p < 3; p++) {
        const size_t want = (size_t)v->file_w[p] * v->file_h[p] * bytes_per_sample(v);
        const size_t got = read_bytes(v, dst[p], want);
        total += got;
        if (got < want)
            break;
    }
    if (ferror(v->f))
        return ev_video_fail(v, -EIO, "frame %u: read error: %s", v->next_frame, strerror(errno));
    if (total == 0 && !v->is_y4m)
        return 0;
    if (total < v->frame_bytes)
        return ev_video_fail(v, -EINVAL, "frame %u is truncated: got %zu of %zu bytes",
                             v->next_frame, total, v->frame_bytes);
    return 1;
}

static int read_planes(EvVideo *v)
{
    int ret = check_remaining(v);
    if (ret <= 0)
        return ret;
    ret = alloc_frame(v);
    if (ret)
        return ret;
    uint8_t *const dst[3] = { v->frame + v->plane_offset[0], v->frame + v->plane_offset[1],
                              v->frame + v->plane_offset[2] };
    return read_planes_to(v, dst);
}

/* The picture shows each plane at its ev_pic_plane_size() size; the stride is the stored row.
 * 9..16-bit samples are passed on as read: values above 2^bitdepth - 1 are not checked. */
static void describe(const EvVideo *v, EvPicture *pic)
{
    memset(pic, 0, sizeof(*pic));
    pic->width = v->fmt.width;
    pic->height = v->fmt.height;
    pic->bitdepth = v->fmt.bitdepth;
    pic->layout = v->fmt.layout;
    for (unsigned p = 0; p < 3; p++) {
        pic->data[p] = v->file_w[p] ? v->frame + v->plane_offset[p] : NULL; /* 4:0:0 chroma */
        pic->stride[p] = (ptrdiff_t)v->file_w[p] * bytes_per_sample(v);
    }
}

static void sync_stream(EvVideo *v);

int ev_io_video_read(EvVideo *const v, EvPicture *const pic)
{
    if (!v || !pic)
        return -EINVAL;
    sync_stream(v);
    if (v->status)
        return v->status;
    if (v->dec) {
        const int got = ev_decode_read(v, NULL, pic);
        if (got < 0)
            v->status = got;
        if (got > 0)
            v->next_frame++;
        return got;
    }
    int ret = v->is_y4m ? ev_y4m_read_marker(v) : 1;
    if (ret > 0)
        ret = read_planes(v);
    if (ret < 0)
        v->status = ret;
    if (ret <= 0)
        return ret;
    describe(v, pic);
    v->next_frame++;
    return 1;
}

/* dst can take the file's planes as they are: same rows, each plane contiguous. */
static int direct_target(const EvVideo *v, const EvPicture *dst)
{
    for (unsigned p = 0; p < 3; p++) {
        unsigned w, h;
        ev_pic_plane_size(v->fmt.width, v->fmt.height, v->fmt.layout, p, &w, &h);
        if (w != v->file_w[p] || h != v->file_h[p] ||
            dst->stride[p] != (ptrdiff_t)w * bytes_per_sample(v))
            return 0;
    }
    return 1;
}

static void copy_rows(const EvPicture *src, const EvPicture *dst, unsigned bytes)
{
    for (unsigned p = 0; p < 3; p++) {
        unsigned w, h;
        ev_pic_plane_size(src->width, src->height, src->layout, p, &w, &h);
        for (unsigned y = 0; y < h; y++)
            memcpy((uint8_t *)dst->data[p] + (ptrdiff_t)y * dst->stride[p],
                   (const uint8_t *)src->data[p] + (ptrdiff_t)y * src->stride[p],
                   (size_t)w * bytes);
    }
}

int ev_io_video_read_into(EvVideo *const v, const EvPicture *const dst)
{
    if (!v || !dst)
        return -EINVAL;
    sync_stream(v);
    if (dst->width != v->fmt.width || dst->height != v->fmt.height ||
        dst->bitdepth != v->fmt.bitdepth || dst->layout != v->fmt.layout)
        return ev_video_fail(v, -EINVAL, "read_into: the picture's format is not the video's");
    if (v->dec) {
        if (v->status)
            return v->status;
        const int got = ev_decode_read(v, dst, NULL);
        if (got < 0)
            v->status = got;
        if (got > 0)
            v->next_frame++;
        return got;
    }
    if (!direct_target(v, dst)) {
        EvPicture pic;
        const int ret = ev_io_video_read(v, &pic);
        if (ret > 0)
            copy_rows(&pic, dst, bytes_per_sample(v));
        return ret;
    }
    if (v->status)
        return v->status;
    int ret = v->is_y4m ? ev_y4m_read_marker(v) : 1;
    uint8_t *const planes[3] = { (uint8_t *)dst->data[0], (uint8_t *)dst->data[1],
                                 (uint8_t *)dst->data[2] };
    if (ret > 0)
        ret = read_planes_to(v, planes);
    if (ret < 0)
        v->status = ret;
    if (ret > 0)
        v->next_frame++;
    return ret;
}

/* ---- frames read in place ------------------------------------------------------------------ */

#ifndef MAP_POPULATE
#define MAP_POPULATE 0 /* elsewhere the pages fault in as the workers read them */
#endif

int ev_io_video_on_device(const EvVideo *const v)
{
    return v && v->dec ? ev_decode_on_device(v) : 0;
}

int ev_io_video_read_device(EvVideo *const v, EvPicture *const pic,
                            EvVideoDeviceFrame **const frame)
{
    if (!v || !pic || !frame)
        return -EINVAL;
    *frame = NULL;
    if (!ev_io_video_on_device(v))
        return ev_video_fail(v, -ENOTSUP,
                             "its frames are not read into device memory "
                             "(EvVideoOptions.keep_on_device: %s)",
                             ev_io_video_describe(v));
    if (v->status)
        return v->status;
    const int got = ev_decode_read_device(v, pic, frame);
    if (got < 0)
        v->status = got;
    if (got > 0)
        v->next_frame++;
    return got;
}

void ev_io_video_release_device(EvVideoDeviceFrame *const frame)
{
    ev_device_ring_give(frame);
}

struct EvVideoFrameMap {
    void *base;
    size_t len;
};

int ev_io_video_mappable(const EvVideo *const v)
{
    return v && v->regular && !v->dec;
}

/* Map the frame_bytes at file offset `at` and describe them in *pic. 0, or -1 (nothing done). */
static int map_frame(EvVideo *v, const unsigned long long at, EvPicture *pic, EvVideoFrameMap **out)
{
    const long page = sysconf(_SC_PAGESIZE);
    if (page <= 0 || (bytes_per_sample(v) == 2 && (at & 1)))
        return -1;
    const unsigned long long start = at - at % (unsigned long long)page;
    const size_t len = (size_t)(at - start) + v->frame_bytes;
    EvVideoFrameMap *m = malloc(sizeof(*m));
    if (!m)
        return -1;
    m->base = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fileno(v->f), (off_t)start);
    if (m->base == MAP_FAILED) {
        free(m);
        return -1;
    }
    m->len = len;
    const uint8_t *frame = (const uint8_t *)m->base + (at - start);
    memset(pic, 0, sizeof(*pic));
    pic->width = v->fmt.width;
    pic->height = v->fmt.height;
    pic->bitdepth = v->fmt.bitdepth;
    pic->layout = v->fmt.layout;
    size_t off = 0;
    for (unsigned p = 0; p < 3; p++) {
        const size_t row = (size_t)v->file_w[p] * bytes_per_sample(v);
        pic->data[p] = v->file_w[p] ? (void *)(frame + off) : NULL;
        pic->stride[p] = (ptrdiff_t)row;
        off += row * v->file_h[p];
    }
    *out = m;
    return 0;
}

/* Mapped reading keeps its own file offset and leaves the stream alone (a seek on a stdio
 * stream refills its buffer: a copy of what the mapping avoids). Before any stream read the
 * stream is put back at that offset; a raw file's first bytes, read at open, are the file's
 * first bytes, so they need not be replayed. */
static void sync_stream(EvVideo *v)
{
    if (!v->mapping)
        return;
    v->mapping = 0;
    v->head_pos = v->head_len;
    if (fseeko(v->f, (off_t)v->map_at, SEEK_SET))
        v->status =
            ev_video_fail(v, -EIO, "frame %u: seek failed: %s", v->next_frame, strerror(errno));
}

/* A frame ev_io_video_read_mapped() does not map: read through the stream, as
 * ev_io_video_read() reads it (which also gives its end of stream and its refusals). */
static int read_unmapped(EvVideo *v, EvPicture *pic)
{
    sync_stream(v);
    return ev_io_video_read(v, pic);
}

int ev_io_video_read_mapped(EvVideo *const v, EvPicture *const pic, EvVideoFrameMap **const map)
{
    if (!v || !pic || !map)
        return -EINVAL;
    *map = NULL;
    if (!ev_io_video_mappable(v) || v->status)
        return ev_io_video_read(v, pic);
    if (!v->mapping) {
        const off_t pos = ftello(v->f);
        if (pos < 0)
            return ev_io_video_read(v, pic);
        v->map_at = (unsigned long long)pos - (v->head_len - v->head_pos);
        v->mapping = 1;
    }
    unsigned long long at = v->map_at;
    if (v->is_y4m) { /* a bare FRAME line is passed over here; any other through the stream */
        char mark[6];
        if (pread(fileno(v->f), mark, sizeof(mark), (off_t)at) != (ssize_t)sizeof(mark) ||
            memcmp(mark, "FRAME\n", sizeof(mark)))
            return read_unmapped(v, pic);
        at += sizeof(mark);
    }
    struct stat st;
    if (fstat(fileno(v->f), &st) || (unsigned long long)st.st_size < at + v->frame_bytes ||
        map_frame(v, at, pic, map))
        return read_unmapped(v, pic);
    v->map_at = at + v->frame_bytes;
    v->next_frame++;
    return 1;
}

void ev_io_video_unmap(EvVideoFrameMap *const map)
{
    if (!map)
        return;
    munmap(map->base, map->len);
    free(map);
}

int ev_io_video_skip(EvVideo *const v, const unsigned n)
{
    if (!v)
        return -EINVAL;
    for (unsigned i = 0; i < n; i++) {
        EvPicture pic;
        const int ret = ev_io_video_read(v, &pic);
        if (ret < 0)
            return ret;
        if (ret == 0)
            return ev_video_fail(v, -ENODATA,
                                 "cannot skip %u frames: the stream ends after %u frames", n,
                                 v->next_frame);
    }
    return 0;
}

int ev_io_video_frame_count(const EvVideo *const v, unsigned long long *const n)
{
    if (!v || !n || !v->n_frames_known)
        return -ENODATA;
    *n = v->n_frames;
    return 0;
}

int ev_io_video_frame_estimate(const EvVideo *const v, unsigned long long *const n)
{
    if (!v || !n)
        return -ENODATA;
    if (!ev_io_video_frame_count(v, n))
        return 0;
    return ev_decode_estimate(v, n);
}

const char *ev_io_video_describe(const EvVideo *const v)
{
    if (!v)
        return "";
    return v->dec ? ev_decode_describe(v) : v->is_y4m ? "y4m" : "raw";
}

int ev_io_video_open_pair(EvVideo **const ref, EvVideo **const dis, const char *const ref_path,
                          const char *const dis_path, const EvVideoOptions *const opt,
                          char *const err, const size_t err_size)
{
    if (!ref || !dis) {
        open_error(err, err_size, "ev_video_open_pair: no output pointer given");
        return -EINVAL;
    }
    *ref = *dis = NULL;
    EvVideoOptions o;
    ev_io_video_default_options(&o);
    if (opt)
        o = *opt;
    o.convert_to = NULL;
    int ret = ev_io_video_open_with(ref, ref_path, &o, err, err_size);
    if (ret)
        return ret;
    EvVideoFormat target;
    ev_io_video_format(*ref, &target);
    o.convert_to = &target;
    ret = ev_io_video_open_with(dis, dis_path, &o, err, err_size);
    if (ret)
        ev_io_video_close(ref);
    return ret;
}

void ev_io_video_tags(const EvVideo *const v, EvVideoTags *const t)
{
    if (v && t)
        *t = v->tags;
}

const char *ev_io_video_error(const EvVideo *const v)
{
    return v ? v->err : "";
}

void ev_io_video_close(EvVideo **const pv)
{
    if (!pv || !*pv)
        return;
    EvVideo *const v = *pv;
    ev_decode_close_device(v);
    ev_decode_close(&v->dec);
    if (v->f)
        fclose(v->f);
    free(v->iobuf);
    free(v->frame);
    free(v->name);
    free(v);
    *pv = NULL;
}
