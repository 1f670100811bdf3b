/*
 * libvmaf 3.x compatibility (exactvmaf): the scoring context.
 * Same declarations, struct layouts and enum values as Netflix libvmaf 3.2.0's public
 * libvmaf/libvmaf.h, computed by exactvmaf's engine (bit for bit Netflix's scalar C path; on
 * CUDA when the library was built with it, a device exists, gpumask is 0 and every requested
 * extractor has a CUDA twin). Differences of behaviour are listed in the README's
 * "libvmaf compatibility" section.
 */
#ifndef __VMAF_H__
#define __VMAF_H__

#include <stdint.h>
#include <stdio.h>

#include "libvmaf/model.h"
#include "libvmaf/picture.h"
#include "libvmaf/feature.h"

#ifdef __cplusplus
extern "C" {
#endif

enum VmafLogLevel {
    VMAF_LOG_LEVEL_NONE = 0,
    VMAF_LOG_LEVEL_ERROR,
    VMAF_LOG_LEVEL_WARNING,
    VMAF_LOG_LEVEL_INFO,
    VMAF_LOG_LEVEL_DEBUG,
};

enum VmafOutputFormat {
    VMAF_OUTPUT_FORMAT_NONE = 0,
    VMAF_OUTPUT_FORMAT_XML,
    VMAF_OUTPUT_FORMAT_JSON,
    VMAF_OUTPUT_FORMAT_CSV,
    VMAF_OUTPUT_FORMAT_SUB,
};

enum VmafPoolingMethod {
    VMAF_POOL_METHOD_UNKNOWN = 0,
    VMAF_POOL_METHOD_MIN,
    VMAF_POOL_METHOD_MAX,
    VMAF_POOL_METHOD_MEAN,
    VMAF_POOL_METHOD_HARMONIC_MEAN,
    VMAF_POOL_METHOD_NB
};

typedef struct VmafConfiguration {
    enum VmafLogLevel log_level; /**< messages to stderr up to this level */
    unsigned n_threads;          /**< 0: on the calling thread only */
    unsigned n_subsample;        /**< score every Nth frame (0 or 1: every frame) */
    uint64_t cpumask;            /**< 1 SSE2, 2 SSSE3, 4 SSE4.1, 8 AVX2, 16 AVX-512, 32 AVX-512 ICL
                                      disabled; same bits whatever the mask */
    uint64_t gpumask;            /**< non-zero: never use CUDA */
} VmafConfiguration;

typedef struct VmafContext VmafContext;

int vmaf_init(VmafContext **vmaf, VmafConfiguration cfg);

/** Register the extractors a model needs (with the model's and its overloads' options); the
 *  model is scored under its name. Before the first picture. */
int vmaf_use_features_from_model(VmafContext *vmaf, VmafModel *model);

int vmaf_use_features_from_model_collection(VmafContext *vmaf,
                                            VmafModelCollection *model_collection);

/** Register an extractor by Netflix's name with options; opts_dict (may be NULL) is consumed. */
int vmaf_use_feature(VmafContext *vmaf, const char *feature_name, VmafFeatureDictionary *opts_dict);

/** Store an externally computed per-frame value (written to the output like any feature). */
int vmaf_import_feature_score(VmafContext *vmaf, const char *feature_name, double value,
                              unsigned index);

/** Score one pair: index counts from 0 in the order the pairs are given. The pictures are
 *  consumed (unreferenced), also on failure. ref == dist == NULL flushes: no picture after. */
int vmaf_read_pictures(VmafContext *vmaf, VmafPicture *ref, VmafPicture *dist, unsigned index);

int vmaf_score_at_index(VmafContext *vmaf, VmafModel *model, double *score, unsigned index);

int vmaf_score_at_index_model_collection(VmafContext *vmaf, VmafModelCollection *model_collection,
                                         VmafModelCollectionScore *score, unsigned index);

int vmaf_feature_score_at_index(VmafContext *vmaf, const char *feature_name, double *score,
                                unsigned index);

/** Pool over index_low..index_high (every n_subsample-th): mean = sum in frame order / n,
 *  harmonic mean = n / sum(1 / (x + 1)) - 1, min, max. */
int vmaf_score_pooled(VmafContext *vmaf, VmafModel *model, enum VmafPoolingMethod pool_method,
                      double *score, unsigned index_low, unsigned index_high);

int vmaf_score_pooled_model_collection(VmafContext *vmaf, VmafModelCollection *model_collection,
                                       enum VmafPoolingMethod pool_method,
                                       VmafModelCollectionScore *score, unsigned index_low,
                                       unsigned index_high);

int vmaf_feature_score_pooled(VmafContext *vmaf, const char *feature_name,
                              enum VmafPoolingMethod pool_method, double *score, unsigned index_low,
                              unsigned index_high);

typedef struct VmafPictureConfiguration {
    struct {
        unsigned w, h;
        unsigned bpc;
        enum VmafPixelFormat pix_fmt;
    } pic_params;
    unsigned pic_cnt;
} VmafPictureConfiguration;

/** Declare the geometry of the pictures vmaf_fetch_preallocated_picture() hands out. */
int vmaf_preallocate_pictures(VmafContext *vmaf, VmafPictureConfiguration cfg);

/** A picture of the preallocated geometry, to fill and pass to vmaf_read_pictures().
 *  @return 0, -EINVAL when vmaf_preallocate_pictures() was not called. */
int vmaf_fetch_preallocated_picture(VmafContext *vmaf, VmafPicture *pic);

int vmaf_close(VmafContext *vmaf);

/** Write every value in Netflix's XML, JSON, CSV or SUB layout. */
int vmaf_write_output(VmafContext *vmaf, const char *output_path, enum VmafOutputFormat fmt);

/** "3.2.0-exactvmaf-<exactvmaf version>". */
const char *vmaf_version(void);

#ifdef __cplusplus
}
#endif

#endif /* __VMAF_H__ */
