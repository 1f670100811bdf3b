/*
 * exactvmaf video input: raw planar .yuv, .y4m, and (in a build with libav*, see
 * ev_video_can_decode()) any encoded video that ffmpeg's libraries read: mp4, mkv, webm, ivf,
 * ts, ... with H.264, HEVC, AV1, VP9, ... From a file or from standard input ("-").
 * Part of the public API so that the CLI and host programs read video the same way.
 *
 * Every failure leaves one line in ev_video_error() that names the file and the problem
 * (a missing file, a size that is not a whole number of frames, a bad y4m header or FRAME
 * marker, a truncated frame, an unsupported depth or layout, a corrupt or truncated stream,
 * no video stream, interlaced or variable-frame-rate video).
 *
 * Encoded video is decoded in-process (libavcodec, its own threads) and, when a target format
 * is given (EvVideoOptions.convert_to: ev_video_open_pair() gives the reference's), converted
 * with libswscale exactly as ffmpeg's `scale` filter converts it: the frames equal those of
 * `ffmpeg -i dis -vf scale=W:H:flags=bicubic,format=F -f yuv4mpegpipe -` on the same machine
 * (docs/INPUT.md).
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

/** Where encoded video is decoded. */
typedef enum EvDecodeOn {
    EV_DECODE_CPU = 0,   /**< libavcodec's software decoders */
    EV_DECODE_NVDEC = 1, /**< NVIDIA's NVDEC through libavcodec's CUDA hwaccel (the driver's
                              libnvcuvid, loaded at run time); an error when there is none or
                              the codec has no NVDEC path. The frames are NVDEC's, copied to host
                              memory (or kept on the device: keep_on_device) and laid out as the
                              software decoder lays them out (NV12 -> 4:2:0 planes, P010/P016 ->
                              10/12-bit samples): the same samples, since decoding is exactly
                              specified */
    EV_DECODE_AUTO = 2,  /**< NVDEC where it can decode the stream, else the CPU; with
                              keep_on_device, NVDEC only where its frames stay on the device
                              (ev_video_on_device() 1), else the CPU (whose frames
                              EV_KEEP_ALL_FRAMES uploads) */
} EvDecodeOn;

/** What EvVideoOptions.keep_on_device keeps in device memory. */
typedef enum EvKeepOnDevice {
    EV_KEEP_ON_HOST = 0,      /**< nothing: frames are read into host memory */
    EV_KEEP_NVDEC_FRAMES = 1, /**< NVDEC's frames, where the device converts them as the host */
    EV_KEEP_ALL_FRAMES = 2,   /**< NVDEC's frames so, and every other frame uploaded */
} EvKeepOnDevice;

/** How to open a video (ev_video_default_options() fills the defaults). */
typedef struct EvVideoOptions {
    /** Raw .yuv of this format when the stream is neither y4m nor a container libavformat
     *  recognises by its content (a file named *.yuv is then raw without probing); NULL: such
     *  a stream is an error. */
    const EvVideoFormat *raw;
    /** Encoded input only: convert every decoded frame to this size, depth and layout (a
     *  decoded frame already in it is passed as it is). NULL: frames as decoded. y4m and raw
     *  input are never converted. */
    const EvVideoFormat *convert_to;
    /** libswscale's flags for the conversion, as ffmpeg's scale filter takes them
     *  ("bicubic", "lanczos", "bilinear+accurate_rnd", ...). NULL: "bicubic". */
    const char *scaler;
    /** Decoder threads; 0: one per core for software decoding, one for a file NVDEC decodes
     *  (the GPU decodes; libavcodec's frame threads would only add start-up and surfaces). */
    unsigned decoder_threads;
    /** Where encoded input is decoded (EV_DECODE_CPU, the default, or NVDEC). */
    EvDecodeOn decode_on;
    /** CUDA device for EV_DECODE_NVDEC / EV_DECODE_AUTO. */
    unsigned gpu_index;
    /** Encoded input read into device memory with ev_video_read_device() (EvKeepOnDevice):
     *  EV_KEEP_NVDEC_FRAMES: NVDEC's frames may stay there (the conversion to convert_to done
     *  there, with libswscale's bits); EV_KEEP_ALL_FRAMES: that, and every other frame (decoded
     *  on the CPU, or a conversion the device does not do) converted on the host and uploaded,
     *  so that a pair decoded one stream by NVDEC and one by the CPU is on the device whole.
     *  The host reads work until the first device read. EV_KEEP_ON_HOST (0, the default): the
     *  frames are read into host memory. */
    unsigned keep_on_device;
    /** Encoded input only: decoders for the one stream, at most 8. 0 or 1: one. 2 or more: an
     *  HEVC or H.264 stream in MP4/MOV or Matroska is cut at its random-access points (HEVC
     *  IDR, BLA and CRA, H.264 IDR; segments of 24 packets or more) and the segments are
     *  decoded by that many decoders at once, each on a thread of its own, the frames handed
     *  out in order with the bits one decoder gives. For NVDEC: one session decodes on one of
     *  the GPU's engines, so a stream cut in segments keeps several busy. Other streams, and
     *  standard input, have one decoder. Software decoders get decoder_threads each. */
    unsigned decode_sessions;
    unsigned reserved_[3]; /**< zero */
} EvVideoOptions;

