/* The registry: every extractor family compiled in (registry_list.h), by Netflix's name. */
#ifndef EV_FEATURES_REGISTRY_H
#define EV_FEATURES_REGISTRY_H

#include "base/extractor.h"

/* The CPU extractor of that name, or NULL. */
const EvExtractorClass *ev_find_extractor(const char *name);
/* Its CUDA twin, or NULL when there is none or the build has no CUDA. */
const EvExtractorClass *ev_find_twin(const char *name);
/* The CPU extractors' names in registry order, NULL-terminated, static storage. */
const char *const *ev_registry_names(void);

#endif
