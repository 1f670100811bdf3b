/*
 * exactvmaf video input: raw planar .yuv and .y4m, from a file or from standard input ("-").
 * Part of the public API so that the CLI and host programs read video the same way.
 *
 * Every failure leaves one line in ev_video_error() that names the file and the problem
 * (a missing file, a size that is not a whole number of frames, a bad y4m header or FRAME
 * marker, a truncated frame, an unsupported depth or layout).
 */
#ifndef EXACTVMAF_VIDEO_H
#define EXACTVMAF_VIDEO_H

#include "exactvmaf/exactvmaf.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Geometry of a video. For raw .yuv all four fields are given by the caller. */
typedef struct EvVideoFormat {
    unsigned width;
    unsigned height;
    unsigned bitdepth; /**< 8..16 */
    EvPixelLayout layout;
} EvVideoFormat;

typedef struct EvVideo EvVideo; /* opaque */

/**
 * Open a video. path "-" reads standard input. A stream that starts with "YUV4MPEG2" is read as
 * y4m whatever its name and raw; otherwise raw != NULL: raw planar YUV of that format (odd
 * chroma sizes rounded up, as ffmpeg writes them: a frame is w*h + 2*ceil(w/2)*ceil(h/2)
 * samples in 4:2:0); raw == NULL: an error (not y4m).
 * On failure *out is NULL and err (if not NULL) holds one line naming path and the problem.
 * @return 0, -ENOENT (cannot open), -EINVAL (bad header, size, format), -ENOMEM.
 */
EV_API int ev_video_open(EvVideo **out, const char *path, const EvVideoFormat *raw, char *err,
                         size_t err_size);

/** The video's format (from the y4m header, or the raw format given). */
EV_API void ev_video_format(const EvVideo *v, EvVideoFormat *fmt);

/**
 * Read the next frame into the reader's own buffer and describe it in *pic (valid until the
 * next read or close).
 * @return 1 a frame was read, 0 end of stream, or a negative code (ev_video_error() says why:
 *         truncated frame, bad FRAME marker, read error).
 */
EV_API int ev_video_read(EvVideo *v, EvPicture *pic);

/**
 * Read the next frame into the caller's picture dst (same format as the video; writable
 * planes, any stride), e.g. a slot from ev_borrow_pictures(): packed planes are filled by
 * the read itself, with no copy. @return as ev_video_read().
 */
EV_API int ev_video_read_into(EvVideo *v, const EvPicture *dst);

/** Read and discard n frames. @return 0; -ENODATA if the stream ended first; or an error. */
EV_API int ev_video_skip(EvVideo *v, unsigned n);

/** Frames in the video, when known before reading: a regular raw file (its size), a regular y4m
 *  file whose FRAME lines carry no parameters (its size; the count is withdrawn when the first
 *  FRAME line, or a later one as it is read, has parameters). @return 0 and *n; -ENODATA
 *  unknown (a pipe). */
EV_API int ev_video_frame_count(const EvVideo *v, unsigned long long *n);

/** The y4m header's frame rate and interlacing tags (zeros when absent, and for raw video). */
typedef struct EvVideoTags {
    unsigned fps_num, fps_den; /**< F<num>:<den>; 0:0 when absent */
    char interlace;            /**< I<letter>: 'p', 't', 'b', 'm' or '?'; 0 when absent */
} EvVideoTags;

EV_API void ev_video_tags(const EvVideo *v, EvVideoTags *t);

/** The last error, one line naming the file; "" if none. */
EV_API const char *ev_video_error(const EvVideo *v);

/** NULL-safe; sets *v = NULL. */
EV_API void ev_video_close(EvVideo **v);

#ifdef __cplusplus
}
#endif

#endif /* EXACTVMAF_VIDEO_H */
