/*
 * Integer motion row kernels (libvmaf integer_motion.c, the pipelined v2 SAD): the table type
 * and every kernel of every level, the C reference (motion_rows.c) and the SIMD executors
 * (motion_avx2.c, motion_avx512.c, both from motion_simd_tmpl.h). Header only; motion_dsp.c
 * fills the table (docs/FAMILY.md). Every executor returns the C kernel's integer
 * (tests/checkasm).
 */
#ifndef EV_FEATURES_MOTION_KERNELS_H
#define EV_FEATURES_MOTION_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/* The SAD of one row: prev[k], cur[k] (k = 0..4) are the rows i - 2 .. i + 2 of the previous and
 * the current reference luma (mirrored at the edges), w >= 3 samples of bpc bits (uint8_t for
 * bpc 8, else uint16_t); the 5-tap blur of prev - cur, vertical then horizontal, |.| summed in
 * the reference's wrapping uint32. tmp: motion_dsp_tmp_size(w) bytes. */
typedef uint32_t (*MotionSadRowFn)(const void *const *prev, const void *const *cur, int w,
                                   unsigned bpc, void *tmp);

typedef struct MotionDsp {
    MotionSadRowFn sad_row;
} MotionDsp;

uint32_t motion_sad_row_c(const void *const *prev, const void *const *cur, int w, unsigned bpc,
                          void *tmp);
uint32_t ev_motion_sad_row_avx2(const void *const *prev, const void *const *cur, int w,
                                unsigned bpc, void *tmp);
size_t ev_motion_tmp_size_avx2(int max_w);
uint32_t ev_motion_sad_row_avx512(const void *const *prev, const void *const *cur, int w,
                                  unsigned bpc, void *tmp);
size_t ev_motion_tmp_size_avx512(int max_w);

#endif
