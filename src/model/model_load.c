/* Where a model comes from: a built-in version (model/<version>.json, embedded at build time)
 * or a JSON file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/model_builtin.h"

#define MAX_MODEL_FILE (64u << 20)

const EvBuiltinModel *ev_builtin_model_find(const char *const version)
{
    for (const EvBuiltinModel *b = ev_builtin_models; b->version; b++)
        if (!strcmp(b->version, version))
            return b;
    return NULL;
}

int ev_model_set_load_builtin(EvModelSet *const set, const char *const version,
                              const unsigned flags, const EvLog *const log)
{
    memset(set, 0, sizeof(*set));
    const EvBuiltinModel *b = ev_builtin_model_find(version);
    if (!b) {
        char list[512] = "";
        for (const EvBuiltinModel *k = ev_builtin_models; k->version; k++)
            snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
                     k == ev_builtin_models ? "" : ", ", k->version);
        ev_log(log, EV_LOG_ERROR, "no built-in model \"%s\" (built-in: %s)", version, list);
        return -ENOENT;
    }
    char origin[128];
    snprintf(origin, sizeof(origin), "built-in model %s", version);
    return ev_model_set_parse(set, (const char *)b->json, b->size, origin, flags, log);
}

/* The whole file in a malloc'ed buffer. */
static int read_file(FILE *f, const char *path, char **out, size_t *size, const EvLog *log)
{
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap)
            break;
        char *bigger = cap < MAX_MODEL_FILE ? realloc(buf, cap * 2) : NULL;
        if (!bigger) {
            free(buf);
            ev_log(log, EV_LOG_ERROR, "%s: too large for a model file", path);
            return cap < MAX_MODEL_FILE ? -ENOMEM : -EINVAL;
        }
        buf = bigger;
        cap *= 2;
    }
    if (!buf)
        return -ENOMEM;
    if (ferror(f)) {
        free(buf);
        ev_log(log, EV_LOG_ERROR, "%s: read error", path);
        return -EIO;
    }
    *out = buf;
    *size = len;
    return 0;
}

int ev_model_set_load_file(EvModelSet *const set, const char *const path, const unsigned flags,
                           const EvLog *const log)
{
    memset(set, 0, sizeof(*set));
    FILE *f = fopen(path, "rb");
    if (!f) {
        const int err = errno;
        ev_log(log, EV_LOG_ERROR, "%s: cannot open the model file: %s", path, strerror(err));
        return err == ENOENT ? -ENOENT : -EIO;
    }
    char *json = NULL;
    size_t size = 0;
    int err = read_file(f, path, &json, &size, log);
    fclose(f);
    if (!err)
        err = ev_model_set_parse(set, json, size, path, flags, log);
    free(json);
    return err;
}
