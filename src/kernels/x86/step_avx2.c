/* kernels/x86/step_avx2.c - the wave step with AVX2, sixteen cells per vector, bit-exact with rpl_step_c. */
#include <immintrin.h>

#define RPL_ROWS_FN rpl_step_avx2
#define RPL_ROWS_LANES 16
#define RPL_ROWS_HALF
typedef __m256i vec_t;
typedef __m128i half_t; /* VEX-encoded 128-bit, for areas 8 to 15 wide */
typedef struct {
    char none; /* the classic rule has no coefficients */
} rule_t;

#include "kernels/rows_tpl.h"

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

RPL_FORCE_INLINE void rule_init(rule_t *r, const rpl_wave_coef_t *k)
{
    (void)k;
    r->none = 0;
}

/*
 * The rule for the sixteen cells at c[0..15] / p[0..15].  The height
 * contract (ripple.h) keeps every intermediate inside int16, so wrapping
 * 16-bit adds and vpsraw give the scalar result bit for bit.  The
 * horizontal neighbours are unaligned loads at -1 and +1: a lane-crossing
 * shift by one element would cost a vperm2i128 plus a vpalignr for each.
 */
RPL_FORCE_INLINE __m256i rule_vec(const int16_t *c, const int16_t *p, ptrdiff_t w,
                                  const rule_t *r)
{
    (void)r;
    __m256i s = _mm256_add_epi16(_mm256_add_epi16(load16(c - 1), load16(c + 1)),
                                 _mm256_add_epi16(load16(c - w), load16(c + w)));
    __m256i n = _mm256_sub_epi16(_mm256_srai_epi16(s, 1), load16(p));
    n = _mm256_sub_epi16(n, _mm256_srai_epi16(n, 5));
    n = _mm256_max_epi16(n, _mm256_set1_epi16(RPL_HEIGHT_MIN));
    return _mm256_min_epi16(n, _mm256_set1_epi16(RPL_HEIGHT_MAX));
}

/* The same with eight cells. */
RPL_FORCE_INLINE __m128i rule_half(const int16_t *c, const int16_t *p, ptrdiff_t w,
                                   const rule_t *r)
{
    (void)r;
    __m128i s = _mm_add_epi16(_mm_add_epi16(load8(c - 1), load8(c + 1)),
                              _mm_add_epi16(load8(c - w), load8(c + w)));
    __m128i n = _mm_sub_epi16(_mm_srai_epi16(s, 1), load8(p));
    n = _mm_sub_epi16(n, _mm_srai_epi16(n, 5));
    n = _mm_max_epi16(n, _mm_set1_epi16(RPL_HEIGHT_MIN));
    return _mm_min_epi16(n, _mm_set1_epi16(RPL_HEIGHT_MAX));
}
