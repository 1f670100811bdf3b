/* Encoded input (include/exactvmaf/video.h): any container and codec that libavformat and
 * libavcodec read, decoded in-process, each frame converted with libswscale as ffmpeg's
 * `scale` filter converts it. Built with libav* (cmake/ffmpeg.cmake, EV_HAVE_FFMPEG); without
 * them the calls below say so and the readers of video.c and y4m.c are all there is. */
#ifndef EV_IO_DECODE_H
#define EV_IO_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "exactvmaf/video.h"

typedef struct EvDecoder EvDecoder; /* the demuxer, the decoder and the scaler of one input */

/* 1 when this build reads encoded video. */
int ev_decode_available(void);

/* "libavformat A.B.C, libavcodec ..., libswscale ..., libavutil ..." as loaded, or "". */
const char *ev_decode_libraries(void);

/* Does the regular file at path start like a container libavformat knows (by its content,
 * not its name)? @return 1 yes, 0 no (or not a regular file, or no libav*). */
int ev_decode_probe_file(const char *path);

/* Open path (a file, or stdin when stream != NULL: its first head_len bytes were already read
 * into head) and fill v->fmt and v->tags. The converted format is o->convert_to when given,
 * else the decoded one. @return 0, or a negative code with v's error set. */
struct EvVideo;
int ev_decode_open(struct EvVideo *v, const char *path, void *stream, const uint8_t *head,
                   size_t head_len, const EvVideoOptions *o);

/* The next frame, converted: into dst when dst != NULL (v->fmt, writable planes), else
 * described in *pic (valid until the next read). @return 1, 0 end of stream, or an error. */
int ev_decode_read(struct EvVideo *v, const EvPicture *dst, EvPicture *pic);

/* 1 when v is decoded by NVDEC. */
int ev_decode_by_nvdec(const struct EvVideo *v);

/* decode_device.c, after ev_decode_open() with EvVideoOptions.keep_on_device: set up the route
 * that keeps NVDEC's frames on the device where it gives the host route's bits, or (with
 * EV_KEEP_ALL_FRAMES) the uploads of the host route's frames, and say in the description which
 * route the frames take. Nothing for other inputs. */
void ev_decode_setup_device(struct EvVideo *v);
/* Free the route's device state (its ring lives on until its last frame is back). */
void ev_decode_close_device(struct EvVideo *v);

/* ev_video_on_device(): 1 NVDEC's frames stay on the device, 2 the host route's are uploaded,
 * 0 v's frames are read into host memory (decode_device.c). */
int ev_decode_on_device(const struct EvVideo *v);

/* The next frame, converted, in a device frame of v's ring (ev_video_read_device()).
 * @return 1, 0 end of stream, or an error (-ENOTSUP: not on the device). */
int ev_decode_read_device(struct EvVideo *v, EvPicture *pic, EvVideoDeviceFrame **frame);

/* Frames the container says it holds (its frame count, or its duration times the frame
 * rate): an estimate for progress. @return 0 and *n, or -ENODATA. */
int ev_decode_estimate(const struct EvVideo *v, unsigned long long *n);

/* What was opened, e.g. "h264 960x540 yuv420p, scaled to 1920x1080 (bicubic)". */
const char *ev_decode_describe(const struct EvVideo *v);

void ev_decode_close(EvDecoder **d);

#endif
