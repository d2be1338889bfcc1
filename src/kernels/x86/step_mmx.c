/* kernels/x86/step_mmx.c - the wave step with MMX, four cells per vector, bit-exact with rpl_step_c. */
#include <assert.h>
#include <mmintrin.h>
#include <string.h>

#include "kernels/kernels.h"

/* Unaligned 64-bit access through memcpy: MMX memory operands need no
 * alignment, so compilers turn these into movq or a folded operand, and
 * the type punning stays defined behaviour. */
static inline __m64 load4(const int16_t *p)
{
    __m64 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void store4(int16_t *p, __m64 v)
{
    memcpy(p, &v, sizeof v);
}

/*
 * The rule for the four cells at c[0..3] / p[0..3].  The height contract
 * (ripple.h) keeps every intermediate inside int16, so wrapping paddw and
 * psraw give the scalar result bit for bit, as in the SSE2 kernel.
 *
 * MMX has no pminsw/pmaxsw, so the clamp is built from saturation.  After
 * damping, m = n - (n >> 5) lies in [-23807, 23807] for n in
 * [-24575, 24574].
 *   a = paddsw(m, 24576): min(m, 8191) + 24576 exactly, since the sum
 *       saturates at 32767 precisely when m >= 8191, and its low end,
 *       -23807 + 24576 = 769, is positive: a lies in [769, 32767].
 *   b = psubusw(a, 16384): a is positive, so its unsigned view is its
 *       value; max(a - 16384, 0) is clamp(m) + 8192, because
 *       a - 16384 <= 0 precisely when min(m, 8191) <= -8192.
 *   psubw(b, 8192) = clamp(m).
 * Three instructions instead of the four of two signed add/sub pairs.
 */
static inline __m64 step4(const int16_t *c, const int16_t *p, ptrdiff_t w)
{
    __m64 s = _mm_add_pi16(_mm_add_pi16(load4(c - 1), load4(c + 1)),
                           _mm_add_pi16(load4(c - w), load4(c + w)));
    __m64 n = _mm_sub_pi16(_mm_srai_pi16(s, 1), load4(p));
    n = _mm_sub_pi16(n, _mm_srai_pi16(n, 5));
    n = _mm_adds_pi16(n, _mm_set1_pi16(32767 - RPL_HEIGHT_MAX));
    n = _mm_subs_pu16(n, _mm_set1_pi16(32767 - RPL_HEIGHT_MAX + RPL_HEIGHT_MIN));
    return _mm_sub_pi16(n, _mm_set1_pi16(-RPL_HEIGHT_MIN));
}

/*
 * The n cells c[0..n) / p[0..n) of one row in whole vectors, at least one
 * of them (n >= 4); returns acc ORed with every value stored.  When `tail`,
 * the width is not a multiple of four: the last vector, ending at n, is
 * computed first, from the original prev, and stored after the loop over
 * the others.  It overlaps the vector before it, whose cells it rewrites
 * with the same values: a cell's rule reads cur and its own prev only, and
 * that prev was read before anything was stored.  So no cell is left to
 * the scalar rule, and nothing outside [0, n) is read from prev or
 * written.  Inlined with a constant `tail`, so the test leaves the loops.
 */
static inline __m64 step_row(__m64 acc, const int16_t *c, int16_t *p, ptrdiff_t w, ptrdiff_t n,
                             int tail)
{
    __m64 last = _mm_setzero_si64();
    if (tail)
        last = step4(c + n - 4, p + n - 4, w);
    ptrdiff_t i = 0;
    /* Two independent vectors per pass so their loads and shifts overlap
     * (the P6 core issues MMX ops to two ports). */
    for (; i <= n - 8; i += 8) {
        __m64 a = step4(c + i, p + i, w);
        __m64 b = step4(c + i + 4, p + i + 4, w);
        store4(p + i, a);
        store4(p + i + 4, b);
        acc = _mm_or_si64(_mm_or_si64(acc, a), b);
    }
    if (i <= n - 4) {
        __m64 a = step4(c + i, p + i, w);
        store4(p + i, a);
        acc = _mm_or_si64(acc, a);
    }
    if (tail) {
        store4(p + n - 4, last);
        acc = _mm_or_si64(acc, last);
    }
    return acc;
}

int rpl_step_mmx(int16_t *prev, const int16_t *cur, int w, int x0, int x1, int y0, int y1)
{
    assert(prev && cur);
    assert(w >= RPL_DIM_MIN);
    assert(1 <= x0 && x0 <= x1 && x1 <= w - 1);
    assert(1 <= y0 && y0 <= y1);

    const int n = x1 - x0;
    if (n < 4) /* narrower than a vector: the scalar rule, no MMX state touched */
        return rpl_step_c(prev, cur, w, x0, x1, y0, y1);

    __m64 acc = _mm_setzero_si64();
    if (n % 4) {
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
    /* Fold the four lanes into 32 bits, then leave MMX state (emms) before
     * returning: the caller may use the x87 FPU, which shares the registers. */
    int any = _mm_cvtsi64_si32(_mm_or_si64(acc, _mm_srli_si64(acc, 32)));
    _mm_empty();
    return any != 0;
}
