/* ssimulacra2 dispatch (ssimulacra2_dsp.h): the table of the highest level the CPU allows
 * (dsp_level.h). */
#include "features/common/dsp_level.h"
#include "features/ssimulacra2/ssimulacra2_dsp.h"

#define SSIMU2_TABLE(isa)                                                                          \
    {                                                                                              \
        ssimu2_linear_##isa, ssimu2_vblur1_##isa, ssimu2_vblur2_##isa, ssimu2_hblur_##isa,         \
            ssimu2_xyb_##isa, ssimu2_ssim_##isa, ssimu2_edge_##isa                                 \
    }

void ssimu2_dsp_init(Ssimu2Dsp *dsp, const unsigned cpu)
{
    static const Ssimu2Dsp level[] = {
        SSIMU2_TABLE(c),
#if EV_ARCH_X86_64
        SSIMU2_TABLE(avx2),
        SSIMU2_TABLE(avx512),
#endif
    };
    *dsp = level[ev_dsp_level(cpu, EV_DSP_AVX512)];
}
