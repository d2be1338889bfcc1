/* rpl_step_avx2.c - the wave step with AVX2, sixteen cells per vector, bit-exact with rpl_step_c. */
#include <assert.h>
#include <immintrin.h>

#include "rpl_scalar.h"

static inline __m256i load16(const int16_t *p)
{
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

static inline __m128i load8(const int16_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

/*
 * The rule for the sixteen cells at c[0..15] / p[0..15].  The height
 * contract (ripple.h) keeps every intermediate inside int16, so wrapping
 * 16-bit adds and vpsraw give the scalar result bit for bit.  The
 * horizontal neighbours are unaligned loads at -1 and +1: a lane-crossing
 * shift by one element would cost a vperm2i128 plus a vpalignr for each.
 */
static inline __m256i step16(const int16_t *c, const int16_t *p, ptrdiff_t w)
{
    __m256i s = _mm256_add_epi16(_mm256_add_epi16(load16(c - 1), load16(c + 1)),
                                 _mm256_add_epi16(load16(c - w), load16(c + w)));
    __m256i n = _mm256_sub_epi16(_mm256_srai_epi16(s, 1), load16(p));
    n = _mm256_sub_epi16(n, _mm256_srai_epi16(n, 5));
    n = _mm256_max_epi16(n, _mm256_set1_epi16(RPL_HEIGHT_MIN));
    return _mm256_min_epi16(n, _mm256_set1_epi16(RPL_HEIGHT_MAX));
}

/* The same with eight cells, so a row's tail leaves at most seven to the scalar rule. */
static inline __m128i step8(const int16_t *c, const int16_t *p, ptrdiff_t w)
{
    __m128i s = _mm_add_epi16(_mm_add_epi16(load8(c - 1), load8(c + 1)),
                              _mm_add_epi16(load8(c - w), load8(c + w)));
    __m128i n = _mm_sub_epi16(_mm_srai_epi16(s, 1), load8(p));
    n = _mm_sub_epi16(n, _mm_srai_epi16(n, 5));
    n = _mm_max_epi16(n, _mm_set1_epi16(RPL_HEIGHT_MIN));
    return _mm_min_epi16(n, _mm_set1_epi16(RPL_HEIGHT_MAX));
}

int rpl_step_avx2(int16_t *prev, const int16_t *cur, int w, int x0, int x1, int y0, int y1)
{
    assert(prev && cur);
    assert(w >= RPL_DIM_MIN);
    assert(1 <= x0 && x0 <= x1 && x1 <= w - 1);
    assert(1 <= y0 && y0 <= y1);

    __m256i acc = _mm256_setzero_si256();
    __m128i acc8 = _mm_setzero_si128();
    int any = 0;
    for (int y = y0; y < y1; y++) {
        ptrdiff_t row = (ptrdiff_t)y * w;
        const int16_t *c = cur + row;
        int16_t *p = prev + row;
        int x = x0;
        /* Two independent vectors per pass so their loads and shifts overlap. */
        for (; x1 - x >= 32; x += 32) {
            __m256i a = step16(c + x, p + x, w);
            __m256i b = step16(c + x + 16, p + x + 16, w);
            _mm256_storeu_si256((__m256i *)(void *)(p + x), a);
            _mm256_storeu_si256((__m256i *)(void *)(p + x + 16), b);
            acc = _mm256_or_si256(acc, _mm256_or_si256(a, b));
        }
        if (x1 - x >= 16) {
            __m256i a = step16(c + x, p + x, w);
            _mm256_storeu_si256((__m256i *)(void *)(p + x), a);
            acc = _mm256_or_si256(acc, a);
            x += 16;
        }
        if (x1 - x >= 8) {
            __m128i a = step8(c + x, p + x, w);
            _mm_storeu_si128((__m128i *)(void *)(p + x), a);
            acc8 = _mm_or_si128(acc8, a);
            x += 8;
        }
        for (; x < x1; x++) {
            int16_t n = rpl_step_cell(cur, prev, row + x, w);
            p[x] = n;
            any |= n;
        }
    }
    return any != 0 || !_mm256_testz_si256(acc, acc) || !_mm_testz_si128(acc8, acc8);
}
