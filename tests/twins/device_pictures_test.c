/* Device pictures (exactvmaf/cuda.h) against the CPU, bit for bit, for every feature, frame and
 * mean: frames written to device memory on a stream of the caller's (behind a long memset, so
 * that a read not ordered after the caller's work would see stale planes) and lent in place,
 * in the primary context and in a context of the caller's own (cuCtxCreate, as ffmpeg's CUDA
 * device makes one); copied on the device (release NULL, pitches that differ); on the CPU
 * backend (copied to the host); and host pictures lent to the CUDA backend at a padded stride.
 * Each lent pair is released exactly once, and its planes are spoilt then. Clips of each depth
 * class and layout, at 1 and 4 threads.
 *   device_pictures_test      exit 77 without a device
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#include <cuda_runtime.h>

#include "exactvmaf/cuda.h"
#include "exactvmaf/exactvmaf.h"
#include "unit/check.h"
#include "unit/check_scores.h"

enum { FRAMES = 6 };

typedef struct Clip {
    unsigned w, h, bpc;
    EvPixelLayout layout;
} Clip;

static const Clip clips[] = {
    { 176, 144, 8, EV_PIX_420 },
    { 320, 180, 10, EV_PIX_420 },
    { 208, 160, 12, EV_PIX_444 },
    { 240, 136, 16, EV_PIX_422 },
};

/* The driver calls a caller's own context needs (through the runtime: no link to libcuda). */
typedef CUresult (*CtxCreate)(CUcontext *, unsigned, CUdevice);
typedef CUresult (*CtxDestroy)(CUcontext);
typedef CUresult (*CtxPush)(CUcontext);
typedef CUresult (*CtxPop)(CUcontext *);
static CtxCreate ctx_create;
static CtxDestroy ctx_destroy;
static CtxPush ctx_push;
static CtxPop ctx_pop;

static int find_driver_calls(void)
{
    enum cudaDriverEntryPointQueryResult q;
    /* (11000: the 3020 ABI, (ctx, flags, dev); 12000 would give the one with affinity params) */
    return cudaGetDriverEntryPointByVersion("cuCtxCreate", (void **)&ctx_create, 11000,
                                            cudaEnableDefault, &q) ||
           cudaGetDriverEntryPointByVersion("cuCtxDestroy", (void **)&ctx_destroy, 12000,
                                            cudaEnableDefault, &q) ||
           cudaGetDriverEntryPointByVersion("cuCtxPushCurrent", (void **)&ctx_push, 12000,
                                            cudaEnableDefault, &q) ||
           cudaGetDriverEntryPointByVersion("cuCtxPopCurrent", (void **)&ctx_pop, 12000,
                                            cudaEnableDefault, &q);
}

static size_t sample_bytes(const Clip *c)
{
    return c->bpc > 8 ? 2 : 1;
}

/* Host frames (packed planes): picture k of frame f, content made from a hash. */
static void make_host(const Clip *c, unsigned f, unsigned k, uint8_t *buf, EvPicture *pic)
{
    *pic = (EvPicture){ c->w, c->h, c->bpc, c->layout, { 0 }, { 0 } };
    const unsigned max = (1u << c->bpc) - 1;
    for (unsigned p = 0; p < 3; p++) {
        unsigned pw, ph;
        ev_plane_size(c->w, c->h, c->layout, p, &pw, &ph);
        pic->data[p] = buf;
        pic->stride[p] = (ptrdiff_t)(pw * sample_bytes(c));
        for (unsigned y = 0; y < ph; y++)
            for (unsigned x = 0; x < pw; x++) {
                const unsigned smooth = ((x * 5 + y * 3 + f * 11 + p * 40) << (c->bpc - 8)) & max;
                const unsigned noise = k ? check_hash(x + 977 * y + 7919 * f + p) % 23 : 0;
                const unsigned v = smooth + noise > max ? max : smooth + noise;
                if (c->bpc > 8)
                    ((uint16_t *)buf)[(size_t)y * pw + x] = (uint16_t)v;
                else
                    buf[(size_t)y * pw + x] = (uint8_t)v;
            }
        buf += (size_t)pic->stride[p] * ph;
    }
}

