/*
 * libvmaf 3.x compatibility on exactvmaf (internal view). A VmafContext wraps one EvContext;
 * models are kept as Netflix --model specifications ("version=X" or "path=F", the name, the
 * flags and feature overloads "<extractor>.<option>=<value>") and handed to ev_use_model()
 * when a context registers them, which then scores every computed frame at the flush.
 */
#ifndef VMAF_COMPAT_H
#define VMAF_COMPAT_H

#include <time.h>

#include "libvmaf/libvmaf.h"

#include "exactvmaf/exactvmaf.h"

struct VmafFeatureDictionary {
    char **key, **val;
    unsigned n, cap;
};

/* What a model and a collection both are here: a specification, not a loaded model. */
typedef struct CvModelSpec {
    char *name;      /* output name (cfg->name or "vmaf") */
    char *source;    /* "version=X" or "path=F" */
    uint64_t flags;  /* enum VmafModelFlags */
    char *overloads; /* ":<extractor>.<option>=<value>..." or "" */
} CvModelSpec;

struct VmafModel {
    CvModelSpec spec;
};

struct VmafModelCollection {
    CvModelSpec spec;
};

/* "k=v:k=v" (prefix NULL) or ":P.k=v:P.k=v" (prefix P); "" for an empty dictionary; malloc'd. */
char *cv_dict_join(const VmafFeatureDictionary *d, const char *prefix);
/* The value of key in d (NULL: empty), or NULL. */
const char *cv_dict_get(const VmafFeatureDictionary *d, const char *key);

/* The ev_use_model() specification of spec; malloc'd. */
char *cv_spec_text(const CvModelSpec *spec);

/* libvmaf's logging: lines to stderr in its style ("libvmaf ERROR ..."), up to a level. */
typedef struct CvLog {
    EvLogCallback cb; /* cv_stderr_callback, or NULL (VMAF_LOG_LEVEL_NONE: silent) */
    EvLogLevel level; /* the most verbose level printed */
} CvLog;

/* The logger of a libvmaf log level (log.c). */
CvLog cv_stderr_log(enum VmafLogLevel level);
/* The engine's callback (EvSettings.log): one line to stderr. */
void cv_stderr_callback(void *user, EvLogLevel level, const char *line);
/* Print one formatted line at level, when log lets it through. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
void cv_log(const CvLog *log, EvLogLevel level, const char *fmt, ...);

/* The planes of a w x h picture of pix_fmt and bpc, each row padded to align bytes: sizes and
 * strides into *pic (zeroed first; data stays NULL), each plane's offset in one block and the
 * block's bytes. @return 0, -EINVAL (bad format, depth or size). */
int cv_plane_geometry(enum VmafPixelFormat pix_fmt, unsigned bpc, unsigned w, unsigned h,
                      unsigned align, VmafPicture *pic, size_t offset[3], size_t *total);

/* A reference count whose last drop calls free_fn(ref) (an owner's picture: a device picture
 * back to its pool); its count starts at 1 (again at cv_ref_reset). cv_ref_drop() is
 * vmaf_picture_unref()'s count: a host block goes back to the picture pool. */
VmafRef *cv_ref_new(void (*free_fn)(VmafRef *), void *owner);
void *cv_ref_owner(const VmafRef *r);
void cv_ref_reset(VmafRef *r);
void cv_ref_drop(VmafRef *r);

/* Workers (streams) a context has on the CUDA backend, whatever n_threads says. */
#define CV_CUDA_STREAMS 4

/* libvmaf_cuda: the preallocated device pictures of a context (cuda.c). */
typedef struct CvDevicePool CvDevicePool;
/* 1 when pic is one of pool's device pictures (fetched from it). */
int cv_device_picture_of(const CvDevicePool *pool, const VmafPicture *pic);
void cv_device_pool_free(CvDevicePool **pool);

struct VmafContext {
    EvContext *ev;
    EvSettings settings; /* ev's (a CUDA state import opens it again with its context) */
    VmafConfiguration cfg;
    CvLog log;
    VmafFeatureDictionary *models; /* name: the ev_use_model() specification first under it */
    int used;                      /* a feature or model was added to ev */
    unsigned pic_cnt;              /* pairs read */
    int flushed;
    clock_t t_begin, t_end; /* processor time from the first picture to the flush (fps) */
    int have_prealloc;
    VmafPictureConfiguration prealloc;
    CvDevicePool *device_pool; /* libvmaf_cuda's preallocated pictures (cuda.c), or NULL */
};

#endif
