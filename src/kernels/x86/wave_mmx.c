/* kernels/x86/wave_mmx.c - the wave model's step with MMX, four cells per vector, bit-exact with rpl_step_wave_c. */
#include "kernels/x86/rows_mmx.h"

#define RPL_ROWS_FN rpl_step_wave_mmx
#define RPL_ROWS_WAVE 1
#define RPL_ROWS_LANES 4
typedef __m64 vec_t;
/* The coefficients as pmaddwd operands (see wave_sse2.c). */
typedef struct {
    __m64 ab, cr, m, rn, rd;
} rule_t;

#include "kernels/rows_tpl.h"

RPL_FORCE_INLINE void rule_init(rule_t *r, const rpl_wave_coef_t *k)
{
    r->ab = _mm_set1_pi32((int)((uint32_t)(uint16_t)k->b << 16 | (uint16_t)k->a));
    r->cr = _mm_set1_pi32((int)((uint32_t)(uint16_t)k->rn << 16 | (uint16_t)k->c));
    r->m = _mm_set1_pi32(k->m);
    r->rn = _mm_set1_pi32(k->rn);
    r->rd = _mm_set1_pi32(k->rp - k->rn);
}

RPL_FORCE_INLINE __m64 wave2(__m64 zp, __m64 s1, const rule_t *k)
{
    __m64 s = _mm_add_pi32(_mm_madd_pi16(zp, k->ab), _mm_madd_pi16(s1, k->cr));
    s = _mm_add_pi32(s, _mm_and_si64(_mm_cmpgt_pi32(s, k->rn), k->rd));
    __m64 n = _mm_srai_pi32(s, RPL_WAVE_SHIFT);
    return _mm_sub_pi32(n, _mm_srai_pi32(_mm_madd_pi16(n, k->m), 8));
}

/*
 * The rule for the four cells at c[0..3] / p[0..3], as in wave_sse2.c,
 * two cells per int32 vector.  n, packed back to int16, lies in
 * [-24576, 24576]: inside the range rows_mmx.h's clamp takes.
 */
RPL_FORCE_INLINE __m64 rule_vec(const int16_t *c, const int16_t *p, ptrdiff_t w, const rule_t *k)
{
    const __m64 one = _mm_set1_pi16(1);
    __m64 s = _mm_add_pi16(_mm_add_pi16(load4(c - 1), load4(c + 1)),
                           _mm_add_pi16(load4(c - w), load4(c + w)));
    __m64 z = load4(c), pv = load4(p);
    __m64 lo = wave2(_mm_unpacklo_pi16(z, pv), _mm_unpacklo_pi16(s, one), k);
    __m64 hi = wave2(_mm_unpackhi_pi16(z, pv), _mm_unpackhi_pi16(s, one), k);
    return clamp4(_mm_packs_pi32(lo, hi));
}
