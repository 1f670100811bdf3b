/* The integer ADM kernel table (adm_dsp.h): the C reference first, then each SIMD level the CPU
 * allows, each replacing the one before. */
#include "core/cpu.h"
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
    (void)cpu;
}

size_t adm_dsp_tmp_size(const int max_in_w)
{
    return adm_rows_tmp_size_c(max_in_w);
}
