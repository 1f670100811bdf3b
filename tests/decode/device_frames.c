/*
 * Encoded input kept on the device (ev_video_read_device) against the host route, sample for
 * sample:
 *   device_frames REF DIS SCALER device|host|uploaded|always
 * opens the pair twice with ev_video_open_pair(): software decoding and libswscale on the host;
 * and the route under test (decode_device.c):
 *   device    NVDEC, EV_KEEP_NVDEC_FRAMES: both inputs kept on the device (the device unpack and
 *             the scaler's twin);
 *   host      the same, where the distorted must not be (a conversion the twin does not give,
 *             which must then say why);
 *   uploaded  the CPU decoder, EV_KEEP_ALL_FRAMES: both converted on the host and uploaded;
 *   always    NVDEC, EV_KEEP_ALL_FRAMES, where the distorted's conversion has no twin: the
 *             reference kept on the device, the distorted uploaded.
 * Every frame read on the device is copied back and compared with the host route's. Frames are given back three reads late,
 * and the last ones after ev_video_close(), to use the ring (and the reader's read-ahead) as a
 * caller does; a host read after device reads must be refused (-EBUSY). Prints one line per
 * input and a summary; exit 0, 1 a difference or an error, 77 without a device or decoding.
 */
#include <cuda_runtime.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exactvmaf/video.h"

#define LAG 3

/* The pair with the route's decoder and keep_on_device (the host route: CPU, on the host). */
static int open_pair(EvVideo **ref, EvVideo **dis, char **argv, const EvDecodeOn decoder,
                     const EvKeepOnDevice keep)
{
    EvVideoOptions o;
    ev_video_default_options(&o);
    o.scaler = argv[3];
    o.decode_on = decoder;
    o.keep_on_device = keep;
    char err[512];
    if (ev_video_open_pair(ref, dis, argv[1], argv[2], &o, err, sizeof(err))) {
        printf("FAIL: %s route: %s\n", keep ? argv[4] : "host", err);
        return -1;
    }
    return 0;
}

/* The device picture d copied to host planes, compared with h. @return 0 equal, 1 differ. */
static int compare(const EvPicture *h, const EvPicture *d, unsigned frame, const char *which)
{
    const unsigned bytes = h->bitdepth > 8 ? 2 : 1;
    for (unsigned p = 0; p < 3; p++) {
        unsigned w, rows;
        ev_plane_size(h->width, h->height, h->layout, p, &w, &rows);
        if (!w || !rows)
            continue;
        const size_t row = (size_t)w * bytes;
        uint8_t *copy = malloc(row * rows);
        if (!copy || cudaMemcpy2D(copy, row, d->data[p], (size_t)d->stride[p], row, rows,
                                  cudaMemcpyDeviceToHost) != cudaSuccess) {
            printf("FAIL: %s frame %u plane %u: cannot copy it back\n", which, frame, p);
            free(copy);
            return 1;
        }
        for (unsigned y = 0; y < rows; y++) {
            const uint8_t *a = (const uint8_t *)h->data[p] + (ptrdiff_t)y * h->stride[p];
            const uint8_t *b = copy + row * y;
            if (memcmp(a, b, row)) {
                unsigned x = 0;
                while (x < w && !memcmp(a + x * bytes, b + x * bytes, bytes))
                    x++;
                const unsigned va = bytes == 2 ? ((const uint16_t *)a)[x] : a[x];
                const unsigned vb = bytes == 2 ? ((const uint16_t *)b)[x] : b[x];
                printf("FAIL: %s frame %u plane %u (%u, %u): host %u, device %u\n", which, frame, p,
                       x, y, va, vb);
                free(copy);
                return 1;
            }
        }
        free(copy);
    }
    return 0;
}

