/* NVDEC's frames kept by the segment decoders (io/segments.h): a frame of libavcodec's NVDEC path
 * is one of the decoder's surfaces, mapped (ffmpeg 5.1-7.1), and a decoder has a few of them, so
 * a frame queued for later is copied into a frame of its own, from the same frames context's
 * pool, on the segment decoder's own stream. Only in a build with libav* (EV_HAVE_FFMPEG).
 */
#if EV_HAVE_FFMPEG
#include <errno.h>
#include <stdio.h>

#include "io/decoder.h"
#include "io/gpu_mem.h"

int ev_decoder_hold_surface(struct EvDecoder *d, const unsigned k, AVFrame *f, char *why,
                            const size_t why_size)
{
    if (k >= sizeof(d->hold_stream) / sizeof(d->hold_stream[0]))
        return AVERROR(EINVAL);
    if (!d->hold_stream[k] && ev_gpu_stream_open(d->gpu, &d->hold_stream[k], why, why_size))
        return AVERROR_EXTERNAL;
    AVFrame *copy = av_frame_alloc();
    if (!copy)
        return AVERROR(ENOMEM);
    int ret = av_hwframe_get_buffer(f->hw_frames_ctx, copy, 0); /* its frames context's pool */
    const AVHWFramesContext *frames = (const AVHWFramesContext *)f->hw_frames_ctx->data;
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(frames->sw_format);
    for (int i = 0; !ret && i < 4 && f->data[i]; i++) {
        const int rows = i == 0 ? f->height : AV_CEIL_RSHIFT(f->height, desc->log2_chroma_h);
        const int row = f->linesize[i] < copy->linesize[i] ? f->linesize[i] : copy->linesize[i];
        if (ev_gpu_copy_rows(d->gpu, copy->data[i], (size_t)copy->linesize[i], f->data[i],
                             (size_t)f->linesize[i], (size_t)row, (size_t)rows, d->hold_stream[k],
                             why, why_size))
            ret = AVERROR_EXTERNAL;
    }
    if (!ret && ev_gpu_stream_wait(d->gpu, d->hold_stream[k], why, why_size))
        ret = AVERROR_EXTERNAL;
    if (!ret)
        ret = av_frame_copy_props(copy, f);
    if (ret) {
        av_frame_free(&copy);
        return ret;
    }
    copy->width = f->width;
    copy->height = f->height;
    av_frame_unref(f); /* the surface goes back to the decoder */
    av_frame_move_ref(f, copy);
    av_frame_free(&copy);
    return 0;
}

void ev_decoder_release_holds(struct EvDecoder *d)
{
    for (size_t k = 0; k < sizeof(d->hold_stream) / sizeof(d->hold_stream[0]); k++) {
        ev_gpu_stream_close(d->gpu, d->hold_stream[k]);
        d->hold_stream[k] = NULL;
    }
}

#endif
