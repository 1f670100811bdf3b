/* VmafFeatureDictionary: an ordered list of option strings. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compat.h"

/* The index of key in d (NULL: empty), or -1. */
static int find(const VmafFeatureDictionary *const d, const char *const key)
{
    for (unsigned i = 0; d && i < d->n; i++)
        if (!strcmp(d->key[i], key))
            return (int)i;
    return -1;
}

const char *cv_dict_get(const VmafFeatureDictionary *const d, const char *const key)
{
    const int i = find(d, key);
    return i < 0 ? NULL : d->val[i];
}

int vmaf_feature_dictionary_set(VmafFeatureDictionary **const dict, const char *const key,
                                const char *const val)
{
    if (!dict || !key || !val || !*key)
        return -EINVAL;
    VmafFeatureDictionary *d = *dict;
    if (!d) {
        d = calloc(1, sizeof(*d));
        if (!d)
            return -ENOMEM;
        *dict = d;
    }
    const int i = find(d, key);
    if (i >= 0) {
        char *v = strdup(val);
        if (!v)
            return -ENOMEM;
        free(d->val[i]);
        d->val[i] = v;
        return 0;
    }
    if (d->n == d->cap) {
        const unsigned cap = d->cap ? 2 * d->cap : 8;
        char **k = realloc(d->key, cap * sizeof(*k));
        if (!k)
            return -ENOMEM;
        d->key = k;
        char **v = realloc(d->val, cap * sizeof(*v));
        if (!v)
            return -ENOMEM;
        d->val = v;
        d->cap = cap;
    }
    char *k = strdup(key), *v = strdup(val);
    if (!k || !v) {
        free(k);
        free(v);
        return -ENOMEM;
    }
    d->key[d->n] = k;
    d->val[d->n] = v;
    d->n++;
    return 0;
}

int vmaf_feature_dictionary_free(VmafFeatureDictionary **const dict)
{
    if (!dict)
        return -EINVAL;
    VmafFeatureDictionary *d = *dict;
    if (d) {
        for (unsigned i = 0; i < d->n; i++) {
            free(d->key[i]);
            free(d->val[i]);
        }
        free(d->key);
        free(d->val);
        free(d);
    }
    *dict = NULL;
    return 0;
}

char *cv_dict_join(const VmafFeatureDictionary *const d, const char *const prefix)
{
    size_t len = 1;
    const unsigned n = d ? d->n : 0;
    for (unsigned i = 0; i < n; i++)
        len += strlen(d->key[i]) + strlen(d->val[i]) + 3 + (prefix ? strlen(prefix) + 1 : 0);
    char *s = malloc(len), *p = s;
    if (!s)
        return NULL;
    *p = '\0';
    for (unsigned i = 0; i < n; i++) {
        if (prefix)
            p += sprintf(p, ":%s.%s=%s", prefix, d->key[i], d->val[i]);
        else
            p += sprintf(p, "%s%s=%s", i ? ":" : "", d->key[i], d->val[i]);
    }
    return s;
}
