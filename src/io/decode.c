/* Encoded input (io/decode.h): demux with libavformat, decode with libavcodec, convert with
 * libswscale set up as ffmpeg 5.1-7.1's `scale` filter sets it up (docs/INPUT.md says which of
 * its settings matter and why the frames equal the ffmpeg-pipe route's). */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/picture.h"
#include "io/decode.h"
#include "io/unpack_math.h"
#include "io/video_io.h"

#if !EV_HAVE_FFMPEG

int ev_decode_available(void)
{
    return 0;
}

const char *ev_decode_libraries(void)
{
    return "";
}

int ev_decode_probe_file(const char *const path)
{
    (void)path;
    return 0;
}

int ev_decode_open(EvVideo *const v, const char *const path, void *const stream,
                   const uint8_t *const head, const size_t head_len, const EvVideoOptions *const o)
{
    (void)path, (void)stream, (void)head, (void)head_len, (void)o;
    return ev_video_fail(v, -ENOTSUP,
                         "this build reads only y4m and raw video (built without "
                         "libavformat/libavcodec: EXACTVMAF_FFMPEG)");
}

int ev_decode_read(EvVideo *const v, const EvPicture *const dst, EvPicture *const pic)
{
    (void)dst, (void)pic;
    return ev_video_fail(v, -ENOTSUP, "no decoder in this build");
}

int ev_decode_estimate(const EvVideo *const v, unsigned long long *const n)
{
    (void)v, (void)n;
    return -ENODATA;
}

const char *ev_decode_describe(const EvVideo *const v)
{
    (void)v;
    return "";
}

int ev_decode_by_nvdec(const EvVideo *const v)
{
    (void)v;
    return 0;
}

void ev_decode_close(EvDecoder **const d)
{
    (void)d;
}

#else

#include "io/decoder.h"

#define PROBE_BYTES (1 << 20) /* what libavformat itself reads at most to recognise a file */
#define STDIN_IO_BYTES (1 << 16)
/* A frame whose timestamp is this many frame periods off the constant-rate grid is one ffmpeg's
 * constant-rate output (`-f yuv4mpegpipe`) would drop or duplicate: variable frame rate. */
#define VFR_PERIODS 1.1

/* libav's messages: none on stderr (the library never prints); the last error line of the
 * calling thread is kept for a failure's message. */
static _Thread_local char av_last_error[256];

/* The demuxers that said their file ends early (libavformat's Matroska demuxer warns "File
 * ended prematurely", its MP4/MOV demuxer says "partial file"), by their AVFormatContext: a
 * gap in the frames' timestamps is then a cut file, not a variable frame rate. A few at once
 * (the inputs of one process); an entry is dropped when its reader closes. */
#define CUT_SHORT_SLOTS 16
static pthread_mutex_t cut_short_lock = PTHREAD_MUTEX_INITIALIZER;
static const void *cut_short_fmt[CUT_SHORT_SLOTS];

static void cut_short_mark(const void *fmt)
{
    pthread_mutex_lock(&cut_short_lock);
    int free_slot = -1, seen = 0;
    for (int i = 0; i < CUT_SHORT_SLOTS && !seen; i++) {
        seen = cut_short_fmt[i] == fmt;
        if (!cut_short_fmt[i] && free_slot < 0)
            free_slot = i;
    }
    if (!seen && free_slot >= 0)
        cut_short_fmt[free_slot] = fmt;
    pthread_mutex_unlock(&cut_short_lock);
}

/* Did fmt's demuxer say its file ends early? forget: drop the entry. */
static int cut_short_seen(const void *fmt, const int forget)
{
    int seen = 0;
    pthread_mutex_lock(&cut_short_lock);
    for (int i = 0; i < CUT_SHORT_SLOTS; i++)
        if (fmt && cut_short_fmt[i] == fmt) {
            seen = 1;
            if (forget)
                cut_short_fmt[i] = NULL;
        }
    pthread_mutex_unlock(&cut_short_lock);
    return seen;
}

static void av_log_quiet(void *avcl, int level, const char *fmt, va_list ap)
{
    if (level > AV_LOG_WARNING)
        return;
    /* no "[h264 @ 0x...]" prefix: it names pointers, and an object that is only a class (an
     * option lookup) has no context to read */
    char line[256];
    int print_prefix = 0;
    av_log_format_line(NULL, level, fmt, ap, line, sizeof(line), &print_prefix);
    if (avcl && (strstr(line, "ended prematurely") || strstr(line, "partial file")))
        cut_short_mark(avcl);
    if (level > AV_LOG_ERROR)
        return;
    size_t n = strlen(line);
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        line[--n] = 0;
    if (n)
        snprintf(av_last_error, sizeof(av_last_error), "%s", line);
}

static void install_log(void)
{
    av_log_set_callback(av_log_quiet);
}

int ev_decoder_fail_av(EvVideo *v, const int averr, const char *what)
{
    char reason[AV_ERROR_MAX_STRING_SIZE] = "";
    av_strerror(averr, reason, sizeof(reason));
    const int code = averr == AVERROR(ENOMEM)   ? -ENOMEM
                     : averr == AVERROR(ENOENT) ? -ENOENT
                                                : -EINVAL;
    if (av_last_error[0])
        return ev_video_fail(v, code, "%s: %s (%s)", what, reason, av_last_error);
    return ev_video_fail(v, code, "%s: %s", what, reason);
}

int ev_decode_available(void)
{
    return !ev_libav_load();
}

static char libraries[160];

static void describe_libraries(void)
{
    if (ev_libav_load())
        return; /* "": not installed here */
    const unsigned v[4] = { avformat_version(), avcodec_version(), swscale_version(),
                            avutil_version() };
    snprintf(libraries, sizeof(libraries),
             "libavformat %u.%u.%u, libavcodec %u.%u.%u, libswscale %u.%u.%u, libavutil %u.%u.%u",
             AV_VERSION_MAJOR(v[0]), AV_VERSION_MINOR(v[0]), AV_VERSION_MICRO(v[0]),
             AV_VERSION_MAJOR(v[1]), AV_VERSION_MINOR(v[1]), AV_VERSION_MICRO(v[1]),
             AV_VERSION_MAJOR(v[2]), AV_VERSION_MINOR(v[2]), AV_VERSION_MICRO(v[2]),
             AV_VERSION_MAJOR(v[3]), AV_VERSION_MINOR(v[3]), AV_VERSION_MICRO(v[3]));
}

const char *ev_decode_libraries(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, describe_libraries);
    return libraries;
}

/* The picture layout of a decoded pixel format, when exactvmaf takes it as it is: planar YUV
 * 4:2:0/4:2:2/4:4:4 or gray, 8..16-bit little-endian, one sample per element (yuvj* too: the
 * same samples, full range). @return 1 and *f (size left to the caller), or 0. */
