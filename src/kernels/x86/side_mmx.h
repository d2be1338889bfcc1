/* kernels/x86/side_mmx.h - what the side view's MMX kernels share: 32- and 64-bit moves, the caustics' light spread over a pixel's channels. */
#ifndef RPL_SIDE_MMX_H
#define RPL_SIDE_MMX_H

/*
 * MMX as a Pentium MMX or II has it: no pmulhuw, pminsw, pmovmskb or
 * pshufw (SSE's), so the kernels keep to 16-bit products (pmullw, and
 * pmulhw on values it reads as positive) and saturating packs for the
 * clamps, and the indices are worked out in scalar registers, which the
 * CPU has for that anyway.  Each kernel ends with emms (_mm_empty): its
 * caller may use the x87 FPU, which shares the registers.
 */
#include <mmintrin.h>
#include <stdint.h>
#include <string.h>

#include "kernels/simd.h"

RPL_FORCE_INLINE __m64 side_ld64(const void *p)
{
    __m64 v;
    memcpy(&v, p, sizeof v);
    return v;
}

RPL_FORCE_INLINE void side_st64(void *p, __m64 v)
{
    memcpy(p, &v, sizeof v);
}

/* 32 bits from p into the low half by a movd of its own: left alone,
 * compilers fold the load into a following punpckldq, which qemu (7.2)
 * reads as 64 bits, past the end of the row (refract_mmx_tpl.h). */
RPL_FORCE_INLINE __m64 side_ld32(const void *p)
{
    int32_t v;
    memcpy(&v, p, sizeof v);
    __m64 r = _mm_cvtsi32_si64(v);
#if defined(__GNUC__)
    __asm__("" : "+y"(r));
#endif
    return r;
}

/*
 * The light a pixel's channels get, in 16-bit lanes (blue, green, red,
 * alpha) from a, the pixel's light in its four lanes:
 * (a * 230 >> 8, a, a * 200 >> 8, 0), kba holding (230, 256, 200, 0).
 * a <= 255 * RPL_SIDE_CW_MAX >> 8 keeps every product under 2^16.
 */
RPL_FORCE_INLINE __m64 side_light_rgb(__m64 a, __m64 kba)
{
    return _mm_srli_pi16(_mm_mullo_pi16(a, kba), 8);
}

#endif
