/*
 * adm_rcp_estimate(x): the SSE rcpss reciprocal estimate exactly as an AMD EPYC (Zen 4, family
 * 25 model 17; Zen 5, family 26 model 2, gives the same) computes it, and adm_rcp_rule_bits
 * with adm_rcp_table_intel as an Intel Xeon (family 6 model 207) computes it, for every float
 * bit pattern, in portable C (host and device, EV_HD).
 *
 * Why: libvmaf's x86-64 float ADM divides by rcpss refined with one Newton step (fadm_rcp in
 * float_adm_math.h). rcpss is not specified beyond |relative error| <= 1.5 * 2^-12, and AMD's
 * and Intel's estimates differ (rcpss(1.5) is 0x3f2aa800 on AMD, 0x3f2aa000 on Intel), so
 * Netflix's float_adm bits depend on the CPU that runs it. The golden (shared/golden) was made
 * on AMD. exactvmaf's float_adm uses AMD's table by default (its results equal the golden on
 * every CPU, Intel, ARM, GPU) and Intel's with rcp_estimate=1 (Netflix as run on Intel).
 *
 * The rule, measured on each CPU and checked against _mm_rcp_ss for all 2^32 inputs by
 * tests/unit/adm_rcp_exhaustive.c (also under MXCSR DAZ+FTZ and each rounding mode: the
 * estimate does not depend on them). AMD and Intel follow the same rule and differ only in
 * T: 2115 of the 4096 entries, by 1 or 2 units (2183086080 of the 2^32 inputs).
 * With s the sign bit, E the biased exponent and m the 23-bit mantissa field of x:
 *   E == 0            (+-0, subnormals: read as zero)  -> s | inf
 *   1 <= E <= 252     (normal)                         -> s | (253 - E) << 23 | T[m >> 11] << 11
 *   E == 253, 254     (estimate would be subnormal)    -> s | 0 (flushed)
 *   E == 255, m == 0  (+-inf)                          -> s | 0
 *   E == 255, m != 0  (NaN)                            -> x | 0x00400000 (quieted, payload kept)
 * So a normal input's estimate reads only the top 12 mantissa bits, has 12 mantissa bits
 * itself, and lies in [2^(127-E) / 2, 2^(127-E)): mantissa 1.0 gives 0x3f7ff000, never 1.0,
 * so the exponent is always 253 - E. T (adm_rcp_table.h, adm_rcp_table_intel.h) holds the 4096
 * result mantissas.
 */
#ifndef EV_FEATURES_ADM_RCP_H
#define EV_FEATURES_ADM_RCP_H

#include <stdint.h>

#include "base/bitcast.h"
#include "base/hd.h"
#include "features/adm/adm_rcp_table.h"
#include "features/adm/adm_rcp_table_intel.h"

/* Which vendor's estimate: float_adm's rcp_estimate option. */
enum { ADM_RCP_AMD = 0, ADM_RCP_INTEL = 1 };

/* The rule above on raw bits, with the 4096 result mantissas of one vendor's table. */
EV_HD uint32_t adm_rcp_rule_bits(const uint32_t u, const uint16_t *const table)
{
    const uint32_t sign = u & 0x80000000u;
    const uint32_t e = (u >> 23) & 0xffu;
    const uint32_t m = u & 0x007fffffu;
    if (e == 0)
        return sign | 0x7f800000u;
    if (e == 255)
        return m ? u | 0x00400000u : sign;
    if (e >= 253)
        return sign;
    return sign | (253u - e) << 23 | (uint32_t)table[m >> 11] << 11;
}

/* The estimate on raw bits, AMD's table (see the rule above). */
EV_HD uint32_t adm_rcp_estimate_bits(const uint32_t u)
{
#ifdef __CUDA_ARCH__
    return adm_rcp_rule_bits(u, adm_rcp_table_dev);
#else
    return adm_rcp_rule_bits(u, adm_rcp_table);
#endif
}

/* The table of a vendor (ADM_RCP_AMD or ADM_RCP_INTEL), for adm_rcp_rule_bits. */
EV_HD const uint16_t *adm_rcp_vendor_table(const int vendor)
{
#ifdef __CUDA_ARCH__
    return vendor == ADM_RCP_INTEL ? adm_rcp_table_intel_dev : adm_rcp_table_dev;
#else
    return vendor == ADM_RCP_INTEL ? adm_rcp_table_intel : adm_rcp_table;
#endif
}

/* rcpss(x) with a vendor's table, on any CPU. */
EV_HD float adm_rcp_estimate_with(const float x, const uint16_t *const table)
{
    return ev_float_of(adm_rcp_rule_bits(ev_bits32(x), table));
}

/* rcpss(x), i.e. _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(x))) on AMD Zen 4, on any CPU. */
EV_HD float adm_rcp_estimate(const float x)
{
    return ev_float_of(adm_rcp_estimate_bits(ev_bits32(x)));
}

#endif
