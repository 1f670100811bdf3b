/*
 * libavformat, libavcodec, libswscale and libavutil, loaded at run time (libav.c) by the
 * sonames of the versions built against: a process that reads no encoded video never loads
 * them (nor the hundred libraries they pull in: loading them took 35-40 ms of every run, and
 * their memory). decode.c includes this after libav*'s headers: each libav* call there goes
 * through ev_libav, filled by ev_libav_load().
 */
#ifndef EV_IO_LIBAV_H
#define EV_IO_LIBAV_H

#include <stddef.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/hwcontext.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

/* Every libav* function exactvmaf calls. */
#define EV_LIBAV_FUNCTIONS(X)                                                                      \
    X(av_buffer_create)                                                                            \
    X(av_buffer_ref)                                                                               \
    X(av_buffer_unref)                                                                             \
    X(av_codec_is_decoder)                                                                         \
    X(av_codec_iterate)                                                                            \
    X(av_dict_free)                                                                                \
    X(av_dict_set)                                                                                 \
    X(av_find_best_stream)                                                                         \
    X(av_frame_alloc)                                                                              \
    X(av_frame_copy_props)                                                                         \
    X(av_frame_free)                                                                               \
    X(av_frame_get_buffer)                                                                         \
    X(av_frame_move_ref)                                                                           \
    X(av_frame_unref)                                                                              \
    X(av_free)                                                                                     \
    X(av_freep)                                                                                    \
    X(av_get_pix_fmt)                                                                              \
    X(av_get_pix_fmt_name)                                                                         \
    X(av_guess_frame_rate)                                                                         \
    X(av_hwdevice_ctx_create)                                                                      \
    X(av_hwframe_get_buffer)                                                                       \
    X(av_hwframe_transfer_data)                                                                    \
    X(av_image_copy_plane)                                                                         \
    X(av_log_format_line)                                                                          \
    X(av_log_set_callback)                                                                         \
    X(av_malloc)                                                                                   \
    X(av_opt_eval_flags)                                                                           \
    X(av_opt_find)                                                                                 \
    X(av_opt_set_double)                                                                           \
    X(av_opt_set_int)                                                                              \
    X(av_packet_alloc)                                                                             \
    X(av_packet_clone)                                                                             \
    X(av_packet_free)                                                                              \
    X(av_packet_unref)                                                                             \
    X(av_pix_fmt_desc_get)                                                                         \
    X(av_probe_input_format3)                                                                      \
    X(av_read_frame)                                                                               \
    X(av_strerror)                                                                                 \
    X(avcodec_alloc_context3)                                                                      \
    X(avcodec_flush_buffers)                                                                       \
    X(avcodec_free_context)                                                                        \
    X(avcodec_get_hw_config)                                                                       \
    X(avcodec_get_name)                                                                            \
    X(avcodec_open2)                                                                               \
    X(avcodec_parameters_alloc)                                                                    \
    X(avcodec_parameters_copy)                                                                     \
    X(avcodec_parameters_free)                                                                     \
    X(avcodec_parameters_to_context)                                                               \
    X(avcodec_receive_frame)                                                                       \
    X(avcodec_send_packet)                                                                         \
    X(avcodec_version)                                                                             \
    X(avformat_alloc_context)                                                                      \
    X(avformat_close_input)                                                                        \
    X(avformat_find_stream_info)                                                                   \
    X(avformat_open_input)                                                                         \
    X(avformat_version)                                                                            \
    X(avio_alloc_context)                                                                          \
    X(avio_context_free)                                                                           \
    X(sws_alloc_context)                                                                           \
    X(sws_get_class)                                                                               \
    X(sws_init_context)                                                                            \
    X(sws_scale_frame)                                                                             \
    X(swscale_version)                                                                             \
    X(avutil_version)                                                                              \
    X(sws_freeContext)                                                                             \
    X(sws_getCoefficients)                                                                         \
    X(sws_getColorspaceDetails)                                                                    \
    X(sws_setColorspaceDetails)

typedef struct EvLibav {
#define EV_LIBAV_POINTER(name) __typeof__(&name) name;
    EV_LIBAV_FUNCTIONS(EV_LIBAV_POINTER)
#undef EV_LIBAV_POINTER
} EvLibav;

extern EvLibav ev_libav;

/* Load the four libraries and every function, once per process (thread-safe). 0, or -ENOSYS
 * when one is missing (ev_libav_error() says which). */
int ev_libav_load(void);
const char *ev_libav_error(void);

