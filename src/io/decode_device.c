/*
 * Encoded input kept on the device (EvVideoOptions.keep_on_device, decoder.h): NVDEC's frames
 * are unpacked into the software decoder's layout by unpack_twin.cu and, when the size changes,
 * scaled by the scaler's twin (scale_twin.cu), into a ring of device frames the caller lends to
 * the engine's twins. The route is taken only where its bits are those the host route gives
 * (libswscale, as decode.c sets it up); a frame it was not made for (the stream changes size,
 * format or range) takes the host route and is uploaded.
 */
#if EV_HAVE_FFMPEG
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "base/picture.h"
#include "io/decode.h"
#include "io/decoder.h"
#include "io/gpu_mem.h"
#include "io/scale_ref.h"
#include "io/unpack_twin.h"

/* The scaler's kernel as scale_ref.h models it, from libswscale's flags. @return 0, or -1 for
 * flags the reference does not model (other kernels, other flags), or a build whose libswscale
 * 8-bit path without accurate rounding is not the x86 one modelled. */
static int kernel_of(const int flags, const int bits, EvScaleKernelSpec *k, int *x86_default)
{
    const int rounding = flags & (SWS_ACCURATE_RND | SWS_BITEXACT);
    *k = (EvScaleKernelSpec){ EV_SCALE_BICUBIC, { NAN, NAN }, !!(flags & SWS_BITEXACT) };
    switch (flags & ~rounding) {
    case SWS_BICUBIC: k->kernel = EV_SCALE_BICUBIC; break;
    case SWS_BILINEAR: k->kernel = EV_SCALE_BILINEAR; break;
    case SWS_LANCZOS: k->kernel = EV_SCALE_LANCZOS; break;
    default: return -1;
    }
#if defined(__x86_64__) || defined(__i386__)
    *x86_default = bits == 8 && !rounding;
    return 0;
#else
    *x86_default = 0;
    return bits == 8 && !rounding ? -1 : 0;
#endif
}

/* Why the route cannot give the host's bits for the first frame (d->out: its host copy), or
 * NULL when it can. */
static const char *route_refused(const EvVideo *v, const EvDecoder *d, EvVideoFormat *in)
{
    const AVFrame *f = d->out;
    if (!d->primary_ctx)
        return "NVDEC's device is not the engine's context";
    if ((v->fmt.width | v->fmt.height) & 1)
        return "an odd size";
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(f->format);
    if (!desc || desc->nb_components != 3 || (desc->flags & AV_PIX_FMT_FLAG_RGB))
        return "not a three-plane YUV frame";
    in->width = (unsigned)f->width;
    in->height = (unsigned)f->height;
    in->bitdepth = (unsigned)desc->comp[0].depth;
    in->layout = desc->log2_chroma_w == 0   ? EV_PIX_444
                 : desc->log2_chroma_h == 0 ? EV_PIX_422
                                            : EV_PIX_420;
    if (!d->convert ||
        (in->width == v->fmt.width && in->height == v->fmt.height && f->format == d->dst_format))
        return NULL; /* passed through: the unpacked frame is the result */
    if (in->layout != v->fmt.layout || in->bitdepth != v->fmt.bitdepth)
        return "a change of layout or depth";
    if (in->bitdepth > 14)
        return "16-bit samples";
    if (f->color_range == AVCOL_RANGE_JPEG)
        return "a range conversion";
    return NULL;
}

/* The unpack of NVDEC's layout (the hardware frames' sw_format) into f's (the host copy). */
static void plan_unpack(EvDecoder *d, const AVFrame *hw, const AVFrame *f)
{
    const AVHWFramesContext *frames = (const AVHWFramesContext *)hw->hw_frames_ctx->data;
    const AVPixFmtDescriptor *id = av_pix_fmt_desc_get(frames->sw_format);
    const AVPixFmtDescriptor *od = av_pix_fmt_desc_get(f->format);
    d->dev_sw_format = frames->sw_format;
    d->dev_w = hw->width;
    d->dev_h = hw->height;
    d->dev_bytes = od->comp[0].depth > 8 ? 2 : 1;
    const unsigned in_bits = (unsigned)(id->comp[0].depth + id->comp[0].shift);
    d->dev_shift = in_bits > (unsigned)od->comp[0].depth ? in_bits - od->comp[0].depth : 0;
    d->dev_semi = id->comp[1].plane == id->comp[2].plane;
    d->dev_cw = (unsigned)AV_CEIL_RSHIFT(hw->width, od->log2_chroma_w);
    d->dev_ch = (unsigned)AV_CEIL_RSHIFT(hw->height, od->log2_chroma_h);
}

