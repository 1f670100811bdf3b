/* The integer VIF kernel table (vif_dsp.h): the C reference first, then each SIMD level the CPU
 * allows, each replacing the one before. */
#include "base/cpu.h"
#include "features/vif/vif_dsp.h"

void vif_dsp_init(VifDsp *dsp, const unsigned cpu)
{
    dsp->stat_row_u8 = vif_stat_row_u8_c;
    dsp->stat_row_u16 = vif_stat_row_u16_c;
    dsp->down_row_u8 = vif_down_row_u8_c;
    dsp->down_row_u16 = vif_down_row_u16_c;
    dsp->down_one_u8 = vif_down_one_u8_c;
    dsp->down_one_u16 = vif_down_one_u16_c;
    dsp->stat_ref_u8 = dsp->stat_ref_u16 = NULL;
    dsp->stat_dis_u8 = dsp->stat_dis_u16 = NULL;
    dsp->ref_cache_size = NULL;
#if EV_ARCH_X86_64
    if (!(cpu & EV_CPU_AVX2))
        return;
    dsp->stat_row_u8 = ev_vif_stat_row_u8_avx2;
    dsp->stat_row_u16 = ev_vif_stat_row_u16_avx2;
    dsp->down_row_u8 = ev_vif_down_row_u8_avx2;
    dsp->down_row_u16 = ev_vif_down_row_u16_avx2;
    dsp->down_one_u8 = ev_vif_down_one_u8_avx2;
    dsp->down_one_u16 = ev_vif_down_one_u16_avx2;
    dsp->stat_ref_u8 = ev_vif_stat_ref_u8_avx2;
    dsp->stat_ref_u16 = ev_vif_stat_ref_u16_avx2;
    dsp->stat_dis_u8 = ev_vif_stat_dis_u8_avx2;
    dsp->stat_dis_u16 = ev_vif_stat_dis_u16_avx2;
    dsp->ref_cache_size = ev_vif_ref_cache_size_avx2;
    if (!(cpu & EV_CPU_AVX512))
        return;
    dsp->stat_row_u8 = ev_vif_stat_row_u8_avx512;
    dsp->stat_row_u16 = ev_vif_stat_row_u16_avx512;
    dsp->down_row_u8 = ev_vif_down_row_u8_avx512;
    dsp->down_row_u16 = ev_vif_down_row_u16_avx512;
    dsp->down_one_u8 = ev_vif_down_one_u8_avx512;
    dsp->down_one_u16 = ev_vif_down_one_u16_avx512;
    dsp->stat_ref_u8 = ev_vif_stat_ref_u8_avx512;
    dsp->stat_ref_u16 = ev_vif_stat_ref_u16_avx512;
    dsp->stat_dis_u8 = ev_vif_stat_dis_u8_avx512;
    dsp->stat_dis_u16 = ev_vif_stat_dis_u16_avx512;
    dsp->ref_cache_size = ev_vif_ref_cache_size_avx512;
    if (!(cpu & EV_CPU_AVX512ICL))
        return;
    dsp->stat_row_u8 = ev_vif_stat_row_u8_avx512icl;
    dsp->stat_row_u16 = ev_vif_stat_row_u16_avx512icl;
    dsp->down_row_u8 = ev_vif_down_row_u8_avx512icl;
    dsp->down_row_u16 = ev_vif_down_row_u16_avx512icl;
    dsp->down_one_u8 = ev_vif_down_one_u8_avx512icl;
    dsp->down_one_u16 = ev_vif_down_one_u16_avx512icl;
    dsp->stat_ref_u8 = ev_vif_stat_ref_u8_avx512icl;
    dsp->stat_ref_u16 = ev_vif_stat_ref_u16_avx512icl;
    dsp->stat_dis_u8 = ev_vif_stat_dis_u8_avx512icl;
    dsp->stat_dis_u16 = ev_vif_stat_dis_u16_avx512icl;
    dsp->ref_cache_size = ev_vif_ref_cache_size_avx512icl;
#endif
}

size_t vif_dsp_tmp_size(const int max_w)
{
    size_t n = vif_row_tmp_size_c(max_w);
#if EV_ARCH_X86_64
    const size_t simd[3] = { ev_vif_row_tmp_size_avx2(max_w), ev_vif_row_tmp_size_avx512(max_w),
                             ev_vif_row_tmp_size_avx512icl(max_w) };
    for (int k = 0; k < 3; k++)
        n = simd[k] > n ? simd[k] : n;
#endif
    return n;
}
