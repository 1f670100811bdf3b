/*
 * The uploaded route of encoded input (EV_KEEP_ALL_FRAMES with the CPU decoder: each frame
 * converted on the host, then copied into the reader's ring by its read-ahead thread,
 * decode_device.c and device_ring.c) without a GPU: this program defines gpu_mem.h itself,
 * over host memory, so the library's CUDA runtime calls (gpu_mem.cu, or gpu_mem_none.c) are not
 * linked in. Then the ring's "device" frames are host memory, and the route's threading, its
 * ring and its close run in CI, under the sanitizers:
 *   upload_frames REF DIS SCALER
 * opens the pair twice with ev_video_open_pair(): on the host, and with EV_KEEP_ALL_FRAMES;
 *   1. every frame read with ev_video_read_device() equals the host route's, sample for
 *      sample, and the two end together; frames are given back three reads late and the last
 *      ones after ev_video_close(); a host read after device reads is refused (-EBUSY);
 *   2. a reader closed while its read-ahead thread waits for a free frame (every frame of its
 *      ring lent) returns, and its frames are given back after the close (REF must hold more
 *      frames than the ring, EV_DEVICE_RING_FRAMES + 2);
 *   3. every allocation and stream of the double is freed at the end.
 * Exit 0, 1 a difference or an error, 77 when this build reads no encoded video.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exactvmaf/video.h"
#include "io/device_ring.h"
#include "io/gpu_mem.h"

#define LAG 3

/* gpu_mem.h over host memory, counting what is live. */
static atomic_int live_blocks, live_streams;

int ev_gpu_use(unsigned gpu, char *why, size_t why_size)
{
    (void)gpu, (void)why, (void)why_size;
    return 0;
}

int ev_gpu_mem_alloc(unsigned gpu, size_t bytes, void **p, char *why, size_t why_size)
{
    (void)gpu;
    *p = malloc(bytes);
    if (!*p) {
        snprintf(why, why_size, "host double: out of memory");
        return -ENOMEM;
    }
    memset(*p, 0xA5, bytes); /* not the frames' samples */
    atomic_fetch_add(&live_blocks, 1);
    return 0;
}

void ev_gpu_mem_free(unsigned gpu, void *p)
{
    (void)gpu;
    if (p)
        atomic_fetch_sub(&live_blocks, 1);
    free(p);
}

int ev_gpu_stream_open(unsigned gpu, void **stream, char *why, size_t why_size)
{
    (void)gpu, (void)why, (void)why_size;
    *stream = malloc(1);
    if (!*stream)
        return -ENOMEM;
    atomic_fetch_add(&live_streams, 1);
    return 0;
}

void ev_gpu_stream_close(unsigned gpu, void *stream)
{
    (void)gpu;
    if (stream)
        atomic_fetch_sub(&live_streams, 1);
    free(stream);
}

int ev_gpu_stream_wait(unsigned gpu, void *stream, char *why, size_t why_size)
{
    (void)gpu, (void)stream, (void)why, (void)why_size;
    return 0;
}

int ev_gpu_upload_rows(unsigned gpu, void *dst, size_t dst_pitch, const void *src, size_t src_pitch,
                       size_t row_bytes, size_t h, void *stream, char *why, size_t why_size)
{
    (void)gpu, (void)stream, (void)why, (void)why_size;
    for (size_t y = 0; y < h; y++)
        memcpy((uint8_t *)dst + y * dst_pitch, (const uint8_t *)src + y * src_pitch, row_bytes);
    return 0;
}

int ev_gpu_copy_rows(unsigned gpu, void *dst, size_t dst_pitch, const void *src, size_t src_pitch,
                     size_t row_bytes, size_t h, void *stream, char *why, size_t why_size)
{
    return ev_gpu_upload_rows(gpu, dst, dst_pitch, src, src_pitch, row_bytes, h, stream, why,
                              why_size);
}

static int open_pair(EvVideo **ref, EvVideo **dis, char **argv, const EvKeepOnDevice keep)
{
    EvVideoOptions o;
    ev_video_default_options(&o);
    o.scaler = argv[3];
    o.decode_on = EV_DECODE_CPU;
    o.decoder_threads = 1; /* libavcodec's frame threads are not ours to check (ThreadSanitizer
                            * sees their pools without their atomics) */
    o.keep_on_device = keep;
    char err[512];
    if (ev_video_open_pair(ref, dis, argv[1], argv[2], &o, err, sizeof(err))) {
        printf("FAIL: %s route: %s\n", keep ? "uploaded" : "host", err);
        return -1;
    }
    return 0;
}

/* 0 when the two pictures hold the same samples; else prints the first difference. */
static int compare(const EvPicture *h, const EvPicture *d, unsigned frame, const char *which)
{
    if (h->width != d->width || h->height != d->height || h->bitdepth != d->bitdepth ||
        h->layout != d->layout) {
        printf("FAIL: %s frame %u: the uploaded frame's format is not the host's\n", which, frame);
        return 1;
    }
    const size_t bytes = h->bitdepth > 8 ? 2 : 1;
    for (unsigned p = 0; p < 3; p++) {
        unsigned w, rows;
        ev_plane_size(h->width, h->height, h->layout, p, &w, &rows);
        for (unsigned y = 0; y < rows; y++)
            if (memcmp((const uint8_t *)h->data[p] + (ptrdiff_t)y * h->stride[p],
                       (const uint8_t *)d->data[p] + (ptrdiff_t)y * d->stride[p], w * bytes)) {
                printf("FAIL: %s frame %u plane %u row %u differs from the host route's\n", which,
                       frame, p, y);
                return 1;
            }
    }
    return 0;
}

