/* kernels/x86/side_foam_avx2.c - AVX2 side-view foam: eight pixels at a time, shaded as the water near the surface (side_avx2.h), then whitened and anti-aliased in 16-bit lanes. */
#include <immintrin.h>

#include "kernels/kernels.h"
#include "kernels/x86/side_avx2.h"

/*
 * The water's channels are clamped to 255 by packing them with unsigned
 * saturation; the foam's colour is a pixel of bytes, 236, 250 and 255
 * plus the sparkle with unsigned saturation (min(255, ...)).  Each blend
 * (c * (256 - a) + t * a) >> 8 has c, t <= 255 and 0 <= a <= 256, so
 * both products and their sum stay under 65536: 16-bit lanes, unsigned.
 */
void rpl_side_foam_avx2(const rpl_side_shallow_job_t *job, int x0, int x1)
{
    const __m256i zero = _mm256_setzero_si256(), five = _mm256_set1_epi32(5);
    const __m256i yv = _mm256_set1_epi32(job->y), k256 = _mm256_set1_epi32(256);
    const __m256i alpha = _mm256_set1_epi32((int)0xFF000000u);
    const __m256i white = _mm256_set1_epi32(0x00ECFAFF); /* r 236, g 250, b 255 */
    int x = x0;
    for (; x + 8 <= x1; x += 8) {
        const __m256i d = _mm256_sub_epi32(yv, SIDE_LD(job->ys + x));
        /* 0 <= d < 5: unsigned d under 5, by the signed compare of d ^ sign */
        const __m256i sign = _mm256_set1_epi32((int)0x80000000u);
        const __m256i draw = _mm256_cmpgt_epi32(_mm256_xor_si256(five, sign),
                                                _mm256_xor_si256(d, sign));
        if (_mm256_testz_si256(draw, draw))
            continue;
        __m256i lo, hi;
        side_near_avx2(job, x, d, &lo, &hi);
        const __m256i water = _mm256_packus_epi16(lo, hi);
        /* the foam's weight by pixel, then spread over its channels */
        __m256i fa = _mm256_sub_epi32(SIDE_LD(job->fwq + x), _mm256_slli_epi32(d, 8));
        fa = _mm256_min_epi32(_mm256_max_epi32(fa, zero), k256);
        fa = _mm256_srli_epi32(_mm256_mullo_epi16(fa, _mm256_set1_epi32(220)), 8);
        const __m256i top = _mm256_cmpeq_epi32(d, zero);
        const __m256i more = _mm256_srli_epi32(_mm256_mullo_epi16(_mm256_sub_epi32(k256, fa),
                                                                  _mm256_set1_epi32(60)), 8);
        fa = _mm256_add_epi32(fa, _mm256_and_si256(top, more));
        const __m256i cv = _mm256_blendv_epi8(k256, SIDE_LD(job->cov + x), top);
        const __m256i s = _mm256_srli_epi32(side_light_avx2(job->light, job->lx, x), 3);
        const __m256i s3 = _mm256_or_si256(s, _mm256_or_si256(_mm256_slli_epi32(s, 8),
                                                              _mm256_slli_epi32(s, 16)));
        const __m256i t = _mm256_adds_epu8(white, s3);
        const __m256i fa2 = _mm256_or_si256(fa, _mm256_slli_epi32(fa, 16));
        const __m256i na2 = _mm256_sub_epi16(_mm256_set1_epi16(256), fa2);
        const __m256i cv2 = _mm256_or_si256(cv, _mm256_slli_epi32(cv, 16));
        const __m256i nc2 = _mm256_sub_epi16(_mm256_set1_epi16(256), cv2);
        const __m256i o = SIDE_LD(job->src + x);
        __m256i c[2];
        for (int h = 0; h < 2; h++) {
            __m256i v = h ? _mm256_unpackhi_epi8(water, zero) : _mm256_unpacklo_epi8(water, zero);
            const __m256i tv = h ? _mm256_unpackhi_epi8(t, zero) : _mm256_unpacklo_epi8(t, zero);
            const __m256i ov = h ? _mm256_unpackhi_epi8(o, zero) : _mm256_unpacklo_epi8(o, zero);
            const __m256i a = h ? _mm256_unpackhi_epi32(fa2, fa2) : _mm256_unpacklo_epi32(fa2, fa2);
            const __m256i na = h ? _mm256_unpackhi_epi32(na2, na2) : _mm256_unpacklo_epi32(na2, na2);
            const __m256i k = h ? _mm256_unpackhi_epi32(cv2, cv2) : _mm256_unpacklo_epi32(cv2, cv2);
            const __m256i nk = h ? _mm256_unpackhi_epi32(nc2, nc2) : _mm256_unpacklo_epi32(nc2, nc2);
            v = _mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(v, na),
                                                   _mm256_mullo_epi16(tv, a)), 8);
            c[h] = _mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(ov, nk),
                                                      _mm256_mullo_epi16(v, k)), 8);
        }
        const __m256i out = _mm256_or_si256(_mm256_packus_epi16(c[0], c[1]), alpha);
        __m256i *dst = (__m256i *)(void *)(job->out + x);
        _mm256_storeu_si256(dst, _mm256_blendv_epi8(_mm256_loadu_si256(dst), out, draw));
    }
    rpl_side_foam_c(job, x, x1);
}
