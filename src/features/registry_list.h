/* The extractors compiled in: one line per family; the registry and tests include this. */
#ifndef EV_FEATURES_REGISTRY_LIST_H
#define EV_FEATURES_REGISTRY_LIST_H

#include "core/extractor.h"

extern const EvExtractorClass ev_fex_float_moment;
extern const EvExtractorClass ev_fex_psnr;
extern const EvExtractorClass ev_fex_float_psnr;

#define EV_EXTRACTOR_LIST                                                                      \
    EV_EXTRACTOR(ev_fex_float_moment)                                                          \
    EV_EXTRACTOR(ev_fex_psnr)                                                                  \
    EV_EXTRACTOR(ev_fex_float_psnr)

#endif
