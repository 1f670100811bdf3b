/*
 * One stream decoded by several decoders at once (EvVideoOptions.decode_sessions).
 *
 * The stream is cut at its random-access points (HEVC's IDR, BLA and CRA pictures, H.264's IDR
 * pictures) into segments of at least EV_SEGMENT_MIN_PACKETS packets. Each decoder, on a thread of
 * its own, takes the next segment no decoder has taken whenever it is free, so that segments of
 * different lengths keep every decoder busy; ev_segments_next()
 * hands the frames out in the stream's order. Why: one NVDEC session decodes one stream on one
 * of the GPU's engines, so a pair of streams leaves most engines idle; cut into segments, a
 * stream keeps several busy.
 *
 * The frames are the bits one decoder gives for the whole stream. A decoder started at such a
 * point decodes every frame from it on in output order as one started earlier does: no frame
 * after it in output order refers to a frame before it. The leading frames of an open GOP (HEVC
 * pictures after a CRA in decoding order but before it in output order, which may refer to the
 * frames before the CRA) belong to the previous segment: its decoder is given the CRA and its
 * leading packets too, and keeps those frames. Each segment owns a set of packets, and its
 * decoder keeps exactly the frames whose timestamp is that of a packet it owns; every other
 * frame it decodes (the next segment's CRA, the leading frames a fresh decoder skips or
 * conceals) is dropped.
 *
 * Only streams this can be done for are cut (ev_segments_usable): HEVC or H.264 in MP4/MOV or
 * Matroska (every packet has a timestamp), with length-prefixed NAL units (hvcC / avcC).
 * Private to decode.c; only in a build with libav* (EV_HAVE_FFMPEG).
 */
#ifndef EV_IO_SEGMENTS_H
#define EV_IO_SEGMENTS_H

#include <stddef.h>
#include <stdint.h>

#include "io/libav.h"

/* Decoders for one stream, at most. */
#define EV_SEGMENT_MAX_DECODERS 8

/* No segment is cut shorter than this many packets (an all-intra stream is one point a frame). */
#define EV_SEGMENT_MIN_PACKETS 24

/* Decoded frames a decoder keeps ahead of the reader, in bytes (2 GiB: 86 frames of 4K 10-bit,
 * 690 of 1080p 8-bit), so that a decoder a segment ahead does not wait for the reader. */
#define EV_SEGMENT_AHEAD_BYTES ((size_t)2 << 30)

typedef struct EvSegments EvSegments;

/* Opens a decoder for the stream, as the caller opens its own (called on the decoders'
 * threads, at their first segment). @return 0, or a libav error. */
typedef int (*EvSegmentsOpen)(void *opaque, AVCodecContext **codec);

/* Make a decoder's frame independent of it (NVDEC's frames are its surfaces, of which it has a
 * few: copied into frames of their own), on decoder thread `decoder`. @return 0, or a libav
 * error with why set. */
typedef int (*EvSegmentsHold)(void *opaque, unsigned decoder, AVFrame *frame, char *why,
                              size_t why_size);

/* The calling thread's last libav log line (decode.c's callback keeps it), for a failure. */
typedef const char *(*EvSegmentsLog)(void);

/* The random-access point kind of a packet of the stream (ev_segments_usable's streams). */
enum { EV_RAP_NONE, EV_RAP_CLEAN, EV_RAP_OPEN };

/* Is fmt's stream `index` one ev_segments can cut? @return its NAL length size (1, 2 or 4),
 * or 0 no. */
int ev_segments_usable(const AVFormatContext *fmt, int index);

/* What random-access point the packet data starts (EV_RAP_*): HEVC IDR and BLA are clean, CRA
 * open (its leading frames may refer to frames before it); H.264 IDR is clean, every other
 * picture none. nal_len: ev_segments_usable()'s. A CRA right after an end of sequence (whose
 * leading frames one decoder skips too) is clean; *eos says whether this packet ends one. */
int ev_segments_rap(enum AVCodecID codec, const uint8_t *data, size_t size, int nal_len,
                    int after_eos, int *eos);

/* Start `decoders` decoders (2 or more) over fmt's stream `index`: fmt is read from the
 * demuxer thread alone from now on, until ev_segments_close(). frame_bytes: one decoded frame's
 * size (the queue's bound). @return 0, or -ENOMEM / -EAGAIN (no thread). */
int ev_segments_start(EvSegments **out, AVFormatContext *fmt, int index, unsigned decoders,
                      size_t frame_bytes, EvSegmentsOpen open, EvSegmentsHold hold,
                      EvSegmentsLog log, void *opaque);

/* The next frame in the stream's order, moved into frame. @return 1, 0 end of stream, or a
 * libav error (AVERROR_*); then why holds the decoder's or demuxer's last log line (may be "")
 * and *demux is 1 when reading the file failed, 0 when decoding did. */
int ev_segments_next(EvSegments *s, AVFrame *frame, char *why, size_t why_size, int *demux);

/* Segments cut so far, and the decoders (for the description and tests). */
unsigned ev_segments_count(EvSegments *s);
unsigned ev_segments_decoders(const EvSegments *s);

/* Stop the threads and free everything (the demuxer is the caller's again, read to its end or
 * not). */
void ev_segments_close(EvSegments **s);

#endif
