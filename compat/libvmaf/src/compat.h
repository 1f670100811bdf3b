/*
 * libvmaf 3.x compatibility on exactvmaf (internal view). A VmafContext wraps one EvContext;
 * models are kept as Netflix --model specifications ("version=X" or "path=F", the name, the
 * flags and feature overloads "<extractor>.<option>=<value>") and handed to ev_use_model()
 * when a context registers them, which then scores every computed frame at the flush.
 */
#ifndef VMAF_COMPAT_H
#define VMAF_COMPAT_H

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

#endif
