/* kernels/x86/step_avx2.c - the wave step with AVX2, sixteen cells per vector, bit-exact with rpl_step_c. */
#include "kernels/x86/rows_avx2.h"

#define RPL_ROWS_FN rpl_step_avx2
#define RPL_ROWS_LANES 16
#define RPL_ROWS_HALF
typedef __m256i vec_t;
typedef __m128i half_t; /* VEX-encoded 128-bit, for areas 8 to 15 wide */
typedef struct {
    char none; /* the classic rule has no coefficients */
} rule_t;

#include "kernels/rows_tpl.h"

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
    return clamp16(_mm256_sub_epi16(n, _mm256_srai_epi16(n, 5)));
}

/* The same with eight cells. */
RPL_FORCE_INLINE __m128i rule_half(const int16_t *c, const int16_t *p, ptrdiff_t w,
                                   const rule_t *r)
{
    (void)r;
    __m128i s = _mm_add_epi16(_mm_add_epi16(load8(c - 1), load8(c + 1)),
                              _mm_add_epi16(load8(c - w), load8(c + w)));
    __m128i n = _mm_sub_epi16(_mm_srai_epi16(s, 1), load8(p));
    return clamp8(_mm_sub_epi16(n, _mm_srai_epi16(n, 5)));
}
