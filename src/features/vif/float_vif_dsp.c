/* Float VIF dispatch (float_vif_dsp.h): the table of the highest level the CPU allows
 * (dsp_level.h). */
#include "features/common/dsp_level.h"
#include "features/vif/float_vif_dsp.h"

void vif_float_dsp_init(VifFloatDsp *dsp, const unsigned cpu)
{
    static const VifFloatDsp level[] = {
        { vif_float_stat_row_c, vif_float_down_row_c },
#if EV_ARCH_X86_64
        { vif_float_stat_row_avx2, vif_float_down_row_avx2 },
        { vif_float_stat_row_avx512, vif_float_down_row_avx512 },
#endif
    };
    *dsp = level[ev_dsp_level(cpu, EV_DSP_AVX512)];
}
