/*
 * libvmaf 3.x compatibility (exactvmaf): feature option dictionaries.
 * Same declarations and semantics as Netflix libvmaf's public libvmaf/feature.h.
 */
#ifndef __VMAF_FEATURE_H__
#define __VMAF_FEATURE_H__

#ifdef __cplusplus
extern "C" {
#endif

/** An ordered set of key=value options for one feature extractor (opaque). */
typedef struct VmafFeatureDictionary VmafFeatureDictionary;

/** Set key to val, creating *dict when it is NULL (a key set again takes the new value).
 *  @return 0, -EINVAL, -ENOMEM. */
int vmaf_feature_dictionary_set(VmafFeatureDictionary **dict, const char *key, const char *val);

/** Free *dict and set it to NULL. @return 0, -EINVAL when dict is NULL. */
int vmaf_feature_dictionary_free(VmafFeatureDictionary **dict);

#ifdef __cplusplus
}
#endif

#endif /* __VMAF_FEATURE_H__ */
