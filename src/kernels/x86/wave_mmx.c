/* kernels/x86/wave_mmx.c - the wave model's step with MMX, four cells per vector, bit-exact with rpl_step_wave_c. */
#include <assert.h>
#include <mmintrin.h>
#include <string.h>

#include "kernels/kernels.h"

/* Unaligned 64-bit access through memcpy, as in step_mmx.c. */
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

/* The coefficients as pmaddwd operands (see wave_sse2.c). */
typedef struct wave_vk {
    __m64 ab, cr, m, rn, rd;
} wave_vk_t;

static inline __m64 wave2(__m64 zp, __m64 s1, const wave_vk_t *k)
{
    __m64 s = _mm_add_pi32(_mm_madd_pi16(zp, k->ab), _mm_madd_pi16(s1, k->cr));
    s = _mm_add_pi32(s, _mm_and_si64(_mm_cmpgt_pi32(s, k->rn), k->rd));
    __m64 n = _mm_srai_pi32(s, RPL_WAVE_SHIFT);
    return _mm_sub_pi32(n, _mm_srai_pi32(_mm_madd_pi16(n, k->m), 8));
}

/*
 * The rule for the four cells at c[0..3] / p[0..3], as wave8 in
 * wave_sse2.c, two cells per int32 vector.  The clamp is step_mmx.c's
 * saturation trick (MMX has no pminsw/pmaxsw): n lies in [-24576, 24576],
 *   paddsw(n, 24576)   = min(n, 8191) + 24576, in [0, 32767];
 *   psubusw(.., 16384) = clamp(n) + 8192 (0 exactly when n <= -8192);
 *   psubw(.., 8192)    = clamp(n).
 */
static inline __m64 wave4(const int16_t *c, const int16_t *p, ptrdiff_t w, const wave_vk_t *k)
{
    const __m64 one = _mm_set1_pi16(1);
    __m64 s = _mm_add_pi16(_mm_add_pi16(load4(c - 1), load4(c + 1)),
                           _mm_add_pi16(load4(c - w), load4(c + w)));
    __m64 z = load4(c), pv = load4(p);
    __m64 lo = wave2(_mm_unpacklo_pi16(z, pv), _mm_unpacklo_pi16(s, one), k);
    __m64 hi = wave2(_mm_unpackhi_pi16(z, pv), _mm_unpackhi_pi16(s, one), k);
    __m64 n = _mm_packs_pi32(lo, hi);
    n = _mm_adds_pi16(n, _mm_set1_pi16(32767 - RPL_HEIGHT_MAX));
    n = _mm_subs_pu16(n, _mm_set1_pi16(32767 - RPL_HEIGHT_MAX + RPL_HEIGHT_MIN));
    return _mm_sub_pi16(n, _mm_set1_pi16(-RPL_HEIGHT_MIN));
}

/* One row of n >= 4 cells, as step_row in step_mmx.c (the overlapping
 * last vector computed first, stored last). */
static inline __m64 wave_row(__m64 acc, const int16_t *c, int16_t *p, ptrdiff_t w, ptrdiff_t n,
                             int tail, const wave_vk_t *k)
{
    __m64 last = _mm_setzero_si64();
    if (tail)
        last = wave4(c + n - 4, p + n - 4, w, k);
    ptrdiff_t i = 0;
    for (; i <= n - 8; i += 8) {
        __m64 a = wave4(c + i, p + i, w, k);
        __m64 b = wave4(c + i + 4, p + i + 4, w, k);
        store4(p + i, a);
        store4(p + i + 4, b);
        acc = _mm_or_si64(_mm_or_si64(acc, a), b);
    }
    if (i <= n - 4) {
        __m64 a = wave4(c + i, p + i, w, k);
        store4(p + i, a);
        acc = _mm_or_si64(acc, a);
    }
    if (tail) {
        store4(p + n - 4, last);
        acc = _mm_or_si64(acc, last);
    }
    return acc;
}

int rpl_step_wave_mmx(int16_t *prev, const int16_t *cur, int w, int x0, int x1, int y0, int y1,
                      const rpl_wave_coef_t *k)
{
    assert(prev && cur && k);
    assert(w >= RPL_DIM_MIN);
    assert(1 <= x0 && x0 <= x1 && x1 <= w - 1);
    assert(1 <= y0 && y0 <= y1);

    const int n = x1 - x0;
    if (n < 4) /* narrower than a vector: the scalar rule, no MMX state touched */
        return rpl_step_wave_c(prev, cur, w, x0, x1, y0, y1, k);

    wave_vk_t vk;
    vk.ab = _mm_set1_pi32((int)((uint32_t)(uint16_t)k->b << 16 | (uint16_t)k->a));
    vk.cr = _mm_set1_pi32((int)((uint32_t)(uint16_t)k->rn << 16 | (uint16_t)k->c));
    vk.m = _mm_set1_pi32(k->m);
    vk.rn = _mm_set1_pi32(k->rn);
    vk.rd = _mm_set1_pi32(k->rp - k->rn);
    __m64 acc = _mm_setzero_si64();
    if (n % 4) {
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
    /* fold the lanes, then leave MMX state (emms) before returning */
    int any = _mm_cvtsi64_si32(_mm_or_si64(acc, _mm_srli_si64(acc, 32)));
    _mm_empty();
    return any != 0;
}
