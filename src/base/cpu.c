/* CPU level detection (core/cpu.h): CPUID leaves 1 and 7, XGETBV for the OS-enabled state. */
#include "base/cpu.h"

#if EV_ARCH_X86_64
#include <cpuid.h>

static unsigned long long xgetbv0(void)
{
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}

unsigned ev_cpu_detect(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    unsigned flags = 0;
    if (d & (1u << 26))
        flags |= EV_CPU_SSE2;
    if ((flags & EV_CPU_SSE2) && (c & (1u << 9)))
        flags |= EV_CPU_SSSE3;
    if ((flags & EV_CPU_SSSE3) && (c & (1u << 19)))
        flags |= EV_CPU_SSE41;
    const int osxsave = !!(c & (1u << 27)), avx = !!(c & (1u << 28));
    if (!(flags & EV_CPU_SSE41) || !osxsave || !avx)
        return flags;
    const unsigned long long xcr0 = xgetbv0();
    if ((xcr0 & 0x6) != 0x6) /* xmm and ymm state */
        return flags;
    if (__get_cpuid_max(0, 0) < 7)
        return flags;
    __cpuid_count(7, 0, a, b, c, d);
    if (!(b & (1u << 5)) || !(b & (1u << 3)) || !(b & (1u << 8))) /* AVX2, BMI1, BMI2 */
        return flags;
    flags |= EV_CPU_AVX2;
    /* F(16) DQ(17) CD(28) BW(30) VL(31), and opmask + zmm state in XCR0 */
    const unsigned avx512 = (1u << 16) | (1u << 17) | (1u << 28) | (1u << 30) | (1u << 31);
    if ((b & avx512) != avx512 || (xcr0 & 0xe0) != 0xe0)
        return flags;
    flags |= EV_CPU_AVX512;
    /* IFMA (b21); VBMI (c1), VBMI2 (c6), GFNI (c8), VAES (c9), VPCLMULQDQ (c10), VNNI (c11),
     * BITALG (c12), VPOPCNTDQ (c14) */
    const unsigned icl_c = (1u << 1) | (1u << 6) | (1u << 8) | (1u << 9) | (1u << 10) | (1u << 11) |
                           (1u << 12) | (1u << 14);
    if ((b & (1u << 21)) && (c & icl_c) == icl_c)
        flags |= EV_CPU_AVX512ICL;
    return flags;
}
#else
unsigned ev_cpu_detect(void)
{
    return 0;
}
#endif

unsigned ev_cpu_allowed(const unsigned mask)
{
    return ev_cpu_detect() & ~mask;
}
