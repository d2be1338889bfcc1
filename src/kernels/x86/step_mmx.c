/* kernels/x86/step_mmx.c - the wave step with MMX, four cells per vector, bit-exact with rpl_step_c. */
#include "kernels/x86/rows_mmx.h"

#define RPL_ROWS_FN rpl_step_mmx
#define RPL_ROWS_LANES 4
typedef __m64 vec_t;
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
 * The rule for the four cells at c[0..3] / p[0..3].  The height contract
 * (ripple.h) keeps every intermediate inside int16, so wrapping paddw and
 * psraw give the scalar result bit for bit, as in the SSE2 kernel.  After
 * the damping, n lies in [-23807, 23807] (it was in [-24575, 24574]):
 * inside the range rows_mmx.h's clamp takes.
 */
RPL_FORCE_INLINE __m64 rule_vec(const int16_t *c, const int16_t *p, ptrdiff_t w, const rule_t *r)
{
    __m64 s = _mm_add_pi16(_mm_add_pi16(load4(c - 1), load4(c + 1)),
                           _mm_add_pi16(load4(c - w), load4(c + w)));
    __m64 n = _mm_sub_pi16(_mm_srai_pi16(s, 1), load4(p));
    (void)r;
    return clamp4(_mm_sub_pi16(n, _mm_srai_pi16(n, 5)));
}
