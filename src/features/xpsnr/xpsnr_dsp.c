/* xpsnr dispatch (xpsnr_dsp.h): the table of the highest level the CPU allows (dsp_level.h). */
#include "features/common/dsp_level.h"
#include "features/xpsnr/xpsnr_dsp.h"

#define XPSNR_TABLE(isa)                                                                           \
    {                                                                                              \
        xpsnr_sse8_##isa, xpsnr_sse16_##isa, xpsnr_spatial_##isa, xpsnr_spatial_ds_##isa,          \
            xpsnr_temporal1_##isa, xpsnr_temporal2_##isa, xpsnr_temporal1_ds_##isa,                \
            xpsnr_temporal2_ds_##isa                                                               \
    }

void xpsnr_dsp_init(XpsnrDsp *dsp, const unsigned cpu)
{
    static const XpsnrDsp level[] = {
        XPSNR_TABLE(c),
#if EV_ARCH_X86_64
        XPSNR_TABLE(avx2),
        XPSNR_TABLE(avx512),
#endif
    };
    *dsp = level[ev_dsp_level(cpu, EV_DSP_AVX512)];
}
