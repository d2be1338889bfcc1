/* kernels/x86/side_deep_avx2.c - AVX2 side-view deep water: eight pixels at a time, the scene by permutes of the row about them, the light a load. */
#include <immintrin.h>

#include "kernels/kernels.h"
#include "kernels/x86/side_avx2.h"

/*
 * Per pixel, in 32-bit lanes: the source column, the scene's pixels
 * (side_avx2.h), the light and its share per channel (each under 256, so
 * they pack into one pixel's bytes).  The gradient's blend is done per channel in 16-bit
 * lanes and packed back to bytes; the light is added with unsigned
 * saturation, which is the rule's min(255, ...).  Products of 16-bit
 * values whose result fits 16 bits are taken with _mm256_mullo_epi16 on
 * 32-bit lanes (their high halves are 0).
 */
void rpl_side_deep_avx2(const rpl_side_deep_job_t *job, int x0, int x1)
{
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i zero = _mm256_setzero_si256();
    const __m256i ia = _mm256_set1_epi16((short)job->inva);
    const __m256i pre = _mm256_setr_epi16((short)job->pb, (short)job->pg, (short)job->pr, 0,
                                          (short)job->pb, (short)job->pg, (short)job->pr, 0,
                                          (short)job->pb, (short)job->pg, (short)job->pr, 0,
                                          (short)job->pb, (short)job->pg, (short)job->pr, 0);
    const __m256i cw = _mm256_set1_epi32(job->cw), k200 = _mm256_set1_epi32(200);
    const __m256i k230 = _mm256_set1_epi32(230), alpha = _mm256_set1_epi32((int)0xFF000000u);
    int x = x0;
    for (; x + 8 <= x1; x += 8) {
        const __m256i xv = _mm256_add_epi32(_mm256_set1_epi32(x), lane);
        const __m256i rd = _mm256_loadu_si256((const __m256i *)(const void *)(job->rd + x));
        const __m256i wb = _mm256_loadu_si256(
            (const __m256i *)(const void *)(job->wob + job->phase + (x & 255)));
        const __m256i sx = _mm256_add_epi32(xv, _mm256_srai_epi32(_mm256_add_epi32(rd, wb), 16));
        const __m256i p = row_pixels(job->src, job->w, x, sx);
        const __m256i light = side_light_avx2(job->light, job->lx, x);
        const __m256i add = _mm256_srli_epi32(_mm256_mullo_epi16(light, cw), 8);
        const __m256i ar = _mm256_srli_epi32(_mm256_mullo_epi16(add, k200), 8);
        const __m256i ab = _mm256_srli_epi32(_mm256_mullo_epi16(add, k230), 8);
        const __m256i addc = _mm256_or_si256(_mm256_or_si256(ab, _mm256_slli_epi32(add, 8)),
                                             _mm256_slli_epi32(ar, 16));
        __m256i lo = _mm256_unpacklo_epi8(p, zero), hi = _mm256_unpackhi_epi8(p, zero);
        lo = _mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(lo, ia), pre), 8);
        hi = _mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(hi, ia), pre), 8);
        const __m256i out = _mm256_or_si256(_mm256_adds_epu8(_mm256_packus_epi16(lo, hi), addc), alpha);
        _mm256_storeu_si256((__m256i *)(void *)(job->out + x), out);
    }
    rpl_side_deep_c(job, x, x1);
}
