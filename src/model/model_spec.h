/* A model specification in Netflix's --model syntax (reference: libvmaf/tools/cli_parse.c,
 * parse_model_config): colon-separated "version=", "path=", "name=", bare or =true/false
 * "disable_clip" and "enable_transform", and feature overloads "<extractor>.<option>=<value>". */
#ifndef EV_MODEL_MODEL_SPEC_H
#define EV_MODEL_MODEL_SPEC_H

#include "base/log.h"

#define EV_MODEL_MAX_OVERLOADS 32

typedef struct EvModelOverload {
    const char *extractor; /* e.g. "adm" */
    const char *option;    /* e.g. "adm_enhn_gain_limit" */
    const char *value;     /* as written; the extractor's option parser reads it */
    int used;              /* set when a model feature comes from this extractor */
} EvModelOverload;

typedef struct EvModelSpec {
    char *buf;           /* owned copy of the spec; the strings below point into it */
    const char *version; /* built-in model, or NULL */
    const char *path;    /* model file, or NULL */
    const char *name;    /* output name, "vmaf" by default */
    unsigned flags;      /* EV_MODEL_DISABLE_CLIP | EV_MODEL_ENABLE_TRANSFORM */
    EvModelOverload overload[EV_MODEL_MAX_OVERLOADS];
    unsigned n_overloads;
} EvModelSpec;

/* Exactly one of version= and path= is required. @return 0, -EINVAL (logged), -ENOMEM */
int ev_model_spec_parse(EvModelSpec *spec, const char *text, const EvLog *log);
void ev_model_spec_free(EvModelSpec *spec);

#endif
