/* kernels/x86/rows_mmx.h - what the MMX step kernels share: loads, stores, the "any lane set" test and the clamp on four int16 cells. */
#ifndef RPL_ROWS_MMX_H
#define RPL_ROWS_MMX_H

/*
 * Included before kernels/rows_tpl.h by kernels/x86/{step,wave}_mmx.c:
 * the vector operations the row loop declares, on __m64 (vec_t).
 */
#include <mmintrin.h>
#include <string.h>

#include "kernels/simd.h"

/* Unaligned 64-bit access through memcpy: MMX memory operands need no
 * alignment, so compilers turn these into movq or a folded operand, and
 * the type punning stays defined behaviour. */
RPL_FORCE_INLINE __m64 load4(const int16_t *p)
{
    __m64 v;
    memcpy(&v, p, sizeof v);
    return v;
}

RPL_FORCE_INLINE void vec_store(int16_t *p, __m64 v)
{
    memcpy(p, &v, sizeof v);
}

RPL_FORCE_INLINE __m64 vec_zero(void)
{
    return _mm_setzero_si64();
}

RPL_FORCE_INLINE __m64 vec_or(__m64 a, __m64 b)
{
    return _mm_or_si64(a, b);
}

/* Folds the four lanes into 32 bits, then leaves MMX state (emms) before
 * returning: the caller may use the x87 FPU, which shares the registers. */
RPL_FORCE_INLINE int vec_any(__m64 acc)
{
    int any = _mm_cvtsi64_si32(_mm_or_si64(acc, _mm_srli_si64(acc, 32)));
    _mm_empty();
    return any != 0;
}

/*
 * n into [RPL_HEIGHT_MIN, RPL_HEIGHT_MAX] = [-8192, 8191], for n in
 * [-24576, 32767].  MMX has no pminsw/pmaxsw, so the clamp is built from
 * saturation:
 *   a = paddsw(n, 24576): min(n, 8191) + 24576 exactly, since the sum
 *       saturates at 32767 precisely when n >= 8191; n >= -24576 makes
 *       a lie in [0, 32767].
 *   b = psubusw(a, 16384): a is not negative, so its unsigned view is its
 *       value; max(a - 16384, 0) is clamp(n) + 8192, because
 *       a - 16384 <= 0 precisely when min(n, 8191) <= -8192.
 *   psubw(b, 8192) = clamp(n).
 * Three instructions instead of the four of two signed add/sub pairs.
 */
#if RPL_HEIGHT_MIN != -8192 || RPL_HEIGHT_MAX != 8191
#error "rows_mmx.h's clamp assumes the height contract [-8192, 8191]"
#endif
RPL_FORCE_INLINE __m64 clamp4(__m64 n)
{
    n = _mm_adds_pi16(n, _mm_set1_pi16(32767 - RPL_HEIGHT_MAX));
    n = _mm_subs_pu16(n, _mm_set1_pi16(32767 - RPL_HEIGHT_MAX + RPL_HEIGHT_MIN));
    return _mm_sub_pi16(n, _mm_set1_pi16(-RPL_HEIGHT_MIN));
}

#endif
