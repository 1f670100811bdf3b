/* CAMBI dispatch (cambi_dsp.h): the table of the highest level the CPU allows (dsp_level.h). */
#include "features/cambi/cambi_dsp.h"
#include "features/common/dsp_level.h"

#define CAMBI_TABLE(isa)                                                                           \
    {                                                                                              \
        cambi_to_10b_row_##isa, cambi_anti_dither_row_##isa, cambi_flat_row_##isa,                 \
            cambi_count_row_##isa, cambi_mask_row_##isa, cambi_mode_row_##isa,                     \
            cambi_mode_col_##isa, cambi_decimate16_##isa, cambi_decimate8_##isa,                   \
            cambi_band_row_##isa, cambi_slide_row_##isa, cambi_next_diff_##isa,                    \
            cambi_c_values_row_##isa                                                               \
    }

void cambi_dsp_init(CambiDsp *dsp, const unsigned cpu)
{
    static const CambiDsp level[] = {
        CAMBI_TABLE(c),
#if EV_ARCH_X86_64
        CAMBI_TABLE(avx2),
        CAMBI_TABLE(avx512),
#endif
    };
    *dsp = level[ev_dsp_level(cpu, EV_DSP_AVX512)];
}
