/* Unit-test helper: one frame pair through the public API. */
#ifndef EV_TESTS_UNIT_CHECK_API_H
#define EV_TESTS_UNIT_CHECK_API_H

#include <stdint.h>
#include <stdlib.h>

#include "base/picture.h"
#include "exactvmaf/exactvmaf.h"

/* Open *ctx with the default settings but n_threads workers and log (NULL: silent).
 * @return ev_open's result. */
static inline int check_open(EvContext **ctx, unsigned n_threads, EvLogCallback log)
{
    EvSettings s;
    ev_default_settings(&s);
    s.n_threads = n_threads;
    s.log = log;
    return ev_open(ctx, &s);
}

/* Run extractor fex (options opts) on one w x h 4:4:4 pair of 8-bit samples shifted to bpc bits
 * (the same content at every depth) and read n outputs of frame 0 by name. Errors are logged
 * through log. @return 0, or the first error. */
static inline int check_run_pair(const char *fex, const char *opts, unsigned w, unsigned h,
                                 unsigned bpc, const uint8_t *a, const uint8_t *b,
                                 EvLogCallback log, const char *const *names, int n, double *out)
{
    uint16_t *wa = malloc((size_t)w * h * 2), *wb = malloc((size_t)w * h * 2);
    if (!wa || !wb) {
        free(wa);
        free(wb);
        return -1;
    }
    for (size_t i = 0; i < (size_t)w * h; i++) {
        wa[i] = (uint16_t)(a[i] << (bpc - 8));
        wb[i] = (uint16_t)(b[i] << (bpc - 8));
    }
    const ptrdiff_t st = bpc > 8 ? 2 * (ptrdiff_t)w : (ptrdiff_t)w;
    const void *pa = bpc > 8 ? (const void *)wa : a, *pb = bpc > 8 ? (const void *)wb : b;
    const EvPicture ra = { w, h, bpc, EV_PIX_444, { pa, pa, pa }, { st, st, st } };
    const EvPicture rb = { w, h, bpc, EV_PIX_444, { pb, pb, pb }, { st, st, st } };
    EvContext *ctx;
    int err = check_open(&ctx, 1, log);
    err = err ? err : ev_use_feature(ctx, fex, opts);
    err = err ? err : ev_send_pictures(ctx, &ra, &rb);
    err = err ? err : ev_flush(ctx);
    for (int k = 0; k < n && !err; k++)
        err = ev_get_score(ctx, names[k], 0, &out[k]);
    ev_close(&ctx);
    free(wa);
    free(wb);
    return err;
}

/* An internal picture of one packed luma plane (what extractors' sum loops read). */
static inline EvPic check_luma_pic(void *buf, unsigned w, unsigned h, unsigned bpc)
{
    EvPic p = { .bpc = bpc, .layout = EV_PIX_444 };
    p.w[0] = w;
    p.h[0] = h;
    p.stride[0] = (ptrdiff_t)w * (bpc > 8 ? 2 : 1);
    p.data[0] = buf;
    return p;
}

#endif
