/* kernels/x86/cpu.c - which instruction sets this CPU (and its OS) can run, from CPUID, read once (WebAssembly: what the module was built with). */
#include "kernels/kernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <stdatomic.h>

/* XCR0 through xgetbv; only called when CPUID says OSXSAVE is on. */
static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (uint64_t)hi << 32 | lo;
}

static unsigned read_features(void)
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

/* Set on a cached value, so that a CPU without any of the features (0)
 * is not read again. */
#define READ_DONE (1u << 31)
_Static_assert(((RPL_CPU_MMX | RPL_CPU_SSE | RPL_CPU_SSE2 | RPL_CPU_AVX2) & READ_DONE) == 0,
               "READ_DONE must not be a feature bit");

/*
 * CPUID is slow under virtualisation (a VM exit each time) and the answer
 * never changes while the process runs, so it is read on the first call
 * only.  Threads racing on that first call each read the same value and
 * store it; relaxed order is enough, the value stands alone.
 */
unsigned rpl_cpu_features(void)
{
    static atomic_uint cached; /* 0 until read, then the features | READ_DONE */
    unsigned f = atomic_load_explicit(&cached, memory_order_relaxed);
    if (f == 0) {
        f = read_features() | READ_DONE;
        atomic_store_explicit(&cached, f, memory_order_relaxed);
    }
    return f & ~READ_DONE;
}
#elif defined(__EMSCRIPTEN__) && defined(RPL_HAVE_SSE2)
/* WebAssembly: the SSE2 kernels are built for its SIMD (emscripten maps
 * SSE2's intrinsics onto them), and a module with them only runs where
 * the browser validated SIMD: the page loads the scalar module elsewhere. */
unsigned rpl_cpu_features(void)
{
    return RPL_CPU_SSE | RPL_CPU_SSE2;
}
#else
unsigned rpl_cpu_features(void)
{
    return 0;
}
#endif
