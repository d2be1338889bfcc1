/* kernels/x86/cpu.c - which instruction sets this CPU (and its OS) can run, from CPUID. */
#include "kernels/kernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* XCR0 through xgetbv; only called when CPUID says OSXSAVE is on. */
static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (uint64_t)hi << 32 | lo;
}

unsigned rpl_cpu_features(void)
{
    unsigned a, b, c, d, f = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    if (d & (1u << 23))
        f |= RPL_CPU_MMX;
    if (d & (1u << 25))
        f |= RPL_CPU_SSE;
    if (d & (1u << 26))
        f |= RPL_CPU_SSE2;
    /* AVX2 needs the CPU bit and an OS that saves XMM and YMM state. */
    int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
    if (osxsave && avx && (xgetbv0() & 6) == 6 && __get_cpuid_max(0, NULL) >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        if (b & (1u << 5))
            f |= RPL_CPU_AVX2;
    }
    return f;
}
#else
unsigned rpl_cpu_features(void)
{
    return 0;
}
#endif
