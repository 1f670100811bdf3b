/* Every extractor compiled in, by Netflix's extractor name. */
#include <string.h>

#include "core/extractor.h"
#include "features/registry_list.h"

static const EvExtractorClass *const extractors[] = {
#define EV_EXTRACTOR(sym) &sym,
    EV_EXTRACTOR_LIST
#undef EV_EXTRACTOR
    NULL,
};

const EvExtractorClass *ev_find_extractor(const char *const name)
{
    for (unsigned i = 0; extractors[i]; i++)
        if (!strcmp(extractors[i]->name, name))
            return extractors[i];
    return NULL;
}

const char *const *ev_extractor_names(void)
{
    static const char *names[sizeof(extractors) / sizeof(extractors[0])];
    /* filled on each call with the same pointers: idempotent, so safe to race */
    for (unsigned i = 0; extractors[i]; i++)
        names[i] = extractors[i]->name;
    return names;
}
