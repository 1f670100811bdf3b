/* The SVM of a VMAF model: libsvm's text format and its regression prediction with an RBF
 * kernel (reference: libvmaf/src/svm.cpp, svm_parse_model_from_buffer and svm_predict). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

#define SVM_MAX_SV 1000000u

typedef struct SvmText {
    char *p; /* cursor in a NUL-terminated copy of the text */
    char *err;
    size_t err_size;
} SvmText;

static int svm_fail(SvmText *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->err, t->err_size, fmt, ap);
    va_end(ap);
    return -EINVAL;
}

static int is_blank(char ch)
{
    return ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t';
}

/* The next whitespace-separated header token, NUL-terminated in place; NULL at the end. The
 * character after the token is consumed (libsvm's reader eats one delimiter). */
static char *next_token(SvmText *t)
{
    while (*t->p && is_blank(*t->p))
        t->p++;
    if (!*t->p)
        return NULL;
    char *tok = t->p;
    while (*t->p && !is_blank(*t->p))
        t->p++;
    if (*t->p)
        *t->p++ = '\0';
    return tok;
}

/* Numbers are read as C++ istream >> double reads them: strtod, correctly rounded. */
static int read_double(SvmText *t, const char *key, double *out)
{
    const char *tok = next_token(t);
    char *end;
    *out = tok ? strtod(tok, &end) : 0.0;
    if (!tok || end == tok || *end)
        return svm_fail(t, "%s needs a number", key);
    return 0;
}

static int read_int(SvmText *t, const char *key, long *out)
{
    const char *tok = next_token(t);
    char *end;
    *out = tok ? strtol(tok, &end, 10) : 0;
    if (!tok || end == tok || *end)
        return svm_fail(t, "%s needs an integer", key);
    return 0;
}

/* Values that prediction does not use (label, probA, probB, nr_sv, degree, coef0) are checked
 * for syntax and skipped. */
static int skip_values(SvmText *t, const char *key, long n)
{
    for (long i = 0; i < n; i++) {
        double unused;
        const int err = read_double(t, key, &unused);
        if (err)
            return err;
    }
    return 0;
}

typedef struct SvmHeader {
    int have_type, have_kernel, have_gamma, have_rho;
    long nr_class, total_sv;
} SvmHeader;

static int header_names(SvmText *t, SvmHeader *h, const char *key)
{
    const char *val = next_token(t);
    if (!val)
        return svm_fail(t, "%s has no value", key);
    if (!strcmp(key, "svm_type")) {
        if (strcmp(val, "nu_svr") && strcmp(val, "epsilon_svr"))
            return svm_fail(t, "svm_type %s is not a regression (nu_svr or epsilon_svr)", val);
        h->have_type = 1;
    } else {
        if (strcmp(val, "rbf"))
            return svm_fail(t, "kernel_type %s is not supported (only rbf)", val);
        h->have_kernel = 1;
    }
    return 0;
}

/* One "key value..." item of the header. */
static int header_item(SvmText *t, EvSvm *svm, SvmHeader *h, const char *key)
{
    const long perms = h->nr_class * (h->nr_class - 1) / 2;
    if (!strcmp(key, "svm_type") || !strcmp(key, "kernel_type"))
        return header_names(t, h, key);
    if (!strcmp(key, "gamma"))
        return h->have_gamma = 1, read_double(t, key, &svm->gamma);
    if (!strcmp(key, "nr_class")) {
        const int err = read_int(t, key, &h->nr_class);
        if (!err && h->nr_class != 2)
            return svm_fail(t, "nr_class %ld: a regression model has 2", h->nr_class);
        return err;
    }
    if (!strcmp(key, "total_sv")) {
        const int err = read_int(t, key, &h->total_sv);
        if (!err && (h->total_sv < 0 || h->total_sv > (long)SVM_MAX_SV))
            return svm_fail(t, "total_sv %ld is out of range", h->total_sv);
        return err;
    }
    if (!strcmp(key, "rho")) {
        if (h->nr_class != 2)
            return svm_fail(t, "rho comes before nr_class");
        return h->have_rho = 1, read_double(t, key, &svm->rho);
    }
    if (!strcmp(key, "label") || !strcmp(key, "nr_sv"))
        return skip_values(t, key, h->nr_class);
    if (!strcmp(key, "probA") || !strcmp(key, "probB"))
        return skip_values(t, key, perms);
    if (!strcmp(key, "degree") || !strcmp(key, "coef0"))
        return skip_values(t, key, 1);
    return svm_fail(t, "unknown header item \"%s\"", key);
}

