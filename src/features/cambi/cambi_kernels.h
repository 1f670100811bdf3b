/*
 * CAMBI row kernels (libvmaf feature/cambi.c: the preprocessing, the zero-derivative mask, the
 * mode filter, the decimation and the band codes): the table type and every kernel of every
 * level. Header only (docs/FAMILY.md). All of them are integer: every level returns the C
 * level's bytes (tests/checkasm).
 */
#ifndef EV_FEATURES_CAMBI_KERNELS_H
#define EV_FEATURES_CAMBI_KERNELS_H

#include <stdint.h>

#include "features/cambi/cambi_math.h"

/* Bytes after the window's counts that a level may read (and ignore) beyond the last one. */
#define CAMBI_HIST_SLACK 64

/* The row kernels, one table per CPU level (cambi_dsp.c), all from cambi_rows_tmpl.h
 * (cambi_rows.c: the C reference; cambi_avx2.c, cambi_avx512.c). w >= 1 samples a row.
 *  to_10b_row       out = the w samples of in (uint8_t for bpc 8, else uint16_t) as 10 bits
 *  anti_dither_row  in place, r0[j] = the 2x2 mean of r0 and the row below r1 (2 at the last
 *                   column): r1 is the next row, not yet averaged
 *  flat_row         flags[j] = 1 when row[j] equals its right neighbour (itself at the last
 *                   column) and below[j], else 0
 *  count_row        count[j] += add[j] - sub[j] (the mask's vertical counts of flags)
 *  mask_row         mask[j] = count[j - 3] + ... + count[j + 3] > threshold (count: 3 zeros
 *                   before and after the w columns)
 *  mode_row         out = the horizontal 3-mode of in (the end samples kept); w >= 2
 *  mode_col         out = the 3-mode of a, b, c column by column
 *  decimate16/8     out[j] = in[2 j], w outputs (out and in do not overlap)
 *  band_row         codes = cambi_band_code of x and mask
 *  slide_row        move the contrast window down a row: for each column j where the code
 *                   leaving (leave[j]) and the one entering (enter[j]) differ, the counts
 *                   hist[code * w + k], k within pad of j, of the leaving one (when counted)
 *                   drop by 1 and those of the entering one (when counted) grow by 1
 *  next_diff        the first column k >= j (j <= w) where a[k] != b[k], or w
 *  c_values_row     out[j] = the contrast value of pixel j of band code codes[j] from the
 *                   window's counts hist (0 where codes[j] is CAMBI_NOT_COUNTED) */
typedef struct CambiDsp {
    void (*to_10b_row)(uint16_t *out, const void *in, unsigned w, unsigned bpc);
    void (*anti_dither_row)(uint16_t *r0, const uint16_t *r1, unsigned w);
    void (*flat_row)(uint8_t *flags, const uint16_t *row, const uint16_t *below, unsigned w);
    void (*count_row)(uint8_t *count, const uint8_t *add, const uint8_t *sub, unsigned w);
    void (*mask_row)(uint8_t *mask, const uint8_t *count, unsigned w, unsigned threshold);
    void (*mode_row)(uint16_t *out, const uint16_t *in, unsigned w);
    void (*mode_col)(uint16_t *out, const uint16_t *a, const uint16_t *b, const uint16_t *c,
                     unsigned w);
    void (*decimate16)(uint16_t *out, const uint16_t *in, unsigned w);
    void (*decimate8)(uint8_t *out, const uint8_t *in, unsigned w);
    void (*band_row)(uint16_t *codes, const uint16_t *x, const uint8_t *mask, unsigned w,
                     unsigned band_lo, unsigned band_n);
    void (*slide_row)(uint16_t *hist, unsigned w, unsigned pad, const uint16_t *leave,
                      const uint16_t *enter);
    unsigned (*next_diff)(const uint16_t *a, const uint16_t *b, unsigned j, unsigned w);
    void (*c_values_row)(float *out, const uint16_t *codes, const uint16_t *hist, unsigned w,
                         const CambiTables *t);
} CambiDsp;

#define EV_CAMBI_DECLARE(isa)                                                                      \
    void cambi_to_10b_row_##isa(uint16_t *out, const void *in, unsigned w, unsigned bpc);          \
    void cambi_anti_dither_row_##isa(uint16_t *r0, const uint16_t *r1, unsigned w);                \
    void cambi_flat_row_##isa(uint8_t *flags, const uint16_t *row, const uint16_t *below,          \
                              unsigned w);                                                         \
    void cambi_count_row_##isa(uint8_t *count, const uint8_t *add, const uint8_t *sub,             \
                               unsigned w);                                                        \
    void cambi_mask_row_##isa(uint8_t *mask, const uint8_t *count, unsigned w,                     \
                              unsigned threshold);                                                 \
    void cambi_mode_row_##isa(uint16_t *out, const uint16_t *in, unsigned w);                      \
    void cambi_mode_col_##isa(uint16_t *out, const uint16_t *a, const uint16_t *b,                 \
                              const uint16_t *c, unsigned w);                                      \
    void cambi_decimate16_##isa(uint16_t *out, const uint16_t *in, unsigned w);                    \
    void cambi_decimate8_##isa(uint8_t *out, const uint8_t *in, unsigned w);                       \
    void cambi_band_row_##isa(uint16_t *codes, const uint16_t *x, const uint8_t *mask, unsigned w, \
                              unsigned band_lo, unsigned band_n);                                  \
    void cambi_slide_row_##isa(uint16_t *hist, unsigned w, unsigned pad, const uint16_t *leave,    \
                               const uint16_t *enter);                                             \
    unsigned cambi_next_diff_##isa(const uint16_t *a, const uint16_t *b, unsigned j, unsigned w);  \
    void cambi_c_values_row_##isa(float *out, const uint16_t *codes, const uint16_t *hist,         \
                                  unsigned w, const CambiTables *t);
EV_CAMBI_DECLARE(c)
EV_CAMBI_DECLARE(avx2)
EV_CAMBI_DECLARE(avx512)

#endif
