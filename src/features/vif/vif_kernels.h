/*
 * Integer VIF row kernels (libvmaf integer_vif.c), one table per CPU level: the C reference
 * (vif_scale.c: the readable spec) and the SIMD executors (vif_simd_tmpl.h, instantiated by
 * vif_avx2.c, vif_avx512.c, vif_avx512icl.c), chosen once at init by vif_dsp_init(). Every
 * executor adds the same integers to VifSums and writes the same decimated samples as the C
 * (tests/checkasm).
 */
#ifndef EV_FEATURES_VIF_DSP_H
#define EV_FEATURES_VIF_DSP_H

#include <stddef.h>
#include <stdint.h>

#include "features/vif/vif_math.h"

typedef struct VifStatParams {
    const uint16_t *log2_table; /* VIF_LOG2_TABLE_PADDED entries (SIMD gathers read 32 bits) */
    double egl;                 /* vif_enhn_gain_limit */
} VifStatParams;

enum { VIF_LOG2_TABLE_PADDED = VIF_LOG2_TABLE_SIZE + 2 };

/*
 * The statistic of n_out (1 or 2) consecutive output rows of a scale: ref[k], dis[k]
 * (k = 0 .. n + n_out - 2, n = vif_n_taps[scale]) are the input rows the vertical filter reads
 * (output row o reads rows o .. o + n - 1), already reflected at the plane's edges, of w
 * samples (uint8_t for the _u8 kernel, uint16_t otherwise); sh rounds the vertical sums (the u8
 * kernel keeps the second moments whole, as vif_shifts(0, 8)). Adds to *sums. tmp: at least
 * vif_dsp_tmp_size(w) bytes, 64-byte aligned.
 */
typedef void (*VifStatRowFn)(VifSums *sums, const void *const *ref, const void *const *dis,
                             int n_out, int scale, int w, VifShifts sh, const VifStatParams *p,
                             void *tmp);

/* One row of the next scale: ref and dis filtered with vif_taps[filter] (input rows as above,
 * n = vif_n_taps[filter]), the vertical sums rounded by shift, then the horizontal pass at the
 * even columns only: w / 2 samples to each of out_ref, out_dis. */
typedef void (*VifDownRowFn)(uint16_t *out_ref, uint16_t *out_dis, const void *const *ref,
                             const void *const *dis, int filter, int w, unsigned shift, void *tmp);

/* Many encodes against one reference: the statistic of a row pair in two parts, whose sums
 * add up to VifStatRowFn's. The reference's part adds the denominator's sums (den_log,
 * den_non_log: they depend on the reference alone) to *den and leaves its filtered mean and
 * sigma1_sq in cache (ref_cache_size(w) bytes, 64-byte aligned); then each distorted's part
 * reads it, with the reference's rows again (for xy), and adds the numerator's sums (num_log,
 * num_non_log) to its own. */
typedef void (*VifStatRefFn)(VifSums *den, void *cache, const void *const *ref, int n_out,
                             int scale, int w, VifShifts sh, const VifStatParams *p, void *tmp);
typedef void (*VifStatDisFn)(VifSums *sums, const void *cache, const void *const *ref,
                             const void *const *dis, int n_out, int scale, int w, VifShifts sh,
                             const VifStatParams *p, void *tmp);
/* One picture's row of the next scale, as VifDownRowFn's for either picture. */
typedef void (*VifDownOneFn)(uint16_t *out, const void *const *in, int filter, int w,
                             unsigned shift, void *tmp);

typedef struct VifDsp {
    VifStatRowFn stat_row_u8, stat_row_u16;
    VifDownRowFn down_row_u8, down_row_u16;
    VifDownOneFn down_one_u8, down_one_u16;
    /* NULL at the C level: a distorted is then run with stat_row_* alone */
    VifStatRefFn stat_ref_u8, stat_ref_u16;
    VifStatDisFn stat_dis_u8, stat_dis_u16;
    size_t (*ref_cache_size)(int max_w);
} VifDsp;