static size_t frame_bytes(const Clip *c)
{
    size_t n = 0;
    for (unsigned p = 0; p < 3; p++) {
        unsigned pw, ph;
        ev_plane_size(c->w, c->h, c->layout, p, &pw, &ph);
        n += (size_t)pw * ph * sample_bytes(c);
    }
    return n;
}

static void add_features(EvContext *c)
{
    CHECK(ev_use_model(c, "version=vmaf_v0.6.1") == 0);
    CHECK(ev_use_feature(c, "psnr", NULL) == 0);
    CHECK(ev_use_feature(c, "float_ssim", NULL) == 0);
    CHECK(ev_use_feature(c, "ciede", NULL) == 0);
    CHECK(ev_use_feature(c, "float_moment", NULL) == 0);
}

static EvContext *open_context(EvBackend backend, unsigned threads, void *cu_ctx)
{
    EvSettings s;
    ev_default_settings(&s);
    s.backend = backend;
    s.n_threads = threads;
    s.cuda_context = cu_ctx;
    EvContext *c = NULL;
    CHECK(ev_open(&c, &s) == 0);
    if (c)
        add_features(c);
    return c;
}

static void check_same(const EvContext *got, const EvContext *want, const char *what)
{
    const unsigned before = check_failed;
    CHECK(ev_frame_count(got) == FRAMES);
    check_same_scores(got, want);
    if (check_failed != before)
        printf("  (%s)\n", what);
}

/* A device copy of a host picture: planes at pitch bytes per row in one block. */
typedef struct DevPic {
    void *mem;
    size_t bytes;
    EvPicture pic;
    int released;
    int spoil; /* cudaMemset the block at release (primary context only) */
} DevPic;

static void release(void *user)
{
    DevPic *d = user;
    d->released++;
    if (d->spoil)
        cudaMemset(d->mem, 0x55, d->bytes);
}

static size_t pitched_bytes(const Clip *c, size_t pitch)
{
    size_t n = 0;
    for (unsigned p = 0; p < 3; p++) {
        unsigned pw, ph;
        ev_plane_size(c->w, c->h, c->layout, p, &pw, &ph);
        n += pitch * ph;
    }
    return n;
}

/* Fill d (d->mem already holds pitched_bytes) from host picture h, on stream, behind a long
 * memset of scratch on that stream. */
static void upload(const Clip *c, const EvPicture *h, DevPic *d, size_t pitch, cudaStream_t s,
                   void *scratch, size_t scratch_bytes)
{
    if (scratch)
        CHECK(cudaMemsetAsync(scratch, 0, scratch_bytes, s) == cudaSuccess);
    d->pic = (EvPicture){ c->w, c->h, c->bpc, c->layout, { 0 }, { 0 } };
    char *at = d->mem;
    for (unsigned p = 0; p < 3; p++) {
        unsigned pw, ph;
        ev_plane_size(c->w, c->h, c->layout, p, &pw, &ph);
        d->pic.data[p] = at;
        d->pic.stride[p] = (ptrdiff_t)pitch;
        CHECK(cudaMemcpy2DAsync(at, pitch, h->data[p], (size_t)h->stride[p], pw * sample_bytes(c),
                                ph, cudaMemcpyHostToDevice, s) == cudaSuccess);
        at += pitch * ph;
    }
}

typedef enum Case {
    IN_PLACE,       /* primary context, packed rows, caller's stream, released when read */
    PADDED,         /* padded rows: copied on the device (packed), released at once */
    COPIED,         /* release NULL: copied on the device, then overwritten by the caller */
    PITCHES_DIFFER, /* ref and dis pitches differ: copied */
    OWN_CONTEXT,    /* a context of the caller's, ev_device_alloc's memory */
    CPU_BACKEND,    /* the CPU backend: copied to the host */
    HOST_LENT_CUDA, /* host pictures lent to the CUDA backend at a padded stride */
} Case;

