/* psnr dispatch (psnr_dsp.h): the table of the highest level the CPU allows (dsp_level.h). */
#include "features/common/dsp_level.h"
#include "features/psnr/psnr_dsp.h"

void psnr_dsp_init(PsnrDsp *dsp, const unsigned cpu)
{
    static const PsnrDsp level[] = {
        { psnr_row_sse8_c, psnr_row_sse16_c },
#if EV_ARCH_X86_64
        { ev_psnr_row_sse8_avx2, ev_psnr_row_sse16_avx2 },
        { ev_psnr_row_sse8_avx512, ev_psnr_row_sse16_avx512 },
#endif
    };
    *dsp = level[ev_dsp_level(cpu, EV_DSP_AVX512)];
}
