/* kernels/x86/side_shallow_avx2.c - AVX2 side-view water near its surface: eight pixels at a time, tables by gathers, the scene by permutes where it can (side_avx2.h). */
#include <immintrin.h>

#include "kernels/kernels.h"
#include "kernels/x86/side_avx2.h"

/* Lanes of pixels left alone (above the surface, the foam) are computed
 * too, with their depth clamped into the tables, then the old pixel is
 * kept. */
void rpl_side_shallow_avx2(const rpl_side_shallow_job_t *job, int x0, int x1)
{
    const __m256i four = _mm256_set1_epi32(4), yv = _mm256_set1_epi32(job->y);
    const __m256i alpha = _mm256_set1_epi32((int)0xFF000000u);
    int x = x0;
    for (; x + 8 <= x1; x += 8) {
        const __m256i d = _mm256_sub_epi32(yv, SIDE_LD(job->ys + x));
        const __m256i draw = _mm256_cmpgt_epi32(d, four); /* d >= 5 */
        if (_mm256_testz_si256(draw, draw))
            continue;
        __m256i lo, hi;
        side_near_avx2(job, x, d, &lo, &hi);
        const __m256i out = _mm256_or_si256(_mm256_packus_epi16(lo, hi), alpha);
        __m256i *o = (__m256i *)(void *)(job->out + x);
        _mm256_storeu_si256(o, _mm256_blendv_epi8(_mm256_loadu_si256(o), out, draw));
    }
    rpl_side_shallow_c(job, x, x1);
}
