/* LD_PRELOAD shim for ffmpeg's libvmaf filter: where its filter thread's time goes. It wraps
 * libvmaf's vmaf_picture_alloc and vmaf_read_pictures (the calls of vf_libvmaf.c's do_vmaf),
 * sums the time spent inside them, and at exit prints one line to stderr: frames, seconds
 * inside each call, and the seconds between the first and the last frame spent outside them
 * (ffmpeg's own work on that thread: framesync, copy_picture_data's memcpy, output), and the
 * start-up and close: seconds from the shim's load to vmaf_init, inside vmaf_init, from
 * vmaf_init's return to the first frame, the flush, inside vmaf_close.
 * COMPAT_DISCARD=1 makes it the filter's bound for any libvmaf: each pair is given back
 * (vmaf_picture_unref) at once and nothing is scored, so what remains is ffmpeg's work and the
 * library's picture allocation (the pooled score then fails: ffmpeg logs it and goes on).
 * COMPAT_TRACE=1 also prints one line per vmaf_init, vmaf_close, model load and feature
 * registration as it returns: seconds since the shim's load, and inside the call.
 *   cc -O2 -shared -fPIC compat_timing.c -o compat_timing.so -ldl
 *   LD_PRELOAD=./compat_timing.so ffmpeg ... -lavfi libvmaf ... */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct VmafPicture VmafPicture;
typedef struct VmafContext VmafContext;
typedef struct { /* libvmaf.h's VmafConfiguration, passed by value */
    int log_level;
    unsigned n_threads, n_subsample;
    uint64_t cpumask, gpumask;
} VmafConfiguration;

static double in_alloc, in_read, in_flush, first, last, loaded, init_at, in_init, in_close;
static unsigned long frames;
static int discard, trace;

static double now(void);
static void traced(const char *call, double t0, double t1)
{
    if (trace)
        fprintf(stderr, "compat trace: %-32s at %.4f s, inside %.4f s\n", call, t0 - loaded,
                t1 - t0);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

__attribute__((constructor)) static void load(void)
{
    loaded = now();
    const char *d = getenv("COMPAT_DISCARD");
    discard = d && *d == '1';
    const char *tr = getenv("COMPAT_TRACE");
    trace = tr && *tr == '1';
}

int vmaf_init(VmafContext **c, VmafConfiguration cfg)
{
    static int (*real)(VmafContext **, VmafConfiguration);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "vmaf_init");
    const double t0 = now();
    const int r = real(c, cfg);
    init_at = now();
    in_init += init_at - t0;
    traced("vmaf_init", t0, init_at);
    return r;
}

int vmaf_close(VmafContext *c)
{
    static int (*real)(VmafContext *);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "vmaf_close");
    const double t0 = now();
    const int r = real(c);
    const double t1 = now();
    in_close += t1 - t0;
    traced("vmaf_close", t0, t1);
    return r;
}

/* Calls timed for the trace only: (name, the real function's type, its parameters, its args) */
#define TRACED(name, params, args)                                                                 \
    int name params                                                                                \
    {                                                                                              \
        static int(*real) params;                                                                  \
        if (!real)                                                                                 \
            *(void **)&real = dlsym(RTLD_NEXT, #name);                                             \
        const double t0 = now();                                                                   \
        const int r = real args;                                                                   \
        traced(#name, t0, now());                                                                  \
        return r;                                                                                  \
    }
TRACED(vmaf_model_load, (void **m, void *cfg, const char *version), (m, cfg, version))
TRACED(vmaf_use_features_from_model, (VmafContext * c, void *m), (c, m))
TRACED(vmaf_use_feature, (VmafContext * c, const char *name, void *opts), (c, name, opts))

int vmaf_picture_alloc(VmafPicture *pic, int pix_fmt, unsigned bpc, unsigned w, unsigned h)
{
    static int (*real)(VmafPicture *, int, unsigned, unsigned, unsigned);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "vmaf_picture_alloc");
    const double t0 = now();
    const int r = real(pic, pix_fmt, bpc, w, h);
    in_alloc += now() - t0;
    return r;
}

int vmaf_read_pictures(VmafContext *c, VmafPicture *ref, VmafPicture *dis, unsigned index)
{
    static int (*real)(VmafContext *, VmafPicture *, VmafPicture *, unsigned);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "vmaf_read_pictures");
    static int (*unref)(VmafPicture *);
    if (!unref)
        *(void **)&unref = dlsym(RTLD_NEXT, "vmaf_picture_unref");
    const double t0 = now();
    int r = 0;
    if (!discard)
        r = real(c, ref, dis, index);
    else if (ref)
        r = unref(ref) | unref(dis);
    const double t1 = now();
    if (ref) {
        if (!frames++) {
            first = t0;
            traced("vmaf_read_pictures (the first)", t0, t1);
        }
        last = t1;
        in_read += t1 - t0;
    } else {
        in_flush += t1 - t0;
        traced("vmaf_read_pictures (flush)", t0, t1);
    }
    return r;
}

__attribute__((destructor)) static void report(void)
{
    if (frames)
        fprintf(stderr,
                "compat timing: %lu frames, first to last %.4f s: in vmaf_read_pictures %.4f s, "
                "in vmaf_picture_alloc %.4f s, outside (ffmpeg) %.4f s; flush %.4f s; load to "
                "vmaf_init %.4f s, in vmaf_init %.4f s, vmaf_init to the first frame %.4f s, "
                "in vmaf_close %.4f s%s\n",
                frames, last - first, in_read, in_alloc, last - first - in_read - in_alloc,
                in_flush, init_at - in_init - loaded, in_init, first - init_at, in_close,
                discard ? " (frames discarded)" : "");
}
