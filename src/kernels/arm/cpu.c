/* kernels/arm/cpu.c - whether this ARM CPU (and its kernel) runs NEON: always on AArch64, from AT_HWCAP on ARMv7. */
#include "kernels/kernels.h"

#if defined(__aarch64__)
/* Advanced SIMD is part of the AArch64 base architecture. */
unsigned rpl_cpu_features(void)
{
    return RPL_CPU_NEON;
}
#elif defined(__arm__)
#include <sys/auxv.h>

/* The ARM Linux kernel's HWCAP bit for NEON (asm/hwcap.h), spelled out
 * since that header is not in every C library. */
#define RPL_HWCAP_NEON (1ul << 12)

/* getauxval reads the process's auxiliary vector, set once by the kernel
 * at exec: no cache is needed, and any thread may call. */
unsigned rpl_cpu_features(void)
{
    return (getauxval(AT_HWCAP) & RPL_HWCAP_NEON) ? RPL_CPU_NEON : 0;
}
#else
#error "kernels/arm/cpu.c is for ARM builds (the Makefile takes kernels/x86/cpu.c elsewhere)"
#endif