static int parse_header(SvmText *t, EvSvm *svm, SvmHeader *h)
{
    for (;;) {
        const char *key = next_token(t);
        if (!key)
            return svm_fail(t, "no \"SV\" line");
        if (!strcmp(key, "SV"))
            break;
        const int err = header_item(t, svm, h, key);
        if (err)
            return err;
    }
    if (!h->have_type || !h->have_kernel || !h->have_gamma || !h->have_rho || !h->total_sv)
        return svm_fail(t, "the header lacks %s",
                        !h->have_type     ? "svm_type"
                        : !h->have_kernel ? "kernel_type"
                        : !h->have_gamma  ? "gamma"
                        : !h->have_rho    ? "rho"
                                          : "total_sv");
    return 0;
}

/* One support vector line: "coef index:value index:value ...", indices increasing from 1. */
static int parse_sv_line(SvmText *t, char *line, unsigned k, double *coef, double *dense,
                         unsigned *max_index)
{
    char *p = line, *end;
    *coef = strtod(p, &end);
    if (end == p)
        return svm_fail(t, "support vector %u has no coefficient", k + 1);
    long last = 0;
    for (p = end;;) {
        while (is_blank(*p))
            p++;
        if (!*p)
            return 0;
        const long index = strtol(p, &end, 10);
        if (end == p || *end != ':' || index <= last || index > EV_MODEL_MAX_FEATURES)
            return svm_fail(t, "support vector %u: bad or unordered index near \"%.20s\"", k + 1,
                            p);
        p = end + 1;
        dense[index - 1] = strtod(p, &end);
        if (end == p)
            return svm_fail(t, "support vector %u: index %ld has no value", k + 1, index);
        p = end;
        last = index;
        if ((unsigned)index > *max_index)
            *max_index = (unsigned)index;
    }
}

/* Read the support vectors into a n_sv x EV_MODEL_MAX_FEATURES table, then keep dim columns. */
static int parse_vectors(SvmText *t, EvSvm *svm, unsigned n_features)
{
    const size_t wide = EV_MODEL_MAX_FEATURES;
    double *table = calloc((size_t)svm->n_sv * wide, sizeof(*table));
    svm->coef = calloc(svm->n_sv, sizeof(*svm->coef));
    if (!table || !svm->coef) {
        free(table);
        return -ENOMEM;
    }
    unsigned max_index = n_features;
    for (unsigned k = 0; k < svm->n_sv; k++) {
        if (!*t->p) {
            free(table);
            return svm_fail(t, "total_sv is %u but the text has %u support vectors", svm->n_sv, k);
        }
        char *line = t->p, *nl = strchr(line, '\n');
        t->p = nl ? nl + 1 : line + strlen(line);
        if (nl)
            *nl = '\0';
        const int err = parse_sv_line(t, line, k, &svm->coef[k], table + k * wide, &max_index);
        if (err) {
            free(table);
            return err;
        }
    }
    svm->dim = max_index;
    for (unsigned k = 0; k < svm->n_sv; k++)
        memmove(table + (size_t)k * svm->dim, table + k * wide, svm->dim * sizeof(*table));
    svm->sv = table;
    return 0;
}

int ev_svm_parse(EvSvm *const svm, const char *const text, const size_t len,
                 const unsigned n_features, char *const err, const size_t err_size)
{
    memset(svm, 0, sizeof(*svm));
    char *copy = malloc(len + 1);
    if (!copy)
        return -ENOMEM;
    memcpy(copy, text, len);
    copy[len] = '\0';
    SvmText t = { copy, err, err_size };
    SvmHeader h = { 0 };
    int ret = parse_header(&t, svm, &h);
    if (!ret) {
        svm->n_sv = (unsigned)h.total_sv;
        ret = parse_vectors(&t, svm, n_features);
    }
    free(copy);
    if (ret)
        ev_svm_free(svm);
    return ret;
}

void ev_svm_free(EvSvm *const svm)
{
    free(svm->coef);
    free(svm->sv);
    memset(svm, 0, sizeof(*svm));
}

/* libsvm's RBF kernel: the squared distance summed in index order, then glibc's exp. */
static double rbf_kernel(const double gamma, const double *x, const double *sv, unsigned dim)
{
    double dist = 0.0;
    for (unsigned i = 0; i < dim; i++) {
        const double d = x[i] - sv[i];
        dist += d * d;
    }
    return exp(-gamma * dist);
}

/* svm_predict for epsilon/nu-SVR: a running double sum in file order, rho subtracted last. */
double ev_svm_predict(const EvSvm *const svm, const double *const x)
{
    double sum = 0.0;
    for (unsigned k = 0; k < svm->n_sv; k++)
        sum += svm->coef[k] * rbf_kernel(svm->gamma, x, svm->sv + (size_t)k * svm->dim, svm->dim);
    return sum - svm->rho;
}