static int layout_of(const int pix_fmt, EvVideoFormat *f)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get((enum AVPixelFormat)pix_fmt);
    const uint64_t refused = AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_RGB |
                             AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_ALPHA |
                             AV_PIX_FMT_FLAG_BAYER | AV_PIX_FMT_FLAG_FLOAT;
    if (!d || (d->flags & refused) || (d->nb_components != 1 && d->nb_components != 3))
        return 0;
    const unsigned depth = d->comp[0].depth, bytes = depth > 8 ? 2 : 1;
    if (depth < 8 || depth > 16)
        return 0;
    for (unsigned c = 0; c < d->nb_components; c++)
        if (d->comp[c].plane != (int)c || d->comp[c].step != (int)bytes || d->comp[c].offset ||
            d->comp[c].shift || d->comp[c].depth != (int)depth)
            return 0;
    if (d->nb_components == 1)
        f->layout = EV_PIX_400;
    else if (d->log2_chroma_w == 1 && d->log2_chroma_h == 1)
        f->layout = EV_PIX_420;
    else if (d->log2_chroma_w == 1 && d->log2_chroma_h == 0)
        f->layout = EV_PIX_422;
    else if (d->log2_chroma_w == 0 && d->log2_chroma_h == 0)
        f->layout = EV_PIX_444;
    else
        return 0;
    f->bitdepth = depth;
    return 1;
}

/* The pixel format of a picture format: yuv420p, yuv422p10le, gray12le, ... or
 * AV_PIX_FMT_NONE (a depth libav has no format for, like 11). */
static int pix_fmt_of(const EvVideoFormat *f)
{
    static const char *const base[] = { [EV_PIX_420] = "yuv420p",
                                        [EV_PIX_422] = "yuv422p",
                                        [EV_PIX_444] = "yuv444p",
                                        [EV_PIX_400] = "gray" };
    if (f->layout < EV_PIX_420 || f->layout > EV_PIX_400)
        return AV_PIX_FMT_NONE;
    char name[32];
    if (f->bitdepth == 8)
        snprintf(name, sizeof(name), "%s", base[f->layout]);
    else if (f->layout == EV_PIX_400)
        snprintf(name, sizeof(name), "gray%ule", f->bitdepth);
    else
        snprintf(name, sizeof(name), "%s%ule", base[f->layout], f->bitdepth);
    return av_get_pix_fmt(name);
}

/* The container libavformat recognises in the file's first megabyte, by content only (no
 * filename, so that rawvideo's ".yuv" never matches); NULL when none is likely. */
static const AVInputFormat *probe_container(const char *const path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct stat st;
    uint8_t *buf = NULL;
    const AVInputFormat *fmt = NULL;
    if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode) &&
        (buf = calloc(1, PROBE_BYTES + AVPROBE_PADDING_SIZE))) {
        const size_t n = fread(buf, 1, PROBE_BYTES, f);
        AVProbeData pd = { .filename = "", .buf = buf, .buf_size = (int)n };
        int score = 0;
        fmt = av_probe_input_format3(&pd, 1, &score);
        if (score <= AVPROBE_SCORE_MAX / 4)
            fmt = NULL;
    }
    free(buf);
    fclose(f);
    return fmt;
}

int ev_decode_probe_file(const char *const path)
{
    return !ev_libav_load() && probe_container(path);
}

/* Standard input through our stream: the bytes read to look for "YUV4MPEG2" come first. */
static int read_stdin(void *opaque, uint8_t *buf, int size)
{
    EvDecoder *d = opaque;
    size_t got = 0;
    if (d->head_pos < d->head_len) {
        got = d->head_len - d->head_pos < (size_t)size ? d->head_len - d->head_pos : (size_t)size;
        memcpy(buf, d->head + d->head_pos, got);
        d->head_pos += got;
    }
    if (got < (size_t)size)
        got += fread(buf + got, 1, (size_t)size - got, d->stream);
    if (got == 0)
        return ferror(d->stream) ? AVERROR(EIO) : AVERROR_EOF;
    return (int)got;
}

/* A file libavformat recognised but could not open: a container cut short or damaged (a
 * Matroska file of headers only, say), named as the probe named it; libavformat's own line
 * (offsets in the file) says nothing more to a user where the reason is the end of the file. */
static int open_failed(EvVideo *v, const int averr, const char *path)
{
    const AVInputFormat *fmt = path ? probe_container(path) : NULL;
    if (!fmt)
        return ev_decoder_fail_av(v, averr, "not y4m, and not a video ffmpeg's libraries read");
    const char *name = fmt->long_name ? fmt->long_name : fmt->name;
    if (averr == AVERROR_EOF || averr == AVERROR_INVALIDDATA || averr == AVERROR(EIO)) {
        const char *why = averr == AVERROR_EOF           ? "the file ends inside them"
                          : averr == AVERROR_INVALIDDATA ? "invalid data"
                                                         : "a read past what the file holds";
        return ev_video_fail(v, -EINVAL,
                             "%s, cut short or damaged: libavformat cannot read its headers (%s)",
                             name, why);
    }
    char what[192];
    snprintf(what, sizeof(what), "%s that libavformat cannot open", name);
    return ev_decoder_fail_av(v, averr, what);
}

static int open_input(EvVideo *v, EvDecoder *d, const char *path)
{
    d->fmt = avformat_alloc_context();
    if (!d->fmt)
        return ev_video_fail(v, -ENOMEM, "out of memory");
    if (d->stream) {
        uint8_t *iobuf = av_malloc(STDIN_IO_BYTES);
        d->avio =
            iobuf ? avio_alloc_context(iobuf, STDIN_IO_BYTES, 0, d, read_stdin, NULL, NULL) : NULL;
        if (!d->avio) {
            av_free(iobuf);
            return ev_video_fail(v, -ENOMEM, "out of memory");
        }
        d->fmt->pb = d->avio;
        d->fmt->flags |= AVFMT_FLAG_CUSTOM_IO;
    }
    int ret = avformat_open_input(&d->fmt, d->stream ? "" : path, NULL, NULL);
    if (ret < 0)
        return open_failed(v, ret, d->stream ? NULL : path);
    ret = avformat_find_stream_info(d->fmt, NULL);
    if (ret < 0)
        return ev_decoder_fail_av(v, ret, "cannot read the streams");
    return 0;
}

/* libavcodec's choice of output format: CUDA frames when offered, else the software format
 * (the stream is one NVDEC cannot decode: a profile, depth or size beyond it). */