void vif_stat_row_u8_c(VifSums *sums, const void *const *ref, const void *const *dis, int n_out,
                       int scale, int w, VifShifts sh, const VifStatParams *p, void *tmp);
void vif_stat_row_u16_c(VifSums *sums, const void *const *ref, const void *const *dis, int n_out,
                        int scale, int w, VifShifts sh, const VifStatParams *p, void *tmp);
void vif_down_row_u8_c(uint16_t *out_ref, uint16_t *out_dis, const void *const *ref,
                       const void *const *dis, int filter, int w, unsigned shift, void *tmp);
void vif_down_row_u16_c(uint16_t *out_ref, uint16_t *out_dis, const void *const *ref,
                        const void *const *dis, int filter, int w, unsigned shift, void *tmp);
void vif_down_one_u8_c(uint16_t *out, const void *const *in, int filter, int w, unsigned shift,
                       void *tmp);
void vif_down_one_u16_c(uint16_t *out, const void *const *in, int filter, int w, unsigned shift,
                        void *tmp);
size_t vif_row_tmp_size_c(int max_w);

#define EV_VIF_DECLARE_ISA(isa)                                                                    \
    void ev_vif_stat_row_u8_##isa(VifSums *sums, const void *const *ref, const void *const *dis,   \
                                  int n_out, int scale, int w, VifShifts sh,                       \
                                  const VifStatParams *p, void *tmp);                              \
    void ev_vif_stat_row_u16_##isa(VifSums *sums, const void *const *ref, const void *const *dis,  \
                                   int n_out, int scale, int w, VifShifts sh,                      \
                                   const VifStatParams *p, void *tmp);                             \
    void ev_vif_down_row_u8_##isa(uint16_t *out_ref, uint16_t *out_dis, const void *const *ref,    \
                                  const void *const *dis, int filter, int w, unsigned shift,       \
                                  void *tmp);                                                      \
    void ev_vif_down_row_u16_##isa(uint16_t *out_ref, uint16_t *out_dis, const void *const *ref,   \
                                   const void *const *dis, int filter, int w, unsigned shift,      \
                                   void *tmp);                                                     \
    void ev_vif_down_one_u8_##isa(uint16_t *out, const void *const *in, int filter, int w,         \
                                  unsigned shift, void *tmp);                                      \
    void ev_vif_down_one_u16_##isa(uint16_t *out, const void *const *in, int filter, int w,        \
                                   unsigned shift, void *tmp);                                     \
    size_t ev_vif_row_tmp_size_##isa(int max_w);

/* The many-encodes parts (the AVX2 and AVX-512 levels) */
#define EV_VIF_DECLARE_PARTS(isa)                                                                  \
    void ev_vif_stat_ref_u8_##isa(VifSums *den, void *cache, const void *const *ref, int n_out,    \
                                  int scale, int w, VifShifts sh, const VifStatParams *p,          \
                                  void *tmp);                                                      \
    void ev_vif_stat_ref_u16_##isa(VifSums *den, void *cache, const void *const *ref, int n_out,   \
                                   int scale, int w, VifShifts sh, const VifStatParams *p,         \
                                   void *tmp);                                                     \
    void ev_vif_stat_dis_u8_##isa(VifSums *sums, const void *cache, const void *const *ref,        \
                                  const void *const *dis, int n_out, int scale, int w,             \
                                  VifShifts sh, const VifStatParams *p, void *tmp);                \
    void ev_vif_stat_dis_u16_##isa(VifSums *sums, const void *cache, const void *const *ref,       \
                                   const void *const *dis, int n_out, int scale, int w,            \
                                   VifShifts sh, const VifStatParams *p, void *tmp);               \
    size_t ev_vif_ref_cache_size_##isa(int max_w);

EV_VIF_DECLARE_ISA(avx2)
EV_VIF_DECLARE_ISA(avx512)
EV_VIF_DECLARE_ISA(avx512icl)
EV_VIF_DECLARE_PARTS(avx2)
EV_VIF_DECLARE_PARTS(avx512)
EV_VIF_DECLARE_PARTS(avx512icl)

#endif
