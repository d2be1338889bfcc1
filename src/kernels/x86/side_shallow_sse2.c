/* kernels/x86/side_shallow_sse2.c - SSE2 side-view water near its surface: four pixels at a time, tables and scene read one by one (side_sse2.h). */
#include <emmintrin.h>

#include "kernels/kernels.h"
#include "kernels/x86/side_sse2.h"

/* As the AVX2 kernel (side_shallow_avx2.c) on four pixels. */
void rpl_side_shallow_sse2(const rpl_side_shallow_job_t *job, int x0, int x1)
{
    const __m128i four = _mm_set1_epi32(4), yv = _mm_set1_epi32(job->y);
    const __m128i alpha = _mm_set1_epi32((int)0xFF000000u);
    int x = x0;
    for (; x + 4 <= x1; x += 4) {
        const __m128i d = _mm_sub_epi32(yv, SIDE_LD(job->ys + x));
        const __m128i draw = _mm_cmpgt_epi32(d, four);
        if (_mm_movemask_epi8(draw) == 0)
            continue;
        __m128i lo, hi;
        side_near_sse2(job, x, d, &lo, &hi);
        const __m128i out = _mm_or_si128(_mm_packus_epi16(lo, hi), alpha);
        __m128i *o = (__m128i *)(void *)(job->out + x);
        _mm_storeu_si128(o, side_sel(draw, out, _mm_loadu_si128(o)));
    }
    rpl_side_shallow_c(job, x, x1);
}