/* The scaler's twin for in -> v->fmt, and the device frame it reads. */
static int open_scaler(EvVideo *v, EvDecoder *d, const EvVideoFormat *in, char *why,
                       size_t why_size)
{
    EvScaleKernelSpec k;
    int x86_default;
    if (kernel_of(d->sws_flags, (int)in->bitdepth, &k, &x86_default)) {
        snprintf(why, why_size, "scaler '%s' has no device twin", d->scaler);
        return -ENOTSUP;
    }
    const int ss_x = in->layout != EV_PIX_444, ss_y = in->layout == EV_PIX_420;
    EvScalePlan plan;
    int err = ev_scale_plan_make(&plan, &k, (int)in->width, (int)in->height, (int)v->fmt.width,
                                 (int)v->fmt.height, ss_x, ss_y, 3, (int)in->bitdepth, 4, 2);
    if (err) {
        snprintf(why, why_size, "the scaler's filters (%s)",
                 err == -1 ? "out of memory" : "a filter libswscale cascades");
        return err == -1 ? -ENOMEM : -ENOTSUP;
    }
    plan.x86_default = x86_default;
    err = ev_scale_twin_open(&d->twin, &plan, why, why_size);
    ev_scale_plan_free(&plan);
    if (err)
        return err;
    size_t total = 0, size[3];
    for (int p = 0; p < 3; p++) {
        const unsigned w = p ? d->dev_cw : (unsigned)d->dev_w;
        const unsigned h = p ? d->dev_ch : (unsigned)d->dev_h;
        d->mid_pitch[p] = (ptrdiff_t)(w * d->dev_bytes);
        size[p] = ((size_t)d->mid_pitch[p] * h + 255) & ~(size_t)255;
        total += size[p];
    }
    err = ev_gpu_mem_alloc(d->gpu, total, &d->mid, why, why_size);
    if (err)
        return err;
    uint8_t *at = d->mid;
    for (int p = 0; p < 3; p++) {
        d->mid_plane[p] = at;
        at += size[p];
    }
    return 0;
}

static void close_route(EvDecoder *d);
static void stop_ahead(EvDecoder *d);

void ev_decode_setup_device(EvVideo *v)
{
    EvDecoder *d = v->dec;
    const int nvdec = d && d->on_gpu && !d->gpu_refused;
    if (!d || !d->keep_on_device || (!nvdec && d->keep_on_device != EV_KEEP_ALL_FRAMES))
        return;
    char why[256] = "";
    EvVideoFormat in;
    /* why the frames take the host route, or NULL: NVDEC's stay on the device */
    const char *host = !nvdec                                ? "decoded on the CPU"
                       : d->frame->format == AV_PIX_FMT_CUDA ? route_refused(v, d, &in)
                                                             : "a software format";
    const int keep_all = d->keep_on_device == EV_KEEP_ALL_FRAMES;
    char refused[sizeof(why)];
    int err = 0;
    if (!host) {
        plan_unpack(d, d->frame, d->out); /* without it no frame fits the route */
        err = ev_gpu_stream_open(d->gpu, &d->gpu_stream, why, sizeof(why));
        if (!err && !(in.width == v->fmt.width && in.height == v->fmt.height &&
                      d->out->format == d->dst_format))
            err = open_scaler(v, d, &in, why, sizeof(why));
        if (err == -ENOTSUP && keep_all) {
            /* a conversion without a twin (a scaler, a filter): converted on the host and
             * uploaded, as the frames of a refused route are */
            close_route(d);
            d->dev_w = d->dev_h = 0; /* no NVDEC frame fits the route now */
            snprintf(refused, sizeof(refused), "%s", why);
            host = refused;
            err = 0;
        }
    }
    const int upload = host && keep_all;
    if (!err && (!host || upload)) {
        if (upload)
            err = ev_gpu_stream_open(d->gpu, &d->gpu_stream, why, sizeof(why));
        if (!err)
            err = ev_device_ring_open(&d->ring, d->gpu, &v->fmt, EV_DEVICE_RING_FRAMES, why,
                                      sizeof(why));
    }
    const size_t len = strlen(d->what);
    if (err || !(upload || !host)) {
        close_route(d);
        snprintf(d->what + len, sizeof(d->what) - len, ", frames %s the host (%s)",
                 nvdec ? "copied to" : "left on", err ? why : host);
        return;
    }
    d->on_device = upload ? 2 : 1;
    if (upload)
        snprintf(d->what + len, sizeof(d->what) - len,
                 ", converted on the host and uploaded to the device (%s)", host);
    else
        snprintf(d->what + len, sizeof(d->what) - len, ", kept on the device%s",
                 d->twin ? " and scaled there" : "");
}

void ev_decode_close_device(EvVideo *v)
{
    if (v->dec)
        close_route(v->dec);
}

