/* The extractors compiled in: one line per family; the registry and tests include this. */
#ifndef EV_FEATURES_REGISTRY_LIST_H
#define EV_FEATURES_REGISTRY_LIST_H

#include "base/extractor.h"

extern const EvExtractorClass ev_fex_float_moment;
extern const EvExtractorClass ev_fex_psnr;
extern const EvExtractorClass ev_fex_vif;
extern const EvExtractorClass ev_fex_float_vif;
extern const EvExtractorClass ev_fex_adm;
extern const EvExtractorClass ev_fex_float_adm;
extern const EvExtractorClass ev_fex_motion;
extern const EvExtractorClass ev_fex_float_motion;
extern const EvExtractorClass ev_fex_float_ansnr;
extern const EvExtractorClass ev_fex_float_psnr;
extern const EvExtractorClass ev_fex_float_ssim;
extern const EvExtractorClass ev_fex_float_ms_ssim;
extern const EvExtractorClass ev_fex_speed_chroma;
extern const EvExtractorClass ev_fex_speed_temporal;
extern const EvExtractorClass ev_fex_cambi;
extern const EvExtractorClass ev_fex_ciede;
extern const EvExtractorClass ev_fex_psnr_hvs;
extern const EvExtractorClass ev_fex_xpsnr;
extern const EvExtractorClass ev_fex_ssimulacra2;

#define EV_EXTRACTOR_LIST                                                                          \
    EV_EXTRACTOR(ev_fex_float_moment)                                                              \
    EV_EXTRACTOR(ev_fex_psnr)                                                                      \
    EV_EXTRACTOR(ev_fex_vif)                                                                       \
    EV_EXTRACTOR(ev_fex_float_vif)                                                                 \
    EV_EXTRACTOR(ev_fex_adm)                                                                       \
    EV_EXTRACTOR(ev_fex_float_adm)                                                                 \
    EV_EXTRACTOR(ev_fex_motion)                                                                    \
    EV_EXTRACTOR(ev_fex_float_motion)                                                              \
    EV_EXTRACTOR(ev_fex_float_ansnr)                                                               \
    EV_EXTRACTOR(ev_fex_float_ssim)                                                                \
    EV_EXTRACTOR(ev_fex_float_ms_ssim)                                                             \
    EV_EXTRACTOR(ev_fex_float_psnr)                                                                \
    EV_EXTRACTOR(ev_fex_speed_chroma)                                                              \
    EV_EXTRACTOR(ev_fex_speed_temporal)                                                            \
    EV_EXTRACTOR(ev_fex_cambi)                                                                     \
    EV_EXTRACTOR(ev_fex_ciede)                                                                     \
    EV_EXTRACTOR(ev_fex_psnr_hvs)                                                                  \
    EV_EXTRACTOR(ev_fex_xpsnr)                                                                     \
    EV_EXTRACTOR(ev_fex_ssimulacra2)

/* CUDA twins (built with EXACTVMAF_CUDA): same names as their CPU references. */
#ifdef EV_HAVE_CUDA
extern const EvExtractorClass ev_cuda_float_moment;
extern const EvExtractorClass ev_cuda_psnr;
extern const EvExtractorClass ev_cuda_float_psnr;
extern const EvExtractorClass ev_cuda_float_ssim;
extern const EvExtractorClass ev_cuda_float_ms_ssim;
extern const EvExtractorClass ev_cuda_motion;
extern const EvExtractorClass ev_cuda_vif;
extern const EvExtractorClass ev_cuda_adm;
extern const EvExtractorClass ev_cuda_speed_chroma;
extern const EvExtractorClass ev_cuda_speed_temporal;
extern const EvExtractorClass ev_cuda_psnr_hvs;
extern const EvExtractorClass ev_cuda_float_vif;
extern const EvExtractorClass ev_cuda_float_adm;
extern const EvExtractorClass ev_cuda_float_motion;
extern const EvExtractorClass ev_cuda_float_ansnr;
extern const EvExtractorClass ev_cuda_cambi;
extern const EvExtractorClass ev_cuda_ciede;
extern const EvExtractorClass ev_cuda_xpsnr;
extern const EvExtractorClass ev_cuda_ssimulacra2;

#define EV_TWIN_LIST                                                                               \
    EV_EXTRACTOR(ev_cuda_float_moment)                                                             \
    EV_EXTRACTOR(ev_cuda_psnr)                                                                     \
    EV_EXTRACTOR(ev_cuda_float_psnr)                                                               \
    EV_EXTRACTOR(ev_cuda_float_ssim)                                                               \
    EV_EXTRACTOR(ev_cuda_float_ms_ssim)                                                            \
    EV_EXTRACTOR(ev_cuda_motion)                                                                   \
    EV_EXTRACTOR(ev_cuda_vif)                                                                      \
    EV_EXTRACTOR(ev_cuda_adm)                                                                      \
    EV_EXTRACTOR(ev_cuda_speed_chroma)                                                             \
    EV_EXTRACTOR(ev_cuda_speed_temporal)                                                           \
    EV_EXTRACTOR(ev_cuda_psnr_hvs)                                                                 \
    EV_EXTRACTOR(ev_cuda_float_vif)                                                                \
    EV_EXTRACTOR(ev_cuda_float_adm)                                                                \
    EV_EXTRACTOR(ev_cuda_float_motion)                                                             \
    EV_EXTRACTOR(ev_cuda_float_ansnr)                                                              \
    EV_EXTRACTOR(ev_cuda_cambi)                                                                    \
    EV_EXTRACTOR(ev_cuda_ciede)                                                                    \
    EV_EXTRACTOR(ev_cuda_xpsnr)                                                                    \
    EV_EXTRACTOR(ev_cuda_ssimulacra2)
#else
#define EV_TWIN_LIST
#endif

#endif
