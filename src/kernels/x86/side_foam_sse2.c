/* kernels/x86/side_foam_sse2.c - SSE2 side-view foam: four pixels at a time, shaded as the water near the surface (side_sse2.h), then whitened and anti-aliased in 16-bit lanes. */
#include <emmintrin.h>

#include "kernels/kernels.h"
#include "kernels/x86/side_sse2.h"

/* As the AVX2 kernel (side_foam_avx2.c) on four pixels; the 32-bit
 * products by pmaddwd (values within int16, the second factor >= 0). */
void rpl_side_foam_sse2(const rpl_side_shallow_job_t *job, int x0, int x1)
{
    const __m128i zero = _mm_setzero_si128(), five = _mm_set1_epi32(5);
    const __m128i yv = _mm_set1_epi32(job->y), k256 = _mm_set1_epi32(256);
    const __m128i alpha = _mm_set1_epi32((int)0xFF000000u);
    const __m128i white = _mm_set1_epi32(0x00ECFAFF); /* r 236, g 250, b 255 */
    const __m128i sign = _mm_set1_epi32((int)0x80000000u);
    int x = x0;
    for (; x + 4 <= x1; x += 4) {
        const __m128i d = _mm_sub_epi32(yv, SIDE_LD(job->ys + x));
        /* 0 <= d < 5: unsigned d under 5, by the signed compare of d ^ sign */
        const __m128i draw = _mm_cmplt_epi32(_mm_xor_si128(d, sign), _mm_xor_si128(five, sign));
        if (_mm_movemask_epi8(draw) == 0)
            continue;
        __m128i lo, hi;
        side_near_sse2(job, x, d, &lo, &hi);
        const __m128i water = _mm_packus_epi16(lo, hi);
        __m128i fa = _mm_sub_epi32(SIDE_LD(job->fwq + x), _mm_slli_epi32(d, 8));
        fa = side_clamp32(fa, zero, k256);
        fa = _mm_srli_epi32(_mm_madd_epi16(fa, _mm_set1_epi32(220)), 8);
        const __m128i top = _mm_cmpeq_epi32(d, zero);
        const __m128i more =
            _mm_srli_epi32(_mm_madd_epi16(_mm_sub_epi32(k256, fa), _mm_set1_epi32(60)), 8);
        fa = _mm_add_epi32(fa, _mm_and_si128(top, more));
        const __m128i cv = side_sel(top, SIDE_LD(job->cov + x), k256);
        const __m128i s = _mm_srli_epi32(side_light_sse2(job->light, job->lx, x), 3);
        const __m128i s3 = _mm_or_si128(s, _mm_or_si128(_mm_slli_epi32(s, 8), _mm_slli_epi32(s, 16)));
        const __m128i t = _mm_adds_epu8(white, s3);
        const __m128i fa2 = _mm_or_si128(fa, _mm_slli_epi32(fa, 16));
        const __m128i na2 = _mm_sub_epi16(_mm_set1_epi16(256), fa2);
        const __m128i cv2 = _mm_or_si128(cv, _mm_slli_epi32(cv, 16));
        const __m128i nc2 = _mm_sub_epi16(_mm_set1_epi16(256), cv2);
        const __m128i o = SIDE_LD(job->src + x);
        __m128i c[2];
        for (int h = 0; h < 2; h++) {
            __m128i v = h ? _mm_unpackhi_epi8(water, zero) : _mm_unpacklo_epi8(water, zero);
            const __m128i tv = h ? _mm_unpackhi_epi8(t, zero) : _mm_unpacklo_epi8(t, zero);
            const __m128i ov = h ? _mm_unpackhi_epi8(o, zero) : _mm_unpacklo_epi8(o, zero);
            const __m128i a = h ? _mm_unpackhi_epi32(fa2, fa2) : _mm_unpacklo_epi32(fa2, fa2);
            const __m128i na = h ? _mm_unpackhi_epi32(na2, na2) : _mm_unpacklo_epi32(na2, na2);
            const __m128i k = h ? _mm_unpackhi_epi32(cv2, cv2) : _mm_unpacklo_epi32(cv2, cv2);
            const __m128i nk = h ? _mm_unpackhi_epi32(nc2, nc2) : _mm_unpacklo_epi32(nc2, nc2);
            v = _mm_srli_epi16(_mm_add_epi16(_mm_mullo_epi16(v, na), _mm_mullo_epi16(tv, a)), 8);
            c[h] = _mm_srli_epi16(_mm_add_epi16(_mm_mullo_epi16(ov, nk), _mm_mullo_epi16(v, k)), 8);
        }
        const __m128i out = _mm_or_si128(_mm_packus_epi16(c[0], c[1]), alpha);
        __m128i *dst = (__m128i *)(void *)(job->out + x);
        _mm_storeu_si128(dst, side_sel(draw, out, _mm_loadu_si128(dst)));
    }
    rpl_side_foam_c(job, x, x1);
}
