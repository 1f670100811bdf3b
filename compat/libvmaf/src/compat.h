/*
 * libvmaf 3.x compatibility on exactvmaf (internal view). A VmafContext wraps one EvContext;
 * models are kept as Netflix --model specifications ("version=X" or "path=F", the name, the
 * flags and feature overloads "<extractor>.<option>=<value>") and handed to ev_use_model()
 * when a context registers them, which then scores every computed frame at the flush.
 */
#ifndef VMAF_COMPAT_H
#define VMAF_COMPAT_H

#include "libvmaf/libvmaf.h"

#include "core/log.h"

struct VmafFeatureDictionary {
    char **key, **val;
    unsigned n, cap;
};

/* What a model and a collection both are here: a specification, not a loaded model. */
typedef struct CvModelSpec {
    char *name;         /* output name (cfg->name or "vmaf") */
    char *source;       /* "version=X" or "path=F" */
    uint64_t flags;     /* enum VmafModelFlags */
    char *overloads;    /* ":<extractor>.<option>=<value>..." or "" */
} CvModelSpec;

struct VmafModel {
    CvModelSpec spec;
};

struct VmafModelCollection {
    CvModelSpec spec;
};

/* "k=v:k=v" (prefix NULL) or ":P.k=v:P.k=v" (prefix P); "" for an empty dictionary; malloc'd. */
char *cv_dict_join(const VmafFeatureDictionary *d, const char *prefix);

/* The ev_use_model() specification of spec; malloc'd. */
char *cv_spec_text(const CvModelSpec *spec);

/* A logger to stderr in libvmaf's style ("libvmaf ERROR ..."), up to level (NONE: silent). */
EvLog cv_stderr_log(enum VmafLogLevel level);
void cv_stderr_callback(void *user, EvLogLevel level, const char *line);

#endif
