/* kernels/x86/side_avx2.h - what the side view's AVX2 kernels share: the scene's pixels of a row by permutes where they lie near, the caustics' light. */
#ifndef RPL_SIDE_AVX2_H
#define RPL_SIDE_AVX2_H

#include <immintrin.h>
#include <stdint.h>

/* The scene's pixels at columns sx (each lane's), x the first lane's:
 * from the sixteen pixels about x by two permutes where every sx lies
 * among them and they lie in the row, else by a gather. */
static inline __m256i row_pixels(const uint32_t *src, int w, int x, __m256i sx)
{
    const __m256i idx = _mm256_sub_epi32(sx, _mm256_set1_epi32(x - 4));
    if (x >= 4 && x + 12 <= w && _mm256_testz_si256(idx, _mm256_set1_epi32(~15))) {
        const __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)(src + x - 4));
        const __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(src + x + 4));
        return _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(lo, idx),
                                  _mm256_permutevar8x32_epi32(hi, idx),
                                  _mm256_cmpgt_epi32(idx, _mm256_set1_epi32(7)));
    }
    return _mm256_i32gather_epi32((const int *)(const void *)src, sx, 4);
}

/* The caustics' light at the eight columns xv (x the first's): the two
 * texels of each (kernels.h), read four bytes at a time by gathers. */
static inline __m256i side_light_avx2(const uint8_t *caus, const int8_t *warpv, int x, __m256i xv,
                                      int c1x, int c1y, int c2x, int c2y)
{
    const __m256i m255 = _mm256_set1_epi32(255);
    const int *texels = (const int *)(const void *)caus;
    const __m256i v = _mm256_cvtepi8_epi32(
        _mm_loadl_epi64((const __m128i *)(const void *)(warpv + (x & 255))));
    const __m256i i1 = _mm256_or_si256(
        _mm256_slli_epi32(_mm256_and_si256(_mm256_add_epi32(_mm256_set1_epi32(c1y), v), m255), 8),
        _mm256_and_si256(_mm256_add_epi32(xv, _mm256_set1_epi32(c1x)), m255));
    const __m256i x3 = _mm256_srli_epi32(_mm256_add_epi32(xv, _mm256_add_epi32(xv, xv)), 2);
    const __m256i i2 = _mm256_or_si256(
        _mm256_slli_epi32(_mm256_and_si256(_mm256_sub_epi32(_mm256_set1_epi32(c2y), v), m255), 8),
        _mm256_and_si256(_mm256_add_epi32(x3, _mm256_set1_epi32(c2x)), m255));
    const __m256i a1 = _mm256_and_si256(_mm256_i32gather_epi32(texels, i1, 1), m255);
    const __m256i a2 = _mm256_and_si256(_mm256_i32gather_epi32(texels, i2, 1), m255);
    /* a1 * a2 fits 16 bits: the low half's product, the high halves 0 */
    return _mm256_add_epi32(_mm256_srli_epi32(_mm256_mullo_epi16(a1, a2), 8),
                            _mm256_srli_epi32(_mm256_add_epi32(a1, a2), 2));
}

#endif
