/* kernels/x86/wave_sse2.c - the wave model's step with SSE2, eight cells per vector, bit-exact with rpl_step_wave_c. */
#include "kernels/x86/rows_sse2.h"

#define RPL_ROWS_FN rpl_step_wave_sse2
#define RPL_ROWS_WAVE 1
#define RPL_ROWS_LANES 8
typedef __m128i vec_t;
/* The coefficients as pmaddwd operands: in each 32-bit lane, a in the low
 * and b in the high half (against cur, prev pairs), c and rn against
 * (sum, 1) pairs, and m against an int32 n, whose low half is n itself
 * and whose high half (its sign) meets 0; rn and rp - rn as 32-bit
 * values.  The sum with rn added is above rn exactly when the sum is
 * positive: then rp - rn more makes its rounding rp. */
typedef struct {
    __m128i ab, cr, m, rn, rd;
} rule_t;

#include "kernels/rows_tpl.h"

RPL_FORCE_INLINE void rule_init(rule_t *r, const rpl_wave_coef_t *k)
{
    r->ab = _mm_set1_epi32((int)((uint32_t)(uint16_t)k->b << 16 | (uint16_t)k->a));
    r->cr = _mm_set1_epi32((int)((uint32_t)(uint16_t)k->rn << 16 | (uint16_t)k->c));
    r->m = _mm_set1_epi32(k->m);
    r->rn = _mm_set1_epi32(k->rn);
    r->rd = _mm_set1_epi32(k->rp - k->rn);
}

/* Four cells in int32 lanes: the sum (cur, prev pairs zp and (sum, 1)
 * pairs s1), the rounding of positive sums, the shift, the attenuation. */
RPL_FORCE_INLINE __m128i wave4(__m128i zp, __m128i s1, const rule_t *k)
{
    __m128i s = _mm_add_epi32(_mm_madd_epi16(zp, k->ab), _mm_madd_epi16(s1, k->cr));
    s = _mm_add_epi32(s, _mm_and_si128(_mm_cmpgt_epi32(s, k->rn), k->rd));
    __m128i n = _mm_srai_epi32(s, RPL_WAVE_SHIFT);
    return _mm_sub_epi32(n, _mm_srai_epi32(_mm_madd_epi16(n, k->m), 8));
}

/*
 * The rule for the eight cells at c[0..7] / p[0..7].  The neighbours' sum
 * fits int16 (the height contract), so it is added in 16 bits; the rest is
 * exact in int32 lanes (kernels/kernels.h bounds it), and n, in
 * [-24576, 24576] after the shift and the attenuation, packs back to
 * int16 without saturating before the clamp.
 */
RPL_FORCE_INLINE __m128i rule_vec(const int16_t *c, const int16_t *p, ptrdiff_t w,
                                  const rule_t *k)
{
    const __m128i one = _mm_set1_epi16(1);
    __m128i s = _mm_add_epi16(_mm_add_epi16(load8(c - 1), load8(c + 1)),
                              _mm_add_epi16(load8(c - w), load8(c + w)));
    __m128i z = load8(c), pv = load8(p);
    __m128i lo = wave4(_mm_unpacklo_epi16(z, pv), _mm_unpacklo_epi16(s, one), k);
    __m128i hi = wave4(_mm_unpackhi_epi16(z, pv), _mm_unpackhi_epi16(s, one), k);
    return clamp8(_mm_packs_epi32(lo, hi));
}