/** Defaults: no raw format, no conversion, bicubic, automatic threads. */
EV_API void ev_video_default_options(EvVideoOptions *o);

/** 1 when this build reads encoded video (built with libavformat/libavcodec/libswscale) and
 *  those libraries load here (the first call loads them). */
EV_API int ev_video_can_decode(void);

/** The libav* versions encoded input runs on, as loaded: "libavformat 59.27.100, libavcodec
 *  59.37.100, libswscale 6.7.100, libavutil 57.28.100"; "" without them. Static storage. */
EV_API const char *ev_video_decoder_libraries(void);

/**
 * Open a video with options (o NULL: the defaults). A stream that starts with "YUV4MPEG2" is
 * y4m; else a file named *.yuv is raw when o->raw is given; else one libavformat recognises by
 * its content is decoded; else it is raw when o->raw is given, and an error otherwise. libav*
 * is loaded (once per process) only to probe or decode. @return as ev_video_open().
 */
EV_API int ev_video_open_with(EvVideo **out, const char *path, const EvVideoOptions *o, char *err,
                              size_t err_size);

/**
 * Open a reference and a distorted video as a scoring pair: the reference as it is, the
 * distorted (when encoded) converted to the reference's size, depth and layout with o's
 * scaler. o->convert_to is ignored. On failure both are NULL and err names the file.
 * A y4m or raw distorted whose format is not the reference's is opened as it is (the caller
 * compares the formats). @return as ev_video_open().
 */
