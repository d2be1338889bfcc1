/* kernels/x86/step_avx2.c - the wave step with AVX2, sixteen cells per vector, bit-exact with rpl_step_c. */
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

/* The same with eight cells (VEX-encoded 128-bit), for areas 8 to 15 wide. */
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
 * of them (n >= 16); returns acc ORed with every value stored.  When `tail`,
 * the width is not a multiple of sixteen: the last vector, ending at n, is
 * computed first, from the original prev, and stored after the loop over
 * the others.  It overlaps the vector before it, whose cells it rewrites
 * with the same values: a cell's rule reads cur and its own prev only, and
 * that prev was read before anything was stored.  So no cell is left to
 * the scalar rule, and nothing outside [0, n) is read from prev or
 * written.  Inlined with a constant `tail`, so the test leaves the loops.
 */
static inline __m256i step_row(__m256i acc, const int16_t *c, int16_t *p, ptrdiff_t w, ptrdiff_t n,
                               int tail)
{
    __m256i last = _mm256_setzero_si256();
    if (tail)
        last = step16(c + n - 16, p + n - 16, w);
    ptrdiff_t i = 0;
    /* Two independent vectors per pass so their loads and shifts overlap. */
    for (; i <= n - 32; i += 32) {
        __m256i a = step16(c + i, p + i, w);
        __m256i b = step16(c + i + 16, p + i + 16, w);
        store16(p + i, a);
        store16(p + i + 16, b);
        acc = _mm256_or_si256(_mm256_or_si256(acc, a), b);
    }
    if (i <= n - 16) {
        __m256i a = step16(c + i, p + i, w);
        store16(p + i, a);
        acc = _mm256_or_si256(acc, a);
    }
    if (tail) {
        store16(p + n - 16, last);
        acc = _mm256_or_si256(acc, last);
    }
    return acc;
}

int rpl_step_avx2(int16_t *prev, const int16_t *cur, int w, int x0, int x1, int y0, int y1)
{
    assert(prev && cur);
    assert(w >= RPL_DIM_MIN);
    assert(1 <= x0 && x0 <= x1 && x1 <= w - 1);
    assert(1 <= y0 && y0 <= y1);

    const int n = x1 - x0;
    if (n < 8) /* narrower than the smallest vector: the scalar rule */
        return rpl_step_c(prev, cur, w, x0, x1, y0, y1);
    if (n < 16) {
        /* 8 to 15 wide: two xmm vectors, at x0 and ending at x1, both
         * computed before either is stored (they overlap unless n == 8). */
        __m128i acc = _mm_setzero_si128();
        for (int y = y0; y < y1; y++) {
            ptrdiff_t row = (ptrdiff_t)y * w;
            const int16_t *c = cur + row;
            int16_t *p = prev + row;
            __m128i a = step8(c + x0, p + x0, w);
            __m128i b = step8(c + x1 - 8, p + x1 - 8, w);
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
            acc = step_row(acc, cur + row, prev + row, w, n, 1);
        }
    } else {
        for (int y = y0; y < y1; y++) {
            ptrdiff_t row = (ptrdiff_t)y * w + x0;
            acc = step_row(acc, cur + row, prev + row, w, n, 0);
        }
    }
    return !_mm256_testz_si256(acc, acc);
}
