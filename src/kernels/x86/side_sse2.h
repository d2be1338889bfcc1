/* kernels/x86/side_sse2.h - what the side view's SSE2 kernels share: the caustics' light. */
#ifndef RPL_SIDE_SSE2_H
#define RPL_SIDE_SSE2_H

#include <emmintrin.h>
#include <stdint.h>
#include <string.h>

/* The caustics' light at the four columns xv (x the first's): the
 * indices of the two texels of each (kernels.h) in vectors, the texels
 * read one by one. */
static inline __m128i side_light_sse2(const uint8_t *caus, const int8_t *warpv, int x, __m128i xv,
                                      int c1x, int c1y, int c2x, int c2y)
{
    const __m128i m255 = _mm_set1_epi32(255);
    int32_t wv4;
    memcpy(&wv4, warpv + (x & 255), 4);
    __m128i v = _mm_cvtsi32_si128(wv4);
    v = _mm_unpacklo_epi8(v, v);
    v = _mm_srai_epi32(_mm_unpacklo_epi16(v, v), 24); /* sign-extended */
    union {
        __m128i v;
        int32_t i[4];
    } i1, i2;
    i1.v = _mm_or_si128(_mm_slli_epi32(_mm_and_si128(_mm_add_epi32(_mm_set1_epi32(c1y), v), m255), 8),
                        _mm_and_si128(_mm_add_epi32(xv, _mm_set1_epi32(c1x)), m255));
    const __m128i x3 = _mm_srli_epi32(_mm_add_epi32(xv, _mm_add_epi32(xv, xv)), 2);
    i2.v = _mm_or_si128(_mm_slli_epi32(_mm_and_si128(_mm_sub_epi32(_mm_set1_epi32(c2y), v), m255), 8),
                        _mm_and_si128(_mm_add_epi32(x3, _mm_set1_epi32(c2x)), m255));
    const __m128i a1 = _mm_setr_epi32(caus[i1.i[0]], caus[i1.i[1]], caus[i1.i[2]], caus[i1.i[3]]);
    const __m128i a2 = _mm_setr_epi32(caus[i2.i[0]], caus[i2.i[1]], caus[i2.i[2]], caus[i2.i[3]]);
    /* a1 * a2 fits 16 bits: the low half's product, the high halves 0 */
    return _mm_add_epi32(_mm_srli_epi32(_mm_mullo_epi16(a1, a2), 8),
                         _mm_srli_epi32(_mm_add_epi32(a1, a2), 2));
}

#endif
