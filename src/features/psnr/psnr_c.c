/* The psnr C reference kernels (psnr_kernels.h): psnr_math.h's row loops. */
#include "features/psnr/psnr_kernels.h"
#include "features/psnr/psnr_math.h"

uint32_t psnr_row_sse8_c(const uint8_t *r, const uint8_t *d, const unsigned w)
{
    return psnr_row_sse8(r, d, w);
}

uint64_t psnr_row_sse16_c(const uint16_t *r, const uint16_t *d, const unsigned w)
{
    return psnr_row_sse16(r, d, w);
}
