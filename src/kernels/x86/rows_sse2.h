/* kernels/x86/rows_sse2.h - what the SSE2 step kernels share: loads, stores, the "any lane set" test and the clamp on eight int16 cells. */
#ifndef RPL_ROWS_SSE2_H
#define RPL_ROWS_SSE2_H

/*
 * Included before kernels/rows_tpl.h by kernels/x86/{step,wave}_sse2.c:
 * the vector operations the row loop declares, on __m128i (vec_t).  The
 * loads and stores are unaligned: a row starts wherever the area does.
 */
#include <emmintrin.h>

#include "kernels/simd.h"

RPL_FORCE_INLINE __m128i load8(const int16_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

RPL_FORCE_INLINE void vec_store(int16_t *p, __m128i v)
{
    _mm_storeu_si128((__m128i *)(void *)p, v);
}

RPL_FORCE_INLINE __m128i vec_zero(void)
{
    return _mm_setzero_si128();
}

RPL_FORCE_INLINE __m128i vec_or(__m128i a, __m128i b)
{
    return _mm_or_si128(a, b);
}

/* SSE2 has no ptest: the byte mask of the lanes equal to 0 is all ones
 * only when every lane is 0. */
RPL_FORCE_INLINE int vec_any(__m128i acc)
{
    return _mm_movemask_epi8(_mm_cmpeq_epi16(acc, _mm_setzero_si128())) != 0xFFFF;
}

/* n into [RPL_HEIGHT_MIN, RPL_HEIGHT_MAX]. */
RPL_FORCE_INLINE __m128i clamp8(__m128i n)
{
    n = _mm_max_epi16(n, _mm_set1_epi16(RPL_HEIGHT_MIN));
    return _mm_min_epi16(n, _mm_set1_epi16(RPL_HEIGHT_MAX));
}

#endif
