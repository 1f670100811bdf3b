/* Integer motion dispatch (motion_dsp.h): the table of the highest level the CPU allows
 * (dsp_level.h). */
#include "features/common/dsp_level.h"
#include "features/motion/motion_dsp.h"

void motion_dsp_init(MotionDsp *dsp, const unsigned cpu)
{
    static const MotionDsp level[] = {
        { motion_sad_row_c },
#if EV_ARCH_X86_64
        { ev_motion_sad_row_avx2 },
        { ev_motion_sad_row_avx512 },
#endif
    };
    *dsp = level[ev_dsp_level(cpu, EV_DSP_AVX512)];
}

size_t motion_dsp_tmp_size(const int max_w)
{
    const size_t size[] = {
        (size_t)max_w * sizeof(int32_t),
#if EV_ARCH_X86_64
        ev_motion_tmp_size_avx2(max_w),
        ev_motion_tmp_size_avx512(max_w),
#endif
    };
    return ev_dsp_size_max(size, sizeof size / sizeof size[0]);
}
