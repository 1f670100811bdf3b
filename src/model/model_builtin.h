/* The built-in models: model/<version>.json, embedded by cmake/embed_models.cmake. */
#ifndef EV_MODEL_MODEL_BUILTIN_H
#define EV_MODEL_MODEL_BUILTIN_H

#include <stddef.h>

typedef struct EvBuiltinModel {
    const char *version;       /* e.g. "vmaf_v0.6.1"; NULL ends the table */
    const unsigned char *json; /* the file's bytes, not NUL-terminated */
    size_t size;
} EvBuiltinModel;

/* Defined in the generated ev_builtin_models.c; ends with a NULL version. */
extern const EvBuiltinModel ev_builtin_models[];
/* The same versions, NULL-terminated (ev_model_versions). */
extern const char *const ev_builtin_model_versions[];

/* The entry of a version, or NULL. */
const EvBuiltinModel *ev_builtin_model_find(const char *version);

#endif
