/*
 * A reader's frames in device memory (ev_video_read_device()): a ring of a few frames of one
 * format, each three packed planes (every row width x sample bytes, so that the engine's twins
 * read them in place), lent one at a time and given back from any thread. The reader waits in
 * ev_device_ring_take() while every frame is lent; the ring outlives its reader until the last
 * frame is back (a frame may be given back after ev_video_close()).
 */
#ifndef EV_IO_DEVICE_RING_H
#define EV_IO_DEVICE_RING_H

#include <stddef.h>

#include "exactvmaf/video.h"

typedef struct EvDeviceRing EvDeviceRing;

struct EvVideoDeviceFrame {
    EvDeviceRing *ring;
    EvPicture pic; /* data[]: device addresses */
    int lent;
};

/* More than the engine ever holds back for its windows (EV_WINDOW_MAX_LOOKBACK earlier frames)
 * plus what the reader decodes ahead (EV_DECODE_AHEAD, decoder.h) and the frame it converts,
 * so that a reader waiting for a frame never waits for one only a later frame would free. */
#define EV_DEVICE_RING_FRAMES 8

/* n frames of fmt on gpu. @return 0, or a negative code with why set. */
int ev_device_ring_open(EvDeviceRing **out, unsigned gpu, const EvVideoFormat *fmt, unsigned n,
                        char *why, size_t why_size);

/* A free frame, lent to the caller; waits while none is free. NULL once the ring is
 * interrupted. */
EvVideoDeviceFrame *ev_device_ring_take(EvDeviceRing *r);

/* Wake every ev_device_ring_take() and make it (and every later one) return NULL: the reader is
 * closing while its frames may still be lent. */
void ev_device_ring_interrupt(EvDeviceRing *r);

/* Give a lent frame back (any thread; NULL-safe). The last one back after the close frees the
 * ring. */
void ev_device_ring_give(EvVideoDeviceFrame *f);

/* No frame will be taken any more: the ring is freed now, or when its last lent frame is back.
 * NULL-safe; sets *r = NULL. */
void ev_device_ring_close(EvDeviceRing **r);

#endif