static void close_route(EvDecoder *d)
{
    stop_ahead(d);
    d->on_device = 0;
    ev_device_ring_close(&d->ring);
    ev_scale_twin_close(&d->twin);
    ev_gpu_mem_free(d->gpu, d->mid);
    d->mid = NULL;
    ev_gpu_stream_close(d->gpu, d->gpu_stream);
    d->gpu_stream = NULL;
}

/* Is d->frame one the route was made for? */
static int fits_route(const EvDecoder *d)
{
    const AVFrame *f = d->frame;
    if (f->format != AV_PIX_FMT_CUDA || f->width != d->dev_w || f->height != d->dev_h)
        return 0;
    const AVHWFramesContext *frames = (const AVHWFramesContext *)f->hw_frames_ctx->data;
    return frames->sw_format == d->dev_sw_format &&
           (!d->twin || f->color_range != AVCOL_RANGE_JPEG);
}

/* d->frame unpacked (and scaled) on the device into out. */
static int convert_on_device(EvVideo *v, EvDecoder *d, EvVideoDeviceFrame *out)
{
    char why[256] = "";
    const AVFrame *f = d->frame;
    EvUnpackFrame in = { { f->data[0], f->data[1], f->data[2] },
                         { f->linesize[0], f->linesize[1], f->linesize[2] },
                         d->dev_semi };
    void *dst[3];
    ptrdiff_t pitch[3];
    for (int p = 0; p < 3; p++) {
        dst[p] = d->twin ? d->mid_plane[p] : (void *)out->pic.data[p];
        pitch[p] = d->twin ? d->mid_pitch[p] : out->pic.stride[p];
    }
    int err = ev_gpu_use(d->gpu, why, sizeof(why));
    if (!err)
        err =
            ev_unpack_twin(&in, (unsigned)d->dev_w, (unsigned)d->dev_h, d->dev_cw, d->dev_ch,
                           d->dev_bytes, d->dev_shift, dst, pitch, d->gpu_stream, why, sizeof(why));
    for (int p = 0; p < 3 && !err && d->twin; p++)
        err = ev_scale_twin_plane(d->twin, p, d->mid_plane[p], d->mid_pitch[p],
                                  (void *)out->pic.data[p], out->pic.stride[p], d->gpu_stream, why,
                                  sizeof(why));
    /* complete before the decoder reuses its frame and the caller lends ours */
    if (!err)
        err = ev_gpu_stream_wait(d->gpu, d->gpu_stream, why, sizeof(why));
    return err ? ev_video_fail(v, err, "frame %u: %s", d->frames, why) : 0;
}

/* A frame the route was not made for: converted on the host, as ev_decode_read() does, then
 * uploaded into out. */
static int convert_on_host(EvVideo *v, EvDecoder *d, EvVideoDeviceFrame *out)
{
    int err = d->frame->format == AV_PIX_FMT_CUDA ? ev_decoder_download(v, d) : 1;
    if (err < 0)
        return err;
    d->out = d->frame->format == AV_PIX_FMT_CUDA ? d->planar : d->frame;
    EvPicture pic;
    if ((err = ev_decoder_deliver(v, d, NULL, &pic)))
        return err;
    char why[256] = "";
    const size_t bytes = v->fmt.bitdepth > 8 ? 2 : 1;
    for (unsigned p = 0; p < 3 && !err; p++) {
        unsigned w, h;
        ev_pic_plane_size(v->fmt.width, v->fmt.height, v->fmt.layout, p, &w, &h);
        if (w && h)
            err = ev_gpu_upload_rows(d->gpu, (void *)out->pic.data[p], (size_t)out->pic.stride[p],
                                     pic.data[p], (size_t)pic.stride[p], w * bytes, h,
                                     d->gpu_stream, why, sizeof(why));
    }
    if (!err)
        err = ev_gpu_stream_wait(d->gpu, d->gpu_stream, why, sizeof(why));
    return err ? ev_video_fail(v, err, "frame %u: %s", d->frames, why) : 0;
}

int ev_decode_on_device(const EvVideo *const v)
{
    return v->dec ? v->dec->on_device : 0;
}

/* The next frame decoded and converted into a frame of the ring (*out). @return 1, 0 end of
 * stream, or an error (-ECANCELED: the ring was interrupted, the reader is closing). */
static int next_device_frame(EvVideo *v, EvDecoder *d, EvVideoDeviceFrame **out)
{
    *out = NULL;
    int ret = 1;
    if (d->pending)
        d->pending = 0; /* the first frame: d->frame is still NVDEC's */
    else if (d->ended)
        ret = 0;
    else {
        av_frame_unref(d->frame);
        ret = ev_decoder_next(v, d, 1);
    }
    if (ret <= 0)
        return ret;
    EvVideoDeviceFrame *f = ev_device_ring_take(d->ring);
    if (!f)
        return -ECANCELED;
    ret = fits_route(d) ? convert_on_device(v, d, f) : convert_on_host(v, d, f);
    if (ret) {
        ev_device_ring_give(f);
        return ret;
    }
    d->frames++;
    *out = f;
    return 1;
}

