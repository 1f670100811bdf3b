/*
 * The state of one encoded input, shared by decode.c (demuxing, decoding, the host conversion)
 * and decode_device.c (frames kept on the device: NVDEC's, unpacked and scaled by the twins),
 * which calls decode.c's steps below (never the other way).
 * Private to those two files and surface_copy.c; only in a build with libav* (EV_HAVE_FFMPEG).
 */
#ifndef EV_IO_DECODER_H
#define EV_IO_DECODER_H

#include "io/device_ring.h"
#include "io/libav.h" /* libav*'s headers; its calls through ev_libav */
#include "io/scale_twin.h"
#include "io/segments.h"
#include "io/video_io.h"

#include <pthread.h>

/* Frames a reader keeps decoded ahead on the device (decode_device.c). */
#define EV_DECODE_AHEAD 2

struct EvDecoder {
    AVFormatContext *fmt;
    AVIOContext *avio; /* standard input only: our reader over the stream */
    FILE *stream;
    uint8_t head[Y4M_HEAD_BYTES];
    size_t head_len, head_pos;
    AVCodecContext *codec; /* opened unless the stream is decoded in segments */
    int index;             /* the video stream */
    /* the stream decoded by several decoders at once (EvVideoOptions.decode_sessions): the
     * segments' threads read fmt, and the frames come from them */
    EvSegments *segments;
    const AVCodec *decoder; /* what the segments' decoders open, with threads each, */
    AVCodecParameters *par; /* ... from a copy of the stream's parameters */
    int threads;
    /* a segment decoder's stream for its copies of NVDEC's frames (surface_copy.c) */
    void *hold_stream[EV_SEGMENT_MAX_DECODERS];
    AVPacket *pkt;
    AVFrame *frame; /* the last decoded frame */
    AVFrame *out;   /* what the conversion reads: frame, or planar (NVDEC) */
    /* NVDEC: the device, its frame copied to the host, and laid out as software decoding */
    AVBufferRef *hw;
    AVFrame *sw, *planar;
    int on_gpu;         /* the decoder was given the CUDA device */
    int gpu_refused;    /* ... and chose a software format for this stream */
    int nvdec_required; /* EV_DECODE_NVDEC: no software fallback */
    AVFrame *scaled;    /* a converted frame for ev_decode_read() without a target */
    int pending;        /* frame holds a decoded frame not yet returned (read at open) */
    int flushing, ended;
    /* the conversion: NULL when frames are passed as decoded */
    struct SwsContext *sws;
    int sws_w, sws_h, sws_format, sws_range; /* the input it was made for */
    int sws_flags;
    char scaler[64]; /* the flags as given */
    int dst_format;  /* AVPixelFormat of v->fmt */
    int convert;     /* a target format was given */
    AVRational rate, time_base;
    int64_t first_pts;
    unsigned frames; /* returned so far */
    unsigned long long estimate;
    int has_estimate;
    char what[320];
    char what_now[400]; /* what, and the segments cut so far */
    /* frames kept on the device (EvVideoOptions.keep_on_device): decode_device.c */
    int keep_on_device; /* asked for (EvKeepOnDevice) */
    int primary_ctx;    /* NVDEC's device is the primary context (hw) */
    int on_device;      /* ev_video_on_device(): 1 the route below is set up, 2 every frame
                         * takes the host route and is uploaded (EV_KEEP_ALL_FRAMES) */
    unsigned gpu;
    EvDeviceRing *ring;
    void *gpu_stream;  /* the route's work: unpack, scale, upload */
    EvScaleTwin *twin; /* the size changes: the unpacked frame is scaled into the ring's */
    void *mid;         /* ... from this device frame at the decoded size */
    void *mid_plane[3];
    ptrdiff_t mid_pitch[3];
    int dev_w, dev_h, dev_sw_format; /* the decoded frames the route was made for */
    unsigned dev_bytes, dev_shift, dev_cw, dev_ch;
    int dev_semi;
    /* read-ahead: from the first ev_video_read_device() on, a thread of the reader decodes and
     * converts the next frames into the ring, EV_DECODE_AHEAD at most, so that decoding frame
     * n + 1 overlaps the caller's use of frame n (the decoder is then the thread's alone) */
    pthread_t ahead;
    pthread_mutex_t ahead_lock;
    pthread_cond_t ahead_cond;
    int ahead_started, ahead_stop, ahead_done, ahead_end; /* ahead_end: its last result (<= 0) */
    EvVideoDeviceFrame *ahead_queue[EV_DECODE_AHEAD];
    unsigned ahead_head, ahead_len;
};

/* decode.c's steps, which decode_device.c calls too. */

/* "<what>: <libav's reason>[ (<its last error line>)]" as the video's error. */
int ev_decoder_fail_av(EvVideo *v, int averr, const char *what);

/* The next decoded frame into d->frame (d->out: what the host conversion reads). A frame of
 * NVDEC stays in device memory when keep_device is 1, else it is copied to the host and
 * unpacked (ev_decoder_download). @return 1, 0 end of stream, or an error. */
int ev_decoder_next(EvVideo *v, struct EvDecoder *d, int keep_device);

/* d->frame (NVDEC's, in device memory) copied to the host and unpacked into d->planar. */
int ev_decoder_download(EvVideo *v, struct EvDecoder *d);

/* Replace f, a frame of NVDEC (one of its surfaces) that segment decoder k keeps, by a copy of
 * its own in the same frames context, on k's stream (surface_copy.c). @return 0, or a libav
 * error with why set. */
int ev_decoder_hold_surface(struct EvDecoder *d, unsigned k, AVFrame *f, char *why,
                            size_t why_size);
/* Close the streams of ev_decoder_hold_surface() (after the segments' threads ended). */
void ev_decoder_release_holds(struct EvDecoder *d);

/* d->out converted as the scale filter converts it (or passed through): into dst, or
 * described in *pic when dst is NULL. @return 0, or an error. */
int ev_decoder_deliver(EvVideo *v, struct EvDecoder *d, const EvPicture *dst, EvPicture *pic);

#endif