static enum AVPixelFormat choose_format(const enum AVPixelFormat *offered)
{
    for (const enum AVPixelFormat *p = offered; *p != AV_PIX_FMT_NONE; p++)
        if (*p == AV_PIX_FMT_CUDA)
            return *p;
    for (const enum AVPixelFormat *p = offered; *p != AV_PIX_FMT_NONE; p++) {
        const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(*p);
        if (desc && !(desc->flags & AV_PIX_FMT_FLAG_HWACCEL))
            return *p;
    }
    return AV_PIX_FMT_NONE;
}

/* The reader's own decoder: the choice, and whether NVDEC was refused. */
static enum AVPixelFormat pick_format(AVCodecContext *ctx, const enum AVPixelFormat *offered)
{
    EvDecoder *d = ctx->opaque;
    const enum AVPixelFormat f = choose_format(offered);
    d->gpu_refused = f != AV_PIX_FMT_CUDA;
    return f;
}

/* A segment decoder's (on its thread: the reader learns the choice from the first frame's
 * format). */
static enum AVPixelFormat pick_segment_format(AVCodecContext *ctx,
                                              const enum AVPixelFormat *offered)
{
    (void)ctx;
    return choose_format(offered);
}

static int has_cuda_path(const AVCodec *codec)
{
    const AVCodecHWConfig *cfg;
    for (int i = 0; (cfg = avcodec_get_hw_config(codec, i)); i++)
        if (cfg->device_type == AV_HWDEVICE_TYPE_CUDA &&
            (cfg->methods & AV_CODEC_HW_CONFIG_METHOD_HW_DEVICE_CTX))
            return 1;
    return 0;
}

/* A decoder of the codec with libavcodec's CUDA hwaccel: the default one, or another for the
 * same codec (Debian's default AV1 decoder is libdav1d; its native one decodes through NVDEC). */
static const AVCodec *cuda_decoder(const AVCodec *def)
{
    if (has_cuda_path(def))
        return def;
    void *it = NULL;
    const AVCodec *c;
    while ((c = av_codec_iterate(&it)))
        if (av_codec_is_decoder(c) && c->id == def->id && has_cuda_path(c))
            return c;
    return NULL;
}

/* The decoders a stream cut in segments would have (decode_sessions, at most
 * EV_SEGMENT_MAX_DECODERS). */
static unsigned segment_decoders(const EvVideoOptions *o)
{
    const unsigned n = o->decode_sessions ? o->decode_sessions : 1;
    return n > EV_SEGMENT_MAX_DECODERS ? EV_SEGMENT_MAX_DECODERS : n;
}

/* The CUDA device for NVDEC. @return the decoder to open (codec, or its CUDA-capable twin), or
 * NULL with v's error set when NVDEC is required and cannot be had. */
static const AVCodec *setup_nvdec(EvVideo *v, EvDecoder *d, const AVCodec *codec,
                                  const EvVideoOptions *o)
{
    d->nvdec_required = o->decode_on == EV_DECODE_NVDEC;
    const AVCodec *gpu = cuda_decoder(codec);
    if (!gpu) {
        if (d->nvdec_required)
            ev_video_fail(v, -ENOTSUP, "NVDEC: this libavcodec has no CUDA decoder for %s",
                          avcodec_get_name(codec->id));
        return d->nvdec_required ? NULL : codec;
    }
    char device[16];
    snprintf(device, sizeof(device), "%u", o->gpu_index);
    /* frames kept on the device are read by the engine's twins: in the primary context of the
     * device, which the engine uses too (ffmpeg's hwcontext_cuda refuses it when it is already
     * active with other flags than its own: then a context of its own, frames to the host).
     * So are the frames segment decoders copy (surface_copy.c): NVDEC maps a frame on the
     * context's legacy default stream, and only in the same context does the copy on a stream
     * of ours wait for it (in another, a copy read frames not yet mapped, one in ~150) */
    int ret = -1;
    if (o->keep_on_device || segment_decoders(o) >= 2) {
        AVDictionary *opts = NULL;
        av_dict_set(&opts, "primary_ctx", "1", 0);
        ret = av_hwdevice_ctx_create(&d->hw, AV_HWDEVICE_TYPE_CUDA, device, opts, 0);
        av_dict_free(&opts);
        d->primary_ctx = ret >= 0;
        av_last_error[0] = 0;
    }
    if (ret < 0)
        ret = av_hwdevice_ctx_create(&d->hw, AV_HWDEVICE_TYPE_CUDA, device, NULL, 0);
    if (ret < 0) {
        if (d->nvdec_required)
            ev_decoder_fail_av(v, ret, "NVDEC: cannot open CUDA device");
        av_last_error[0] = 0;
        return d->nvdec_required ? NULL : codec;
    }
    d->on_gpu = 1;
    return gpu;
}

/* libavcodec's threads for d: EvVideoOptions.decoder_threads, else one per core (0), but one
 * for a file NVDEC decodes. There the GPU decodes and frame threads only parse ahead, while
 * each adds decode surfaces and start-up: on the H100 host a 4K HEVC decoder opened in
 * 0.055-0.1 s with one thread and 0.09-0.2 s with 16, and a ladder of seven streams decoded no
 * slower. A file NVDEC then refuses at its first frame is opened again on the CPU
 * (ev_decode_open); a pipe cannot be, so it keeps one thread per core. */
static int decoder_threads(const EvDecoder *d, const EvVideoOptions *o)
{
    if (o->decoder_threads)
        return (int)o->decoder_threads;
    return d->on_gpu && !d->stream ? 1 : 0;
}

/* The streams whose headers name a codec: none in a file cut inside them (an mp4 cut in its
 * moov atom has a stream of unknown kind and codec, or none). */
static unsigned known_streams(const AVFormatContext *fmt)
{
    unsigned n = 0;
    for (unsigned i = 0; i < fmt->nb_streams; i++)
        n += fmt->streams[i]->codecpar->codec_id != AV_CODEC_ID_NONE;
    return n;
}

/* A decoder context for d's stream (opened by the caller): the hardware device and the format
 * choice for NVDEC (segment: a segment decoder's), the stream's time base, d's threads. */
static int set_up_context(EvDecoder *d, AVCodecContext **out, const int segment)
{
    AVCodecContext *c = *out = avcodec_alloc_context3(d->decoder);
    if (!c)
        return AVERROR(ENOMEM);
    int ret = avcodec_parameters_to_context(c, d->par);
    if (ret < 0)
        return ret;
    c->pkt_timebase = d->time_base;
    if (d->on_gpu) {
        c->hw_device_ctx = av_buffer_ref(d->hw);
        if (!c->hw_device_ctx)
            return AVERROR(ENOMEM);
        c->opaque = segment ? NULL : d;
        c->get_format = segment ? pick_segment_format : pick_format;
    }
    c->thread_count = d->threads;
    return 0;
}

