/* kernels/x86/wave_sse2.c - the wave model's step with SSE2, eight cells per vector, bit-exact with rpl_step_wave_c. */
#include <assert.h>
#include <emmintrin.h>

#include "kernels/kernels.h"

static inline __m128i load8(const int16_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

static inline void store8(int16_t *p, __m128i v)
{
    _mm_storeu_si128((__m128i *)(void *)p, v);
}

/* The coefficients as pmaddwd operands: in each 32-bit lane, a in the low
 * and b in the high half (against cur, prev pairs), c and rn against
 * (sum, 1) pairs, and m against an int32 n, whose low half is n itself
 * and whose high half (its sign) meets 0; rn and rp - rn as 32-bit
 * values.  The sum with rn added is above rn exactly when the sum is
 * positive: then rp - rn more makes its rounding rp. */
typedef struct wave_vk {
    __m128i ab, cr, m, rn, rd;
} wave_vk_t;

static inline wave_vk_t wave_vk(const rpl_wave_coef_t *k)
{
    wave_vk_t v;
    v.ab = _mm_set1_epi32((int)((uint32_t)(uint16_t)k->b << 16 | (uint16_t)k->a));
    v.cr = _mm_set1_epi32((int)((uint32_t)(uint16_t)k->rn << 16 | (uint16_t)k->c));
    v.m = _mm_set1_epi32(k->m);
    v.rn = _mm_set1_epi32(k->rn);
    v.rd = _mm_set1_epi32(k->rp - k->rn);
    return v;
}

/* Four cells in int32 lanes: the sum (cur, prev pairs zp and (sum, 1)
 * pairs s1), the rounding of positive sums, the shift, the attenuation. */
static inline __m128i wave4(__m128i zp, __m128i s1, const wave_vk_t *k)
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
static inline __m128i wave8(const int16_t *c, const int16_t *p, ptrdiff_t w, const wave_vk_t *k)
{
    const __m128i one = _mm_set1_epi16(1);
    __m128i s = _mm_add_epi16(_mm_add_epi16(load8(c - 1), load8(c + 1)),
                              _mm_add_epi16(load8(c - w), load8(c + w)));
    __m128i z = load8(c), pv = load8(p);
    __m128i lo = wave4(_mm_unpacklo_epi16(z, pv), _mm_unpacklo_epi16(s, one), k);
    __m128i hi = wave4(_mm_unpackhi_epi16(z, pv), _mm_unpackhi_epi16(s, one), k);
    __m128i n = _mm_packs_epi32(lo, hi);
    n = _mm_max_epi16(n, _mm_set1_epi16(RPL_HEIGHT_MIN));
    return _mm_min_epi16(n, _mm_set1_epi16(RPL_HEIGHT_MAX));
}

/* One row of n >= 8 cells, as step_row in step_sse2.c: the last vector,
 * overlapping the one before it when n is no multiple of eight, is
 * computed first from the original prev and stored last (a cell reads cur
 * and only its own prev), so no cell is left to the scalar rule. */
static inline __m128i wave_row(__m128i acc, const int16_t *c, int16_t *p, ptrdiff_t w,
                               ptrdiff_t n, int tail, const wave_vk_t *k)
{
    __m128i last = _mm_setzero_si128();
    if (tail)
        last = wave8(c + n - 8, p + n - 8, w, k);
    ptrdiff_t i = 0;
    for (; i <= n - 16; i += 16) {
        __m128i a = wave8(c + i, p + i, w, k);
        __m128i b = wave8(c + i + 8, p + i + 8, w, k);
        store8(p + i, a);
        store8(p + i + 8, b);
        acc = _mm_or_si128(_mm_or_si128(acc, a), b);
    }
    if (i <= n - 8) {
        __m128i a = wave8(c + i, p + i, w, k);
        store8(p + i, a);
        acc = _mm_or_si128(acc, a);
    }
    if (tail) {
        store8(p + n - 8, last);
        acc = _mm_or_si128(acc, last);
    }
    return acc;
}

int rpl_step_wave_sse2(int16_t *prev, const int16_t *cur, int w, int x0, int x1, int y0, int y1,
                       const rpl_wave_coef_t *k)
{
    assert(prev && cur && k);
    assert(w >= RPL_DIM_MIN);
    assert(1 <= x0 && x0 <= x1 && x1 <= w - 1);
    assert(1 <= y0 && y0 <= y1);

    const int n = x1 - x0;
    if (n < 8) /* narrower than a vector: the scalar rule */
        return rpl_step_wave_c(prev, cur, w, x0, x1, y0, y1, k);

    const wave_vk_t vk = wave_vk(k);
    __m128i acc = _mm_setzero_si128();
    if (n % 8) {
        for (int y = y0; y < y1; y++) {
            ptrdiff_t row = (ptrdiff_t)y * w + x0;
            acc = wave_row(acc, cur + row, prev + row, w, n, 1, &vk);
        }
    } else {
        for (int y = y0; y < y1; y++) {
            ptrdiff_t row = (ptrdiff_t)y * w + x0;
            acc = wave_row(acc, cur + row, prev + row, w, n, 0, &vk);
        }
    }
    return _mm_movemask_epi8(_mm_cmpeq_epi16(acc, _mm_setzero_si128())) != 0xFFFF;
}
