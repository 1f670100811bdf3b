/* Internal state of a video reader (include/exactvmaf/video.h), shared by the raw .yuv code in
 * video.c and the y4m header and FRAME-marker parser in y4m.c. */
#ifndef EV_IO_VIDEO_IO_H
#define EV_IO_VIDEO_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/log.h"
#include "exactvmaf/video.h"

/* Largest width or height accepted, from a y4m header or a caller's raw format. */
#define EV_VIDEO_MAX_DIM 32768u
/* "YUV4MPEG2": the bytes read at open to tell a y4m stream from raw */
#define Y4M_HEAD_BYTES 9u

struct EvVideo {
    FILE *f;     /* our own stream, also for "-" (over a dup of fd 0) */
    char *iobuf; /* setvbuf buffer of f; freed after fclose */
    char *name;  /* for messages: the path, or "stdin" for "-" */
    int is_y4m;
    EvVideoFormat fmt;
    /* Planes as stored in the file. Raw: as ev_pic_plane_size() sizes them. y4m: chroma rounded
     * up, as y4m writers (ffmpeg) store odd sizes; the picture shows the floor-sized part. */
    unsigned file_w[3], file_h[3];
    size_t plane_offset[3]; /* in frame, each a multiple of 64 */
    size_t frame_bytes;     /* sum of the file's plane bytes: what one frame reads */
    size_t frame_alloc;     /* bytes of frame: the planes at their offsets */
    uint8_t *frame;         /* one frame, allocated at the first ev_video_read */
    int regular;            /* a regular file: its size bounds what can be read */
    unsigned next_frame;    /* index of the frame the next read returns, from 0 */
    int status;             /* 0, or the negative code of a failure that ends reading */
    /* The first bytes, read to tell y4m from raw: the y4m parser starts from them; a raw
     * stream's first frame reads them before the rest (a pipe cannot seek back). */
    uint8_t head[Y4M_HEAD_BYTES];
    size_t head_len, head_pos;
    unsigned long long n_frames; /* frames in a regular file, when n_frames_known */
    int n_frames_known;
    EvVideoTags tags;          /* y4m F and I tags; an encoded input's frame rate */
    struct EvDecoder *dec;     /* encoded input (decode.c): NULL for y4m and raw */
    int mapping;               /* frames are read in place: map_at is the file offset */
    unsigned long long map_at; /* of the next frame (or its FRAME line), while mapping */
    char err[4608];
};

/* The calls of include/exactvmaf/video.h (video.c), which api/video.c exports, same contracts. */
int ev_io_video_open(EvVideo **out, const char *path, const EvVideoFormat *raw, char *err,
                     size_t err_size);
void ev_io_video_default_options(EvVideoOptions *o);
int ev_io_video_can_decode(void);
const char *ev_io_video_decoder_libraries(void);
int ev_io_video_open_with(EvVideo **out, const char *path, const EvVideoOptions *o, char *err,
                          size_t err_size);
int ev_io_video_open_pair(EvVideo **ref, EvVideo **dis, const char *ref_path, const char *dis_path,
                          const EvVideoOptions *o, char *err, size_t err_size);
int ev_io_video_frame_estimate(const EvVideo *v, unsigned long long *n);
const char *ev_io_video_describe(const EvVideo *v);
void ev_io_video_format(const EvVideo *v, EvVideoFormat *fmt);
int ev_io_video_read(EvVideo *v, EvPicture *pic);
int ev_io_video_read_into(EvVideo *v, const EvPicture *dst);
int ev_io_video_read_mapped(EvVideo *v, EvPicture *pic, EvVideoFrameMap **map);
void ev_io_video_unmap(EvVideoFrameMap *map);
int ev_io_video_mappable(const EvVideo *v);
int ev_io_video_on_device(const EvVideo *v);
int ev_io_video_read_device(EvVideo *v, EvPicture *pic, EvVideoDeviceFrame **frame);
void ev_io_video_release_device(EvVideoDeviceFrame *frame);
int ev_io_video_skip(EvVideo *v, unsigned n);
int ev_io_video_frame_count(const EvVideo *v, unsigned long long *n);
void ev_io_video_tags(const EvVideo *v, EvVideoTags *t);
const char *ev_io_video_error(const EvVideo *v);
void ev_io_video_close(EvVideo **v);

/* Store "<name>: <message>" as the last error (video_io.c). @return code, for `return ev_video_fail(...)`. */
int ev_video_fail(EvVideo *v, int code, const char *fmt, ...) EV_PRINTF(3, 4);

/* Read and parse the "YUV4MPEG2 ..." line at the start of v->f; set v->fmt.
 * @return 0, or a negative code with the message stored. */
int ev_y4m_read_header(EvVideo *v);

/* Read the "FRAME[ params]\n" line that precedes frame v->next_frame.
 * @return 1 read, 0 clean end of stream (no byte left), or a negative code. */
int ev_y4m_read_marker(EvVideo *v);

#endif
