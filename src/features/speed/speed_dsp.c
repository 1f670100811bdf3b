/* Speed-family dispatch (speed_dsp.h): the table of the highest level the CPU allows
 * (dsp_level.h). */
#include "features/common/dsp_level.h"
#include "features/speed/speed_dsp.h"

void speed_dsp_init(SpeedDsp *dsp, const unsigned cpu)
{
    static const SpeedDsp level[] = {
        { speed_cov_row_c },
#if EV_ARCH_X86_64
        { ev_speed_cov_row_avx2 },
        { ev_speed_cov_row_avx512 },
#endif
    };
    *dsp = level[ev_dsp_level(cpu, EV_DSP_AVX512)];
}
