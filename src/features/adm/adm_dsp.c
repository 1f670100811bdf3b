/* The integer ADM kernel table (adm_dsp.h): the C reference first, then each SIMD level the CPU
 * allows, each replacing the one before. */
#include "base/cpu.h"
#include "features/adm/adm_dsp.h"

void adm_dsp_init(AdmDsp *dsp, const unsigned cpu)
{
    dsp->dwt0_u8 = adm_dwt0_u8_c;
    dsp->dwt0_u16 = adm_dwt0_u16_c;
    dsp->dwt123 = adm_dwt123_c;
    dsp->decouple0 = adm_decouple0_c;
    dsp->decouple123 = adm_decouple123_c;
    dsp->csf0 = adm_csf0_c;
    dsp->csf123 = adm_csf123_c;
    dsp->den0 = adm_den0_c;
    dsp->den123 = adm_den123_c;
    dsp->cm0 = adm_cm0_c;
    dsp->cm123 = adm_cm123_c;
#if EV_ARCH_X86_64
#define ADM_SET(isa)                                                                           \
    do {                                                                                       \
        dsp->dwt0_u8 = ev_adm_dwt0_u8_##isa;                                                   \
        dsp->dwt0_u16 = ev_adm_dwt0_u16_##isa;                                                 \
        dsp->dwt123 = ev_adm_dwt123_##isa;                                                     \
        dsp->decouple0 = ev_adm_decouple0_##isa;                                               \
        dsp->decouple123 = ev_adm_decouple123_##isa;                                           \
        dsp->csf0 = ev_adm_csf0_##isa;                                                         \
        dsp->csf123 = ev_adm_csf123_##isa;                                                     \
        dsp->den0 = ev_adm_den0_##isa;                                                         \
        dsp->den123 = ev_adm_den123_##isa;                                                     \
        dsp->cm0 = ev_adm_cm0_##isa;                                                           \
        dsp->cm123 = ev_adm_cm123_##isa;                                                       \
    } while (0)
    if (!(cpu & EV_CPU_AVX2))
        return;
    ADM_SET(avx2);
    if (!(cpu & EV_CPU_AVX512))
        return;
    ADM_SET(avx512);
    if (!(cpu & EV_CPU_AVX512ICL))
        return;
    ADM_SET(avx512icl);
#undef ADM_SET
#endif
}

size_t adm_dsp_tmp_size(const int max_in_w)
{
    size_t n = adm_rows_tmp_size_c(max_in_w);
#if EV_ARCH_X86_64
    const size_t simd[3] = { ev_adm_rows_tmp_size_avx2(max_in_w),
                             ev_adm_rows_tmp_size_avx512(max_in_w),
                             ev_adm_rows_tmp_size_avx512icl(max_in_w) };
    for (int k = 0; k < 3; k++)
        n = simd[k] > n ? simd[k] : n;
#endif
    return n;
}
