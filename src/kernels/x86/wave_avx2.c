/* kernels/x86/wave_avx2.c - the wave model's step with AVX2, sixteen cells per vector, bit-exact with rpl_step_wave_c. */
#include <assert.h>
#include <immintrin.h>

#include "kernels/kernels.h"

static inline __m256i load16(const int16_t *p)
{
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

static inline void store16(int16_t *p, __m256i v)
{
    _mm256_storeu_si256((__m256i *)(void *)p, v);
}

static inline __m128i load8(const int16_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

static inline void store8(int16_t *p, __m128i v)
{
    _mm_storeu_si128((__m128i *)(void *)p, v);
}

/* The coefficients as vpmaddwd operands (see wave_sse2.c): a low and b
 * high in each 32-bit lane, c and rn against (sum, 1), m against an int32
 * n; rn and rp - rn as 32-bit values. */
typedef struct wave_vk {
    __m256i ab, cr, m, rn, rd;
} wave_vk_t;

static inline wave_vk_t wave_vk(const rpl_wave_coef_t *k)
{
    wave_vk_t v;
    v.ab = _mm256_set1_epi32((int)((uint32_t)(uint16_t)k->b << 16 | (uint16_t)k->a));
    v.cr = _mm256_set1_epi32((int)((uint32_t)(uint16_t)k->rn << 16 | (uint16_t)k->c));
    v.m = _mm256_set1_epi32(k->m);
    v.rn = _mm256_set1_epi32(k->rn);
    v.rd = _mm256_set1_epi32(k->rp - k->rn);
    return v;
}

static inline __m256i wave_lanes(__m256i zp, __m256i s1, const wave_vk_t *k)
{
    __m256i s = _mm256_add_epi32(_mm256_madd_epi16(zp, k->ab), _mm256_madd_epi16(s1, k->cr));
    s = _mm256_add_epi32(s, _mm256_and_si256(_mm256_cmpgt_epi32(s, k->rn), k->rd));
    __m256i n = _mm256_srai_epi32(s, RPL_WAVE_SHIFT);
    return _mm256_sub_epi32(n, _mm256_srai_epi32(_mm256_madd_epi16(n, k->m), 8));
}

/* The same on four cells (VEX-encoded 128-bit), for areas 8 to 15 wide. */
static inline __m128i wave_lanes4(__m128i zp, __m128i s1, const wave_vk_t *k)
{
    __m128i s = _mm_add_epi32(_mm_madd_epi16(zp, _mm256_castsi256_si128(k->ab)),
                              _mm_madd_epi16(s1, _mm256_castsi256_si128(k->cr)));
    s = _mm_add_epi32(s, _mm_and_si128(_mm_cmpgt_epi32(s, _mm256_castsi256_si128(k->rn)),
                                       _mm256_castsi256_si128(k->rd)));
    __m128i n = _mm_srai_epi32(s, RPL_WAVE_SHIFT);
    return _mm_sub_epi32(n, _mm_srai_epi32(_mm_madd_epi16(n, _mm256_castsi256_si128(k->m)), 8));
}

/*
 * The rule for the sixteen cells at c[0..15] / p[0..15], as wave8 in
 * wave_sse2.c.  vpunpck{l,h}wd and vpackssdw work within each 128-bit
 * half, so unpacking low and high and packing them back gives the cells
 * in their order again: no lane crossing anywhere.
 */
static inline __m256i wave16(const int16_t *c, const int16_t *p, ptrdiff_t w, const wave_vk_t *k)
{
    const __m256i one = _mm256_set1_epi16(1);
    __m256i s = _mm256_add_epi16(_mm256_add_epi16(load16(c - 1), load16(c + 1)),
                                 _mm256_add_epi16(load16(c - w), load16(c + w)));
    __m256i z = load16(c), pv = load16(p);
    __m256i lo = wave_lanes(_mm256_unpacklo_epi16(z, pv), _mm256_unpacklo_epi16(s, one), k);
    __m256i hi = wave_lanes(_mm256_unpackhi_epi16(z, pv), _mm256_unpackhi_epi16(s, one), k);
    __m256i n = _mm256_packs_epi32(lo, hi);
    n = _mm256_max_epi16(n, _mm256_set1_epi16(RPL_HEIGHT_MIN));
    return _mm256_min_epi16(n, _mm256_set1_epi16(RPL_HEIGHT_MAX));
}

/* Eight cells (VEX-encoded 128-bit), for areas 8 to 15 wide. */
static inline __m128i wave8(const int16_t *c, const int16_t *p, ptrdiff_t w, const wave_vk_t *k)
{
    const __m128i one = _mm_set1_epi16(1);
    __m128i s = _mm_add_epi16(_mm_add_epi16(load8(c - 1), load8(c + 1)),
                              _mm_add_epi16(load8(c - w), load8(c + w)));
    __m128i z = load8(c), pv = load8(p);
    __m128i lo = wave_lanes4(_mm_unpacklo_epi16(z, pv), _mm_unpacklo_epi16(s, one), k);
    __m128i hi = wave_lanes4(_mm_unpackhi_epi16(z, pv), _mm_unpackhi_epi16(s, one), k);
    __m128i n = _mm_packs_epi32(lo, hi);
    n = _mm_max_epi16(n, _mm_set1_epi16(RPL_HEIGHT_MIN));
    return _mm_min_epi16(n, _mm_set1_epi16(RPL_HEIGHT_MAX));
}

/* One row of n >= 16 cells, as step_row in step_avx2.c (the overlapping
 * last vector computed first, stored last). */
static inline __m256i wave_row(__m256i acc, const int16_t *c, int16_t *p, ptrdiff_t w,
                               ptrdiff_t n, int tail, const wave_vk_t *k)
{
    __m256i last = _mm256_setzero_si256();
    if (tail)
        last = wave16(c + n - 16, p + n - 16, w, k);
    ptrdiff_t i = 0;
    for (; i <= n - 32; i += 32) {
        __m256i a = wave16(c + i, p + i, w, k);
        __m256i b = wave16(c + i + 16, p + i + 16, w, k);
        store16(p + i, a);
        store16(p + i + 16, b);
        acc = _mm256_or_si256(_mm256_or_si256(acc, a), b);
    }
    if (i <= n - 16) {
        __m256i a = wave16(c + i, p + i, w, k);
        store16(p + i, a);
        acc = _mm256_or_si256(acc, a);
    }
    if (tail) {
        store16(p + n - 16, last);
        acc = _mm256_or_si256(acc, last);
    }
    return acc;
}

int rpl_step_wave_avx2(int16_t *prev, const int16_t *cur, int w, int x0, int x1, int y0, int y1,
                       const rpl_wave_coef_t *k)
{
    assert(prev && cur && k);
    assert(w >= RPL_DIM_MIN);
    assert(1 <= x0 && x0 <= x1 && x1 <= w - 1);
    assert(1 <= y0 && y0 <= y1);

    const int n = x1 - x0;
    if (n < 8) /* narrower than the smallest vector: the scalar rule */
        return rpl_step_wave_c(prev, cur, w, x0, x1, y0, y1, k);
    const wave_vk_t vk = wave_vk(k);
    if (n < 16) {
        /* 8 to 15 wide: two xmm vectors, at x0 and ending at x1, both
         * computed before either is stored (they overlap unless n == 8). */
        __m128i acc = _mm_setzero_si128();
        for (int y = y0; y < y1; y++) {
            ptrdiff_t row = (ptrdiff_t)y * w;
            const int16_t *c = cur + row;
            int16_t *p = prev + row;
            __m128i a = wave8(c + x0, p + x0, w, &vk);
            __m128i b = wave8(c + x1 - 8, p + x1 - 8, w, &vk);
            store8(p + x0, a);
            store8(p + x1 - 8, b);
            acc = _mm_or_si128(acc, _mm_or_si128(a, b));
        }
        return !_mm_testz_si128(acc, acc);
    }

    __m256i acc = _mm256_setzero_si256();
    if (n % 16) {
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
    return !_mm256_testz_si256(acc, acc);
}