static const char *case_name[] = { "in place",         "padded rows", "copied",
                                   "pitches differ",   "own context", "cpu backend",
                                   "host lent to cuda" };

typedef struct HostLent {
    uint8_t *buf[2];
    size_t bytes;
    int released;
} HostLent;

static void host_release(void *user)
{
    HostLent *l = user;
    l->released++;
    memset(l->buf[0], 0x55, l->bytes);
    memset(l->buf[1], 0x55, l->bytes);
}

static void run_case(const Clip *c, Case k, unsigned threads, uint8_t *host[FRAMES][2],
                     const EvContext *want)
{
    void *cu_ctx = NULL;
    if (k == OWN_CONTEXT) {
        CUcontext ctx = NULL;
        if (ctx_create(&ctx, 0, 0) != CUDA_SUCCESS) {
            CHECK(!"cuCtxCreate");
            return;
        }
        CUcontext popped;
        ctx_pop(&popped); /* made current by its creation: the library must make it current */
        cu_ctx = ctx;
    }
    EvContext *ev =
        open_context(k == CPU_BACKEND ? EV_BACKEND_CPU : EV_BACKEND_CUDA, threads, cu_ctx);
    if (!ev)
        return;
    const size_t row = c->w * sample_bytes(c);
    /* packed where the twins read in place; padded where the pair is copied */
    const size_t pitch = k == IN_PLACE || k == OWN_CONTEXT ? row : (row + 255) / 256 * 256 + 512;
    const size_t scratch_bytes = 256u << 20;
    void *scratch = NULL;
    cudaStream_t s = NULL;
    if (cu_ctx)
        ctx_push(cu_ctx);
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
    if (k == IN_PLACE || k == PADDED) /* the long memset before the frames' writes */
        CHECK(cudaMalloc(&scratch, scratch_bytes) == cudaSuccess);
    DevPic dev[FRAMES][2];
    HostLent lent[FRAMES];
    memset(dev, 0, sizeof(dev));
    memset(lent, 0, sizeof(lent));
    for (unsigned f = 0; f < FRAMES; f++) {
        EvPicture h[2];
        make_host(c, f, 0, host[f][0], &h[0]);
        make_host(c, f, 1, host[f][1], &h[1]);
        if (k == HOST_LENT_CUDA) {
            HostLent *l = &lent[f];
            const size_t stride = row + 64;
            l->bytes = pitched_bytes(c, stride);
            EvPicture p[2];
            for (int j = 0; j < 2; j++) {
                l->buf[j] = malloc(l->bytes);
                p[j] = (EvPicture){ c->w, c->h, c->bpc, c->layout, { 0 }, { 0 } };
                uint8_t *at = l->buf[j];
                for (unsigned q = 0; q < 3; q++) {
                    unsigned pw, ph;
                    ev_plane_size(c->w, c->h, c->layout, q, &pw, &ph);
                    p[j].data[q] = at;
                    p[j].stride[q] = (ptrdiff_t)stride;
                    for (unsigned y = 0; y < ph; y++)
                        memcpy(at + y * stride, (const uint8_t *)h[j].data[q] + y * h[j].stride[q],
                               pw * sample_bytes(c));
                    at += stride * ph;
                }
            }
            CHECK(ev_lend_pictures(ev, &p[0], &p[1], host_release, l) == 0);
            continue;
        }
        for (int j = 0; j < 2; j++) {
            DevPic *d = &dev[f][j];
            const size_t pj = pitch + (k == PITCHES_DIFFER && j ? 256 : 0);
            d->bytes = pitched_bytes(c, pj);
            if (cu_ctx)
                CHECK(ev_device_alloc(ev, d->bytes, &d->mem) == 0);
            else
                CHECK(cudaMalloc(&d->mem, d->bytes) == cudaSuccess);
            d->spoil = !cu_ctx;
            upload(c, &h[j], d, pj, s, j ? NULL : scratch, scratch_bytes);
        }
        if (k != IN_PLACE && k != PADDED && k != OWN_CONTEXT) /* ordered after the stream anyway */
            CHECK(cudaStreamSynchronize(s) == cudaSuccess);
        if (k == COPIED) {
            CHECK(ev_lend_device_pictures(ev, &dev[f][0].pic, &dev[f][1].pic, s, NULL, NULL) == 0);
            for (int j = 0; j < 2; j++) /* the caller reuses its planes at once */
                CHECK(cudaMemset(dev[f][j].mem, 0x55, dev[f][j].bytes) == cudaSuccess);
        } else {
            CHECK(ev_lend_device_pictures(ev, &dev[f][0].pic, &dev[f][1].pic, s, release,
                                          &dev[f][0]) == 0);
            if (k == PADDED || k == PITCHES_DIFFER || k == CPU_BACKEND)
                CHECK(dev[f][0].released == 1); /* copied: given back at once */
        }
    }
    if (cu_ctx) { /* the library makes its context current itself */
        CUcontext popped;
        ctx_pop(&popped);
    }
    CHECK(ev_flush(ev) == 0);
    check_same(ev, want, case_name[k]);
    if (cu_ctx)
        ctx_push(cu_ctx);
    for (unsigned f = 0; f < FRAMES; f++) {
        if (k == HOST_LENT_CUDA) {
            CHECK(lent[f].released == 1);
            free(lent[f].buf[0]);
            free(lent[f].buf[1]);
            continue;
        }
        if (k != COPIED)
            CHECK(dev[f][0].released == 1);
        for (int j = 0; j < 2; j++) {
            if (cu_ctx)
                ev_device_free(ev, dev[f][j].mem);
            else
                cudaFree(dev[f][j].mem);
        }
    }
    ev_close(&ev);
    cudaStreamDestroy(s);
    cudaFree(scratch);
    if (cu_ctx) {
        CUcontext popped;
        ctx_pop(&popped);
        ctx_destroy(cu_ctx);
    }
}

