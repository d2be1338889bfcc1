/* kernels/x86/step_mmx.c - the wave step with MMX, four cells per vector, bit-exact with rpl_step_c. */
#include <mmintrin.h>
#include <string.h>

#define RPL_ROWS_FN rpl_step_mmx
#define RPL_ROWS_LANES 4
typedef __m64 vec_t;
typedef struct {
    char none; /* the classic rule has no coefficients */
} rule_t;

#include "kernels/rows_tpl.h"

/* Unaligned 64-bit access through memcpy: MMX memory operands need no
 * alignment, so compilers turn these into movq or a folded operand, and
 * the type punning stays defined behaviour. */
RPL_FORCE_INLINE __m64 load4(const int16_t *p)
{
    __m64 v;
    memcpy(&v, p, sizeof v);
    return v;
}

RPL_FORCE_INLINE void vec_store(int16_t *p, __m64 v)
{
    memcpy(p, &v, sizeof v);
}

RPL_FORCE_INLINE __m64 vec_zero(void)
{
    return _mm_setzero_si64();
}

RPL_FORCE_INLINE __m64 vec_or(__m64 a, __m64 b)
{
    return _mm_or_si64(a, b);
}

/* Folds the four lanes into 32 bits, then leaves MMX state (emms) before
 * returning: the caller may use the x87 FPU, which shares the registers. */
RPL_FORCE_INLINE int vec_any(__m64 acc)
{
    int any = _mm_cvtsi64_si32(_mm_or_si64(acc, _mm_srli_si64(acc, 32)));
    _mm_empty();
    return any != 0;
}

RPL_FORCE_INLINE void rule_init(rule_t *r, const rpl_wave_coef_t *k)
{
    (void)k;
    r->none = 0;
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
RPL_FORCE_INLINE __m64 rule_vec(const int16_t *c, const int16_t *p, ptrdiff_t w, const rule_t *r)
{
    __m64 s = _mm_add_pi16(_mm_add_pi16(load4(c - 1), load4(c + 1)),
                           _mm_add_pi16(load4(c - w), load4(c + w)));
    __m64 n = _mm_sub_pi16(_mm_srai_pi16(s, 1), load4(p));
    n = _mm_sub_pi16(n, _mm_srai_pi16(n, 5));
    (void)r;
    n = _mm_adds_pi16(n, _mm_set1_pi16(32767 - RPL_HEIGHT_MAX));
    n = _mm_subs_pu16(n, _mm_set1_pi16(32767 - RPL_HEIGHT_MAX + RPL_HEIGHT_MIN));
    return _mm_sub_pi16(n, _mm_set1_pi16(-RPL_HEIGHT_MIN));
}
