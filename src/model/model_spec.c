/* Parsing of "version=vmaf_v0.6.1:name=x:disable_clip:adm.adm_enhn_gain_limit=1.2". */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/model_spec.h"

/* disable_clip / enable_transform: bare (true) or =true / =false; as in Netflix's parser,
 * "false" does not undo an earlier "true". */
static int set_flag(EvModelSpec *s, const char *key, const char *val, unsigned flag,
                    const EvLog *log)
{
    if (val && strcmp(val, "true") && strcmp(val, "false")) {
        ev_log(log, EV_LOG_ERROR, "model: %s must be true or false, not \"%s\"", key, val);
        return -EINVAL;
    }
    if (!val || !strcmp(val, "true"))
        s->flags |= flag;
    return 0;
}

/* enable_clip (exactvmaf's spelling of the default): =false is disable_clip; bare or =true
 * keeps the clip. */
static int set_enable_clip(EvModelSpec *s, const char *val, const EvLog *log)
{
    if (val && strcmp(val, "true") && strcmp(val, "false")) {
        ev_log(log, EV_LOG_ERROR, "model: enable_clip must be true or false, not \"%s\"", val);
        return -EINVAL;
    }
    if (val && !strcmp(val, "false"))
        s->flags |= EV_MODEL_DISABLE_CLIP;
    return 0;
}

/* "<extractor>.<option>=<value>" */
static int add_overload(EvModelSpec *s, char *key, const char *val, const EvLog *log)
{
    char *dot = strchr(key, '.');
    if (!val || !dot || dot == key || !dot[1]) {
        ev_log(log, EV_LOG_ERROR,
               "model: unknown parameter \"%s\" (want version=, path=, "
               "name=, disable_clip, enable_clip, enable_transform or "
               "<extractor>.<option>=<value>)",
               key);
        return -EINVAL;
    }
    if (s->n_overloads == EV_MODEL_MAX_OVERLOADS) {
        ev_log(log, EV_LOG_ERROR, "model: at most %d feature overloads", EV_MODEL_MAX_OVERLOADS);
        return -EINVAL;
    }
    *dot = '\0';
    s->overload[s->n_overloads++] = (EvModelOverload){ key, dot + 1, val, 0 };
    return 0;
}

/* A score name goes into every layout as is: an XML attribute name, a JSON key, a CSV column.
 * Letters, digits, '_', '-' and '.', starting with a letter or '_', are safe in all of them. */
static int check_name(const char *name, const EvLog *log)
{
    int ok = isalpha((unsigned char)name[0]) || name[0] == '_';
    for (const char *p = name; ok && *p; p++)
        ok = isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == '.';
    if (!ok)
        ev_log(log, EV_LOG_ERROR,
               "model: name=\"%s\" would break the XML, JSON or CSV output: "
               "use letters, digits, '_', '-' and '.', starting with a "
               "letter or '_'",
               name);
    return ok ? 0 : -EINVAL;
}

static int parse_item(EvModelSpec *s, char *item, const EvLog *log)
{
    char *val = strchr(item, '=');
    if (val)
        *val++ = '\0';
    const int is_string =
        !strcmp(item, "version") || !strcmp(item, "path") || !strcmp(item, "name");
    if (is_string && (!val || !*val)) {
        ev_log(log, EV_LOG_ERROR, "model: %s= needs a value", item);
        return -EINVAL;
    }
    if (!strcmp(item, "version"))
        s->version = val;
    else if (!strcmp(item, "path"))
        s->path = val;
    else if (!strcmp(item, "name"))
        return check_name(s->name = val, log);
    else if (!strcmp(item, "disable_clip"))
        return set_flag(s, item, val, EV_MODEL_DISABLE_CLIP, log);
    else if (!strcmp(item, "enable_transform"))
        return set_flag(s, item, val, EV_MODEL_ENABLE_TRANSFORM, log);
    else if (!strcmp(item, "enable_clip"))
        return set_enable_clip(s, val, log);
    else
        return add_overload(s, item, val, log);
    return 0;
}

int ev_model_spec_parse(EvModelSpec *const s, const char *const text, const EvLog *const log)
{
    memset(s, 0, sizeof(*s));
    const size_t n = strlen(text) + 1;
    if (!(s->buf = malloc(n)))
        return -ENOMEM;
    memcpy(s->buf, text, n);
    s->name = "vmaf";
    for (char *item = s->buf, *next; item; item = next) {
        next = strchr(item, ':');
        if (next)
            *next++ = '\0';
        if (!*item)
            continue;
        const int err = parse_item(s, item, log);
        if (err)
            return err;
    }
    if (!s->version == !s->path) {
        ev_log(log, EV_LOG_ERROR, "model \"%s\": give version=<built-in> or path=<file>%s", text,
               s->version ? ", not both" : "");
        return -EINVAL;
    }
    return 0;
}

void ev_model_spec_free(EvModelSpec *const s)
{
    free(s->buf);
    memset(s, 0, sizeof(*s));
}