#ifndef EV_LIBAV_LOADER
#define av_buffer_create ev_libav.av_buffer_create
#define av_buffer_ref ev_libav.av_buffer_ref
#define av_buffer_unref ev_libav.av_buffer_unref
#define av_codec_is_decoder ev_libav.av_codec_is_decoder
#define av_codec_iterate ev_libav.av_codec_iterate
#define av_dict_free ev_libav.av_dict_free
#define av_dict_set ev_libav.av_dict_set
#define av_find_best_stream ev_libav.av_find_best_stream
#define av_frame_alloc ev_libav.av_frame_alloc
#define av_frame_copy_props ev_libav.av_frame_copy_props
#define av_frame_free ev_libav.av_frame_free
#define av_frame_get_buffer ev_libav.av_frame_get_buffer
#define av_frame_move_ref ev_libav.av_frame_move_ref
#define av_frame_unref ev_libav.av_frame_unref
#define av_free ev_libav.av_free
#define av_freep ev_libav.av_freep
#define av_get_pix_fmt ev_libav.av_get_pix_fmt
#define av_get_pix_fmt_name ev_libav.av_get_pix_fmt_name
#define av_guess_frame_rate ev_libav.av_guess_frame_rate
#define av_hwdevice_ctx_create ev_libav.av_hwdevice_ctx_create
#define av_hwframe_get_buffer ev_libav.av_hwframe_get_buffer
#define av_hwframe_transfer_data ev_libav.av_hwframe_transfer_data
#define av_image_copy_plane ev_libav.av_image_copy_plane
#define av_log_format_line ev_libav.av_log_format_line
#define av_log_set_callback ev_libav.av_log_set_callback
#define av_malloc ev_libav.av_malloc
#define av_opt_eval_flags ev_libav.av_opt_eval_flags
#define av_opt_find ev_libav.av_opt_find
#define av_opt_set_double ev_libav.av_opt_set_double
#define av_opt_set_int ev_libav.av_opt_set_int
#define av_packet_alloc ev_libav.av_packet_alloc
#define av_packet_clone ev_libav.av_packet_clone
#define av_packet_free ev_libav.av_packet_free
#define av_packet_unref ev_libav.av_packet_unref
#define av_pix_fmt_desc_get ev_libav.av_pix_fmt_desc_get
#define av_probe_input_format3 ev_libav.av_probe_input_format3
#define av_read_frame ev_libav.av_read_frame
#define av_strerror ev_libav.av_strerror
#define avcodec_alloc_context3 ev_libav.avcodec_alloc_context3
#define avcodec_flush_buffers ev_libav.avcodec_flush_buffers
#define avcodec_free_context ev_libav.avcodec_free_context
#define avcodec_get_hw_config ev_libav.avcodec_get_hw_config
#define avcodec_get_name ev_libav.avcodec_get_name
#define avcodec_open2 ev_libav.avcodec_open2
#define avcodec_parameters_alloc ev_libav.avcodec_parameters_alloc
#define avcodec_parameters_copy ev_libav.avcodec_parameters_copy
#define avcodec_parameters_free ev_libav.avcodec_parameters_free
#define avcodec_parameters_to_context ev_libav.avcodec_parameters_to_context
#define avcodec_receive_frame ev_libav.avcodec_receive_frame
#define avcodec_send_packet ev_libav.avcodec_send_packet
#define avcodec_version ev_libav.avcodec_version
#define avformat_alloc_context ev_libav.avformat_alloc_context
#define avformat_close_input ev_libav.avformat_close_input
#define avformat_find_stream_info ev_libav.avformat_find_stream_info
#define avformat_open_input ev_libav.avformat_open_input
#define avformat_version ev_libav.avformat_version
#define avio_alloc_context ev_libav.avio_alloc_context
#define avio_context_free ev_libav.avio_context_free
#define sws_alloc_context ev_libav.sws_alloc_context
#define sws_get_class ev_libav.sws_get_class
#define sws_init_context ev_libav.sws_init_context
#define sws_scale_frame ev_libav.sws_scale_frame
#define swscale_version ev_libav.swscale_version
#define avutil_version ev_libav.avutil_version
#define sws_freeContext ev_libav.sws_freeContext
#define sws_getCoefficients ev_libav.sws_getCoefficients
#define sws_getColorspaceDetails ev_libav.sws_getColorspaceDetails
#define sws_setColorspaceDetails ev_libav.sws_setColorspaceDetails
#endif

#endif
