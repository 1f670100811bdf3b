/* The integer VIF kernel table (vif_dsp.h): the table of the highest level the CPU allows
 * (dsp_level.h). */
#include "features/common/dsp_level.h"
#include "features/vif/vif_dsp.h"

/* A SIMD level's table: all its own kernels, stat_ref / stat_dis and ref_cache_size too. */
#define VIF_DSP(isa)                                                                               \
    {                                                                                              \
        .stat_row_u8 = ev_vif_stat_row_u8_##isa, .stat_row_u16 = ev_vif_stat_row_u16_##isa,        \
        .down_row_u8 = ev_vif_down_row_u8_##isa, .down_row_u16 = ev_vif_down_row_u16_##isa,        \
        .down_one_u8 = ev_vif_down_one_u8_##isa, .down_one_u16 = ev_vif_down_one_u16_##isa,        \
        .stat_ref_u8 = ev_vif_stat_ref_u8_##isa, .stat_ref_u16 = ev_vif_stat_ref_u16_##isa,        \
        .stat_dis_u8 = ev_vif_stat_dis_u8_##isa, .stat_dis_u16 = ev_vif_stat_dis_u16_##isa,        \
        .ref_cache_size = ev_vif_ref_cache_size_##isa,                                             \
    }

void vif_dsp_init(VifDsp *dsp, const unsigned cpu)
{
    static const VifDsp level[] = {
        /* the C reference: stat_ref / stat_dis / ref_cache_size NULL */
        { .stat_row_u8 = vif_stat_row_u8_c,
          .stat_row_u16 = vif_stat_row_u16_c,
          .down_row_u8 = vif_down_row_u8_c,
          .down_row_u16 = vif_down_row_u16_c,
          .down_one_u8 = vif_down_one_u8_c,
          .down_one_u16 = vif_down_one_u16_c },
#if EV_ARCH_X86_64
        VIF_DSP(avx2),
        VIF_DSP(avx512),
        VIF_DSP(avx512icl),
#endif
    };
    *dsp = level[ev_dsp_level(cpu, EV_DSP_AVX512ICL)];
}

size_t vif_dsp_tmp_size(const int max_w)
{
    const size_t size[] = {
        vif_row_tmp_size_c(max_w),
#if EV_ARCH_X86_64
        ev_vif_row_tmp_size_avx2(max_w),
        ev_vif_row_tmp_size_avx512(max_w),
        ev_vif_row_tmp_size_avx512icl(max_w),
#endif
    };
    return ev_dsp_size_max(size, sizeof size / sizeof size[0]);
}
