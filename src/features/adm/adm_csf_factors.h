/*
 * ADM contrast-sensitivity factors (libvmaf feature/integer_adm.h dwt_quant_step,
 * barten_csf_tools.h, adm_csf_tools.h): one float per (scale, orientation), computed on the host
 * with glibc's libm in the reference's types and order, once at init.
 * lambda = scale 0..3 (finest first); diag = 0 for the h and v bands, 1 for d.
 */
#ifndef EV_FEATURES_ADM_CSF_FACTORS_H
#define EV_FEATURES_ADM_CSF_FACTORS_H

#include <stdint.h>

/* Watson et al. 1997 noise-floor model: 1 / quantisation step, luma "sfl" parameters. */
float adm_watson_factor(int lambda, int diag, double norm_view_dist, int ref_display_height);

/* Barten's CSF as simplified in HDR-VDP-2 at luminance lum (cd/m2), times scale. */
float adm_barten_factor(int lambda, double norm_view_dist, int ref_display_height, double lum,
                        double scale);

/* Tabulated Barten/Watson blend for the supported (display height, distance) pairs; mae picks
 * the v1.0.17 tables. Unsupported pairs give -22.0f (-EINVAL as a float), as the reference. */
float adm_blend_factor(int lambda, int diag, double norm_view_dist, int ref_display_height,
                       int mae);

/* The DLM paper's CSF (float ADM's adm_csf_mode=2): (0.31 + 0.69 f) exp(-0.29 f). */
float adm_native_factor(int lambda, int diag, double norm_view_dist, int ref_display_height);

/* cos(1 degree)^2 as the reference's float: 0.99969542. */
float adm_cos_1deg_sq(void);

/* The reference's out-of-range float->unsigned conversions (undefined in C), as GCC on x86-64
 * compiles them: (uint16_t)d truncates through a 32-bit signed integer and keeps the low 16 bits,
 * (uint32_t)d through a 64-bit one and keeps the low 32 bits; a value outside the intermediate
 * type (or NaN) gives its "integer indefinite" 0x80..0, whose low bits are 0. Written in defined
 * C (via int64_t). Barten factors above 1 reach this (golden cases adm_csf1*). */
uint16_t adm_gcc_double_to_u16(double v);
uint32_t adm_gcc_double_to_u32(double v);

#endif
