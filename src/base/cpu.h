/* CPU instruction-set levels, as libvmaf numbers them (its --cpumask bits), and their detection.
 * Extractors choose their kernels once, at init, from EvPicInfo.cpu (core/picture.h). */
#ifndef EV_BASE_CPU_H
#define EV_BASE_CPU_H

#if defined(__x86_64__) || defined(_M_X64)
#define EV_ARCH_X86_64 1
#else
#define EV_ARCH_X86_64 0
#endif

enum {
    EV_CPU_SSE2 = 1 << 0,
    EV_CPU_SSSE3 = 1 << 1,
    EV_CPU_SSE41 = 1 << 2,
    EV_CPU_AVX2 = 1 << 3,      /* AVX2, with the OS saving the ymm state */
    EV_CPU_AVX512 = 1 << 4,    /* AVX-512 F, CD, BW, DQ and VL, with the OS saving zmm/k */
    EV_CPU_AVX512ICL = 1 << 5, /* + VNNI, IFMA, VBMI, VBMI2, BITALG, VPOPCNTDQ, GFNI, VAES,
                                   VPCLMULQDQ (Ice Lake and later, Zen 4 and later) */
    EV_CPU_ALL = (1 << 6) - 1,
};

/* The levels this CPU and OS support (x86-64: CPUID and XGETBV; 0 elsewhere). */
unsigned ev_cpu_detect(void);

/* The levels kernels may use: the detected ones minus those in mask (--cpumask). */
unsigned ev_cpu_allowed(unsigned mask);

#endif
