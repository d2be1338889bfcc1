/* kernels/x86/step_sse2.c - the wave step with SSE2, eight cells per vector, bit-exact with rpl_step_c. */
#include "kernels/x86/rows_sse2.h"

#define RPL_ROWS_FN rpl_step_sse2
#define RPL_ROWS_LANES 8
typedef __m128i vec_t;
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
 * The rule for the eight cells at c[0..7] / p[0..7].  The height contract
 * (ripple.h) keeps every intermediate inside int16, so wrapping 16-bit adds
 * and psraw give the scalar result bit for bit.  The horizontal neighbours
 * are plain unaligned loads at -1 and +1: cheaper than building them with
 * shifts and ORs from the aligned neighbours, and L1 serves them anyway.
 */
RPL_FORCE_INLINE __m128i rule_vec(const int16_t *c, const int16_t *p, ptrdiff_t w,
                                  const rule_t *r)
{
    (void)r;
    __m128i s = _mm_add_epi16(_mm_add_epi16(load8(c - 1), load8(c + 1)),
                              _mm_add_epi16(load8(c - w), load8(c + w)));
    __m128i n = _mm_sub_epi16(_mm_srai_epi16(s, 1), load8(p));
    return clamp8(_mm_sub_epi16(n, _mm_srai_epi16(n, 5)));
}
