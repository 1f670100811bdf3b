/*
 * Integer ADM row kernels (libvmaf integer_adm.c), one table per CPU level: the C reference
 * (adm_rows.c: the readable spec, one stage per kernel) and the SIMD executors (adm_simd_tmpl.h,
 * instantiated by adm_avx2.c, adm_avx512.c, adm_avx512icl.c), chosen once at init by
 * adm_dsp_init(). adm_frame.c streams each scale row by row through them: DWT, decouple, CSF,
 * denominator and contrast masking of a row run while its bands are in cache. Every executor
 * produces the C kernels' integers (tests/checkasm).
 *
 * Rows hold the h, v, d bands of one band row: int16 at scale 0, int32 at scales 1..3.
 */
#ifndef EV_FEATURES_ADM_DSP_H
#define EV_FEATURES_ADM_DSP_H

#include <stddef.h>
#include <stdint.h>

typedef struct AdmRow16 {
    int16_t *b[3]; /* h, v, d */
} AdmRow16;

typedef struct AdmRow32 {
    int32_t *b[3];
} AdmRow32;

/* What decoupling needs besides the bands. */
typedef struct AdmDecoupleParams {
    double egl; /* adm_enhn_gain_limit */
    float cos_1deg_sq;
    const int32_t *div_lookup; /* 65537 entries centred at 32768 (adm_div_entry) */
} AdmDecoupleParams;

/* Contrast masking of one row: the masked cubes of src at the row's columns, the threshold
 * from the masking values (flt) of the rows above, at and below it and the CSF values (csf) of
 * the row. Columns: cols_first (0 or -1: column 0, mirrored neighbours), [start, end), cols_last
 * (w - 1 or -1: replicated neighbour), as adm_span. */
typedef struct AdmCmCols {
    int first, start, end, last, w;
} AdmCmCols;

typedef struct AdmCmParams {
    unsigned sub[3], sq[3], cub[3]; /* scale 0: threshold shift, square and cube shifts */
    int64_t cub_add[3];
    const uint16_t *irf0; /* scale 0 CSF factors (Q21 h, v; Q23 d) */
    const uint32_t *irf;  /* scales 1..3 (Q32) */
} AdmCmParams;

/* Scale 0 DWT of one output row from the four input rows rows[0..3] (adm_dwt_index rows) of
 * in_w samples: w = (in_w + 1) / 2 outputs of band a, and of h, v, d unless hvd is NULL. */
typedef void (*AdmDwt0Fn)(int16_t *a, const AdmRow16 *hvd, const void *const *rows, int in_w,
                          unsigned bpc, void *tmp);
/* Scales 1..3: rows of the previous scale's band a: int16 for scale 1 (scale 0's band a),
 * int32 above. */
typedef void (*AdmDwt123Fn)(int32_t *a, const AdmRow32 *hvd, const void *const *rows, int in_w,
                            int scale, void *tmp);
/* Decoupling of the distorted bands t against the reference bands o at columns [x0, x1):
 * restored r and additive a. */
typedef void (*AdmDecouple0Fn)(const AdmRow16 *r, const AdmRow16 *a, const AdmRow16 *o,
                               const AdmRow16 *t, int x0, int x1, const AdmDecoupleParams *p);
typedef void (*AdmDecouple123Fn)(const AdmRow32 *r, const AdmRow32 *a, const AdmRow32 *o,
                                 const AdmRow32 *t, int x0, int x1, const AdmDecoupleParams *p);
/* CSF of src and its masking values at [x0, x1); rf: scale 0 factors / this scale's Q32. */
typedef void (*AdmCsf0Fn)(const AdmRow16 *csf, const AdmRow16 *flt, const AdmRow16 *src, int x0,
                          int x1, const uint16_t *rf);
typedef void (*AdmCsf123Fn)(const AdmRow32 *csf, const AdmRow32 *flt, const AdmRow32 *src, int x0,
                            int x1, const uint32_t *rf);
/* Per-band sums of the denominator's cubes of o at [x0, x1) (scale 0: |x|^3; scales 1..3:
 * adm_den_cube123 with q, cub_add, cub). */
typedef void (*AdmDen0Fn)(uint64_t sums[3], const AdmRow16 *o, int x0, int x1);
typedef void (*AdmDen123Fn)(uint64_t sums[3], const AdmRow32 *o, int x0, int x1, unsigned q,
                            uint64_t cub_add, unsigned cub);
/* Per-band sums of the masked cubes of one row (adm_cm_cube0 / adm_cm_cube123), flt[0..2] the
 * rows above, at and below. tmp: 2 * (w + 64) uint32. */
typedef void (*AdmCm0Fn)(int64_t sums[3], const AdmRow16 *src, const AdmRow16 *csf,
                         const AdmRow16 *const *flt, const AdmCmCols *cols, const AdmCmParams *p,
                         void *tmp);
typedef void (*AdmCm123Fn)(int64_t sums[3], const AdmRow32 *src, const AdmRow32 *csf,
                           const AdmRow32 *const *flt, const AdmCmCols *cols, int scale,
                           const AdmCmParams *p, void *tmp);

