/* kernels/x86/step_sse2.c - the wave step with SSE2, eight cells per vector, bit-exact with rpl_step_c. */
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

/*
 * The n cells c[0..n) / p[0..n) of one row in whole vectors, at least one
 * of them (n >= 8); returns acc ORed with every value stored.  When `tail`,
 * the width is not a multiple of eight: the last vector, ending at n, is
 * computed first, from the original prev, and stored after the loop over
 * the others.  It overlaps the vector before it, whose cells it rewrites
 * with the same values: a cell's rule reads cur and its own prev only, and
 * that prev was read before anything was stored.  So no cell is left to
 * the scalar rule, and nothing outside [0, n) is read from prev or
 * written.  Inlined with a constant `tail`, so the test leaves the loops.
 */
static inline __m128i step_row(__m128i acc, const int16_t *c, int16_t *p, ptrdiff_t w, ptrdiff_t n,
                               int tail)
{
    __m128i last = _mm_setzero_si128();
    if (tail)
        last = step8(c + n - 8, p + n - 8, w);
    ptrdiff_t i = 0;
    /* Two independent vectors per pass so their loads and shifts overlap. */
    for (; i <= n - 16; i += 16) {
        __m128i a = step8(c + i, p + i, w);
        __m128i b = step8(c + i + 8, p + i + 8, w);
        store8(p + i, a);
        store8(p + i + 8, b);
        acc = _mm_or_si128(_mm_or_si128(acc, a), b);
    }
    if (i <= n - 8) {
        __m128i a = step8(c + i, p + i, w);
        store8(p + i, a);
        acc = _mm_or_si128(acc, a);
    }
    if (tail) {
        store8(p + n - 8, last);
        acc = _mm_or_si128(acc, last);
    }
    return acc;
}

int rpl_step_sse2(int16_t *prev, const int16_t *cur, int w, int x0, int x1, int y0, int y1)
{
    assert(prev && cur);
    assert(w >= RPL_DIM_MIN);
    assert(1 <= x0 && x0 <= x1 && x1 <= w - 1);
    assert(1 <= y0 && y0 <= y1);

    const int n = x1 - x0;
    if (n < 8) /* narrower than a vector: the scalar rule */
        return rpl_step_c(prev, cur, w, x0, x1, y0, y1);

    __m128i acc = _mm_setzero_si128();
    if (n % 8) {
        for (int y = y0; y < y1; y++) {
            ptrdiff_t row = (ptrdiff_t)y * w + x0;
            acc = step_row(acc, cur + row, prev + row, w, n, 1);
        }
    } else {
        for (int y = y0; y < y1; y++) {
            ptrdiff_t row = (ptrdiff_t)y * w + x0;
            acc = step_row(acc, cur + row, prev + row, w, n, 0);
        }
    }
    return _mm_movemask_epi8(_mm_cmpeq_epi16(acc, _mm_setzero_si128())) != 0xFFFF;
}
