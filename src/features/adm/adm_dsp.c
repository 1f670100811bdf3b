/* The integer ADM kernel table (adm_dsp.h): the table of the highest level the CPU allows
 * (dsp_level.h). */
#include "features/common/dsp_level.h"
#include "features/adm/adm_dsp.h"

/* A level's table: p the kernels' prefix (adm_ for the C reference, ev_adm_ for SIMD). */
#define ADM_DSP(p, isa)                                                                            \
    {                                                                                              \
        .dwt0_u8 = p##dwt0_u8_##isa, .dwt0_u16 = p##dwt0_u16_##isa, .dwt123 = p##dwt123_##isa,     \
        .decouple0 = p##decouple0_##isa, .decouple123 = p##decouple123_##isa,                      \
        .csf0 = p##csf0_##isa, .csf123 = p##csf123_##isa, .den0 = p##den0_##isa,                   \
        .den123 = p##den123_##isa, .cm0 = p##cm0_##isa, .cm123 = p##cm123_##isa,                   \
    }

void adm_dsp_init(AdmDsp *dsp, const unsigned cpu)
{
    static const AdmDsp level[] = {
        ADM_DSP(adm_, c),
#if EV_ARCH_X86_64
        ADM_DSP(ev_adm_, avx2),
        ADM_DSP(ev_adm_, avx512),
        ADM_DSP(ev_adm_, avx512icl),
#endif
    };
    *dsp = level[ev_dsp_level(cpu, EV_DSP_AVX512ICL)];
}

size_t adm_dsp_tmp_size(const int max_in_w)
{
    const size_t size[] = {
        adm_rows_tmp_size_c(max_in_w),
#if EV_ARCH_X86_64
        ev_adm_rows_tmp_size_avx2(max_in_w),
        ev_adm_rows_tmp_size_avx512(max_in_w),
        ev_adm_rows_tmp_size_avx512icl(max_in_w),
#endif
    };
    return ev_dsp_size_max(size, sizeof size / sizeof size[0]);
}
