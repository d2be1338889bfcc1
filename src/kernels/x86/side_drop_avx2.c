/* kernels/x86/side_drop_avx2.c - AVX2 side-view droplets: four pixels of a row at a time in double lanes, the scalar rule's operations in its order (IEEE rounds each the same), the blend in 32-bit lanes. */
#include <immintrin.h>

#include "kernels/kernels.h"

/*
 * Each lane computes what rpl_side_drop_c computes for its pixel, one
 * IEEE operation for each of the rule's (+ - * / and the square root are
 * correctly rounded in both, and the clamps are min and max, which agree
 * with the rule's comparisons but for the sign of a zero, which no later
 * step can tell); the conversions truncate as C's do.  Pixels where the
 * coverage is not above 0, and those past x1, are left as they were (a
 * masked store).
 */
void rpl_side_drop_avx2(const rpl_side_drop_job_t *job, int x0, int x1)
{
    const double dy = job->dy, t = job->rad * 0.35;
    const __m256d cx = _mm256_set1_pd(job->cx), half = _mm256_set1_pd(0.5);
    const __m256d dy2 = _mm256_set1_pd(dy * dy), hy2 = _mm256_set1_pd((dy + t) * (dy + t));
    const __m256d tv = _mm256_set1_pd(t), rad = _mm256_set1_pd(job->rad);
    const __m256d outer = _mm256_set1_pd(job->rad + 0.5), one = _mm256_set1_pd(1.0);
    const __m256d zero = _mm256_setzero_pd(), alpha = _mm256_set1_pd((double)job->alpha);
    const __m256d k150 = _mm256_set1_pd(150.0), k105 = _mm256_set1_pd(105.0);
    const __m256d k214 = _mm256_set1_pd(214.0), k41 = _mm256_set1_pd(41.0);
    const __m128i ff = _mm_set1_epi32(0xFF), c255 = _mm_set1_epi32(255);
    const __m128i top = _mm_set1_epi32((int)0xFF000000u), lane = _mm_setr_epi32(0, 1, 2, 3);
    const __m256i low32 = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    uint32_t *row = job->row;
    for (int x = x0; x < x1; x += 4) {
        const __m128i xi = _mm_add_epi32(_mm_set1_epi32(x), lane);
        const __m128i in = _mm_cmpgt_epi32(_mm_set1_epi32(x1), xi);
        const __m256d dx = _mm256_sub_pd(_mm256_add_pd(_mm256_cvtepi32_pd(xi), half), cx);
        const __m256d dist = _mm256_sqrt_pd(_mm256_add_pd(_mm256_mul_pd(dx, dx), dy2));
        const __m256d cv = _mm256_min_pd(_mm256_max_pd(_mm256_sub_pd(outer, dist), zero), one);
        const __m256d drawn = _mm256_cmp_pd(cv, zero, _CMP_GT_OQ);
        const __m128i draw = _mm_and_si128(in, _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(
                                                   _mm256_castpd_si256(drawn), low32)));
        if (_mm_testz_si128(draw, draw))
            continue;
        const __m256d hx = _mm256_add_pd(dx, tv);
        const __m256d hs = _mm256_sqrt_pd(_mm256_add_pd(_mm256_mul_pd(hx, hx), hy2));
        const __m256d hl = _mm256_min_pd(_mm256_max_pd(_mm256_sub_pd(one, _mm256_div_pd(hs, rad)),
                                                       zero), one);
        const __m128i cr = _mm256_cvttpd_epi32(_mm256_add_pd(k150, _mm256_mul_pd(k105, hl)));
        const __m128i cg = _mm256_cvttpd_epi32(_mm256_add_pd(k214, _mm256_mul_pd(k41, hl)));
        const __m128i a = _mm256_cvttpd_epi32(_mm256_mul_pd(alpha, cv));
        const __m128i o = _mm_maskload_epi32((const int *)(const void *)(row + x), in);
        __m128i r = _mm_and_si128(_mm_srli_epi32(o, 16), ff);
        __m128i g = _mm_and_si128(_mm_srli_epi32(o, 8), ff);
        __m128i b = _mm_and_si128(o, ff);
        r = _mm_add_epi32(r, _mm_srai_epi32(_mm_mullo_epi32(_mm_sub_epi32(cr, r), a), 8));
        g = _mm_add_epi32(g, _mm_srai_epi32(_mm_mullo_epi32(_mm_sub_epi32(cg, g), a), 8));
        b = _mm_add_epi32(b, _mm_srai_epi32(_mm_mullo_epi32(_mm_sub_epi32(c255, b), a), 8));
        const __m128i px = _mm_or_si128(_mm_or_si128(top, _mm_slli_epi32(r, 16)),
                                        _mm_or_si128(_mm_slli_epi32(g, 8), b));
        _mm_maskstore_epi32((int *)(void *)(row + x), draw, px);
    }
}
