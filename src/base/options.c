/* Extractor options: Netflix's "key=value:key=value" syntax, defaults, output-name suffixes. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/extractor.h"

static void *opt_ptr(void *opts, const EvOption *o)
{
    return (char *)opts + o->offset;
}

static const void *opt_cptr(const void *opts, const EvOption *o)
{
    return (const char *)opts + o->offset;
}

static const char *opt_def_str(const EvExtractorClass *cls, const EvOption *o)
{
    const char *d = cls->str_defaults ? cls->str_defaults[(int)o->def] : NULL;
    return d ? d : "";
}

void ev_options_defaults(const EvExtractorClass *const cls, void *const opts)
{
    for (const EvOption *o = cls->options; o && o->name; o++) {
        if (o->type == EV_OPT_STRING)
            snprintf(opt_ptr(opts, o), EV_OPT_STRING_SIZE, "%s", opt_def_str(cls, o));
        else if (o->type == EV_OPT_DOUBLE)
            *(double *)opt_ptr(opts, o) = o->def;
        else
            *(int *)opt_ptr(opts, o) = (int)o->def;
    }
}

static int option_equal(const EvOption *o, const void *a, const void *b)
{
    if (o->type == EV_OPT_STRING)
        return !strcmp(opt_cptr(a, o), opt_cptr(b, o));
    if (o->type == EV_OPT_DOUBLE)
        return *(const double *)opt_cptr(a, o) == *(const double *)opt_cptr(b, o);
    return *(const int *)opt_cptr(a, o) == *(const int *)opt_cptr(b, o);
}

static int option_is_default(const EvExtractorClass *cls, const EvOption *o, const void *opts)
{
    if (o->type == EV_OPT_STRING)
        return !strcmp(opt_cptr(opts, o), opt_def_str(cls, o));
    if (o->type == EV_OPT_DOUBLE)
        return *(const double *)opt_cptr(opts, o) == o->def;
    return *(const int *)opt_cptr(opts, o) == (int)o->def;
}

int ev_options_same_names(const EvExtractorClass *const cls, const void *a, const void *b)
{
    for (const EvOption *o = cls->options; o && o->name; o++)
        if ((o->flags & EV_OPT_FEATURE_PARAM) && !option_equal(o, a, b))
            return 0;
    return 1;
}

static const EvOption *find_option(const EvExtractorClass *cls, const char *key, size_t len)
{
    for (const EvOption *o = cls->options; o && o->name; o++)
        if (strlen(o->name) == len && !strncmp(o->name, key, len))
            return o;
    return NULL;
}

/* libvmaf's CLI squeezes numeric option values through strtof and "%g" before the extractor
 * parses them with atof: 6 significant digits, rounded via float. Reproduce that, so that
 * "0.123456789" means what it means to Netflix. */
static int parse_double(const char *val, double *out)
{
    char *end;
    const float f = strtof(val, &end);
    if (end == val || *end)
        return -EINVAL;
    char buf[64];
    snprintf(buf, sizeof(buf), "%g", (double)f);
    *out = strtod(buf, NULL);
    return isfinite(*out) ? 0 : -EINVAL;
}

static int parse_int(const char *val, int *out)
{
    char *end;
    const long n = strtol(val, &end, 10);
    if (end == val || *end || n < -2147483647L || n > 2147483647L)
        return -EINVAL;
    *out = (int)n;
    return 0;
}

/* The accepted strings of choice option o (a class without them accepts none). */
static const char *const *choices_of(const EvExtractorClass *cls, const EvOption *o)
{
    static const char *const none[] = { NULL };
    for (const EvChoices *c = cls->choices; c && c->option; c++)
        if (!strcmp(c->option, o->name))
            return c->values;
    return none;
}

static int set_choice(const EvExtractorClass *cls, const EvOption *o, void *opts, const char *val,
                      const EvLog *log)
{
    const char *const *values = choices_of(cls, o);
    char known[256] = "";
    for (int i = 0; values[i]; i++) {
        if (!strcmp(val, values[i])) {
            *(int *)opt_ptr(opts, o) = i;
            return 0;
        }
        snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s", i ? ", " : "",
                 values[i]);
    }
    ev_log(log, EV_LOG_ERROR, "%s: option %s must be one of [%s], not \"%s\"", cls->name, o->name,
           known, val);
    return -EINVAL;
}

