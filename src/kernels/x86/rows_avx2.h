/* kernels/x86/rows_avx2.h - what the AVX2 step kernels share: loads, stores, the "any lane set" test and the clamp on sixteen and eight int16 cells. */
#ifndef RPL_ROWS_AVX2_H
#define RPL_ROWS_AVX2_H

/*
 * Included before kernels/rows_tpl.h by kernels/x86/{step,wave}_avx2.c:
 * the vector operations the row loop declares, on __m256i (vec_t) and on
 * VEX-encoded __m128i (half_t, for areas eight to fifteen wide).  The
 * loads and stores are unaligned: a row starts wherever the area does.
 */
#include <immintrin.h>

#include "kernels/simd.h"

RPL_FORCE_INLINE __m256i load16(const int16_t *p)
{
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

RPL_FORCE_INLINE void vec_store(int16_t *p, __m256i v)
{
    _mm256_storeu_si256((__m256i *)(void *)p, v);
}

RPL_FORCE_INLINE __m256i vec_zero(void)
{
    return _mm256_setzero_si256();
}

RPL_FORCE_INLINE __m256i vec_or(__m256i a, __m256i b)
{
    return _mm256_or_si256(a, b);
}

RPL_FORCE_INLINE int vec_any(__m256i acc)
{
    return !_mm256_testz_si256(acc, acc);
}

RPL_FORCE_INLINE __m128i load8(const int16_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

RPL_FORCE_INLINE void half_store(int16_t *p, __m128i v)
{
    _mm_storeu_si128((__m128i *)(void *)p, v);
}

RPL_FORCE_INLINE __m128i half_zero(void)
{
    return _mm_setzero_si128();
}

RPL_FORCE_INLINE __m128i half_or(__m128i a, __m128i b)
{
    return _mm_or_si128(a, b);
}

RPL_FORCE_INLINE int half_any(__m128i acc)
{
    return !_mm_testz_si128(acc, acc);
}

/* n into [RPL_HEIGHT_MIN, RPL_HEIGHT_MAX], sixteen cells and eight. */
RPL_FORCE_INLINE __m256i clamp16(__m256i n)
{
    n = _mm256_max_epi16(n, _mm256_set1_epi16(RPL_HEIGHT_MIN));
    return _mm256_min_epi16(n, _mm256_set1_epi16(RPL_HEIGHT_MAX));
}

RPL_FORCE_INLINE __m128i clamp8(__m128i n)
{
    n = _mm_max_epi16(n, _mm_set1_epi16(RPL_HEIGHT_MIN));
    return _mm_min_epi16(n, _mm_set1_epi16(RPL_HEIGHT_MAX));
}

#endif
