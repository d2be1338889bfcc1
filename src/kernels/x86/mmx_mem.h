/* kernels/x86/mmx_mem.h - moves between memory and the MMX registers that every MMX kernel takes the same way. */
#ifndef RPL_MMX_MEM_H
#define RPL_MMX_MEM_H

#include <mmintrin.h>
#include <stdint.h>
#include <string.h>

#include "kernels/simd.h"

/* Unaligned 64-bit access through memcpy (MMX memory operands need no
 * alignment): compilers make movq of these, and the punning stays defined. */
RPL_FORCE_INLINE __m64 mmx_ld64(const void *p)
{
    __m64 v;
    memcpy(&v, p, sizeof v);
    return v;
}

RPL_FORCE_INLINE void mmx_st64(void *p, __m64 v)
{
    memcpy(p, &v, sizeof v);
}

/* A 32-bit value from memory into the low half of a vector by a movd of its
 * own.  Left to themselves, compilers fold such a load into a following
 * punpckldq as its memory operand, which the CPU reads as 32 bits but
 * qemu's emulation (7.2) as 64: past the end of a row, it faults there. */
RPL_FORCE_INLINE __m64 mmx_ld32(const void *p)
{
    int32_t v;
    memcpy(&v, p, sizeof v);
    __m64 r = _mm_cvtsi32_si64(v);
#if defined(__GNUC__)
    __asm__("" : "+y"(r));
#endif
    return r;
}

#endif
