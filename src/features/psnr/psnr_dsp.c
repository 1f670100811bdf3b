/* psnr dispatch (psnr_dsp.h): the C reference, then the SIMD levels the CPU allows. */
#include "base/cpu.h"
#include "features/psnr/psnr_dsp.h"

void psnr_dsp_init(PsnrDsp *dsp, const unsigned cpu)
{
    dsp->row_sse8 = psnr_row_sse8_c;
    dsp->row_sse16 = psnr_row_sse16_c;
#if EV_ARCH_X86_64
    if (!(cpu & EV_CPU_AVX2))
        return;
    dsp->row_sse8 = ev_psnr_row_sse8_avx2;
    dsp->row_sse16 = ev_psnr_row_sse16_avx2;
    if (!(cpu & EV_CPU_AVX512))
        return;
    dsp->row_sse8 = ev_psnr_row_sse8_avx512;
    dsp->row_sse16 = ev_psnr_row_sse16_avx512;
#else
    (void)cpu;
#endif
}