/* The read-ahead thread: frames into the queue until it is full, the stream ends, a read fails
 * or the reader closes. */
static void *read_ahead(void *arg)
{
    EvVideo *v = arg;
    EvDecoder *d = v->dec;
    for (;;) {
        pthread_mutex_lock(&d->ahead_lock);
        while (d->ahead_len == EV_DECODE_AHEAD && !d->ahead_stop)
            pthread_cond_wait(&d->ahead_cond, &d->ahead_lock);
        const int stop = d->ahead_stop;
        pthread_mutex_unlock(&d->ahead_lock);
        if (stop)
            break;
        EvVideoDeviceFrame *f;
        const int ret = next_device_frame(v, d, &f);
        pthread_mutex_lock(&d->ahead_lock);
        if (ret > 0)
            d->ahead_queue[(d->ahead_head + d->ahead_len++) % EV_DECODE_AHEAD] = f;
        else {
            d->ahead_done = 1;
            d->ahead_end = ret;
        }
        pthread_cond_broadcast(&d->ahead_cond);
        pthread_mutex_unlock(&d->ahead_lock);
        if (ret <= 0)
            break;
    }
    return NULL;
}

static int start_ahead(EvVideo *v, EvDecoder *d)
{
    if (pthread_mutex_init(&d->ahead_lock, NULL))
        return -1;
    if (pthread_cond_init(&d->ahead_cond, NULL)) {
        pthread_mutex_destroy(&d->ahead_lock);
        return -1;
    }
    if (pthread_create(&d->ahead, NULL, read_ahead, v)) {
        pthread_cond_destroy(&d->ahead_cond);
        pthread_mutex_destroy(&d->ahead_lock);
        return -1;
    }
    d->ahead_started = 1;
    return 0;
}

/* Stop the read-ahead thread (its frames in the queue go back to the ring). */
static void stop_ahead(EvDecoder *d)
{
    if (!d->ahead_started)
        return;
    pthread_mutex_lock(&d->ahead_lock);
    d->ahead_stop = 1;
    pthread_cond_broadcast(&d->ahead_cond);
    pthread_mutex_unlock(&d->ahead_lock);
    ev_device_ring_interrupt(d->ring); /* a wait for a frame still lent ends */
    pthread_join(d->ahead, NULL);
    for (; d->ahead_len; d->ahead_len--, d->ahead_head = (d->ahead_head + 1) % EV_DECODE_AHEAD)
        ev_device_ring_give(d->ahead_queue[d->ahead_head]);
    pthread_cond_destroy(&d->ahead_cond);
    pthread_mutex_destroy(&d->ahead_lock);
    d->ahead_started = 0;
}

int ev_decode_read_device(EvVideo *const v, EvPicture *const pic, EvVideoDeviceFrame **const frame)
{
    *frame = NULL;
    EvDecoder *d = v->dec;
    if (!d || !d->on_device)
        return ev_video_fail(v, -ENOTSUP, "its frames are not kept on the device (%s)",
                             d ? d->what : "not an encoded input");
    if (!d->ahead_started && start_ahead(v, d)) {
        EvVideoDeviceFrame *f; /* no thread: read here */
        const int ret = next_device_frame(v, d, &f);
        if (ret > 0) {
            *pic = f->pic;
            *frame = f;
        }
        return ret;
    }
    pthread_mutex_lock(&d->ahead_lock);
    while (!d->ahead_len && !d->ahead_done)
        pthread_cond_wait(&d->ahead_cond, &d->ahead_lock);
    int ret = d->ahead_end;
    if (d->ahead_len) {
        *frame = d->ahead_queue[d->ahead_head];
        d->ahead_head = (d->ahead_head + 1) % EV_DECODE_AHEAD;
        d->ahead_len--;
        *pic = (*frame)->pic;
        ret = 1;
        pthread_cond_broadcast(&d->ahead_cond);
    }
    pthread_mutex_unlock(&d->ahead_lock);
    return ret;
}
#else
#include <errno.h>

#include "io/decode.h"
#include "io/video_io.h"

void ev_decode_setup_device(EvVideo *const v)
{
    (void)v;
}

void ev_decode_close_device(EvVideo *const v)
{
    (void)v;
}

int ev_decode_on_device(const EvVideo *const v)
{
    (void)v;
    return 0;
}

int ev_decode_read_device(EvVideo *const v, EvPicture *const pic, EvVideoDeviceFrame **const frame)
{
    (void)pic;
    *frame = NULL;
    return ev_video_fail(v, -ENOTSUP, "no decoder in this build");
}
#endif