/* EvSegmentsOpen: called on a segment decoder's thread (d is read, not written). */
static int open_segment_decoder(void *opaque, AVCodecContext **codec)
{
    EvDecoder *d = opaque;
    const int ret = set_up_context(d, codec, 1);
    return ret < 0 ? ret : avcodec_open2(*codec, d->decoder, NULL);
}

/* EvSegmentsHold: NVDEC's frames are its surfaces: copied (software frames are reference
 * counted buffers of their own). */
static int hold_frame(void *opaque, const unsigned k, AVFrame *f, char *why, const size_t why_size)
{
    return f->format == AV_PIX_FMT_CUDA ? ev_decoder_hold_surface(opaque, k, f, why, why_size) : 0;
}

static const char *thread_log(void)
{
    return av_last_error;
}

/* One decoded frame's bytes in the stream's format (the bound of the segments' queues). */
static size_t frame_bytes(const AVCodecParameters *par)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(par->format);
    const size_t luma =
        (size_t)(par->width > 0 ? par->width : 0) * (size_t)(par->height > 0 ? par->height : 0);
    if (!desc)
        return 2 * luma;
    const size_t bytes = desc->comp[0].depth > 8 ? 2 : 1;
    return bytes * (luma + 2 * (luma >> (desc->log2_chroma_w + desc->log2_chroma_h)));
}