int main(void)
{
    if (ev_gpu_count() <= 0) {
        printf("device pictures: no CUDA device; skipped\n");
        return 77;
    }
    if (find_driver_calls()) {
        printf("device pictures: the driver's context calls are missing\n");
        return 1;
    }
    for (size_t i = 0; i < sizeof(clips) / sizeof(clips[0]); i++) {
        const Clip *c = &clips[i];
        uint8_t *host[FRAMES][2];
        for (unsigned f = 0; f < FRAMES; f++)
            for (int j = 0; j < 2; j++)
                host[f][j] = malloc(frame_bytes(c));
        EvContext *want = open_context(EV_BACKEND_CPU, 2, NULL);
        for (unsigned f = 0; f < FRAMES; f++) {
            EvPicture h[2];
            make_host(c, f, 0, host[f][0], &h[0]);
            make_host(c, f, 1, host[f][1], &h[1]);
            CHECK(ev_send_pictures(want, &h[0], &h[1]) == 0);
        }
        CHECK(ev_flush(want) == 0);
        for (unsigned threads = 1; threads <= 4; threads += 3)
            for (int k = IN_PLACE; k <= HOST_LENT_CUDA; k++) {
                const unsigned before = check_failed;
                run_case(c, (Case)k, threads, host, want);
                printf("%ux%u %u-bit %s, %u thread(s), %s: %s\n", c->w, c->h, c->bpc,
                       ev_layout_name(c->layout), threads, case_name[k],
                       check_failed == before ? "equal" : "DIFFERENT");
            }
        ev_close(&want);
        for (unsigned f = 0; f < FRAMES; f++)
            for (int j = 0; j < 2; j++)
                free(host[f][j]);
    }
    printf("device pictures: %u passed, %u failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}
