/*
 * The kernel level a feature's dispatch (its *_dsp.c) picks from EvPicInfo.cpu (EV_CPU_* bits).
 * The levels are a ladder, each needing every one below it (AVX-512 without AVX2 is the C
 * level), up to top, the highest the family has kernels for; off x86-64, the C level. A
 * dispatch keeps one table a level and copies the one picked:
 *
 *   static const FooDsp level[] = {
 *       { foo_a_c, foo_b_c },
 *   #if EV_ARCH_X86_64
 *       { ev_foo_a_avx2, ev_foo_b_avx2 }, { ev_foo_a_avx512, ev_foo_b_avx512 },
 *   #endif
 *   };
 *   *dsp = level[ev_dsp_level(cpu, EV_DSP_AVX512)];
 */
#ifndef EV_FEATURES_COMMON_DSP_LEVEL_H
#define EV_FEATURES_COMMON_DSP_LEVEL_H

#include <stddef.h>

#include "base/cpu.h"

enum { EV_DSP_C, EV_DSP_AVX2, EV_DSP_AVX512, EV_DSP_AVX512ICL };

static inline int ev_dsp_level(const unsigned cpu, const int top)
{
    int level = EV_DSP_C;
#if EV_ARCH_X86_64
    static const unsigned need[] = { EV_CPU_AVX2, EV_CPU_AVX512, EV_CPU_AVX512ICL };
    while (level < top && (cpu & need[level]))
        level++;
#else
    (void)cpu;
    (void)top;
#endif
    return level;
}

/* The largest of n scratch sizes (those of a family's levels): the scratch any level fits in. */
static inline size_t ev_dsp_size_max(const size_t *size, const size_t n)
{
    size_t max = 0;
    for (size_t k = 0; k < n; k++)
        max = size[k] > max ? size[k] : max;
    return max;
}

#endif
