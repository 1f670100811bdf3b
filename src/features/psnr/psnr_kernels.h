/*
 * psnr row kernels (libvmaf integer_psnr.c): the table type and every kernel of every level,
 * the C reference (psnr_c.c) and the SIMD executors (psnr_avx2.c, psnr_avx512.c, both from
 * psnr_simd_tmpl.h). Header only; psnr_dsp.c fills the table (docs/FAMILY.md). Every executor
 * returns the C's integer.
 */
#ifndef EV_FEATURES_PSNR_KERNELS_H
#define EV_FEATURES_PSNR_KERNELS_H

#include <stdint.h>

typedef struct PsnrDsp {
    /* one row's sum of squared errors: 8-bit in the reference's wrapping uint32 */
    uint32_t (*row_sse8)(const uint8_t *r, const uint8_t *d, unsigned w);
    uint64_t (*row_sse16)(const uint16_t *r, const uint16_t *d, unsigned w);
} PsnrDsp;

uint32_t psnr_row_sse8_c(const uint8_t *r, const uint8_t *d, unsigned w);
uint64_t psnr_row_sse16_c(const uint16_t *r, const uint16_t *d, unsigned w);
uint32_t ev_psnr_row_sse8_avx2(const uint8_t *r, const uint8_t *d, unsigned w);
uint64_t ev_psnr_row_sse16_avx2(const uint16_t *r, const uint16_t *d, unsigned w);
uint32_t ev_psnr_row_sse8_avx512(const uint8_t *r, const uint8_t *d, unsigned w);
uint64_t ev_psnr_row_sse16_avx512(const uint16_t *r, const uint16_t *d, unsigned w);

#endif