static int open_decoder(EvVideo *v, EvDecoder *d, const EvVideoOptions *o)
{
    const AVCodec *codec = NULL;
    d->index = av_find_best_stream(d->fmt, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (d->index == AVERROR_STREAM_NOT_FOUND && !known_streams(d->fmt))
        return ev_video_fail(v, -EINVAL,
                             "no video stream: its %s headers describe no stream (cut short or "
                             "damaged?)",
                             d->fmt->iformat->long_name ? d->fmt->iformat->long_name
                                                        : d->fmt->iformat->name);
    if (d->index == AVERROR_STREAM_NOT_FOUND)
        return ev_video_fail(v, -EINVAL, "no video stream");
    if (d->index < 0 || !codec) {
        int any = -1;
        for (unsigned i = 0; i < d->fmt->nb_streams && any < 0; i++)
            if (d->fmt->streams[i]->codecpar->codec_type == AVMEDIA_TYPE_VIDEO)
                any = (int)i;
        const enum AVCodecID id =
            any >= 0 ? d->fmt->streams[any]->codecpar->codec_id : AV_CODEC_ID_NONE;
        if (id == AV_CODEC_ID_NONE) /* a stream whose headers were cut before its codec */
            return ev_video_fail(v, -EINVAL,
                                 "the video stream names no codec: its headers are cut short or "
                                 "damaged");
        return ev_video_fail(v, -EINVAL, "unsupported codec %s: this ffmpeg has no decoder for it",
                             avcodec_get_name(id));
    }
    AVStream *st = d->fmt->streams[d->index];
    const int fo = st->codecpar->field_order;
    if (fo == AV_FIELD_TT || fo == AV_FIELD_BB || fo == AV_FIELD_TB || fo == AV_FIELD_BT)
        return ev_video_fail(v, -EINVAL,
                             "interlaced video is not supported: deinterlace it first (ffmpeg "
                             "-vf bwdif or yadif)");
    if (o->decode_on != EV_DECODE_CPU && !(codec = setup_nvdec(v, d, codec, o)))
        return -ENOTSUP;
    d->decoder = codec;
    d->threads = decoder_threads(d, o);
    d->time_base = st->time_base;
    d->par = avcodec_parameters_alloc(); /* the segments' demuxer may update st's own */
    int ret = d->par ? avcodec_parameters_copy(d->par, st->codecpar) : AVERROR(ENOMEM);
    if (!ret)
        ret = set_up_context(d, &d->codec, 0);
    if (ret == AVERROR(ENOMEM))
        return ev_video_fail(v, -ENOMEM, "out of memory");
    if (ret < 0)
        return ev_decoder_fail_av(v, ret, "cannot set up the decoder");
    /* NVDEC's segment decoders only in the engine's (primary) context, where their copies are
     * ordered (setup_nvdec) */
    const unsigned sessions = segment_decoders(o);
    const int in_segments = sessions >= 2 && !d->stream && (!d->on_gpu || d->primary_ctx) &&
                            ev_segments_usable(d->fmt, d->index);
    if (!in_segments) {
        ret = avcodec_open2(d->codec, codec, NULL);
        if (ret < 0)
            return ev_decoder_fail_av(v, ret, "cannot open the decoder");
    }
    d->rate = av_guess_frame_rate(d->fmt, st, NULL);
    d->first_pts = AV_NOPTS_VALUE;
    if (st->nb_frames > 0) {
        d->estimate = (unsigned long long)st->nb_frames;
        d->has_estimate = 1;
    } else if (d->rate.num > 0 && d->rate.den > 0) {
        const double secs = st->duration != AV_NOPTS_VALUE ? st->duration * av_q2d(st->time_base)
                            : d->fmt->duration != AV_NOPTS_VALUE
                                ? d->fmt->duration / (double)AV_TIME_BASE
                                : -1.0;
        if (secs > 0) {
            d->estimate = (unsigned long long)(secs * av_q2d(d->rate) + 0.5);
            d->has_estimate = 1;
        }
    }
    d->pkt = av_packet_alloc();
    d->frame = av_frame_alloc();
    d->scaled = av_frame_alloc();
    d->sw = av_frame_alloc();
    d->planar = av_frame_alloc();
    if (!d->pkt || !d->frame || !d->scaled || !d->sw || !d->planar)
        return ev_video_fail(v, -ENOMEM, "out of memory");
    if (in_segments) { /* from now on the demuxer's thread alone reads fmt */
        ret = ev_segments_start(&d->segments, d->fmt, d->index, sessions, frame_bytes(d->par),
                                open_segment_decoder, hold_frame, thread_log, d);
        if (ret)
            return ev_video_fail(v, ret, "cannot start the segment decoders: %s", strerror(-ret));
    }
    return 0;
}

/* Copy a row of n samples, each shifted right: the MSB-aligned samples of P010/P016 (and the
 * 16-bit planar formats NVDEC gives for 4:4:4) as the software decoder's LSB-aligned ones
 * (unpack_math.h, shared with the device unpack). */
static void copy_row(uint8_t *dst, const uint8_t *src, unsigned n, unsigned bytes, unsigned shift)
{
    if (bytes == 1 || !shift) {
        memcpy(dst, src, (size_t)n * bytes);
        return;
    }
    uint16_t *d = (uint16_t *)dst;
    for (unsigned x = 0; x < n; x++)
        d[x] = ev_unpack_sample16((const uint16_t *)src, x, shift);
}

/* Split a row of interleaved chroma pairs (NV12, P010, P016: U first) into two rows. */
static void split_row(uint8_t *u, uint8_t *v, const uint8_t *src, unsigned n, unsigned bytes,
                      unsigned shift)
{
    if (bytes == 1) {
        for (unsigned x = 0; x < n; x++) {
            u[x] = ev_unpack_pair8(src, x, 0);
            v[x] = ev_unpack_pair8(src, x, 1);
        }
        return;
    }
    uint16_t *du = (uint16_t *)u, *dv = (uint16_t *)v;
    for (unsigned x = 0; x < n; x++) {
        du[x] = ev_unpack_pair16((const uint16_t *)src, x, 0, shift);
        dv[x] = ev_unpack_pair16((const uint16_t *)src, x, 1, shift);
    }
}

/* d->sw (NVDEC's layout) into d->planar, in the format the software decoder gives
 * (codec->sw_pix_fmt; in segments, whose decoders are the threads', the stream's format, as
 * libavformat read it): the same samples, planes apart and LSB-aligned. */
static int unpack(EvVideo *v, EvDecoder *d)
{
    const AVFrame *in = d->sw;
    AVFrame *out = d->planar;
    const int fmt = d->segments ? d->par->format : d->codec->sw_pix_fmt;
    const AVPixFmtDescriptor *id = av_pix_fmt_desc_get(in->format);
    const AVPixFmtDescriptor *od = av_pix_fmt_desc_get(fmt);
    if (!id || !od || od->nb_components != 3 || id->nb_components != 3)
        return ev_video_fail(v, -ENOTSUP, "NVDEC gave %s frames for a %s stream",
                             av_get_pix_fmt_name(in->format), av_get_pix_fmt_name(fmt));
    if (out->format != fmt || out->width != in->width || out->height != in->height) {
        av_frame_unref(out);
        out->format = fmt;
        out->width = in->width;
        out->height = in->height;
        const int ret = av_frame_get_buffer(out, 0);
        if (ret < 0)
            return ev_decoder_fail_av(v, ret, "out of memory");
    }
    const unsigned bytes = od->comp[0].depth > 8 ? 2 : 1;
    const unsigned in_bits = (unsigned)(id->comp[0].depth + id->comp[0].shift);
    const unsigned shift = in_bits > (unsigned)od->comp[0].depth ? in_bits - od->comp[0].depth : 0;
    const int semi = id->comp[1].plane == id->comp[2].plane;
    const unsigned cw = (unsigned)AV_CEIL_RSHIFT(in->width, od->log2_chroma_w);
    const unsigned ch = (unsigned)AV_CEIL_RSHIFT(in->height, od->log2_chroma_h);
    for (int y = 0; y < in->height; y++)
        copy_row(out->data[0] + (ptrdiff_t)y * out->linesize[0],
                 in->data[0] + (ptrdiff_t)y * in->linesize[0], (unsigned)in->width, bytes, shift);
    for (unsigned y = 0; y < ch; y++) {
        uint8_t *u = out->data[1] + (ptrdiff_t)y * out->linesize[1];
        uint8_t *w = out->data[2] + (ptrdiff_t)y * out->linesize[2];
        if (semi)
            split_row(u, w, in->data[1] + (ptrdiff_t)y * in->linesize[1], cw, bytes, shift);
        else {
            copy_row(u, in->data[1] + (ptrdiff_t)y * in->linesize[1], cw, bytes, shift);
            copy_row(w, in->data[2] + (ptrdiff_t)y * in->linesize[2], cw, bytes, shift);
        }
    }
    av_frame_copy_props(out, d->frame);
    d->out = out;
    return 1;
}

/* An NVDEC frame: copied to host memory (its layout), then unpacked. */
int ev_decoder_download(EvVideo *v, EvDecoder *d)
{
    av_frame_unref(d->sw);
    const int ret = av_hwframe_transfer_data(d->sw, d->frame, 0);
    if (ret < 0)
        return ev_decoder_fail_av(v, ret, "NVDEC: cannot copy the frame from the device");
    return unpack(v, d);
}

/* A decoding error: NVDEC lacking the stream (ENOSYS: libavcodec found no usable hardware
 * path, e.g. AV1 on a GPU whose NVDEC has none), or a corrupt stream. */
static int decode_failed(EvVideo *v, const EvDecoder *d, const int averr)
{
    if (d->on_gpu && averr == AVERROR(ENOSYS))
        return ev_decoder_fail_av(v, -ENOTSUP,
                                  "NVDEC cannot decode this stream on this GPU (use the CPU "
                                  "decoder)");
    return ev_decoder_fail_av(v, averr, "corrupt stream: decoding failed");
}

/* The next frame of the segments' decoders into d->frame. @return 1, 0 end, or an error. */
static int next_of_segments(EvVideo *v, EvDecoder *d)
{
    char why[sizeof(av_last_error)];
    int demux;
    const int ret = ev_segments_next(d->segments, d->frame, why, sizeof(why), &demux);
    if (ret == 0)
        return d->ended = 1, 0;
    if (ret < 0) {
        snprintf(av_last_error, sizeof(av_last_error), "%s", why);
        return demux ? ev_decoder_fail_av(v, ret, "read error") : decode_failed(v, d, ret);
    }
    if (d->on_gpu && !d->frames) /* libavcodec's choice, as pick_format records it */
        d->gpu_refused = d->frame->format != AV_PIX_FMT_CUDA;
    return 1;
}

/* The next frame of d's own decoder into d->frame. @return 1, 0 end, or an error. */
static int next_decoded(EvVideo *v, EvDecoder *d)
{
    for (;;) {
        int ret = avcodec_receive_frame(d->codec, d->frame);
        if (ret >= 0)
            return 1;
        if (ret == AVERROR_EOF)
            return d->ended = 1, 0;
        if (ret != AVERROR(EAGAIN))
            return decode_failed(v, d, ret);
        if (d->flushing)
            return d->ended = 1, 0;
        ret = av_read_frame(d->fmt, d->pkt);
        if (ret == AVERROR_EOF) {
            d->flushing = 1;
            ret = avcodec_send_packet(d->codec, NULL);
            if (ret < 0 && ret != AVERROR_EOF)
                return decode_failed(v, d, ret);
            continue;
        }
        if (ret < 0)
            return ev_decoder_fail_av(v, ret, "read error");
        if (d->pkt->stream_index == d->index)
            ret = avcodec_send_packet(d->codec, d->pkt);
        av_packet_unref(d->pkt);
        if (ret < 0 && ret != AVERROR(EAGAIN))
            return decode_failed(v, d, ret);
    }
}

int ev_decoder_next(EvVideo *v, EvDecoder *d, const int keep_device)
{
    const int got = d->segments ? next_of_segments(v, d) : next_decoded(v, d);
    if (got == 0 && cut_short_seen(d->fmt, 0)) /* a truncated file is bad input, not a short one */
        return ev_video_fail(
            v, -EINVAL, "cut short or damaged: the file ends early, after %u frames", d->frames);
    if (got <= 0)
        return got;
    const unsigned n = d->frames;
    if ((d->frame->flags & AV_FRAME_FLAG_CORRUPT) || d->frame->decode_error_flags)
        return ev_video_fail(v, -EINVAL, "frame %u is corrupt (the decoder concealed errors%s%s)",
                             n, av_last_error[0] ? ": " : "", av_last_error);
#if LIBAVUTIL_VERSION_INT >= AV_VERSION_INT(58, 7, 100)
    const int interlaced = !!(d->frame->flags & AV_FRAME_FLAG_INTERLACED);
#else
    const int interlaced = d->frame->interlaced_frame;
#endif
    if (interlaced)
        return ev_video_fail(v, -EINVAL,
                             "frame %u is interlaced: deinterlace the video first (ffmpeg -vf "
                             "bwdif or yadif)",
                             n);
    /* constant frame rate, as ffmpeg's y4m output makes it: a frame off the grid is one it
     * would drop or duplicate */
    const int64_t pts = d->frame->best_effort_timestamp;
    if (pts != AV_NOPTS_VALUE && d->rate.num > 0 && d->rate.den > 0) {
        if (d->first_pts == AV_NOPTS_VALUE)
            d->first_pts = pts;
        const double at = (double)(pts - d->first_pts) * av_q2d(d->time_base) * av_q2d(d->rate);
        if (fabs(at - (double)n) > VFR_PERIODS && cut_short_seen(d->fmt, 0))
            return ev_video_fail(v, -EINVAL,
                                 "cut short or damaged: the file ends early, and frames are "
                                 "missing before frame %u (%.2f frames off the %d/%d fps grid at "
                                 "%.3f s)",
                                 n, at - (double)n, d->rate.num, d->rate.den,
                                 (double)(pts - d->first_pts) * av_q2d(d->time_base));
        if (fabs(at - (double)n) > VFR_PERIODS)
            return ev_video_fail(v, -EINVAL,
                                 "variable frame rate: frame %u is at %.3f s, %.2f frames off "
                                 "the %d/%d fps grid; convert to a constant rate first (ffmpeg "
                                 "-vf fps=%d/%d)",
                                 n, (double)(pts - d->first_pts) * av_q2d(d->time_base),
                                 at - (double)n, d->rate.num, d->rate.den, d->rate.num,
                                 d->rate.den);
    }
    d->out = d->frame;
    if (d->frame->format == AV_PIX_FMT_CUDA)
        return keep_device ? 1 : ev_decoder_download(v, d);
    if (d->on_gpu && d->gpu_refused && d->nvdec_required)
        return ev_video_fail(v, -ENOTSUP,
                             "NVDEC cannot decode this stream (%s %dx%d %s): use the CPU decoder",
                             avcodec_get_name(d->codec->codec_id), d->frame->width,
                             d->frame->height, av_get_pix_fmt_name(d->frame->format));
    return 1;
}

/* A scaler for the decoded frame's size, format and range, set as ffmpeg's scale filter sets it
 * (libavfilter/vf_scale.c config_props, not interlaced): the flags, the default parameters,
 * the frame's range as the source range, MPEG-2 chroma siting for 8-bit 4:2:0 on either side,
 * and as many slice threads as cores. */
static int make_scaler(EvVideo *v, EvDecoder *d)
{
    const AVFrame *in = d->out;
    if (d->sws && d->sws_w == in->width && d->sws_h == in->height && d->sws_format == in->format &&
        d->sws_range == (int)in->color_range)
        return 0;
    sws_freeContext(d->sws);
    d->sws = sws_alloc_context();
    if (!d->sws)
        return ev_video_fail(v, -ENOMEM, "out of memory");
    struct SwsContext *s = d->sws;
    av_opt_set_int(s, "srcw", in->width, 0);
    av_opt_set_int(s, "srch", in->height, 0);
    av_opt_set_int(s, "src_format", in->format, 0);
    av_opt_set_int(s, "dstw", v->fmt.width, 0);
    av_opt_set_int(s, "dsth", v->fmt.height, 0);
    av_opt_set_int(s, "dst_format", d->dst_format, 0);
    av_opt_set_int(s, "sws_flags", d->sws_flags, 0);
    av_opt_set_double(s, "param0", SWS_PARAM_DEFAULT, 0);
    av_opt_set_double(s, "param1", SWS_PARAM_DEFAULT, 0);
    av_opt_set_int(s, "threads", 0, 0); /* one per core */
    if (in->color_range != AVCOL_RANGE_UNSPECIFIED)
        av_opt_set_int(s, "src_range", in->color_range == AVCOL_RANGE_JPEG, 0);
    av_opt_set_int(s, "src_h_chr_pos", -513, 0);
    av_opt_set_int(s, "src_v_chr_pos", in->format == AV_PIX_FMT_YUV420P ? 128 : -513, 0);
    av_opt_set_int(s, "dst_h_chr_pos", -513, 0);
    av_opt_set_int(s, "dst_v_chr_pos", d->dst_format == AV_PIX_FMT_YUV420P ? 128 : -513, 0);
    const int ret = sws_init_context(s, NULL, NULL);
    if (ret < 0) {
        sws_freeContext(d->sws);
        d->sws = NULL;
        return ev_decoder_fail_av(v, ret, "cannot convert the frames");
    }
    d->sws_w = in->width;
    d->sws_h = in->height;
    d->sws_format = in->format;
    d->sws_range = (int)in->color_range;
    return 0;
}

/* Per frame, as the scale filter does: the colour details from the frame's matrix ("auto")
 * and range, the destination's range left as the scaler has it. */
static void set_colour_details(EvDecoder *d)
{
    const AVFrame *in = d->out;
    int *inv_table, *table, in_full, out_full, brightness, contrast, saturation;
    sws_getColorspaceDetails(d->sws, &inv_table, &in_full, &table, &out_full, &brightness,
                             &contrast, &saturation);
    int cs = in->colorspace;
    if (cs < 1 || cs > 10 || cs == 8)
        cs = AVCOL_SPC_BT470BG;
    const int *coefs = sws_getCoefficients(cs);
    if (in->color_range != AVCOL_RANGE_UNSPECIFIED)
        in_full = in->color_range == AVCOL_RANGE_JPEG;
    sws_setColorspaceDetails(d->sws, coefs, in_full, coefs, out_full, brightness, contrast,
                             saturation);
}

static void no_free(void *opaque, uint8_t *data)
{
    (void)opaque, (void)data;
}

/* Does the decoded frame go out as it is (the scale filter's pass-through)? */
static int passes_through(const EvVideo *v, const EvDecoder *d)
{
    const AVFrame *in = d->out;
    if (!d->convert)
        return 1;
    return in->width == (int)v->fmt.width && in->height == (int)v->fmt.height &&
           in->format == d->dst_format;
}

/* Copy the frame's planes, at the picture's plane sizes, into dst. */
static void copy_planes(const EvVideo *v, const AVFrame *src, const EvPicture *dst)
{
    const unsigned bytes = v->fmt.bitdepth > 8 ? 2 : 1;
    for (unsigned p = 0; p < 3; p++) {
        unsigned w, h;
        ev_pic_plane_size(v->fmt.width, v->fmt.height, v->fmt.layout, p, &w, &h);
        if (w && h)
            av_image_copy_plane((uint8_t *)dst->data[p], (int)dst->stride[p], src->data[p],
                                src->linesize[p], (int)(w * bytes), (int)h);
    }
}

static void describe_frame(const EvVideo *v, const AVFrame *f, EvPicture *pic)
{
    memset(pic, 0, sizeof(*pic));
    pic->width = v->fmt.width;
    pic->height = v->fmt.height;
    pic->bitdepth = v->fmt.bitdepth;
    pic->layout = v->fmt.layout;
    for (unsigned p = 0; p < 3; p++)
        if (p == 0 || v->fmt.layout != EV_PIX_400) {
            pic->data[p] = f->data[p];
            pic->stride[p] = f->linesize[p];
        }
}

/* Convert d->frame into dst (or into d->scaled when dst is NULL or cannot take the scaler's
 * output: odd sizes, whose chroma libswscale rounds up). */
static int convert(EvVideo *v, EvDecoder *d, const EvPicture *dst, EvPicture *pic)
{
    int ret = make_scaler(v, d);
    if (ret)
        return ret;
    set_colour_details(d);
    const int even = !(v->fmt.width & 1) && !(v->fmt.height & 1);
    AVFrame *out = d->scaled;
    AVFrame *wrap = NULL;
    if (dst && (even || v->fmt.layout == EV_PIX_444 || v->fmt.layout == EV_PIX_400)) {
        wrap = av_frame_alloc();
        if (!wrap)
            return ev_video_fail(v, -ENOMEM, "out of memory");
        wrap->format = d->dst_format;
        wrap->width = (int)v->fmt.width;
        wrap->height = (int)v->fmt.height;
        for (unsigned p = 0; p < 3; p++) {
            wrap->data[p] = (uint8_t *)dst->data[p];
            wrap->linesize[p] = (int)dst->stride[p];
        }
        wrap->buf[0] = av_buffer_create((uint8_t *)dst->data[0], 1, no_free, NULL, 0);
        if (!wrap->buf[0]) {
            av_frame_free(&wrap);
            return ev_video_fail(v, -ENOMEM, "out of memory");
        }
        out = wrap;
    } else if (!out->buf[0]) {
        out->format = d->dst_format;
        out->width = (int)v->fmt.width;
        out->height = (int)v->fmt.height;
        ret = av_frame_get_buffer(out, 0);
        if (ret < 0)
            return ev_decoder_fail_av(v, ret, "out of memory");
    }
    ret = sws_scale_frame(d->sws, out, d->out);
    av_frame_free(&wrap);
    if (ret < 0)
        return ev_decoder_fail_av(v, ret, "cannot convert the frames");
    if (out == d->scaled) {
        if (dst)
            copy_planes(v, out, dst);
        else
            describe_frame(v, out, pic);
    }
    return 0;
}

int ev_decode_read(EvVideo *const v, const EvPicture *const dst, EvPicture *const pic)
{
    EvDecoder *d = v->dec;
    if (d->ahead_started) /* the decoder is decode_device.c's read-ahead thread's now */
        return ev_video_fail(v, -EBUSY,
                             "its frames are read on the device (ev_video_read_device) from its "
                             "first such read on");
    int ret = 1;
    if (d->pending)
        d->pending = 0;
    else if (d->ended)
        ret = 0;
    else {
        av_frame_unref(d->frame);
        ret = ev_decoder_next(v, d, 0);
    }
    if (ret <= 0)
        return ret;
    ret = ev_decoder_deliver(v, d, dst, pic);
    if (ret)
        return ret;
    d->frames++;
    return 1;
}

int ev_decoder_deliver(EvVideo *v, EvDecoder *d, const EvPicture *dst, EvPicture *pic)
{
    int ret = 0;
    if (!passes_through(v, d)) {
        ret = convert(v, d, dst, pic);
    } else if (d->out->width != (int)v->fmt.width || d->out->height != (int)v->fmt.height ||
               d->out->format != d->dst_format) {
        ret = ev_video_fail(v, -EINVAL, "frame %u is %dx%d %s, not %ux%u %s as the first one",
                            d->frames, d->out->width, d->out->height,
                            av_get_pix_fmt_name(d->out->format), v->fmt.width, v->fmt.height,
                            av_get_pix_fmt_name(d->dst_format));
    } else if (dst) {
        copy_planes(v, d->out, dst);
    } else {
        describe_frame(v, d->out, pic);
    }
    return ret;
}

static int parse_scaler(EvVideo *v, EvDecoder *d, const char *scaler)
{
    const char *spec = scaler && *scaler ? scaler : "bicubic";
    const AVClass *cls = sws_get_class();
    const AVOption *opt = av_opt_find(&cls, "sws_flags", NULL, 0, AV_OPT_SEARCH_FAKE_OBJ);
    if (!opt || av_opt_eval_flags(&cls, opt, spec, &d->sws_flags) < 0)
        return ev_video_fail(v, -EINVAL,
                             "unknown scaler '%s' (libswscale flags: bicubic, bilinear, "
                             "lanczos, spline, area, neighbor, gauss, sinc, bicublin, "
                             "fast_bilinear, experimental; with +accurate_rnd, +full_chroma_int)",
                             spec);
    snprintf(d->scaler, sizeof(d->scaler), "%s", spec);
    return 0;
}

/* v->fmt from the first frame (decoded now, kept for the first read) or the target format. */
static int set_format(EvVideo *v, EvDecoder *d, const EvVideoOptions *o)
{
    int ret = ev_decoder_next(v, d, 0);
    if (ret < 0)
        return ret;
    if (ret == 0)
        return ev_video_fail(v, -EINVAL, "no frames (the video stream is empty)");
    d->pending = 1;
    const AVFrame *f = d->out;
    const char *codec = avcodec_get_name(d->codec->codec_id);
    const char *in_name = av_get_pix_fmt_name(f->format);
    if (o->convert_to) {
        v->fmt = *o->convert_to;
        d->dst_format = pix_fmt_of(&v->fmt);
        d->convert = 1;
        if (d->dst_format == AV_PIX_FMT_NONE)
            return ev_video_fail(v, -EINVAL, "cannot convert to %u-bit %s: no such pixel format",
                                 v->fmt.bitdepth, ev_pic_layout_name(v->fmt.layout));
        if (passes_through(v, d))
            snprintf(d->what, sizeof(d->what), "%s %dx%d %s", codec, f->width, f->height,
                     in_name ? in_name : "?");
        else
            snprintf(d->what, sizeof(d->what), "%s %dx%d %s, converted to %ux%u %s (%s)", codec,
                     f->width, f->height, in_name ? in_name : "?", v->fmt.width, v->fmt.height,
                     av_get_pix_fmt_name(d->dst_format), d->scaler);
        return 0;
    }
    if (!layout_of(f->format, &v->fmt))
        return ev_video_fail(v, -EINVAL,
                             "pixel format %s is not planar YUV 4:2:0, 4:2:2, 4:4:4 or gray of "
                             "8 to 16 bits",
                             in_name ? in_name : "unknown");
    if (f->width < 1 || f->height < 1 || f->width > (int)EV_VIDEO_MAX_DIM ||
        f->height > (int)EV_VIDEO_MAX_DIM)
        return ev_video_fail(v, -EINVAL, "size %dx%d is not 1..%u x 1..%u", f->width, f->height,
                             EV_VIDEO_MAX_DIM, EV_VIDEO_MAX_DIM);
    v->fmt.width = (unsigned)f->width;
    v->fmt.height = (unsigned)f->height;
    d->dst_format = f->format;
    snprintf(d->what, sizeof(d->what), "%s %dx%d %s", codec, f->width, f->height,
             in_name ? in_name : "?");
    return 0;
}

static int open_once(EvVideo *const v, const char *const path, void *const stream,
                     const uint8_t *const head, const size_t head_len,
                     const EvVideoOptions *const o)
{
    av_last_error[0] = 0;
    EvDecoder *d = calloc(1, sizeof(*d));
    if (!d)
        return ev_video_fail(v, -ENOMEM, "out of memory");
    v->dec = d;
    d->stream = stream;
    d->keep_on_device = (int)o->keep_on_device; /* checked by video.c */
    d->gpu = o->gpu_index;
    d->head_len = head_len < sizeof(d->head) ? head_len : sizeof(d->head);
    if (head_len)
        memcpy(d->head, head, d->head_len);
    int ret = o->convert_to ? parse_scaler(v, d, o->scaler) : 0;
    if (!ret)
        ret = open_input(v, d, path);
    if (!ret)
        ret = open_decoder(v, d, o);
    if (!ret)
        ret = set_format(v, d, o);
    if (!ret && d->on_gpu && !d->gpu_refused) {
        const size_t len = strlen(d->what);
        snprintf(d->what + len, sizeof(d->what) - len, ", decoded by NVDEC");
    }
    if (!ret) {
        v->tags.interlace = 'p';
        if (d->rate.num > 0 && d->rate.den > 0) {
            v->tags.fps_num = (unsigned)d->rate.num;
            v->tags.fps_den = (unsigned)d->rate.den;
        }
    }
    return ret;
}

int ev_decode_open(EvVideo *const v, const char *const path, void *const stream,
                   const uint8_t *const head, const size_t head_len, const EvVideoOptions *const o)
{
    if (ev_libav_load())
        return ev_video_fail(v, -ENOTSUP, "%s", ev_libav_error());
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, install_log);
    int ret = open_once(v, path, stream, head, head_len, o);
    /* EV_DECODE_AUTO: a stream NVDEC failed on at its first frame (a codec or profile the
     * GPU's decoder lacks) is decoded on the CPU; a file can be opened again, a pipe cannot.
     * So is a file NVDEC refused at its first frame (libavcodec then decodes it in software):
     * its decoder had the one thread of an NVDEC decoder (open_decoder) */
    const EvDecoder *d = v->dec;
    const int refused = !ret && d && d->on_gpu && d->gpu_refused && !o->decoder_threads;
    if ((ret || refused) && o->decode_on == EV_DECODE_AUTO && d && d->on_gpu && !stream) {
        ev_decode_close(&v->dec);
        v->err[0] = 0;
        EvVideoOptions cpu = *o;
        cpu.decode_on = EV_DECODE_CPU;
        cpu.decode_sessions = 0; /* libavcodec's threads, as for any stream on the CPU */
        ret = open_once(v, path, stream, head, head_len, &cpu);
    }
    return ret;
}