typedef struct AdmDsp {
    AdmDwt0Fn dwt0_u8, dwt0_u16;
    AdmDwt123Fn dwt123;
    AdmDecouple0Fn decouple0;
    AdmDecouple123Fn decouple123;
    AdmCsf0Fn csf0;
    AdmCsf123Fn csf123;
    AdmDen0Fn den0;
    AdmDen123Fn den123;
    AdmCm0Fn cm0;
    AdmCm123Fn cm123;
} AdmDsp;

/* C reference (adm_rows.c) */
void adm_dwt0_u8_c(int16_t *a, const AdmRow16 *hvd, const void *const *rows, int in_w, unsigned bpc,
                   void *tmp);
void adm_dwt0_u16_c(int16_t *a, const AdmRow16 *hvd, const void *const *rows, int in_w,
                    unsigned bpc, void *tmp);
void adm_dwt123_c(int32_t *a, const AdmRow32 *hvd, const void *const *rows, int in_w, int scale,
                  void *tmp);
void adm_decouple0_c(const AdmRow16 *r, const AdmRow16 *a, const AdmRow16 *o, const AdmRow16 *t,
                     int x0, int x1, const AdmDecoupleParams *p);
void adm_decouple123_c(const AdmRow32 *r, const AdmRow32 *a, const AdmRow32 *o, const AdmRow32 *t,
                       int x0, int x1, const AdmDecoupleParams *p);
void adm_csf0_c(const AdmRow16 *csf, const AdmRow16 *flt, const AdmRow16 *src, int x0, int x1,
                const uint16_t *rf);
void adm_csf123_c(const AdmRow32 *csf, const AdmRow32 *flt, const AdmRow32 *src, int x0, int x1,
                  const uint32_t *rf);
void adm_den0_c(uint64_t sums[3], const AdmRow16 *o, int x0, int x1);
void adm_den123_c(uint64_t sums[3], const AdmRow32 *o, int x0, int x1, unsigned q, uint64_t cub_add,
                  unsigned cub);
void adm_cm0_c(int64_t sums[3], const AdmRow16 *src, const AdmRow16 *csf,
               const AdmRow16 *const *flt, const AdmCmCols *cols, const AdmCmParams *p, void *tmp);
void adm_cm123_c(int64_t sums[3], const AdmRow32 *src, const AdmRow32 *csf,
                 const AdmRow32 *const *flt, const AdmCmCols *cols, int scale, const AdmCmParams *p,
                 void *tmp);
size_t adm_rows_tmp_size_c(int max_in_w);

#define EV_ADM_DECLARE_ISA(isa)                                                                    \
    void ev_adm_dwt0_u8_##isa(int16_t *a, const AdmRow16 *hvd, const void *const *rows, int in_w,  \
                              unsigned bpc, void *tmp);                                            \
    void ev_adm_dwt0_u16_##isa(int16_t *a, const AdmRow16 *hvd, const void *const *rows, int in_w, \
                               unsigned bpc, void *tmp);                                           \
    void ev_adm_dwt123_##isa(int32_t *a, const AdmRow32 *hvd, const void *const *rows, int in_w,   \
                             int scale, void *tmp);                                                \
    void ev_adm_decouple0_##isa(const AdmRow16 *r, const AdmRow16 *a, const AdmRow16 *o,           \
                                const AdmRow16 *t, int x0, int x1, const AdmDecoupleParams *p);    \
    void ev_adm_decouple123_##isa(const AdmRow32 *r, const AdmRow32 *a, const AdmRow32 *o,         \
                                  const AdmRow32 *t, int x0, int x1, const AdmDecoupleParams *p);  \
    void ev_adm_csf0_##isa(const AdmRow16 *csf, const AdmRow16 *flt, const AdmRow16 *src, int x0,  \
                           int x1, const uint16_t *rf);                                            \
    void ev_adm_csf123_##isa(const AdmRow32 *csf, const AdmRow32 *flt, const AdmRow32 *src,        \
                             int x0, int x1, const uint32_t *rf);                                  \
    void ev_adm_den0_##isa(uint64_t sums[3], const AdmRow16 *o, int x0, int x1);                   \
    void ev_adm_den123_##isa(uint64_t sums[3], const AdmRow32 *o, int x0, int x1, unsigned q,      \
                             uint64_t cub_add, unsigned cub);                                      \
    void ev_adm_cm0_##isa(int64_t sums[3], const AdmRow16 *src, const AdmRow16 *csf,               \
                          const AdmRow16 *const *flt, const AdmCmCols *cols, const AdmCmParams *p, \
                          void *tmp);                                                              \
    void ev_adm_cm123_##isa(int64_t sums[3], const AdmRow32 *src, const AdmRow32 *csf,             \
                            const AdmRow32 *const *flt, const AdmCmCols *cols, int scale,          \
                            const AdmCmParams *p, void *tmp);                                      \
    size_t ev_adm_rows_tmp_size_##isa(int max_in_w);

EV_ADM_DECLARE_ISA(avx2)
EV_ADM_DECLARE_ISA(avx512)
EV_ADM_DECLARE_ISA(avx512icl)

#endif
