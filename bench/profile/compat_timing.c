/* LD_PRELOAD shim for ffmpeg's libvmaf filter: where its filter thread's time goes. It wraps
 * libvmaf's vmaf_picture_alloc and vmaf_read_pictures (the calls of vf_libvmaf.c's do_vmaf),
 * sums the time spent inside them, and at exit prints one line to stderr: frames, seconds
 * inside each call, and the seconds between the first and the last frame spent outside them
 * (ffmpeg's own work on that thread: framesync, copy_picture_data's memcpy, output).
 *   cc -O2 -shared -fPIC compat_timing.c -o compat_timing.so -ldl
 *   LD_PRELOAD=./compat_timing.so ffmpeg ... -lavfi libvmaf ... */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>

typedef struct VmafPicture VmafPicture;
typedef struct VmafContext VmafContext;

static double in_alloc, in_read, in_flush, first, last;
static unsigned long frames;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

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
    const double t0 = now();
    const int r = real(c, ref, dis, index);
    const double t1 = now();
    if (ref) {
        if (!frames++)
            first = t0;
        last = t1;
        in_read += t1 - t0;
    } else {
        in_flush += t1 - t0;
    }
    return r;
}

__attribute__((destructor)) static void report(void)
{
    if (frames)
        fprintf(stderr,
                "compat timing: %lu frames, first to last %.4f s: in vmaf_read_pictures %.4f s, "
                "in vmaf_picture_alloc %.4f s, outside (ffmpeg) %.4f s; flush %.4f s\n",
                frames, last - first, in_read, in_alloc, last - first - in_read - in_alloc,
                in_flush);
}