int ev_decode_estimate(const EvVideo *const v, unsigned long long *const n)
{
    if (!v->dec || !v->dec->has_estimate)
        return -ENODATA;
    *n = v->dec->estimate;
    return 0;
}

const char *ev_decode_describe(const EvVideo *const v)
{
    EvDecoder *d = v->dec;
    if (!d)
        return "";
    if (!d->segments)
        return d->what;
    snprintf(d->what_now, sizeof(d->what_now), "%s, in segments by %u decoders (%u cut so far)",
             d->what, ev_segments_decoders(d->segments), ev_segments_count(d->segments));
    return d->what_now;
}

int ev_decode_by_nvdec(const EvVideo *const v)
{
    return v->dec && v->dec->on_gpu && !v->dec->gpu_refused;
}

void ev_decode_close(EvDecoder **const pd)
{
    if (!pd || !*pd)
        return;
    EvDecoder *d = *pd;
    ev_segments_close(&d->segments); /* its threads read fmt and d */
    ev_decoder_release_holds(d);
    sws_freeContext(d->sws);
    av_frame_free(&d->frame);
    av_frame_free(&d->sw);
    av_frame_free(&d->planar);
    av_frame_free(&d->scaled);
    av_packet_free(&d->pkt);
    avcodec_free_context(&d->codec);
    avcodec_parameters_free(&d->par);
    cut_short_seen(d->fmt, 1);
    avformat_close_input(&d->fmt);
    av_buffer_unref(&d->hw);
    if (d->avio) {
        av_freep(&d->avio->buffer);
        avio_context_free(&d->avio);
    }
    free(d);
    *pd = NULL;
}

#endif
