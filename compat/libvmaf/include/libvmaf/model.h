/*
 * libvmaf 3.x compatibility (exactvmaf): VMAF models and bootstrap model collections.
 * Same declarations, layout and enum values as Netflix libvmaf's public libvmaf/model.h.
 */
#ifndef __VMAF_MODEL_H__
#define __VMAF_MODEL_H__

#include <stdint.h>

#include "feature.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VmafModel VmafModel;

enum VmafModelFlags {
    VMAF_MODEL_FLAGS_DEFAULT = 0,
    VMAF_MODEL_FLAG_DISABLE_CLIP = (1 << 0),
    VMAF_MODEL_FLAG_ENABLE_TRANSFORM = (1 << 1),
    VMAF_MODEL_FLAG_DISABLE_TRANSFORM = (1 << 2),
};

typedef struct VmafModelConfig {
    const char *name; /**< name the scores are written under; NULL = "vmaf" */
    uint64_t flags;   /**< enum VmafModelFlags */
} VmafModelConfig;

/** Load a built-in model by version ("vmaf_v0.6.1", ...). @return 0, -EINVAL, -ENOMEM. */
int vmaf_model_load(VmafModel **model, VmafModelConfig *cfg, const char *version);

/** Load a model from a JSON model file. @return 0, -EINVAL, -ENOMEM. */
int vmaf_model_load_from_path(VmafModel **model, VmafModelConfig *cfg, const char *path);

/** Override options of the model's features computed by extractor feature_name; opts_dict
 *  is consumed (freed). Call before vmaf_use_features_from_model(). */
int vmaf_model_feature_overload(VmafModel *model, const char *feature_name,
                                VmafFeatureDictionary *opts_dict);

void vmaf_model_destroy(VmafModel *model);

typedef struct VmafModelCollection VmafModelCollection;

enum VmafModelCollectionScoreType {
    VMAF_MODEL_COLLECTION_SCORE_UNKNOWN = 0,
    VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP,
};

typedef struct VmafModelCollectionScore {
    enum VmafModelCollectionScoreType type;
    struct {
        double bagging_score;
        double stddev;
        struct {
            struct {
                double lo, hi;
            } p95;
        } ci;
    } bootstrap;
} VmafModelCollectionScore;

/** Load a built-in bootstrap collection: *model is its main model (scores under cfg->name),
 *  *model_collection the collection. Destroy both. @return 0, -EINVAL, -ENOMEM. */
int vmaf_model_collection_load(VmafModel **model, VmafModelCollection **model_collection,
                               VmafModelConfig *cfg, const char *version);

int vmaf_model_collection_load_from_path(VmafModel **model, VmafModelCollection **model_collection,
                                         VmafModelConfig *cfg, const char *path);

/** vmaf_model_feature_overload() for the model and every member of the collection;
 *  opts_dict is consumed. */
int vmaf_model_collection_feature_overload(VmafModel *model, VmafModelCollection **model_collection,
                                           const char *feature_name,
                                           VmafFeatureDictionary *opts_dict);

void vmaf_model_collection_destroy(VmafModelCollection *model_collection);

#ifdef __cplusplus
}
#endif

#endif /* __VMAF_MODEL_H__ */
