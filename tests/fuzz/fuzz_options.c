/* libFuzzer harness: the option parsers. The first byte picks the parser: below the number of
 * registered extractors, that extractor's ev_options_parse (core/options.c) on the rest as a
 * "key=value:..." string, then the output-name suffixes of what it parsed; otherwise the model
 * spec parser (src/model/model_spec.c, Netflix's --model syntax), then each feature overload
 * through its extractor's option parser, as ev_use_model does. Contract checked: a refusal
 * logs a line; an accepted spec names exactly one of version= and path=; the options struct
 * (allocated at the class's exact size) is never written past. */
#include <stdlib.h>
#include <string.h>

#include "base/extractor.h"
#include "features/registry.h"
#include "fuzz_common.h"
#include "model/model_spec.h"

static unsigned n_extractors(void)
{
    static unsigned n;
    if (!n)
        for (const char *const *names = ev_extractor_names(); names[n];)
            n++;
    return n;
}

/* Parse spec into a fresh options struct of cls. @return the parser's code */
static int parse_options(const EvExtractorClass *cls, const char *spec)
{
    void *opts = malloc(cls->opts_size ? cls->opts_size : 1);
    FUZZ_CHECK(opts, "out of memory");
    ev_options_defaults(cls, opts);
    fuzz_log_reset();
    const int ret = ev_options_parse(cls, opts, spec, fuzz_log());
    if (ret) {
        FUZZ_CHECK(fuzz_log_lines() > 0, "%s refused \"%s\" (%d) without a message", cls->name,
                   spec, ret);
    } else {
        char name[1024];
        ev_options_feature_name(name, sizeof(name), cls->name, cls, opts);
        FUZZ_CHECK(!strncmp(name, cls->name, strlen(cls->name)), "name \"%s\"", name);
        /* the rule that drops a second registration (equal name-forming options) is libvmaf's
         * (equal feature names), here against the defaults' registration */
        void *defaults = malloc(cls->opts_size ? cls->opts_size : 1);
        FUZZ_CHECK(defaults, "out of memory");
        ev_options_defaults(cls, defaults);
        char default_name[1024];
        ev_options_feature_name(default_name, sizeof(default_name), cls->name, cls, defaults);
        FUZZ_CHECK((!strcmp(name, default_name)) == ev_options_same_names(cls, defaults, opts),
                   "\"%s\": name \"%s\" against the defaults' \"%s\", same_names %d", spec, name,
                   default_name, ev_options_same_names(cls, defaults, opts));
        free(defaults);
    }
    free(opts);
    return ret;
}

static void parse_model_spec(const char *text)
{
    EvModelSpec spec;
    fuzz_log_reset();
    const int ret = ev_model_spec_parse(&spec, text, fuzz_log());
    if (ret) {
        FUZZ_CHECK(fuzz_log_lines() > 0, "spec \"%s\" refused (%d) without a message", text, ret);
    } else {
        FUZZ_CHECK(!spec.version != !spec.path, "spec \"%s\": version and path", text);
        FUZZ_CHECK(spec.name && spec.name[0], "spec \"%s\": no name", text);
        for (unsigned i = 0; i < spec.n_overloads; i++) {
            const EvModelOverload *o = &spec.overload[i];
            const EvExtractorClass *cls = ev_find_extractor(o->extractor);
            if (!cls)
                continue;
            const size_t n = strlen(o->option) + strlen(o->value) + 2;
            char *kv = malloc(n);
            FUZZ_CHECK(kv, "out of memory");
            memcpy(kv, o->option, strlen(o->option));
            kv[strlen(o->option)] = '=';
            memcpy(kv + strlen(o->option) + 1, o->value, strlen(o->value) + 1);
            parse_options(cls, kv);
            free(kv);
        }
    }
    ev_model_spec_free(&spec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char *text = malloc(size); /* the rest, NUL-terminated (a NUL inside ends it early) */
    FUZZ_CHECK(text, "out of memory");
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    if (data[0] < n_extractors())
        parse_options(ev_find_extractor(ev_extractor_names()[data[0]]), text);
    else
        parse_model_spec(text);
    free(text);
    return 0;
}
