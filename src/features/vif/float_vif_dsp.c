/* Float VIF dispatch (float_vif_dsp.h): the C reference, then the SIMD levels the CPU allows. */
#include "base/cpu.h"
#include "features/vif/float_vif_dsp.h"

void vif_float_dsp_init(VifFloatDsp *dsp, const unsigned cpu)
{
    dsp->stat_row = vif_float_stat_row_c;
    dsp->down_row = vif_float_down_row_c;
#if EV_ARCH_X86_64
    if (!(cpu & EV_CPU_AVX2))
        return;
    dsp->stat_row = vif_float_stat_row_avx2;
    dsp->down_row = vif_float_down_row_avx2;
    if (!(cpu & EV_CPU_AVX512))
        return;
    dsp->stat_row = vif_float_stat_row_avx512;
    dsp->down_row = vif_float_down_row_avx512;
#else
    (void)cpu;
#endif
}
