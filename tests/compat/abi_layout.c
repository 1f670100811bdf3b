/* Prints the layout of libvmaf's public structs and the values of its enums, compiled against
 * whichever libvmaf headers -I names: abi_test.sh builds it twice, against Netflix's 3.2.0
 * headers and against compat/libvmaf's, and requires the same output. */
#include <stddef.h>
#include <stdio.h>

#include <libvmaf/libvmaf.h>
#include <libvmaf/libvmaf_cuda.h>
#include <libvmaf/model.h>
#include <libvmaf/picture.h>

/* libvmaf_cuda.h's calls have Netflix's prototypes (a mismatch does not compile). */
#define PROTOTYPE(f, T) _Static_assert(__builtin_types_compatible_p(__typeof__(&f), T), #f)
PROTOTYPE(vmaf_cuda_state_init, int (*)(VmafCudaState **, VmafCudaConfiguration));
PROTOTYPE(vmaf_cuda_import_state, int (*)(VmafContext *, VmafCudaState *));
PROTOTYPE(vmaf_cuda_preallocate_pictures, int (*)(VmafContext *, VmafCudaPictureConfiguration));
PROTOTYPE(vmaf_cuda_fetch_preallocated_picture, int (*)(VmafContext *, VmafPicture *));

#define SIZE(T) printf("sizeof %s %zu align %zu\n", #T, sizeof(T), _Alignof(T))
#define FIELD(T, f)                                                                                \
    printf("offsetof %s.%s %zu size %zu\n", #T, #f, offsetof(T, f), sizeof(((T *)0)->f))
#define VALUE(e) printf("%s %lld\n", #e, (long long)(e))

int main(void)
{
    SIZE(VmafConfiguration);
    FIELD(VmafConfiguration, log_level);
    FIELD(VmafConfiguration, n_threads);
    FIELD(VmafConfiguration, n_subsample);
    FIELD(VmafConfiguration, cpumask);
    FIELD(VmafConfiguration, gpumask);
    SIZE(VmafPicture);
    FIELD(VmafPicture, pix_fmt);
    FIELD(VmafPicture, bpc);
    FIELD(VmafPicture, w);
    FIELD(VmafPicture, h);
    FIELD(VmafPicture, stride);
    FIELD(VmafPicture, data);
    FIELD(VmafPicture, ref);
    FIELD(VmafPicture, priv);
    SIZE(VmafPictureConfiguration);
    FIELD(VmafPictureConfiguration, pic_params.w);
    FIELD(VmafPictureConfiguration, pic_params.h);
    FIELD(VmafPictureConfiguration, pic_params.bpc);
    FIELD(VmafPictureConfiguration, pic_params.pix_fmt);
    FIELD(VmafPictureConfiguration, pic_cnt);
    SIZE(VmafCudaConfiguration);
    FIELD(VmafCudaConfiguration, cu_ctx);
    SIZE(VmafCudaPictureConfiguration);
    FIELD(VmafCudaPictureConfiguration, pic_params.w);
    FIELD(VmafCudaPictureConfiguration, pic_params.h);
    FIELD(VmafCudaPictureConfiguration, pic_params.bpc);
    FIELD(VmafCudaPictureConfiguration, pic_params.pix_fmt);
    FIELD(VmafCudaPictureConfiguration, pic_prealloc_method);
    VALUE(VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE);
    VALUE(VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE);
    VALUE(VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST);
    VALUE(VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED);
    SIZE(VmafModelConfig);
    FIELD(VmafModelConfig, name);
    FIELD(VmafModelConfig, flags);
    SIZE(VmafModelCollectionScore);
    FIELD(VmafModelCollectionScore, type);
    FIELD(VmafModelCollectionScore, bootstrap.bagging_score);
    FIELD(VmafModelCollectionScore, bootstrap.stddev);
    FIELD(VmafModelCollectionScore, bootstrap.ci.p95.lo);
    FIELD(VmafModelCollectionScore, bootstrap.ci.p95.hi);
    VALUE(VMAF_LOG_LEVEL_NONE);
    VALUE(VMAF_LOG_LEVEL_ERROR);
    VALUE(VMAF_LOG_LEVEL_WARNING);
    VALUE(VMAF_LOG_LEVEL_INFO);
    VALUE(VMAF_LOG_LEVEL_DEBUG);
    VALUE(VMAF_OUTPUT_FORMAT_NONE);
    VALUE(VMAF_OUTPUT_FORMAT_XML);
    VALUE(VMAF_OUTPUT_FORMAT_JSON);
    VALUE(VMAF_OUTPUT_FORMAT_CSV);
    VALUE(VMAF_OUTPUT_FORMAT_SUB);
    VALUE(VMAF_POOL_METHOD_UNKNOWN);
    VALUE(VMAF_POOL_METHOD_MIN);
    VALUE(VMAF_POOL_METHOD_MAX);
    VALUE(VMAF_POOL_METHOD_MEAN);
    VALUE(VMAF_POOL_METHOD_HARMONIC_MEAN);
    VALUE(VMAF_POOL_METHOD_NB);
    VALUE(VMAF_PIX_FMT_UNKNOWN);
    VALUE(VMAF_PIX_FMT_YUV420P);
    VALUE(VMAF_PIX_FMT_YUV422P);
    VALUE(VMAF_PIX_FMT_YUV444P);
    VALUE(VMAF_PIX_FMT_YUV400P);
    VALUE(VMAF_MODEL_FLAGS_DEFAULT);
    VALUE(VMAF_MODEL_FLAG_DISABLE_CLIP);
    VALUE(VMAF_MODEL_FLAG_ENABLE_TRANSFORM);
    VALUE(VMAF_MODEL_FLAG_DISABLE_TRANSFORM);
    VALUE(VMAF_MODEL_COLLECTION_SCORE_UNKNOWN);
    VALUE(VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP);
    return 0;
}