/* Check 1: the uploaded frames against the host route's. @return 0 or 1. */
static int same_frames(char **argv)
{
    EvVideo *hr = NULL, *hd = NULL, *ur = NULL, *ud = NULL;
    if (open_pair(&hr, &hd, argv, EV_KEEP_ON_HOST) || open_pair(&ur, &ud, argv, EV_KEEP_ALL_FRAMES))
        return 1;
    printf("reference: %s\ndistorted: %s\n", ev_video_describe(ur), ev_video_describe(ud));
    int bad = 0;
    if (ev_video_on_device(ur) != 2 || ev_video_on_device(ud) != 2) {
        printf("FAIL: ev_video_on_device() %d and %d, not 2 (uploaded)\n", ev_video_on_device(ur),
               ev_video_on_device(ud));
        bad = 1;
    }
    EvVideoDeviceFrame *held[2][LAG] = { { NULL } };
    EvVideo *up[2] = { ur, ud }, *host[2] = { hr, hd };
    unsigned n = 0;
    for (int ended = 0; !bad && !ended; n += !ended) {
        for (int k = 0; k < 2 && !bad; k++) {
            EvPicture h, d;
            EvVideoDeviceFrame *f = NULL;
            const int rh = ev_video_read(host[k], &h);
            const int rd = ev_video_read_device(up[k], &d, &f);
            if (rh < 0 || rd < 0 || rh != rd || (rd > 0) != (f != NULL)) {
                printf("FAIL: frame %u: host read %d (%s), uploaded read %d (%s)\n", n, rh,
                       ev_video_error(host[k]), rd, ev_video_error(up[k]));
                bad = 1;
            } else if (!rh) {
                ended = 1;
            } else {
                bad = compare(&h, &d, n, k ? "distorted" : "reference");
                ev_video_release_device(held[k][n % LAG]);
                held[k][n % LAG] = f;
            }
        }
    }
    EvPicture x;
    if (!bad && ev_video_read(ur, &x) != -EBUSY) {
        printf("FAIL: a host read after device reads was not refused\n");
        bad = 1;
    }
    if (!bad && !n) {
        printf("FAIL: no frames\n");
        bad = 1;
    }
    ev_video_close(&hr);
    ev_video_close(&hd);
    ev_video_close(&ur);
    ev_video_close(&ud);
    for (int k = 0; k < 2; k++) /* after the close: the ring outlives its reader */
        for (int i = 0; i < LAG; i++)
            ev_video_release_device(held[k][i]);
    if (!bad)
        printf("same frames: %u frame pairs equal\n", n);
    return bad;
}

/* Check 2: the close while the read-ahead thread waits for a frame. @return 0 or 1. */
static int close_while_lent(char **argv)
{
    EvVideo *r = NULL, *d = NULL;
    if (open_pair(&r, &d, argv, EV_KEEP_ALL_FRAMES))
        return 1;
    EvVideoDeviceFrame *held[EV_DEVICE_RING_FRAMES] = { NULL };
    unsigned n = 0;
    int bad = 0;
    /* hold all but one of the ring's frames: the thread reading ahead then takes the last one
     * and waits in the ring for another (a stream of more frames than the ring holds, plus
     * the two read ahead) */
    for (; n < EV_DEVICE_RING_FRAMES - 1; n++) {
        EvPicture pic;
        const int got = ev_video_read_device(r, &pic, &held[n]);
        if (got < 0) {
            printf("FAIL: read %u: %s\n", n, ev_video_error(r));
            bad = 1;
        }
        if (got <= 0)
            break;
    }
    if (!bad && n < EV_DEVICE_RING_FRAMES - 1) {
        printf("FAIL: the stream ended after %u frames: it must hold more than %d for this "
               "check\n",
               n, EV_DEVICE_RING_FRAMES + 1);
        bad = 1;
    }
    const struct timespec settle = { 0, 50 * 1000 * 1000 }; /* the thread reaches its wait */
    nanosleep(&settle, NULL);
    ev_video_close(&r); /* must return: the thread's wait is interrupted */
    ev_video_close(&d);
    for (unsigned i = 0; i < n; i++)
        ev_video_release_device(held[i]);
    if (!bad)
        printf("close while lent: returned with %u frames lent\n", n);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: upload_frames REF DIS SCALER\n");
        return 2;
    }
    if (!ev_video_can_decode()) {
        printf("skip: this build reads no encoded video\n");
        return 77;
    }
    int bad = same_frames(argv);
    bad |= close_while_lent(argv);
    if (atomic_load(&live_blocks) || atomic_load(&live_streams)) {
        printf("FAIL: %d blocks and %d streams of the double not freed\n",
               atomic_load(&live_blocks), atomic_load(&live_streams));
        bad = 1;
    }
    if (!bad)
        printf("passed (%s)\n", argv[3]);
    return bad;
}
