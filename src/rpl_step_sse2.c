/* rpl_step_sse2.c - the wave step with SSE2, eight cells per vector, bit-exact with rpl_step_c. */
#include <assert.h>
#include <emmintrin.h>

#include "rpl_scalar.h"

static inline __m128i load8(const int16_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

/*
 * The rule for the eight cells at c[0..7] / p[0..7].  The height contract
 * (ripple.h) keeps every intermediate inside int16, so wrapping 16-bit adds
 * and psraw give the scalar result bit for bit.  The horizontal neighbours
 * are plain unaligned loads at -1 and +1: cheaper than building them with
 * shifts and ORs from the aligned neighbours, and L1 serves them anyway.
 */
static inline __m128i step8(const int16_t *c, const int16_t *p, ptrdiff_t w)
{
    __m128i s = _mm_add_epi16(_mm_add_epi16(load8(c - 1), load8(c + 1)),
                              _mm_add_epi16(load8(c - w), load8(c + w)));
    __m128i n = _mm_sub_epi16(_mm_srai_epi16(s, 1), load8(p));
    n = _mm_sub_epi16(n, _mm_srai_epi16(n, 5));
    n = _mm_max_epi16(n, _mm_set1_epi16(RPL_HEIGHT_MIN));
    return _mm_min_epi16(n, _mm_set1_epi16(RPL_HEIGHT_MAX));
}

int rpl_step_sse2(int16_t *prev, const int16_t *cur, int w, int x0, int x1, int y0, int y1)
{
    assert(prev && cur);
    assert(w >= RPL_DIM_MIN);
    assert(1 <= x0 && x0 <= x1 && x1 <= w - 1);
    assert(1 <= y0 && y0 <= y1);

    __m128i acc = _mm_setzero_si128();
    int any = 0;
    for (int y = y0; y < y1; y++) {
        ptrdiff_t row = (ptrdiff_t)y * w;
        const int16_t *c = cur + row;
        int16_t *p = prev + row;
        int x = x0;
        /* Two independent vectors per pass so their loads and shifts overlap. */
        for (; x1 - x >= 16; x += 16) {
            __m128i a = step8(c + x, p + x, w);
            __m128i b = step8(c + x + 8, p + x + 8, w);
            _mm_storeu_si128((__m128i *)(void *)(p + x), a);
            _mm_storeu_si128((__m128i *)(void *)(p + x + 8), b);
            acc = _mm_or_si128(acc, _mm_or_si128(a, b));
        }
        if (x1 - x >= 8) {
            __m128i a = step8(c + x, p + x, w);
            _mm_storeu_si128((__m128i *)(void *)(p + x), a);
            acc = _mm_or_si128(acc, a);
            x += 8;
        }
        for (; x < x1; x++) {
            int16_t n = rpl_step_cell(cur, prev, row + x, w);
            p[x] = n;
            any |= n;
        }
    }
    return any != 0 || _mm_movemask_epi8(_mm_cmpeq_epi16(acc, _mm_setzero_si128())) != 0xFFFF;
}
