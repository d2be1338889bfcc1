/* kernels/x86/side_deep_sse2.c - SSE2 side-view deep water: four pixels at a time, the scene's pixels read one by one. */
#include <emmintrin.h>

#include "kernels/kernels.h"
#include "kernels/x86/side_sse2.h"

/*
 * As the AVX2 kernel (side_deep_avx2.c) on four pixels, without gathers:
 * the columns are worked out in vectors and stored, the pixels read by
 * scalar loads.  16-bit products whose result fits 16
 * bits are taken with _mm_mullo_epi16 on 32-bit lanes (high halves 0).
 */
void rpl_side_deep_sse2(const rpl_side_deep_job_t *job, int x0, int x1)
{
    const __m128i lane = _mm_setr_epi32(0, 1, 2, 3);
    const __m128i zero = _mm_setzero_si128();
    const __m128i ia = _mm_set1_epi16((short)job->inva);
    const __m128i pre = _mm_setr_epi16((short)job->pb, (short)job->pg, (short)job->pr, 0,
                                       (short)job->pb, (short)job->pg, (short)job->pr, 0);
    const __m128i cw = _mm_set1_epi32(job->cw), k200 = _mm_set1_epi32(200);
    const __m128i k230 = _mm_set1_epi32(230), alpha = _mm_set1_epi32((int)0xFF000000u);
    const uint32_t *src = job->src;
    int x = x0;
    for (; x + 4 <= x1; x += 4) {
        const __m128i xv = _mm_add_epi32(_mm_set1_epi32(x), lane);
        const __m128i rd = _mm_loadu_si128((const __m128i *)(const void *)(job->rd + x));
        const __m128i wb =
            _mm_loadu_si128((const __m128i *)(const void *)(job->wob + job->phase + (x & 255)));
        union {
            __m128i v;
            int32_t i[4];
        } sx;
        sx.v = _mm_add_epi32(xv, _mm_srai_epi32(_mm_add_epi32(rd, wb), 16));
        const __m128i p = _mm_setr_epi32((int)src[sx.i[0]], (int)src[sx.i[1]], (int)src[sx.i[2]],
                                         (int)src[sx.i[3]]);
        const __m128i light = side_light_sse2(job->light, job->lx, x);
        const __m128i add = _mm_srli_epi32(_mm_mullo_epi16(light, cw), 8);
        const __m128i ar = _mm_srli_epi32(_mm_mullo_epi16(add, k200), 8);
        const __m128i ab = _mm_srli_epi32(_mm_mullo_epi16(add, k230), 8);
        const __m128i addc =
            _mm_or_si128(_mm_or_si128(ab, _mm_slli_epi32(add, 8)), _mm_slli_epi32(ar, 16));
        __m128i lo = _mm_unpacklo_epi8(p, zero), hi = _mm_unpackhi_epi8(p, zero);
        lo = _mm_srli_epi16(_mm_add_epi16(_mm_mullo_epi16(lo, ia), pre), 8);
        hi = _mm_srli_epi16(_mm_add_epi16(_mm_mullo_epi16(hi, ia), pre), 8);
        const __m128i out = _mm_or_si128(_mm_adds_epu8(_mm_packus_epi16(lo, hi), addc), alpha);
        _mm_storeu_si128((__m128i *)(void *)(job->out + x), out);
    }
    rpl_side_deep_c(job, x, x1);
}
