/* kernels/x86/wave_avx2.c - the wave model's step with AVX2, sixteen cells per vector, bit-exact with rpl_step_wave_c. */
#include "kernels/x86/rows_avx2.h"

#define RPL_ROWS_FN rpl_step_wave_avx2
#define RPL_ROWS_WAVE 1
#define RPL_ROWS_LANES 16
#define RPL_ROWS_HALF
typedef __m256i vec_t;
typedef __m128i half_t; /* VEX-encoded 128-bit, for areas 8 to 15 wide */
/* The coefficients as vpmaddwd operands (see wave_sse2.c): a low and b
 * high in each 32-bit lane, c and rn against (sum, 1), m against an int32
 * n; rn and rp - rn as 32-bit values. */
typedef struct {
    __m256i ab, cr, m, rn, rd;
} rule_t;

#include "kernels/rows_tpl.h"

RPL_FORCE_INLINE void rule_init(rule_t *r, const rpl_wave_coef_t *k)
{
    r->ab = _mm256_set1_epi32((int)((uint32_t)(uint16_t)k->b << 16 | (uint16_t)k->a));
    r->cr = _mm256_set1_epi32((int)((uint32_t)(uint16_t)k->rn << 16 | (uint16_t)k->c));
    r->m = _mm256_set1_epi32(k->m);
    r->rn = _mm256_set1_epi32(k->rn);
    r->rd = _mm256_set1_epi32(k->rp - k->rn);
}

RPL_FORCE_INLINE __m256i wave_lanes(__m256i zp, __m256i s1, const rule_t *k)
{
    __m256i s = _mm256_add_epi32(_mm256_madd_epi16(zp, k->ab), _mm256_madd_epi16(s1, k->cr));
    s = _mm256_add_epi32(s, _mm256_and_si256(_mm256_cmpgt_epi32(s, k->rn), k->rd));
    __m256i n = _mm256_srai_epi32(s, RPL_WAVE_SHIFT);
    return _mm256_sub_epi32(n, _mm256_srai_epi32(_mm256_madd_epi16(n, k->m), 8));
}

/* The same on four cells, for rule_half. */
RPL_FORCE_INLINE __m128i wave_lanes4(__m128i zp, __m128i s1, const rule_t *k)
{
    __m128i s = _mm_add_epi32(_mm_madd_epi16(zp, _mm256_castsi256_si128(k->ab)),
                              _mm_madd_epi16(s1, _mm256_castsi256_si128(k->cr)));
    s = _mm_add_epi32(s, _mm_and_si128(_mm_cmpgt_epi32(s, _mm256_castsi256_si128(k->rn)),
                                       _mm256_castsi256_si128(k->rd)));
    __m128i n = _mm_srai_epi32(s, RPL_WAVE_SHIFT);
    return _mm_sub_epi32(n, _mm_srai_epi32(_mm_madd_epi16(n, _mm256_castsi256_si128(k->m)), 8));
}

/*
 * The rule for the sixteen cells at c[0..15] / p[0..15], as in
 * wave_sse2.c.  vpunpck{l,h}wd and vpackssdw work within each 128-bit
 * half, so unpacking low and high and packing them back gives the cells
 * in their order again: no lane crossing anywhere.
 */
RPL_FORCE_INLINE __m256i rule_vec(const int16_t *c, const int16_t *p, ptrdiff_t w,
                                  const rule_t *k)
{
    const __m256i one = _mm256_set1_epi16(1);
    __m256i s = _mm256_add_epi16(_mm256_add_epi16(load16(c - 1), load16(c + 1)),
                                 _mm256_add_epi16(load16(c - w), load16(c + w)));
    __m256i z = load16(c), pv = load16(p);
    __m256i lo = wave_lanes(_mm256_unpacklo_epi16(z, pv), _mm256_unpacklo_epi16(s, one), k);
    __m256i hi = wave_lanes(_mm256_unpackhi_epi16(z, pv), _mm256_unpackhi_epi16(s, one), k);
    return clamp16(_mm256_packs_epi32(lo, hi));
}

/* Eight cells. */
RPL_FORCE_INLINE __m128i rule_half(const int16_t *c, const int16_t *p, ptrdiff_t w,
                                   const rule_t *k)
{
    const __m128i one = _mm_set1_epi16(1);
    __m128i s = _mm_add_epi16(_mm_add_epi16(load8(c - 1), load8(c + 1)),
                              _mm_add_epi16(load8(c - w), load8(c + w)));
    __m128i z = load8(c), pv = load8(p);
    __m128i lo = wave_lanes4(_mm_unpacklo_epi16(z, pv), _mm_unpacklo_epi16(s, one), k);
    __m128i hi = wave_lanes4(_mm_unpackhi_epi16(z, pv), _mm_unpackhi_epi16(s, one), k);
    return clamp8(_mm_packs_epi32(lo, hi));
}