EV_API int ev_video_open_pair(EvVideo **ref, EvVideo **dis, const char *ref_path,
                              const char *dis_path, const EvVideoOptions *o, char *err,
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

/** One frame's pages of a file, mapped by ev_video_read_mapped(). */
typedef struct EvVideoFrameMap EvVideoFrameMap;

/**
 * Read the next frame in place: for a regular raw or y4m file (ev_video_mappable()), *pic's
 * planes are the file's own bytes, mapped read-only and prefaulted, with no copy; they stay
 * valid until ev_video_unmap(*map), which any thread may call, in any order, also after later
 * reads and after ev_video_close(). A frame that cannot be mapped (9..16-bit samples at an odd
 * offset in the file, or mmap refused) is read as ev_video_read() reads it, with *map NULL.
 * Other videos (pipes, encoded input) read as ev_video_read(), with *map NULL. The file must
 * not be truncated while a frame of it is mapped: reading a page past its new end raises
 * SIGBUS, which the library does not catch (the CLI does: tools/cli_guard.h). @return as
 * ev_video_read() (*map NULL unless 1 is returned).
 */
EV_API int ev_video_read_mapped(EvVideo *v, EvPicture *pic, EvVideoFrameMap **map);
/** Unmap a frame of ev_video_read_mapped(). NULL-safe. */
EV_API void ev_video_unmap(EvVideoFrameMap *map);
/** 1 when ev_video_read_mapped() reads v's frames in place (a regular raw or y4m file). */
EV_API int ev_video_mappable(const EvVideo *v);

/** A frame lent by ev_video_read_device(). */
typedef struct EvVideoDeviceFrame EvVideoDeviceFrame;

/**
 * Whether v's frames are read into device memory with ev_video_read_device(): 0 not; 1 encoded
 * input opened with keep_on_device, decoded by NVDEC, whose conversion (if any) the device does
 * with the bits libswscale gives on the host: the same size change in the same layout and
 * depth, 8 to 14 bits, bicubic, bilinear or lanczos (with accurate_rnd or bitexact, or
 * libswscale's x86 default 8-bit path on x86), no range conversion, an even target size
 * (docs/INPUT.md); 2 encoded input opened with EV_KEEP_ALL_FRAMES whose frames are decoded
 * on the CPU or converted on the host, then uploaded by the reader (the same bits as the host
 * reads). ev_video_describe() says which, and why.
 */
EV_API int ev_video_on_device(const EvVideo *v);

/**
 * Read the next frame into device memory: *pic describes it, its data[] device addresses in
 * the primary CUDA context of EvVideoOptions.gpu_index (the one ev_lend_device_pictures() uses
 * when EvSettings.cuda_context is NULL), rows packed, samples as exactvmaf.h lays them out;
 * the frame is complete when the call returns (no stream to wait on). It is the caller's until
 * ev_video_release_device(*frame), which any thread may call, also after ev_video_close(). The
 * reader owns a few such frames and waits in this call while all are lent; from the first such
 * call on, a thread of the reader decodes the next frames ahead into them, and the video is read
 * only so (ev_video_read() and the others then fail with -EBUSY). A frame the device cannot
 * convert (the stream changes size or range later) is converted on the host and uploaded: the
 * same bits.
 * @return as ev_video_read(); -ENOTSUP when ev_video_on_device(v) is 0.
 */
EV_API int ev_video_read_device(EvVideo *v, EvPicture *pic, EvVideoDeviceFrame **frame);

/** Give back a frame of ev_video_read_device(). NULL-safe. */
EV_API void ev_video_release_device(EvVideoDeviceFrame *frame);

/** Read and discard n frames. @return 0; -ENODATA if the stream ended first; or an error. */
EV_API int ev_video_skip(EvVideo *v, unsigned n);

/** Frames in the video, when known before reading: a regular raw file (its size), a regular y4m
 *  file whose FRAME lines carry no parameters (its size; the count is withdrawn when the first
 *  FRAME line, or a later one as it is read, has parameters). @return 0 and *n; -ENODATA
 *  unknown (a pipe). */
EV_API int ev_video_frame_count(const EvVideo *v, unsigned long long *n);

/** The frame rate and interlacing: the y4m header's tags, or the container's frame rate and
 *  'p' for encoded video (interlaced video is refused); zeros when absent, and for raw. */
typedef struct EvVideoTags {
    unsigned fps_num, fps_den; /**< F<num>:<den>; 0:0 when absent */
    char interlace;            /**< I<letter>: 'p', 't', 'b', 'm' or '?'; 0 when absent */
} EvVideoTags;

EV_API void ev_video_tags(const EvVideo *v, EvVideoTags *t);

/** Frames the video holds, exact when ev_video_frame_count() knows it, else the container's
 *  estimate (its frame count or duration times frame rate): for progress, not for pairing.
 *  @return 0 and *n; -ENODATA unknown. */
EV_API int ev_video_frame_estimate(const EvVideo *v, unsigned long long *n);

/** One line on what is read: "y4m", "raw", or e.g. "h264 960x540 yuv420p, scaled to
 *  1920x1080 yuv420p (bicubic)". Valid until close. */
EV_API const char *ev_video_describe(const EvVideo *v);

/** The last error, one line naming the file; "" if none. */
EV_API const char *ev_video_error(const EvVideo *v);

/** NULL-safe; sets *v = NULL. */
EV_API void ev_video_close(EvVideo **v);

#ifdef __cplusplus
}
#endif

#endif /* EXACTVMAF_VIDEO_H */
