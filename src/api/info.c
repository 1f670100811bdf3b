/* What the library is (exactvmaf.h): its version, the Netflix release it matches, its SIMD
 * levels and GPUs, and the extractors with the options of each, read from their own option
 * tables (features/registry.h). */
#include <errno.h>
#include <string.h>

#include "base/cpu.h"
#include "cuda/runtime.h"
#include "exactvmaf/exactvmaf.h"
#include "features/registry.h"

const char *ev_version(void)
{
    return "0.1.0";
}

unsigned ev_version_api(void)
{
    return (EV_API_VERSION_MAJOR << 16) | (EV_API_VERSION_MINOR << 8) | EV_API_VERSION_PATCH;
}

const char *ev_netflix_version(void)
{
    return "3.2.0";
}

const char *ev_netflix_commit(void)
{
    return "f85a853692a8c730d0270cd733c8bb30b5b93b7c";
}

unsigned ev_simd_levels(const int built)
{
    if (!built)
        return ev_cpu_detect();
#if EV_ARCH_X86_64
    /* the per-ISA kernel files (cmake/simd.cmake) are always compiled on x86-64 */
    return EV_CPU_AVX2 | EV_CPU_AVX512 | EV_CPU_AVX512ICL;
#else
    return 0;
#endif
}

static const char *type_name(const EvOptionType t)
{
    return t == EV_OPT_BOOL     ? "bool"
           : t == EV_OPT_INT    ? "int"
           : t == EV_OPT_STRING ? "string"
           : t == EV_OPT_CHOICE ? "choice"
                                : "double";
}

static const char *const *choices_of(const EvExtractorClass *cls, const EvOption *o)
{
    for (const EvChoices *c = cls->choices; c && c->option; c++)
        if (!strcmp(c->option, o->name))
            return c->values;
    return NULL;
}

/* The default of a string or choice option as text; NULL for the numeric types. */
static const char *default_text(const EvExtractorClass *cls, const EvOption *o)
{
    if (o->type == EV_OPT_STRING) {
        const char *d = cls->str_defaults ? cls->str_defaults[(int)o->def] : NULL;
        return d ? d : "";
    }
    if (o->type == EV_OPT_CHOICE) {
        const char *const *v = choices_of(cls, o);
        for (int k = 0; v && v[k]; k++)
            if (k == (int)o->def)
                return v[k];
        return "";
    }
    return NULL;
}

int ev_extractor_option(const char *const extractor, const unsigned i, EvOptionInfo *const info)
{
    if (!extractor || !info)
        return -EINVAL;
    const EvExtractorClass *const cls = ev_find_extractor(extractor);
    if (!cls)
        return -ENOENT;
    for (unsigned k = 0; cls->options && cls->options[k].name; k++) {
        if (k != i)
            continue;
        const EvOption *const o = &cls->options[k];
        *info = (EvOptionInfo){ .name = o->name,
                                .alias = o->alias,
                                .help = o->help,
                                .type = type_name(o->type),
                                .def = o->def,
                                .min = o->min,
                                .max = o->max,
                                .renames = !!(o->flags & EV_OPT_FEATURE_PARAM),
                                .def_text = default_text(cls, o),
                                .choices = o->type == EV_OPT_CHOICE ? choices_of(cls, o) : NULL };
        return 0;
    }
    return -ERANGE;
}

int ev_extractor_has_twin(const char *const extractor)
{
    return extractor && ev_find_twin(extractor) ? 1 : 0;
}

int ev_gpu_count(void)
{
    return ev_cuda_device_count();
}

const char *const *ev_extractor_names(void)
{
    return ev_registry_names();
}
