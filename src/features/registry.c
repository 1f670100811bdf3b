/* Every extractor compiled in, by Netflix's extractor name. */
#include <pthread.h>
#include <string.h>

#include "features/registry.h"
#include "features/registry_list.h"

static const EvExtractorClass *const extractors[] = {
#define EV_EXTRACTOR(sym) &sym,
    EV_EXTRACTOR_LIST
#undef EV_EXTRACTOR
        NULL,
};

static const EvExtractorClass *const twins[] = {
#define EV_EXTRACTOR(sym) &sym,
    EV_TWIN_LIST
#undef EV_EXTRACTOR
        NULL,
};

const EvExtractorClass *ev_find_twin(const char *const name)
{
    for (unsigned i = 0; twins[i]; i++)
        if (!strcmp(twins[i]->name, name))
            return twins[i];
    return NULL;
}

const EvExtractorClass *ev_find_extractor(const char *const name)
{
    for (unsigned i = 0; extractors[i]; i++)
        if (!strcmp(extractors[i]->name, name))
            return extractors[i];
    return NULL;
}

static const char *names[sizeof(extractors) / sizeof(extractors[0])];

static void fill_names(void)
{
    for (unsigned i = 0; extractors[i]; i++)
        names[i] = extractors[i]->name;
}

const char *const *ev_registry_names(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fill_names);
    return names;
}