int main(int argc, char **argv)
{
    /* each route: its decoder and keep_on_device, and where the two inputs must be read
     * (ev_video_on_device() of the reference and of the distorted) */
    static const struct {
        const char *name;
        EvDecodeOn decoder;
        EvKeepOnDevice keep;
        int ref_on, dis_on;
    } routes[] = {
        { "device", EV_DECODE_NVDEC, EV_KEEP_NVDEC_FRAMES, 1, 1 },
        { "host", EV_DECODE_NVDEC, EV_KEEP_NVDEC_FRAMES, 1, 0 },
        { "uploaded", EV_DECODE_CPU, EV_KEEP_ALL_FRAMES, 2, 2 },
        { "always", EV_DECODE_NVDEC, EV_KEEP_ALL_FRAMES, 1, 2 },
    };
    int route = -1;
    for (int i = 0; argc == 5 && i < (int)(sizeof(routes) / sizeof(routes[0])); i++)
        if (!strcmp(argv[4], routes[i].name))
            route = i;
    if (route < 0) {
        fprintf(stderr, "usage: device_frames REF DIS SCALER device|host|uploaded|always\n");
        return 2;
    }
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < 1) {
        printf("skip: no CUDA device\n");
        return 77;
    }
    if (!ev_video_can_decode()) {
        printf("skip: this build reads no encoded video\n");
        return 77;
    }
    EvVideo *hr = NULL, *hd = NULL, *dr = NULL, *dd = NULL;
    if (open_pair(&hr, &hd, argv, EV_DECODE_CPU, EV_KEEP_ON_HOST) ||
        open_pair(&dr, &dd, argv, routes[route].decoder, routes[route].keep))
        return 1;
    printf("reference: %s\ndistorted: %s\n", ev_video_describe(dr), ev_video_describe(dd));
    int bad = 0;
    if (ev_video_on_device(dr) != routes[route].ref_on ||
        ev_video_on_device(dd) != routes[route].dis_on) {
        printf("FAIL: ev_video_on_device() of the reference %d and the distorted %d, not %d "
               "and %d\n",
               ev_video_on_device(dr), ev_video_on_device(dd), routes[route].ref_on,
               routes[route].dis_on);
        bad = 1;
    }
    EvVideoDeviceFrame *held[2][LAG] = { { NULL } };
    EvVideo *dev[2] = { dr, dd }, *host[2] = { hr, hd };
    unsigned n = 0, on_device = 0;
    while (!bad) {
        int ended = 0;
        for (int k = 0; k < 2 && !bad; k++) {
            EvPicture h, d;
            const int rh = ev_video_read(host[k], &h);
            EvVideoDeviceFrame *f = NULL;
            const int rd = ev_video_on_device(dev[k]) ? ev_video_read_device(dev[k], &d, &f)
                                                      : ev_video_read(dev[k], &d);
            if (rh < 0 || rd < 0 || rh != rd) {
                printf("FAIL: frame %u: host read %d (%s), device read %d (%s)\n", n, rh,
                       ev_video_error(host[k]), rd, ev_video_error(dev[k]));
                bad = 1;
                break;
            }
            if (!rh) {
                ended = 1;
                continue;
            }
            if (f) {
                bad = compare(&h, &d, n, k ? "distorted" : "reference");
                on_device++;
                ev_video_release_device(held[k][n % LAG]);
                held[k][n % LAG] = f;
            } else { /* the host route of both: the same frames */
                for (unsigned p = 0; p < 3 && !bad; p++) {
                    unsigned w, rows;
                    ev_plane_size(h.width, h.height, h.layout, p, &w, &rows);
                    for (unsigned y = 0; y < rows && !bad; y++)
                        bad = memcmp((const uint8_t *)h.data[p] + (ptrdiff_t)y * h.stride[p],
                                     (const uint8_t *)d.data[p] + (ptrdiff_t)y * d.stride[p],
                                     (size_t)w * (h.bitdepth > 8 ? 2 : 1)) != 0;
                }
                if (bad)
                    printf("FAIL: %s frame %u differs on the host\n", k ? "distorted" : "reference",
                           n);
            }
        }
        if (ended || bad)
            break;
        n++;
    }
    if (!bad && n) { /* read on the device from the first such read on: host reads refused */
        EvPicture x;
        if (ev_video_read(dr, &x) != -EBUSY) {
            printf("FAIL: a host read after device reads was not refused\n");
            bad = 1;
        }
    }
    ev_video_close(&hr);
    ev_video_close(&hd);
    ev_video_close(&dr);
    ev_video_close(&dd);
    for (int k = 0; k < 2; k++) /* after the close: the ring outlives its reader */
        for (int i = 0; i < LAG; i++)
            ev_video_release_device(held[k][i]);
    if (!bad && !n) {
        printf("FAIL: no frames\n");
        bad = 1;
    }
    if (!bad)
        printf("passed: %u frame pairs equal (%u device frames, %s)\n", n, on_device, argv[3]);
    return bad;
}
