/* Integer motion dispatch (motion_dsp.h): the C reference, then the SIMD levels the CPU allows. */
#include "base/cpu.h"
#include "features/motion/motion_dsp.h"

void motion_dsp_init(MotionDsp *dsp, const unsigned cpu)
{
    dsp->sad_row = motion_sad_row_c;
#if EV_ARCH_X86_64
    if (!(cpu & EV_CPU_AVX2))
        return;
    dsp->sad_row = ev_motion_sad_row_avx2;
    if (cpu & EV_CPU_AVX512)
        dsp->sad_row = ev_motion_sad_row_avx512;
#else
    (void)cpu;
#endif
}

size_t motion_dsp_tmp_size(const int max_w)
{
    size_t n = (size_t)max_w * sizeof(int32_t);
#if EV_ARCH_X86_64
    const size_t s[2] = { ev_motion_tmp_size_avx2(max_w), ev_motion_tmp_size_avx512(max_w) };
    for (int k = 0; k < 2; k++)
        n = s[k] > n ? s[k] : n;
#endif
    return n;
}