static int set_option(const EvExtractorClass *cls, const EvOption *o, void *opts, const char *val,
                      const EvLog *log)
{
    if (o->type == EV_OPT_CHOICE)
        return set_choice(cls, o, opts, val, log);
    if (o->type == EV_OPT_BOOL) {
        if (strcmp(val, "true") && strcmp(val, "false")) {
            ev_log(log, EV_LOG_ERROR, "%s: option %s must be true or false, not \"%s\"", cls->name,
                   o->name, val);
            return -EINVAL;
        }
        *(int *)opt_ptr(opts, o) = !strcmp(val, "true");
        return 0;
    }
    if (o->type == EV_OPT_STRING) {
        if (strlen(val) >= EV_OPT_STRING_SIZE) {
            ev_log(log, EV_LOG_ERROR, "%s: option %s is longer than %d characters", cls->name,
                   o->name, EV_OPT_STRING_SIZE - 1);
            return -EINVAL;
        }
        snprintf(opt_ptr(opts, o), EV_OPT_STRING_SIZE, "%s", val);
        return 0;
    }
    double d;
    int i = 0, err;
    if (o->type == EV_OPT_INT) {
        err = parse_int(val, &i);
        d = i;
    } else {
        err = parse_double(val, &d);
    }
    if (err) {
        ev_log(log, EV_LOG_ERROR, "%s: option %s needs %s, not \"%s\"", cls->name, o->name,
               o->type == EV_OPT_INT ? "an integer" : "a number", val);
        return -EINVAL;
    }
    if (d < o->min || d > o->max) {
        ev_log(log, EV_LOG_ERROR, "%s: option %s=%s is out of range [%g, %g]", cls->name, o->name,
               val, o->min, o->max);
        return -EINVAL;
    }
    if (o->type == EV_OPT_INT)
        *(int *)opt_ptr(opts, o) = i;
    else
        *(double *)opt_ptr(opts, o) = d;
    return 0;
}

int ev_options_parse(const EvExtractorClass *const cls, void *const opts, const char *spec,
                     const EvLog *const log)
{
    if (!spec)
        return 0;
    while (*spec) {
        const char *end = strchr(spec, ':');
        const size_t len = end ? (size_t)(end - spec) : strlen(spec);
        char item[256];
        if (len >= sizeof(item)) {
            ev_log(log, EV_LOG_ERROR, "%s: option string too long", cls->name);
            return -EINVAL;
        }
        memcpy(item, spec, len);
        item[len] = '\0';
        char *eq = strchr(item, '=');
        if (!eq || eq == item) {
            ev_log(log, EV_LOG_ERROR, "%s: bad option \"%s\" (want key=value)", cls->name, item);
            return -EINVAL;
        }
        *eq = '\0';
        const EvOption *o = find_option(cls, item, strlen(item));
        if (!o) {
            char known[512] = "";
            for (const EvOption *k = cls->options; k && k->name; k++)
                snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s",
                         k == cls->options ? "" : ", ", k->name);
            ev_log(log, EV_LOG_ERROR, "%s: unknown option \"%s\" (options: %s)", cls->name, item,
                   known[0] ? known : "none");
            return -EINVAL;
        }
        const int err = set_option(cls, o, opts, eq + 1, log);
        if (err)
            return err;
        spec += len + (end ? 1 : 0);
    }
    return 0;
}

static int cmp_option_name(const void *a, const void *b)
{
    return strcmp((*(const EvOption *const *)a)->name, (*(const EvOption *const *)b)->name);
}

void ev_options_feature_name(char *buf, const size_t size, const char *base,
                             const EvExtractorClass *const cls, const void *const opts)
{
    const EvOption *changed[64];
    size_t n = 0;
    for (const EvOption *o = cls->options; o && o->name && n < 64; o++) {
        if (!(o->flags & EV_OPT_FEATURE_PARAM))
            continue;
        if (!option_is_default(cls, o, opts))
            changed[n++] = o;
    }
    qsort(changed, n, sizeof(changed[0]), cmp_option_name);
    size_t len = (size_t)snprintf(buf, size, "%s", base);
    for (size_t i = 0; i < n && len < size; i++) {
        const EvOption *o = changed[i];
        const char *key = o->alias ? o->alias : o->name;
        if (o->type == EV_OPT_BOOL)
            len += (size_t)snprintf(buf + len, size - len, "_%s", key);
        else if (o->type == EV_OPT_CHOICE)
            len += (size_t)snprintf(buf + len, size - len, "_%s_%s", key,
                                    choices_of(cls, o)[*(const int *)opt_cptr(opts, o)]);
        else if (o->type == EV_OPT_STRING)
            len += (size_t)snprintf(buf + len, size - len, "_%s_%s", key,
                                    (const char *)opt_cptr(opts, o));
        else if (o->type == EV_OPT_INT)
            len += (size_t)snprintf(buf + len, size - len, "_%s_%d", key,
                                    *(const int *)opt_cptr(opts, o));
        else
            len += (size_t)snprintf(buf + len, size - len, "_%s_%g", key,
                                    *(const double *)opt_cptr(opts, o));
    }
}

int ev_require_chroma(const EvPicInfo *info, const char *what, const EvLog *log)
{
    if (info->layout != EV_PIX_400)
        return 0;
    ev_log(log, EV_LOG_ERROR, "%s needs chroma planes: 4:0:0 (gray) input has none", what);
    return -EINVAL;
}
