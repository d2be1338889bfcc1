/* kernels/x86/side_sse2.h - what the side view's SSE2 kernels share: the caustics' light, a pixel of water near the surface. */
#ifndef RPL_SIDE_SSE2_H
#define RPL_SIDE_SSE2_H

#include <emmintrin.h>
#include <stdint.h>
#include <string.h>

#include "kernels/kernels.h"

#define SIDE_LD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))

/* The caustics' light at the four columns from x (kernels.h): four bytes
 * of the periodic row, which runs 32 bytes past its 256. */
static inline __m128i side_light_sse2(const uint8_t *light, int lx, int x)
{
    int32_t four;
    memcpy(&four, light + ((unsigned)(x + lx) & 255), 4);
    const __m128i zero = _mm_setzero_si128();
    return _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(four), zero), zero);
}

/* SSE2 has neither 32-bit min, max nor blends: by compares and masks. */
static inline __m128i side_sel(__m128i m, __m128i a, __m128i b) /* m ? a : b */
{
    return _mm_or_si128(_mm_and_si128(m, a), _mm_andnot_si128(m, b));
}

static inline __m128i side_clamp32(__m128i v, __m128i lo, __m128i hi)
{
    v = side_sel(_mm_cmplt_epi32(v, lo), lo, v);
    return side_sel(_mm_cmpgt_epi32(v, hi), hi, v);
}

typedef union {
    __m128i v;
    int32_t i[4];
} side_lanes_t;

/*
 * Four pixels from x of water near the surface at depths d (kernels.h,
 * the shallow water's rule), as the AVX2 rule (side_avx2.h) on four
 * lanes: the indices in vectors, stored, the table entries and the
 * scene's pixels read by scalar loads; the 32-bit products (all of
 * values within int16, the second factor >= 0) by pmaddwd, which adds the
 * low halves' product to the high halves' (the second's is 0).  The
 * channels in 16-bit lanes as _mm_unpack{lo,hi}_epi8 spread a pixel
 * vector, before their clamp to 255, into *lo and *hi.
 */
static inline void side_near_sse2(const rpl_side_shallow_job_t *job, int x, __m128i d,
                                  __m128i *lo_out, __m128i *hi_out)
{
    const __m128i lane = _mm_setr_epi32(0, 1, 2, 3);
    const __m128i m255 = _mm_set1_epi32(255), m16 = _mm_set1_epi32(0xFFFF);
    const __m128i zero = _mm_setzero_si128(), dmax = _mm_set1_epi32(RPL_SIDE_DEPTHS - 1);
    const __m128i yv = _mm_set1_epi32(job->y);
    const __m128i xv = _mm_add_epi32(_mm_set1_epi32(x), lane);
    side_lanes_t de, dg, sx;
    de.v = side_clamp32(d, zero, dmax);
    const __m128i e = _mm_setr_epi32((int)job->te[de.i[0]], (int)job->te[de.i[1]],
                                     (int)job->te[de.i[2]], (int)job->te[de.i[3]]);
    const __m128i refr = _mm_and_si128(e, _mm_set1_epi32(2047));
    const __m128i ew = _mm_and_si128(_mm_srli_epi32(e, 11), _mm_set1_epi32(511));
    const __m128i dk = _mm_and_si128(_mm_srli_epi32(e, 20), _mm_set1_epi32(511));
    /* d < 16 only matters where d < 16: there it fits int16 */
    const __m128i dnear = _mm_add_epi32(
        de.v, _mm_srai_epi32(_mm_madd_epi16(SIDE_LD(job->shift + x), _mm_and_si128(de.v, m255)), 4));
    const __m128i dfar = _mm_sub_epi32(yv, SIDE_LD(job->gbase + x));
    dg.v = side_clamp32(side_sel(_mm_cmplt_epi32(d, _mm_set1_epi32(16)), dnear, dfar), zero, dmax);
    const __m128i bg = _mm_setr_epi32((int)job->tbg[dg.i[0]], (int)job->tbg[dg.i[1]],
                                      (int)job->tbg[dg.i[2]], (int)job->tbg[dg.i[3]]);
    const __m128i rc = _mm_setr_epi32((int)job->tr[dg.i[0]], (int)job->tr[dg.i[1]],
                                      (int)job->tr[dg.i[2]], (int)job->tr[dg.i[3]]);
    const __m128i ia = _mm_setr_epi32((int)job->tia[dg.i[0]], (int)job->tia[dg.i[1]],
                                      (int)job->tia[dg.i[2]], (int)job->tia[dg.i[3]]);
    const __m128i wb = SIDE_LD(job->wob + job->phase + (x & 255));
    sx.v = _mm_add_epi32(_mm_madd_epi16(SIDE_LD(job->sfx + x), refr), _mm_madd_epi16(wb, ew));
    sx.v = side_clamp32(_mm_add_epi32(xv, _mm_srai_epi32(sx.v, 16)), zero,
                        _mm_set1_epi32(job->w - 1));
    const uint32_t *src = job->src;
    const __m128i p = _mm_setr_epi32((int)src[sx.i[0]], (int)src[sx.i[1]], (int)src[sx.i[2]],
                                     (int)src[sx.i[3]]);
    const __m128i light = side_light_sse2(job->light, job->lx, x);
    const __m128i add = _mm_srli_epi32(_mm_mullo_epi16(light, _mm_srli_epi32(rc, 16)), 8);
    const __m128i ar = _mm_srli_epi32(_mm_mullo_epi16(add, _mm_set1_epi32(200)), 8);
    const __m128i ab = _mm_srli_epi32(_mm_mullo_epi16(add, _mm_set1_epi32(230)), 8);
    const __m128i k = _mm_sub_epi32(_mm_set1_epi32(256),
                                    _mm_srli_epi32(_mm_madd_epi16(SIDE_LD(job->dcol + x), dk), 8));
    const __m128i ia2 = _mm_or_si128(ia, _mm_slli_epi32(ia, 16));
    const __m128i k2 = _mm_slli_epi32(_mm_or_si128(k, _mm_slli_epi32(k, 16)), 1);
    const __m128i pr = _mm_and_si128(rc, m16);
    const __m128i abg = _mm_or_si128(ab, _mm_slli_epi32(add, 16));
    __m128i lo = _mm_unpacklo_epi8(p, zero), hi = _mm_unpackhi_epi8(p, zero);
    lo = _mm_add_epi16(_mm_mullo_epi16(lo, _mm_unpacklo_epi32(ia2, ia2)), _mm_unpacklo_epi32(bg, pr));
    hi = _mm_add_epi16(_mm_mullo_epi16(hi, _mm_unpackhi_epi32(ia2, ia2)), _mm_unpackhi_epi32(bg, pr));
    lo = _mm_add_epi16(_mm_srli_epi16(lo, 8), _mm_unpacklo_epi32(abg, ar));
    hi = _mm_add_epi16(_mm_srli_epi16(hi, 8), _mm_unpackhi_epi32(abg, ar));
    *lo_out = _mm_mulhi_epu16(_mm_slli_epi16(lo, 7), _mm_unpacklo_epi32(k2, k2));
    *hi_out = _mm_mulhi_epu16(_mm_slli_epi16(hi, 7), _mm_unpackhi_epi32(k2, k2));
}

#endif
