/* Video input (include/exactvmaf/video.h): the readers of src/io/. */
#include "io/video_io.h"

int ev_video_open(EvVideo **const out, const char *const path, const EvVideoFormat *const raw,
                  char *const err, const size_t err_size)
{
    return ev_io_video_open(out, path, raw, err, err_size);
}

void ev_video_format(const EvVideo *const v, EvVideoFormat *const fmt)
{
    ev_io_video_format(v, fmt);
}

int ev_video_read(EvVideo *const v, EvPicture *const pic)
{
    return ev_io_video_read(v, pic);
}

int ev_video_read_into(EvVideo *const v, const EvPicture *const dst)
{
    return ev_io_video_read_into(v, dst);
}

int ev_video_read_mapped(EvVideo *const v, EvPicture *const pic, EvVideoFrameMap **const map)
{
    return ev_io_video_read_mapped(v, pic, map);
}

void ev_video_unmap(EvVideoFrameMap *const map)
{
    ev_io_video_unmap(map);
}

int ev_video_mappable(const EvVideo *const v)
{
    return ev_io_video_mappable(v);
}

int ev_video_on_device(const EvVideo *const v)
{
    return ev_io_video_on_device(v);
}

int ev_video_read_device(EvVideo *const v, EvPicture *const pic, EvVideoDeviceFrame **const frame)
{
    return ev_io_video_read_device(v, pic, frame);
}

void ev_video_release_device(EvVideoDeviceFrame *const frame)
{
    ev_io_video_release_device(frame);
}

int ev_video_skip(EvVideo *const v, const unsigned n)
{
    return ev_io_video_skip(v, n);
}

int ev_video_frame_count(const EvVideo *const v, unsigned long long *const n)
{
    return ev_io_video_frame_count(v, n);
}

void ev_video_tags(const EvVideo *const v, EvVideoTags *const t)
{
    ev_io_video_tags(v, t);
}

const char *ev_video_error(const EvVideo *const v)
{
    return ev_io_video_error(v);
}

void ev_video_close(EvVideo **const v)
{
    ev_io_video_close(v);
}

void ev_video_default_options(EvVideoOptions *const o)
{
    ev_io_video_default_options(o);
}

int ev_video_can_decode(void)
{
    return ev_io_video_can_decode();
}

int ev_video_open_with(EvVideo **const out, const char *const path, const EvVideoOptions *const o,
                       char *const err, const size_t err_size)
{
    return ev_io_video_open_with(out, path, o, err, err_size);
}

int ev_video_open_pair(EvVideo **const ref, EvVideo **const dis, const char *const ref_path,
                       const char *const dis_path, const EvVideoOptions *const o, char *const err,
                       const size_t err_size)
{
    return ev_io_video_open_pair(ref, dis, ref_path, dis_path, o, err, err_size);
}

int ev_video_frame_estimate(const EvVideo *const v, unsigned long long *const n)
{
    return ev_io_video_frame_estimate(v, n);
}

const char *ev_video_describe(const EvVideo *const v)
{
    return ev_io_video_describe(v);
}

const char *ev_video_decoder_libraries(void)
{
    return ev_io_video_decoder_libraries();
}
