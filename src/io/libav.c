/* libav* loaded at run time (libav.h): dlopen by soname, each function by dlsym. Empty in a
 * build without libav* (cmake/ffmpeg.cmake). */
#if EV_HAVE_FFMPEG
#define EV_LIBAV_LOADER 1
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#include "io/libav.h"

EvLibav ev_libav;

#define EV_STR_(x) #x
#define EV_STR(x) EV_STR_(x)

/* dependencies first */
static const char *const sonames[] = {
    "libavutil.so." EV_STR(LIBAVUTIL_VERSION_MAJOR),
    "libswscale.so." EV_STR(LIBSWSCALE_VERSION_MAJOR),
    "libavcodec.so." EV_STR(LIBAVCODEC_VERSION_MAJOR),
    "libavformat.so." EV_STR(LIBAVFORMAT_VERSION_MAJOR),
};

static int load_status = -ENOSYS;
static char load_error[320];

/* The symbol from whichever library has it. */
static void *find(void *const *lib, const char *name)
{
    for (size_t i = 0; i < sizeof(sonames) / sizeof(sonames[0]); i++) {
        void *p = dlsym(lib[i], name);
        if (p)
            return p;
    }
    return NULL;
}

static void load_once(void)
{
    void *lib[sizeof(sonames) / sizeof(sonames[0])];
    for (size_t i = 0; i < sizeof(sonames) / sizeof(sonames[0]); i++) {
        lib[i] = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
        if (!lib[i]) {
            snprintf(load_error, sizeof(load_error), "cannot load %s (encoded input): %s",
                     sonames[i], dlerror());
            return; /* what was loaded stays: dlclose of libav* is not safe */
        }
    }
    EvLibav l;
#define EV_LIBAV_FIND(name)                                                                        \
    *(void **)&l.name = find(lib, #name);                                                          \
    if (!l.name) {                                                                                 \
        snprintf(load_error, sizeof(load_error), "the libav* libraries (%s) have no %s",           \
                 sonames[sizeof(sonames) / sizeof(sonames[0]) - 1], #name);                        \
        return;                                                                                    \
    }
    EV_LIBAV_FUNCTIONS(EV_LIBAV_FIND)
#undef EV_LIBAV_FIND
    ev_libav = l;
    load_status = 0;
}

int ev_libav_load(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, load_once);
    return load_status;
}

const char *ev_libav_error(void)
{
    return load_error;
}
#else
typedef int ev_libav_unused; /* ISO C: no empty translation unit */
#endif
