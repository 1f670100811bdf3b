/* Model feature names -> the extractor that provides them and the name it writes.
 * Netflix's models name features as libvmaf's extractors provide them (their
 * provided_features lists); the collector here holds the printed names (libvmaf's aliases,
 * libvmaf/src/feature/alias.c), and an unaliased name prints as it is. */
#include <string.h>

#include "model/model.h"

static const EvFeatureSource sources[] = {
    /* integer ADM: extractor "adm" */
    { "VMAF_integer_feature_adm2_score", "adm", "integer_adm2" },
    { "VMAF_integer_feature_aim_score", "adm", "integer_aim" },
    { "VMAF_integer_feature_adm3_score", "adm", "integer_adm3" },
    { "integer_adm_scale0", "adm", "integer_adm_scale0" },
    { "integer_adm_scale1", "adm", "integer_adm_scale1" },
    { "integer_adm_scale2", "adm", "integer_adm_scale2" },
    { "integer_adm_scale3", "adm", "integer_adm_scale3" },
    /* integer VIF: extractor "vif" */
    { "VMAF_integer_feature_vif_scale0_score", "vif", "integer_vif_scale0" },
    { "VMAF_integer_feature_vif_scale1_score", "vif", "integer_vif_scale1" },
    { "VMAF_integer_feature_vif_scale2_score", "vif", "integer_vif_scale2" },
    { "VMAF_integer_feature_vif_scale3_score", "vif", "integer_vif_scale3" },
    /* integer motion: extractor "motion"; the SAD has no alias */
    { "VMAF_integer_feature_motion_sad_score", "motion", "VMAF_integer_feature_motion_sad_score" },
    { "VMAF_integer_feature_motion_score", "motion", "integer_motion" },
    { "VMAF_integer_feature_motion2_score", "motion", "integer_motion2" },
    { "VMAF_integer_feature_motion3_score", "motion", "integer_motion3" },
    /* float ADM, VIF, motion, ANSNR */
    { "VMAF_feature_adm2_score", "float_adm", "adm2" },
    { "VMAF_feature_aim_score", "float_adm", "aim" },
    { "VMAF_feature_adm3_score", "float_adm", "adm3" },
    { "VMAF_feature_adm_scale0_score", "float_adm", "adm_scale0" },
    { "VMAF_feature_adm_scale1_score", "float_adm", "adm_scale1" },
    { "VMAF_feature_adm_scale2_score", "float_adm", "adm_scale2" },
    { "VMAF_feature_adm_scale3_score", "float_adm", "adm_scale3" },
    { "VMAF_feature_vif_scale0_score", "float_vif", "vif_scale0" },
    { "VMAF_feature_vif_scale1_score", "float_vif", "vif_scale1" },
    { "VMAF_feature_vif_scale2_score", "float_vif", "vif_scale2" },
    { "VMAF_feature_vif_scale3_score", "float_vif", "vif_scale3" },
    { "VMAF_feature_motion_score", "float_motion", "motion" },
    { "VMAF_feature_motion2_score", "float_motion", "motion2" },
    { "VMAF_feature_motion3_score", "float_motion", "motion3" },
    { "float_ansnr", "float_ansnr", "float_ansnr" },
    /* VMAF v1: CAMBI and SpEED */
    { "Cambi_feature_cambi_score", "cambi", "cambi" },
    { "Speed_chroma_feature_speed_chroma_u_score", "speed_chroma", "speed_chroma_u" },
    { "Speed_chroma_feature_speed_chroma_v_score", "speed_chroma", "speed_chroma_v" },
    { "Speed_chroma_feature_speed_chroma_uv_score", "speed_chroma", "speed_chroma_uv" },
    { "Speed_temporal_feature_speed_temporal_score", "speed_temporal", "speed_temporal" },
    /* PSNR and moments */
    { "psnr_y", "psnr", "psnr_y" },
    { "psnr_cb", "psnr", "psnr_cb" },
    { "psnr_cr", "psnr", "psnr_cr" },
    { "float_psnr", "float_psnr", "float_psnr" },
    /* CAMBI: extractor "cambi" */
    { "Cambi_feature_cambi_score", "cambi", "cambi" },
};

const EvFeatureSource *ev_feature_source(const char *const feature)
{
    for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++)
        if (!strcmp(sources[i].feature, feature))
            return &sources[i];
    return NULL;
}
