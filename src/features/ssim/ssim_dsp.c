/* SSIM dispatch (ssim_dsp.h): the table of the best level the CPU allows. */
#include "base/cpu.h"
#include "features/ssim/ssim_dsp.h"

const SsimDsp *ssim_dsp(const unsigned cpu)
{
    static const SsimDsp c = { ssim_decimate_span_c, ssim_gauss_row_c, ssim_gauss_column_c,
                               ssim_terms_row_c };
#if EV_ARCH_X86_64
    static const SsimDsp avx2 = { ssim_decimate_span_avx2, ssim_gauss_row_avx2,
                                  ssim_gauss_column_avx2, ssim_terms_row_avx2 };
    static const SsimDsp avx512 = { ssim_decimate_span_avx512, ssim_gauss_row_avx512,
                                    ssim_gauss_column_avx512, ssim_terms_row_avx512 };
    if (cpu & EV_CPU_AVX512)
        return &avx512;
    if (cpu & EV_CPU_AVX2)
        return &avx2;
#else
    (void)cpu;
#endif
    return &c;
}
